#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantList>

// What the About page says of this build: its version and commit, the Qt
// it was built with and runs on, the simulator's validation table, and the
// licences of the course and of the third-party material it ships.
class AboutInfo : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(QString version READ version CONSTANT)
    Q_PROPERTY(QString commit READ commit CONSTANT)
    Q_PROPERTY(QString compiler READ compiler CONSTANT)
    Q_PROPERTY(QString qtBuilt READ qtBuilt CONSTANT)
    Q_PROPERTY(QString qtRunning READ qtRunning CONSTANT)
    // How the window is drawn and why (GPU or software), as chosen at start.
    Q_PROPERTY(QString drawing READ drawing CONSTANT)
    Q_PROPERTY(QString tablesChanged READ tablesChanged CONSTANT)
    // [{family, rows}] of the published timings libtpusim is validated on.
    Q_PROPERTY(QVariantList tableFamilies READ tableFamilies CONSTANT)
    Q_PROPERTY(int tableRows READ tableRows CONSTANT)
    // [{what, licence, where}]: the course, then the material it ships.
    Q_PROPERTY(QVariantList licences READ licences CONSTANT)

public:
    explicit AboutInfo(QObject *parent = nullptr) : QObject(parent) {}

    QString version() const;
    QString commit() const;
    QString compiler() const;
    QString qtBuilt() const;
    QString qtRunning() const;
    QString drawing() const;
    QString tablesChanged() const;
    QVariantList tableFamilies() const;
    int tableRows() const;
    QVariantList licences() const;
};
