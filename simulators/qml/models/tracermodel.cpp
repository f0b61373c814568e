#include "tracermodel.h"

#include <QtQml>

#include <cmath>

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
} // namespace

TracerModel::TracerModel(QObject *parent) : QObject(parent)
{
    m_settings = coursework::tracer::defaults(*coursework::tracer::find_program("mlp"));
    retrace();
}

QVariantList TracerModel::programs() const
{
    QVariantList out;
    for (const auto &p : coursework::tracer::programs()) {
        QVariantList knobs;
        for (const auto &k : p.knobs) {
            QStringList cs;
            for (const auto &c : k.choices)
                cs.append(qs(c));
            knobs.append(QVariantMap{{"id", qs(k.id)},
                                     {"label", qs(k.label)},
                                     {"choice", k.choice},
                                     {"value", static_cast<double>(k.value)},
                                     {"choices", cs}});
        }
        out.append(QVariantMap{{"id", qs(p.id)}, {"title", qs(p.title)}, {"blurb", qs(p.blurb)}, {"knobs", knobs}});
    }
    return out;
}

void TracerModel::setProgram(const QString &id)
{
    const auto *p = coursework::tracer::find_program(id.toStdString());
    if (!p || id == m_program)
        return;
    m_program = id;
    m_settings = coursework::tracer::defaults(*p);
    m_step = 0;
    retrace();
}

QVariantMap TracerModel::sizes() const
{
    QVariantMap m;
    for (const auto &[k, v] : m_settings.sizes)
        m.insert(qs(k), static_cast<double>(v));
    return m;
}

QVariantMap TracerModel::choices() const
{
    QVariantMap m;
    for (const auto &[k, v] : m_settings.choices)
        m.insert(qs(k), qs(v));
    return m;
}

void TracerModel::setSize(const QString &knob, double value)
{
    const double v = std::isfinite(value) ? std::round(value) : 0;
    m_settings.sizes[knob.toStdString()] = static_cast<std::int64_t>(std::clamp(v, -1e9, 1e9));
    retrace();
}

void TracerModel::setChoice(const QString &knob, const QString &value)
{
    m_settings.choices[knob.toStdString()] = value.toStdString();
    retrace();
}

void TracerModel::reset()
{
    m_settings = coursework::tracer::defaults(*coursework::tracer::find_program(m_program.toStdString()));
    retrace();
}

void TracerModel::setStep(int s)
{
    const int last = std::max(0, static_cast<int>(m_trace.steps.size()) - 1);
    s = std::clamp(s, 0, last);
    if (s == m_step)
        return;
    m_step = s;
    emit stepChanged();
}

void TracerModel::retrace()
{
    m_trace = coursework::tracer::trace(m_program.toStdString(), m_settings);
    QVariantMap t;
    if (!m_trace.problem.empty()) {
        t.insert("problem", qs(m_trace.problem));
        m_hit = false;
    } else {
        QStringList lines;
        for (const auto &l : m_trace.lines)
            lines.append(qs(l));
        t.insert("lines", lines);
        t.insert("stepCount", static_cast<int>(m_trace.steps.size()));
        t.insert("error", qs(m_trace.error));
        t.insert("errorLine", m_trace.error_line);
        t.insert("cacheKey", qs(m_trace.cache_key));
        t.insert("jaxpr", qs(m_trace.text()));
        t.insert("equations", static_cast<int>(coursework::tracer::primitive_sequence(m_trace).size()));
        // The same key as the last trace is no new call: what it said stands.
        const QString key = qs(m_trace.cache_key);
        if (key != m_lastKey)
            m_hit = m_keys.contains(key);
        m_keys.insert(key);
        m_lastKey = key;
    }
    m_traceMap = t;
    m_step = std::clamp(m_step, 0, std::max(0, static_cast<int>(m_trace.steps.size()) - 1));
    emit traceChanged();
    emit stepChanged();
}

QVariantMap TracerModel::current() const
{
    if (m_trace.steps.empty())
        return {};
    const auto &st = m_trace.steps[static_cast<std::size_t>(m_step)];
    QVariantList frame;
    for (const auto &b : st.frame)
        frame.append(QVariantMap{{"name", qs(b.name)},
                                 {"traced", b.traced},
                                 {"aval", b.traced ? qs(b.aval.text()) : QString()},
                                 {"weak", b.aval.weak},
                                 {"value", qs(b.value)}});
    QStringList added;
    for (int i = st.recorded_from; i < st.recorded_to; ++i)
        added.append(qs(m_trace.printed[static_cast<std::size_t>(i)].text));
    const bool last = m_step + 1 >= static_cast<int>(m_trace.steps.size());
    return QVariantMap{{"line", st.line},
                       {"note", qs(st.note)},
                       {"frame", frame},
                       {"jaxpr", qs(m_trace.text_upto(m_step + 1))},
                       {"added", added},
                       {"inner", qs(st.inner)},
                       {"innerLabel", qs(st.inner_label)},
                       {"index", m_step},
                       {"last", last},
                       {"failed", last && !m_trace.error.empty()}};
}
