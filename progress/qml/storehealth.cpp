#include "storehealth.h"

#include <progress/store_error.h>

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
