#pragma once

#include <QtQml/qqmlregistration.h>
#include "irxraycards.h"
#include "latestrun.h"

#include <QObject>
#include <QString>
#include <QUrl>
#include <QVariantList>
#include <QVariantMap>

#include <memory>

struct XrayParse;
struct XrayRequest;

// libtpusim's IR parsers and cross-layer links for QML (type
// TpuCourse.Sim/IrXrayModel): one program as jaxpr, StableHLO and HLO text
// in; per pane its lines, which link owns each line, its dot_generals
// decoded, or the parse error with line and column; the links between the
// panes. Parsing runs off the GUI thread: a pasted dump may be megabytes.
class IrXrayModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    // Three panes in stack order: [{layer: "jaxpr"|"stablehlo"|"hlo", origin,
    //  lines: [text], columns (the longest line), owner: [link index or -1 per line], dotOf: [dot index
    //  or -1 per line], dotCount, shardingOf: [a sharding's index or -1 per line], shardingCount,
    //  opCount, error, errorLine, errorColumn}].
    //  They change only when dumps load: a large dump's lines are costly to
    //  hand to QML, so what depends on the chip is in `prices`.
    Q_PROPERTY(QVariantList panes READ panes NOTIFY parsed)
    // Per pane, on `chip`: {chip, dotCount, cost}; an HLO pane's cost sums
    //  up its kernels (simqml::HloKernelTable), else {}. Each dot's card is
    //  dotAt(pane, index).
    Q_PROPERTY(QVariantList prices READ prices NOTIFY priced)
    // [{primitive, scope, source, sourceLine, opName, lines: [[jaxpr
    //  lines], [stablehlo lines], [hlo lines]]}]
    Q_PROPERTY(QVariantList links READ links NOTIFY parsed)
    // The Python the dumps came from, when known: its lines and file name.
    Q_PROPERTY(QStringList python READ python NOTIFY parsed)
    Q_PROPERTY(QString pythonFile READ pythonFile NOTIFY parsed)
    // True when the panes hold dumps the learner opened or pasted.
    Q_PROPERTY(bool ownProgram READ ownProgram NOTIFY parsed)
    // The chip the dots' predicted times are for.
    Q_PROPERTY(QString chip READ chip WRITE setChip NOTIFY chipChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // One sentence about the last paste or file that could not be used; "" otherwise.
    Q_PROPERTY(QString refusal READ refusal NOTIFY refusalChanged)

public:
    explicit IrXrayModel(QObject *parent = nullptr);
    ~IrXrayModel() override;

    QVariantList panes() const { return m_panes; }
    QVariantList prices() const { return m_prices; }
    QVariantList links() const { return m_links; }
    QStringList python() const { return m_python; }
    QString pythonFile() const { return m_pythonFile; }
    bool ownProgram() const { return m_ownProgram; }
    QString chip() const { return m_chip; }
    void setChip(const QString &id);
    bool busy() const { return m_parse.busy(); }
    QString refusal() const { return m_refusal; }

    // A shipped program: reads base + ".jaxpr", ".stablehlo.mlir" and ".hlo"
    // (a resource path such as ":/chapters/ir-stack/samples/mlp") and the
    // Python source they came from.
    Q_INVOKABLE void loadSample(const QString &base, const QString &pythonPath);
    // A dump of the learner's own, pasted or from a file: its IR is detected
    // and it fills that pane. Over a shipped program it starts a program of
    // the learner's own (the other panes belonged to another program).
    Q_INVOKABLE void loadText(const QString &text, const QString &origin);
    Q_INVOKABLE void loadFile(const QUrl &file);
    // A pane's dot as its card shows it, on the current chip: {line,
    // lastLine, op, lhs, rhs, output, contracting, batch, formula, flops,
    // flopsText, sizes, predicted}, or undefined.
    Q_INVOKABLE QVariant dotAt(int pane, int index) const;
    // The costed kernel (see simqml::HloKernelTable) that a line of the HLO
    // pane belongs to on the current chip, or undefined.
    Q_INVOKABLE QVariant kernelAt(int line) const;
    // The computation a line of the HLO pane lies in when no op calls it,
    // so that it never runs; empty otherwise.
    Q_INVOKABLE QString uncalledAt(int line) const;
    // The shardings and replica groups a line of a pane prints, read out
    // (simqml::shardingCard); a pane's `shardingOf` says which lines have any.
    Q_INVOKABLE QVariantList shardingsAt(int pane, int line) const;

signals:
    void parsed(); // the panes or links changed
    void priced(); // the dots' and kernels' costs changed (after `parsed`, or a chip switch)
    void loaded(); // after `parsed`: a new program or dump took the panes
    void chipChanged();
    void busyChanged();
    void refusalChanged();

private:
    std::shared_ptr<XrayRequest> ownProgramRequest() const;
    // The HLO pane's kernels costed for a parse on a chip.
    struct Costing
    {
        std::shared_ptr<XrayParse> parse;
        QString chip;
        simqml::HloKernelTable table;
    };
    void start(std::shared_ptr<const XrayRequest> request);
    void finished(std::shared_ptr<XrayParse> result);
    void convert();
    void price();
    void recost();
    void costed(const Costing &done);
    void setRefusal(const QString &sentence);

    std::shared_ptr<const XrayRequest> m_wanted; // the newest request: the next run parses it
    std::shared_ptr<XrayParse> m_current;
    bool m_ownProgram = false;
    QVariantList m_panes;
    QVariantList m_prices;
    QVariantList m_links;
    QStringList m_python;
    QString m_pythonFile;
    QString m_chip = QStringLiteral("v5e");
    QString m_refusal;
    // A request parsed off the GUI thread; one that ends after a newer
    // request is still shown, the newer following at once.
    simqml::LatestRun<std::shared_ptr<XrayParse>> m_parse;
    // A chip switch re-costs the HLO kernels off the GUI thread; the panes
    // show the previous chip's costs meanwhile.
    simqml::LatestRun<Costing> m_costing;
};
