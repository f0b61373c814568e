#include "storehealth.h"

#include <progress/store_error.h>

#include <QQmlEngine>

StoreHealth *StoreHealth::instance()
{
    static StoreHealth *health = new StoreHealth;
    return health;
}

StoreHealth *StoreHealth::create(QQmlEngine *, QJSEngine *)
{
    StoreHealth *health = instance();
    // One object for every engine and for C++: QML must not delete it.
    QQmlEngine::setObjectOwnership(health, QQmlEngine::CppOwnership);
    return health;
}

void StoreHealth::report(const progress::StoreError &error)
{
    m_problem = QString::fromUtf8(error.what());
    emit changed();
}

void StoreHealth::setHistory(const QString &finding)
{
    if (finding == m_history)
        return;
    m_history = finding;
    emit changed();
}

void StoreHealth::dismiss()
{
    if (m_problem.isEmpty())
        return;
    m_problem.clear();
    emit changed();
}
