#include "readersize.h"

#include <progress/store.h>
#include <storeguard.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

progress::Store *g_store = nullptr;
constexpr const char *kKey = "reading.textScale";

} // namespace

const std::vector<double> &ReaderSize::steps()
{
    static const std::vector<double> s{0.85, 1.0, 1.15, 1.3, 1.5};
    return s;
}

void ReaderSize::provide(progress::Store *store)
{
    g_store = store;
    instance()->reload();
}

void ReaderSize::reload()
{
    const double kept = storeGuarded([&]() -> double {
        if (!g_store)
            return 1.0;
        const std::string text = g_store->setting(kKey);
        // Only a step offered counts: a value edited by hand falls back to the default.
        const double v = text.empty() ? 1.0 : std::atof(text.c_str());
        const auto &s = steps();
        return std::any_of(s.begin(), s.end(), [v](double x) { return std::abs(x - v) < 1e-9; }) ? v : 1.0;
    });
    if (kept != m_scale) {
        m_scale = kept;
        emit changed();
    }
}

void ReaderSize::set(double scale)
{
    if (scale == m_scale)
        return;
    m_scale = scale;
    storeGuarded([&]() -> void {
        if (g_store)
            g_store->setSetting(kKey, std::to_string(scale));
    });
    emit changed();
}

void ReaderSize::grow()
{
    const auto &s = steps();
    const auto next = std::upper_bound(s.begin(), s.end(), m_scale + 1e-9);
    if (next != s.end())
        set(*next);
}

void ReaderSize::shrink()
{
    const auto &s = steps();
    const auto at = std::lower_bound(s.begin(), s.end(), m_scale - 1e-9);
    if (at != s.begin())
        set(*(at - 1));
}

void ReaderSize::reset()
{
    set(1.0);
}
