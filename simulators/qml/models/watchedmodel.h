#pragma once

#include <QObject>
#include <QPointer>

namespace simqml {

// Points a painted view at another model: the view stops hearing the one it
// held, then `listen` connects it to the new one (if any). False, and
// nothing done, when it already held that model.
template <typename Model, typename Listen>
bool watchModel(QObject *view, QPointer<Model> &held, Model *next, Listen listen)
{
    if (held == next)
        return false;
    if (held)
        QObject::disconnect(held, nullptr, view, nullptr);
    held = next;
    if (held)
        listen(held.data());
    return true;
}

} // namespace simqml
