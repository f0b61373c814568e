#include "irxraymodel.h"
#include "irxraycards.h"
#include "variants.h"

#include <tpusim/error.h>
#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>
#include <tpusim/ir_names.h>
#include <tpusim/ir_xref.h>

#include <QtQml/qqml.h>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <array>
#include <map>
#include <optional>

using simqml::qs;
namespace ir = tpusim::ir;

namespace {

constexpr std::array<ir::Format, 3> layers = {ir::Format::jaxpr, ir::Format::stablehlo, ir::Format::hlo};

std::size_t slot(ir::Format format)
{
    return format == ir::Format::jaxpr ? 0 : format == ir::Format::stablehlo ? 1 : 2;
}

} // namespace

struct PaneParse
{
    bool present = false;
    std::string origin;
    std::string text;
    std::vector<std::string> lines;
    ir::Module module;
    std::string error;
    int errorLine = 0;
    int errorColumn = 0;
    std::vector<ir::DotSite> dots;
    std::vector<int> dotLastLine; // per dot: the line its op ends on
    std::vector<int> owner;
    int opCount = 0;
    std::vector<ir::ShardingSite> shardings; // read from the text, parsed or not
    QStringList notes;                       // op names that look misspelt, a sentence each
};

struct XrayParse
{
    std::array<PaneParse, 3> panes;
    std::vector<ir::CrossLink> links;
    std::string python;
    std::string pythonFile;
    std::string refusal; // set when the request could not be used at all
    bool own = false;    // a program of the learner's own
    // The HLO pane's kernels, costed on the worker for the chip of the
    // request: a large dump's costing would otherwise stall the window.
    simqml::HloKernelTable hloCost;
    QString hloCostChip;
};

struct XrayRequest
{
    std::array<std::optional<std::string>, 3> texts;
    std::array<std::string, 3> origins;
    std::string python, pythonFile;
    bool own = false;
    // One dump to place over `texts`, from this text or from this file.
    std::optional<std::string> single;
    std::string singleOrigin;
    QString filePath;
};

namespace {

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        out.push_back(std::move(line));
        start = end + 1;
    }
    return out;
}

void parsePane(PaneParse &pane, ir::Format format)
{
    pane.lines = splitLines(pane.text);
    pane.shardings = ir::find_shardings(pane.text);
    try {
        pane.module = ir::parse(pane.text, format);
    } catch (const ir::ParseError &e) {
        pane.error = e.what();
        pane.errorLine = e.line();
        pane.errorColumn = e.column();
        pane.module = {};
        // A dump cut short fails on the line after its last: show that line.
        if (e.line() > static_cast<int>(pane.lines.size()) && e.line() <= static_cast<int>(pane.lines.size()) + 1)
            pane.lines.emplace_back();
        return;
    } catch (const tpusim::InputError &e) {
        pane.error = e.what();
        pane.module = {};
        return;
    }
    for (const auto &op : ir::misspelt_ops(pane.module))
        pane.notes << QString::fromStdString(op.sentence(format));
    std::map<int, int> lastLine;
    const auto ops = ir::all_ops(pane.module);
    pane.opCount = static_cast<int>(ops.size());
    for (const ir::Op *op : ops)
        lastLine[op->position.line] = std::max(lastLine[op->position.line], op->last_line);
    try {
        pane.dots = ir::find_dots(pane.module);
    } catch (const ir::ParseError &e) { // dims that do not fit the operands
        pane.error = e.what();
        pane.errorLine = e.line();
        pane.errorColumn = e.column();
    }
    for (const auto &dot : pane.dots)
        pane.dotLastLine.push_back(std::max(dot.position.line, lastLine[dot.position.line]));
}

std::optional<std::string> readFile(const QString &path, std::string &refusal)
{
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        refusal = QStringLiteral("%1 could not be opened: %2.").arg(name, file.errorString()).toStdString();
        return std::nullopt;
    }
    if (file.size() > static_cast<qint64>(ir::max_input_bytes)) {
        refusal = QStringLiteral("%1 is %2 MiB; the x-ray reads dumps of at most %3 MiB.")
                      .arg(name)
                      .arg(file.size() >> 20)
                      .arg(ir::max_input_bytes >> 20)
                      .toStdString();
        return std::nullopt;
    }
    return file.readAll().toStdString();
}

// A dump of the learner's own names its Python file in its op metadata;
// when that file is on this machine (and small), it is shown like a shipped
// program's source. The file most ops name wins.
void readOwnSource(XrayParse &result)
{
    std::map<std::string, int> named;
    for (const PaneParse &pane : result.panes)
        for (const ir::Op *op : ir::all_ops(pane.module))
            if (!op->metadata.source_file.empty())
                ++named[op->metadata.source_file];
    std::string best;
    for (const auto &[file, count] : named)
        if (best.empty() || count > named[best])
            best = file;
    const QFileInfo info(QString::fromStdString(best));
    if (best.empty() || !info.isFile() || info.size() > (1 << 20))
        return;
    QFile file(info.filePath());
    if (!file.open(QIODevice::ReadOnly))
        return;
    result.python = file.readAll().toStdString();
    result.pythonFile = info.fileName().toStdString();
}

// Runs on a worker thread: plain libtpusim, and the kernel table as plain values.
std::shared_ptr<XrayParse> runRequest(std::shared_ptr<const XrayRequest> request, QString chip)
{
    auto result = std::make_shared<XrayParse>();
    auto texts = request->texts;
    auto origins = request->origins;
    result->python = request->python;
    result->pythonFile = request->pythonFile;
    result->own = request->own;
    if (request->single || !request->filePath.isEmpty()) {
        std::optional<std::string> text = request->single;
        std::string origin = request->singleOrigin;
        if (!text) {
            text = readFile(request->filePath, result->refusal);
            if (!text)
                return result;
            origin = QFileInfo(request->filePath).fileName().toStdString();
        }
        ir::Format format;
        try {
            format = ir::detect_format(*text);
        } catch (const tpusim::InputError &e) {
            result->refusal = (origin.empty() ? std::string("This text") : origin) +
                              " is not a jaxpr, StableHLO or HLO dump: " + e.what();
            return result;
        }
        texts[slot(format)] = std::move(*text);
        origins[slot(format)] = origin;
    }
    for (std::size_t i = 0; i < layers.size(); ++i) {
        PaneParse &pane = result->panes[i];
        if (!texts[i])
            continue;
        pane.present = true;
        pane.text = *texts[i];
        pane.origin = origins[i];
        parsePane(pane, layers[i]);
    }
    result->links = ir::correspond(result->panes[0].module, result->panes[1].module, result->panes[2].module);
    for (std::size_t i = 0; i < layers.size(); ++i) {
        PaneParse &pane = result->panes[i];
        pane.owner = ir::link_of_each_line(result->links, pane.module, layers[i], static_cast<int>(pane.lines.size()));
    }
    if (const PaneParse &hlo = result->panes[slot(ir::Format::hlo)]; hlo.present && hlo.error.empty()) {
        result->hloCost = simqml::hloKernels(hlo.module, static_cast<int>(hlo.lines.size()), chip);
        result->hloCostChip = chip;
    }
    if (result->own)
        readOwnSource(*result);
    return result;
}

QString readResource(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Entry `line` (from 1) of a per-line index, or -1 for a line outside it.
int atLine(const std::vector<int> &perLine, int line)
{
    return line >= 1 && static_cast<std::size_t>(line) <= perLine.size() ? perLine[static_cast<std::size_t>(line) - 1]
                                                                         : -1;
}

} // namespace

IrXrayModel::IrXrayModel(QObject *parent)
    : QObject(parent),
      m_parse(
          this, simqml::LatestRun<std::shared_ptr<XrayParse>>::Stale::shown,
          [this]() -> std::variant<std::shared_ptr<XrayParse>, QFuture<std::shared_ptr<XrayParse>>> {
              return QtConcurrent::run(runRequest, m_wanted, m_chip);
          },
          [this](std::shared_ptr<XrayParse> result) { finished(std::move(result)); }, [this] { emit busyChanged(); }),
      m_costing(
          this, simqml::LatestRun<Costing>::Stale::dropped,
          [this]() -> std::variant<Costing, QFuture<Costing>> {
              return QtConcurrent::run([parse = m_current, chip = m_chip] {
                  const PaneParse &pane = parse->panes[slot(ir::Format::hlo)];
                  return Costing{parse, chip,
                                 simqml::hloKernels(pane.module, static_cast<int>(pane.lines.size()), chip)};
              });
          },
          [this](const Costing &done) { costed(done); }, [] {})
{
}

IrXrayModel::~IrXrayModel() = default;

void IrXrayModel::setChip(const QString &id)
{
    if (id == m_chip)
        return;
    m_chip = id;
    emit chipChanged();
    price();
}

void IrXrayModel::loadSample(const QString &base, const QString &pythonPath)
{
    auto request = std::make_shared<XrayRequest>();
    const char *suffixes[] = {".jaxpr", ".stablehlo.mlir", ".hlo"};
    const QString name = base.section(QLatin1Char('/'), -1);
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const QString path = base + QLatin1String(suffixes[i]);
        if (QFile::exists(path)) {
            request->texts[i] = readResource(path).toStdString();
            request->origins[i] = (name + QLatin1String(suffixes[i])).toStdString();
        }
    }
    request->python = readResource(pythonPath).toStdString();
    request->pythonFile = pythonPath.section(QLatin1Char('/'), -1).toStdString();
    start(std::move(request));
}

std::shared_ptr<XrayRequest> IrXrayModel::ownProgramRequest() const
{
    auto request = std::make_shared<XrayRequest>();
    request->own = true;
    if (m_current && m_ownProgram) { // a dump of the same program, for another pane
        for (std::size_t i = 0; i < layers.size(); ++i)
            if (m_current->panes[i].present) {
                request->texts[i] = m_current->panes[i].text;
                request->origins[i] = m_current->panes[i].origin;
            }
    }
    return request;
}

void IrXrayModel::loadText(const QString &text, const QString &origin)
{
    auto request = ownProgramRequest();
    request->single = text.toStdString();
    request->singleOrigin = origin.toStdString();
    start(std::move(request));
}

void IrXrayModel::loadFile(const QUrl &file)
{
    const QString path = file.isLocalFile() ? file.toLocalFile() : file.toString();
    auto request = ownProgramRequest();
    request->filePath = path;
    start(std::move(request));
}

void IrXrayModel::start(std::shared_ptr<const XrayRequest> request)
{
    m_wanted = std::move(request); // only the newest waiting request matters
    m_parse.start();
}

void IrXrayModel::finished(std::shared_ptr<XrayParse> result)
{
    if (!result->refusal.empty()) { // nothing changes: the panes shown stay
        setRefusal(qs(result->refusal));
        return;
    }
    setRefusal({});
    m_current = std::move(result);
    m_ownProgram = m_current->own;
    convert();
    emit loaded();
}

void IrXrayModel::setRefusal(const QString &sentence)
{
    if (sentence == m_refusal)
        return;
    m_refusal = sentence;
    emit refusalChanged();
}

void IrXrayModel::convert()
{
    if (!m_current)
        return;
    const XrayParse &r = *m_current;
    m_panes.clear();
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const PaneParse &p = r.panes[i];
        QStringList lines;
        lines.reserve(static_cast<qsizetype>(p.lines.size()));
        std::size_t columns = 0;
        for (const auto &line : p.lines) {
            lines.append(qs(line));
            columns = std::max(columns, line.size());
        }
        std::vector<int> dotOf(p.lines.size(), -1);
        for (std::size_t d = 0; d < p.dots.size(); ++d) {
            const int first = p.dots[d].position.line, last = p.dotLastLine[d];
            for (int line = std::max(first, 1); line <= std::min<int>(last, static_cast<int>(dotOf.size())); ++line)
                dotOf[static_cast<std::size_t>(line - 1)] = static_cast<int>(d);
        }
        std::vector<int> shardingOf(p.lines.size(), -1);
        for (std::size_t k = p.shardings.size(); k-- > 0;)
            if (const int line = p.shardings[k].position.line; line >= 1 && line <= static_cast<int>(shardingOf.size()))
                shardingOf[static_cast<std::size_t>(line - 1)] = static_cast<int>(k);
        m_panes.append(QVariantMap{{"layer", qs(std::string(ir::format_name(layers[i])))},
                                   {"present", p.present},
                                   {"origin", qs(p.origin)},
                                   {"lines", lines},
                                   {"columns", static_cast<int>(columns)},
                                   {"owner", simqml::list(p.owner)},
                                   {"dotOf", simqml::list(dotOf)},
                                   {"dotCount", static_cast<int>(p.dots.size())},
                                   {"shardingOf", simqml::list(shardingOf)},
                                   {"shardingCount", static_cast<int>(p.shardings.size())},
                                   {"opCount", p.opCount},
                                   {"error", qs(p.error)},
                                   {"errorLine", p.errorLine},
                                   {"errorColumn", p.errorColumn},
                                   {"notes", p.notes}});
    }
    m_links.clear();
    // Each link's lines in each pane, gathered in one pass over the lines.
    std::vector<std::array<std::vector<int>, 3>> linesOf(r.links.size());
    for (std::size_t i = 0; i < layers.size(); ++i)
        for (std::size_t line = 0; line < r.panes[i].owner.size(); ++line)
            if (const int o = r.panes[i].owner[line]; o >= 0 && static_cast<std::size_t>(o) < linesOf.size())
                linesOf[static_cast<std::size_t>(o)][i].push_back(static_cast<int>(line) + 1);
    for (std::size_t l = 0; l < r.links.size(); ++l) {
        const ir::CrossLink &link = r.links[l];
        QVariantList lines;
        for (const auto &mine : linesOf[l])
            lines.append(QVariant(simqml::list(mine)));
        const auto colon = link.source.rfind(':');
        m_links.append(
            QVariantMap{{"primitive", qs(link.primitive)},
                        {"scope", qs(link.scope)},
                        {"source", qs(link.source)},
                        {"opName", qs(link.op_name)},
                        {"sourceLine", colon == std::string::npos ? 0 : std::atoi(link.source.c_str() + colon + 1)},
                        {"lines", lines}});
    }
    m_python = qs(r.python).split(QLatin1Char('\n'));
    while (!m_python.isEmpty() && m_python.last().isEmpty())
        m_python.removeLast();
    m_pythonFile = r.python.empty() ? QString() : qs(r.pythonFile);
    emit parsed();
    price();
}

// What depends on the chip: each dot's time and the HLO kernels' costs. A
// chip switch redoes only this, not the lines and links of a large dump.
void IrXrayModel::price()
{
    if (!m_current)
        return;
    m_prices.clear();
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const PaneParse &p = m_current->panes[i];
        const bool costed = layers[i] == ir::Format::hlo && p.present && p.error.empty();
        if (costed && m_current->hloCostChip != m_chip)
            recost();
        // The dots' cards are made one at a time (dotAt): a dump may have a
        // hundred thousand dots, and QML converts this list whole.
        m_prices.append(QVariantMap{{"chip", m_chip},
                                    {"dotCount", static_cast<int>(p.dots.size())},
                                    {"cost", costed ? m_current->hloCost.summary : QVariantMap()}});
    }
    emit priced();
}

// Costs the HLO pane for the current chip on a worker; a costing out for
// another parse or chip is dropped when it ends, and the newest run instead.
void IrXrayModel::recost()
{
    m_costing.start();
}

void IrXrayModel::costed(const Costing &done)
{
    if (done.parse == m_current && done.chip == m_chip) {
        m_current->hloCost = done.table;
        m_current->hloCostChip = m_chip;
    }
    price(); // shows the new costs, or starts the costing the chip now wants
}

QVariant IrXrayModel::dotAt(int pane, int index) const
{
    if (!m_current || pane < 0 || pane >= static_cast<int>(layers.size()))
        return {};
    const PaneParse &p = m_current->panes[static_cast<std::size_t>(pane)];
    if (index < 0 || static_cast<std::size_t>(index) >= p.dots.size())
        return {};
    const auto d = static_cast<std::size_t>(index);
    return simqml::dotCard(p.dots[d], p.dotLastLine[d], m_chip);
}

QVariantList IrXrayModel::shardingsAt(int pane, int line) const
{
    QVariantList out;
    if (!m_current || pane < 0 || pane >= static_cast<int>(layers.size()))
        return out;
    for (const ir::ShardingSite &site : m_current->panes[static_cast<std::size_t>(pane)].shardings)
        if (site.position.line == line)
            out.append(simqml::shardingCard(site));
    return out;
}

QVariant IrXrayModel::kernelAt(int line) const
{
    if (!m_current || m_current->hloCostChip != m_chip)
        return {};
    const simqml::HloKernelTable &table = m_current->hloCost;
    const int k = atLine(table.kernelOf, line);
    return k >= 0 && static_cast<std::size_t>(k) < table.kernels.size()
               ? QVariant(simqml::kernelCard(table.kernels[static_cast<std::size_t>(k)]))
               : QVariant();
}

QString IrXrayModel::uncalledAt(int line) const
{
    if (!m_current || m_current->hloCostChip != m_chip)
        return {};
    const simqml::HloKernelTable &table = m_current->hloCost;
    const int c = atLine(table.uncalledOf, line);
    return c >= 0 ? QString::fromStdString(table.uncalled[static_cast<std::size_t>(c)]) : QString();
}
