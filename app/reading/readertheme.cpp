#include "readertheme.h"

#include <progress/store.h>
#include <storeguard.h>

#include <string>

namespace {

progress::Store *g_store = nullptr;
constexpr const char *kKey = "reading.theme";

} // namespace

void ReaderTheme::provide(progress::Store *store)
{
    g_store = store;
    instance()->reload();
}

void ReaderTheme::reload()
{
    // Only "dark" turns it on: anything else kept there, edited by hand or
    // left by a later version, reads as the default.
    const bool kept = storeGuarded([&]() -> bool { return g_store && g_store->setting(kKey) == "dark"; });
    if (kept != m_dark) {
        m_dark = kept;
        emit changed();
    }
}

void ReaderTheme::setDark(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    storeGuarded([&]() -> void {
        if (g_store)
            g_store->setSetting(kKey, dark ? "dark" : "light");
    });
    emit changed();
}

void ReaderTheme::showForThisRun(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    emit changed();
}
