#pragma once
// One object per process for a QML_SINGLETON type, shared by every QML
// engine and by C++ (Qt 6.4 would otherwise make one per engine). A type
// derives from ProcessSingleton<itself> and befriends it, so that only
// instance() constructs it.
#include <QJSEngine>

class QQmlEngine;

template <typename T>
class ProcessSingleton
{
public:
    static T *instance()
    {
        static T *const one = new T;
        return one;
    }
    // Qt's factory for the singleton: the shared object, which QML must not delete.
    static T *create(QQmlEngine *, QJSEngine *)
    {
        T *one = instance();
        QJSEngine::setObjectOwnership(one, QJSEngine::CppOwnership);
        return one;
    }
};
