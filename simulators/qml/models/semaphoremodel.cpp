#include "semaphoremodel.h"
#include "variants.h"

#include <tpusim/error.h>

#include <QtQml/qqml.h>
#include <QFile>

using simqml::qs;

namespace {

QVariantList strings(const std::vector<std::string> &v)
{
    QVariantList out;
    for (const auto &s : v)
        out.append(qs(s));
    return out;
}

QVariantMap convert(const tpusim::SemRun &r)
{
    QVariantList events, deadlock, races, nonzero, spans;
    for (const auto &e : r.events)
        events.append(QVariantMap{{"timeS", e.time_s},
                                  {"time", qs(tpusim::format_time(e.time_s))},
                                  {"device", e.device},
                                  {"kind", qs(e.kind)},
                                  {"text", qs(e.text)},
                                  {"line", e.line}});
    for (const auto &w : r.deadlock)
        deadlock.append(QVariantMap{{"device", w.device},
                                    {"line", w.line},
                                    {"statement", qs(w.statement)},
                                    {"semaphore", qs(w.semaphore)},
                                    {"value", qlonglong(w.value)},
                                    {"needed", qlonglong(w.needed)},
                                    {"waitsFor", simqml::list(w.waits_for)},
                                    {"reason", qs(w.reason)}});
    for (const auto &x : r.races)
        races.append(QVariantMap{{"text", qs(x.text)},
                                 {"device", x.device},
                                 {"line", x.line},
                                 {"kind", qs(x.kind)},
                                 {"buffer", qs(x.buffer)},
                                 {"timeS", x.time_s}});
    for (const auto &n : r.nonzero)
        nonzero.append(QVariantMap{
            {"text", qs(n.text)}, {"device", n.device}, {"semaphore", qs(n.semaphore)}, {"value", qlonglong(n.value)}});
    for (const auto &s : r.spans)
        spans.append(QVariantMap{{"device", s.device},
                                 {"track", qs(s.track)},
                                 {"name", qs(s.name)},
                                 {"category", qs(s.category)},
                                 {"startS", s.start_s},
                                 {"endS", s.end_s},
                                 {"line", s.line}});
    return {{"status", qs(std::string(tpusim::sem_status_name(r.status)))},
            {"devices", r.devices},
            {"endS", r.end_s},
            {"end", qs(tpusim::format_time(r.end_s))},
            {"summary", qs(r.summary)},
            {"events", events},
            {"deadlock", deadlock},
            {"cycle", simqml::list(r.cycle)},
            {"races", races},
            {"nonzero", nonzero},
            {"spans", spans},
            {"provenance", simqml::provenance(r.provenance)}};
}

} // namespace

void SemaphoreModel::setSource(const QString &text)
{
    if (text == m_source)
        return;
    m_source = text;
    emit sourceChanged();
    parseSource();
}

void SemaphoreModel::setResource(const QString &path)
{
    if (path == m_resource)
        return;
    m_resource = path;
    QFile f(path.startsWith(QLatin1String("qrc:")) ? path.mid(3) : path);
    QString text;
    if (f.open(QIODevice::ReadOnly))
        text = QString::fromUtf8(f.readAll());
    else
        text = QStringLiteral("# cannot read %1").arg(path);
    m_source.clear();
    setSource(text);
}

QString SemaphoreModel::about() const
{
    QStringList paragraphs{QString()};
    for (const QString &line : m_source.split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        if (!t.startsWith(QLatin1Char('#')))
            break;
        const QString words = t.mid(1).trimmed();
        if (words.isEmpty()) {
            if (!paragraphs.last().isEmpty())
                paragraphs.append(QString());
            continue;
        }
        paragraphs.last() += (paragraphs.last().isEmpty() ? QString() : QStringLiteral(" ")) + words;
    }
    if (paragraphs.last().isEmpty())
        paragraphs.removeLast();
    return paragraphs.join(QStringLiteral("\n\n"));
}

void SemaphoreModel::setChip(const QString &id)
{
    if (id == m_chip)
        return;
    m_chip = id;
    emit chipChanged();
    rerun();
}

void SemaphoreModel::parseSource()
{
    m_edits.clear();
    try {
        m_original = tpusim::parse_semaphore_program(m_source.toStdString(),
                                                     m_resource.section(QLatin1Char('/'), -1).toStdString());
        m_program = m_original;
        m_parsed = true;
    } catch (const tpusim::InputError &e) {
        m_parsed = false;
        m_statements.clear();
        m_run = {{"error", QString::fromUtf8(e.what())}};
        emit runChanged();
        return;
    }
    rerun();
}

void SemaphoreModel::rerun()
{
    if (!m_parsed)
        return;
    m_statements.clear();
    for (const auto &s : tpusim::semaphore_statements(m_program))
        m_statements.append(QVariantMap{{"index", qulonglong(s.index)},
                                        {"line", s.line},
                                        {"depth", s.depth},
                                        {"text", qs(s.text)},
                                        {"block", s.block}});
    m_states.clear();
    try {
        const tpusim::Chip &chip = tpusim::chip(m_chip.toStdString());
        m_run = convert(tpusim::run_semaphores(m_program, chip, 0, &m_states, 20000));
    } catch (const tpusim::InputError &e) {
        m_run = {{"error", QString::fromUtf8(e.what())}};
    }
    emit runChanged();
}

QVariantMap SemaphoreModel::stateAt(int eventIndex) const
{
    if (!m_parsed || m_run.contains(QStringLiteral("error")))
        return {};
    try {
        // A scrub reads the state recorded with the run; past the recorded
        // ones (a very long run) the model runs up to the event.
        const auto index = static_cast<std::size_t>(std::max(eventIndex, 0));
        const tpusim::SemState s =
            index < m_states.size()
                ? m_states[index]
                : tpusim::semaphore_state_at(m_program, tpusim::chip(m_chip.toStdString()), 0, index);
        QVariantList devices;
        for (const auto &d : s.devices) {
            QVariantList sems;
            for (auto v : d.semaphores)
                sems.append(qlonglong(v));
            devices.append(QVariantMap{{"device", d.device},
                                       {"status", qs(d.status)},
                                       {"line", d.line},
                                       {"statement", qs(d.statement)},
                                       {"semaphores", sems},
                                       {"buffers", strings(d.buffers)}});
        }
        return {{"timeS", s.time_s},
                {"time", qs(tpusim::format_time(s.time_s))},
                {"semaphoreNames", strings(s.semaphore_names)},
                {"bufferNames", strings(s.buffer_names)},
                {"devices", devices}};
    } catch (const tpusim::InputError &e) {
        return {{"error", QString::fromUtf8(e.what())}};
    }
}

QString SemaphoreModel::drop(int statementIndex)
{
    if (!m_parsed || statementIndex < 0)
        return QStringLiteral("no statement selected");
    try {
        const QString text = m_statements.value(statementIndex).toMap().value(QStringLiteral("text")).toString();
        m_program = tpusim::drop_statement(m_program, static_cast<std::size_t>(statementIndex));
        m_edits.append(QStringLiteral("dropped “%1”").arg(text));
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
    rerun();
    return {};
}

QString SemaphoreModel::swapWithNext(int statementIndex)
{
    if (!m_parsed || statementIndex < 0)
        return QStringLiteral("no statement selected");
    try {
        const QString a = m_statements.value(statementIndex).toMap().value(QStringLiteral("text")).toString();
        const QString b = m_statements.value(statementIndex + 1).toMap().value(QStringLiteral("text")).toString();
        m_program = tpusim::swap_statements(m_program, static_cast<std::size_t>(statementIndex),
                                            static_cast<std::size_t>(statementIndex) + 1);
        m_edits.append(QStringLiteral("swapped “%1” with “%2”").arg(a, b));
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
    rerun();
    return {};
}

void SemaphoreModel::reset()
{
    if (!m_parsed)
        return;
    m_program = m_original;
    m_edits.clear();
    rerun();
}
