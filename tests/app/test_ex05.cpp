#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"
#include "layout/layoutreport.h"
#include "profilerows.h"

#include <tpusim/chips.h>
#include <tpusim/dtype.h>
#include <tpusim/fusion.h>
#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>
#include <tpusim/ir_sharding.h>
#include <tpusim/ir_xref.h>
#include <tpusim/provenance.h>
#include <tpusim/roofline.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>
#include <QQuickItem>
#include <QTest>

#include <algorithm>
#include <array>

namespace ir = tpusim::ir;

namespace {

std::string sample(const std::string &file)
{
    QFile f(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/ir-samples/") + QString::fromStdString(file));
    REQUIRE(f.open(QIODevice::ReadOnly));
    return f.readAll().toStdString();
}

int lineCount(const std::string &text)
{
    int lines = 0;
    for (std::size_t at = 0; at < text.size(); ++lines) {
        const auto end = text.find('\n', at);
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
}

// libtpusim's reading of one shipped program: the links and which link
// owns each line of each dump.
struct Program
{
    std::array<ir::Module, 3> modules;
    std::vector<ir::CrossLink> links;
    std::array<std::vector<int>, 3> owner;

    explicit Program(const std::string &name)
    {
        const std::array<std::string, 3> texts = {sample(name + ".jaxpr"), sample(name + ".stablehlo.mlir"),
                                                  sample(name + ".hlo")};
        const std::array<ir::Format, 3> formats = {ir::Format::jaxpr, ir::Format::stablehlo, ir::Format::hlo};
        for (std::size_t i = 0; i < 3; ++i)
            modules[i] = ir::parse(texts[i], formats[i]);
        links = ir::correspond(modules[0], modules[1], modules[2]);
        for (std::size_t i = 0; i < 3; ++i)
            owner[i] = ir::link_of_each_line(links, modules[i], formats[i], lineCount(texts[i]));
    }
};

const char *layers[] = {"jaxpr", "stablehlo", "hlo"};

QString shown(ShellFixture &shell, const char *name)
{
    for (QObject *item : shell.findAll(name))
        if (ShellFixture::isShown(item))
            return item->property("text").toString().trimmed();
    return QStringLiteral("<not shown: %1>").arg(QString::fromLatin1(name));
}

QQuickItem *lineItem(ShellFixture &shell, int layer, int line)
{
    const QByteArray name = QStringLiteral("ex05Line_%1_%2").arg(QLatin1String(layers[layer])).arg(line).toUtf8();
    return qobject_cast<QQuickItem *>(shell.find(name.constData()));
}

QPoint centre(QQuickItem *item)
{
    // Near the start: a line is as wide as its pane's longest line.
    return item->mapToScene(QPointF(std::min(item->width() / 4, 80.0), item->height() / 2)).toPoint();
}

// Every line delegate that exists is lit exactly when libtpusim says the
// line belongs to `link`.
void checkLit(ShellFixture &shell, const Program &program, int link)
{
    for (int layer = 0; layer < 3; ++layer) {
        int checked = 0;
        for (std::size_t i = 0; i < program.owner[layer].size(); ++i) {
            QQuickItem *item = lineItem(shell, layer, static_cast<int>(i) + 1);
            if (!item || !item->isVisible())
                continue;
            INFO(layers[layer] << " line " << i + 1);
            CHECK(item->property("lit").toBool() == (program.owner[layer][i] == link));
            ++checked;
        }
        CHECK(checked > 5);
    }
}

void click(ShellFixture &shell, const char *name)
{
    auto *target = qobject_cast<QQuickItem *>(shell.findShown(name));
    REQUIRE(target != nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, {},
                      target->mapToScene(QPointF(target->width() / 2, target->height() / 2)).toPoint());
}

} // namespace

TEST_CASE("EX05 links one program's ops across jaxpr, StableHLO and HLO as libtpusim does", "[ex05][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    const Program mlp("mlp");
    const auto mlpCost = tpusim::fusion::cost_hlo_kernels(mlp.modules[2], tpusim::chip("v5e"));
    WAIT_COMPARE(shown(shell, "ex05Count_hlo"), QStringLiteral("%1 ops · 2 dots").arg(ir::all_ops(mlp.modules[2]).size()));
    CHECK(shown(shell, "ex05Cost_hlo") == QStringLiteral("%1 kernels as XLA fused them: %2 predicted on v5e")
                                              .arg(mlpCost.kernels.size())
                                              .arg(QString::fromStdString(tpusim::format_time(mlpCost.time_s))));

    // Source bands: every op wears the colour of its Python line, in every layer.
    for (int layer = 0; layer < 3; ++layer)
        for (std::size_t i = 0; i < mlp.owner[layer].size(); ++i) {
            const QByteArray name = QStringLiteral("ex05Band_%1_%2").arg(QLatin1String(layers[layer])).arg(i + 1).toUtf8();
            QObject *band = shell.find(name.constData());
            if (!band)
                continue;  // not laid out: below the fold
            const int owner = mlp.owner[layer][i];
            const std::string &source = owner >= 0 ? mlp.links[static_cast<std::size_t>(owner)].source : std::string();
            const int expected = source.empty() ? 0 : std::stoi(source.substr(source.rfind(':') + 1));
            INFO(layers[layer] << " line " << i + 1);
            CHECK(band->property("source").toInt() == expected);
        }
    QObject *relu = shell.find("ex05Band_jaxpr_16");
    REQUIRE(relu != nullptr);
    CHECK(relu->property("source").toInt() == 4);  // relu's max, from mlp.py:4, inside line 8's jit
    click(shell, "ex05Bands");
    WAIT_COMPARE(relu->property("source").toInt(), 0);
    click(shell, "ex05Bands");
    WAIT_COMPARE(relu->property("source").toInt(), 4);

    // Hovering the jaxpr's first dot_general lights its lines in all three dumps.
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, 4)));
    REQUIRE(mlp.owner[0][3] == 0);
    WAIT_COMPARE(shown(shell, "ex05LinkName"), QString::fromStdString(mlp.links[0].primitive));
    checkLit(shell, mlp, 0);
    CHECK(shown(shell, "ex05LinkWhere") == QStringLiteral("jaxpr 2–7  ·  StableHLO 8  ·  HLO 6"));
    CHECK(lineItem(shell, 0, 4)->property("lit").toBool());
    shell.shot("ex05_hover_jaxpr_dot");

    // Its decoding: the dims, the output, the FLOPs and the time on v5e.
    const auto dots = ir::find_dots(mlp.modules[0]);
    REQUIRE(dots.size() == 2);
    const ir::DotShape shape = ir::dot_general_shape(dots[0].lhs_shape, dots[0].rhs_shape, dots[0].dims);
    CHECK(shown(shell, "ex05DotFlops") ==
          QStringLiteral("FLOPs = 2 × %1 × %2 × %3 × %4 = %5")
              .arg(shape.batch).arg(shape.lhs_free).arg(shape.rhs_free).arg(shape.contracting)
              .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(dots[0].flops))));
    CHECK(shown(shell, "ex05DotShapes").endsWith(QStringLiteral("f32[32,512]")));
    tpusim::MatmulSpec spec;
    spec.m = shape.lhs_free;
    spec.k = shape.contracting;
    spec.n = shape.rhs_free;
    spec.in = spec.out = tpusim::DType::f32;
    for (const char *chip : {"v5e", "v6e"}) {
        if (std::string(chip) != "v5e")
            click(shell, (std::string("ex05chip_") + chip).c_str());
        const auto r = tpusim::roofline(tpusim::chip(chip), tpusim::matmul_cost(spec));
        const QString expected = QStringLiteral("alone on %1: %2, %3-bound")
                                     .arg(QLatin1String(chip), QString::fromStdString(tpusim::format_time(r.time_s)),
                                          QString::fromStdString(std::string(tpusim::bound_name(r.bound))));
        WAIT_COMPARE(shown(shell, "ex05DotTime").left(expected.size()), expected);
    }

    // Hovering an HLO instruction lights its jaxpr equation.
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 2, 12)));  // ROOT %maximum.1
    const int maxLink = mlp.owner[2][11];
    REQUIRE(maxLink >= 0);
    WAIT_COMPARE(shown(shell, "ex05LinkName"), QString::fromStdString(mlp.links[static_cast<std::size_t>(maxLink)].primitive));
    checkLit(shell, mlp, maxLink);
    // %maximum.1 sits in the body of the first fusion: the card names that kernel.
    // The chip was just switched to v6e: the kernels are re-costed off the
    // GUI thread, and the card shows the kernel once they are back.
    const auto &kernel = mlpCost.kernels.front();
    WAIT_COMPARE(shown(shell, "ex05Kernel"), QStringLiteral("in HLO kernel %1 · output fusion on the MXU · %2")
                                                 .arg(QString::fromStdString(kernel.name),
                                                      QString::fromStdString(tpusim::format_rate(kernel.flops, "FLOP"))));
    CHECK(shown(shell, "ex05KernelBytes") == QStringLiteral("reads %1, writes %2")
                                                 .arg(QString::fromStdString(tpusim::format_bytes(kernel.bytes_read)),
                                                      QString::fromStdString(tpusim::format_bytes(kernel.bytes_written))));
    const auto onV6e = tpusim::fusion::cost_hlo_kernels(mlp.modules[2], tpusim::chip("v6e"));
    // The chip switch re-costs the kernels on a worker thread.
    WAIT_VERIFY(shown(shell, "ex05KernelTime").startsWith(
        QStringLiteral("· %1 on v6e").arg(QString::fromStdString(tpusim::format_time(onV6e.kernels.front().time_s)))));

    // The keyboard: a click picks an op, Down steps to the next linked op,
    // and stepping through every op of the program earns the mastery item.
    QTest::mouseClick(shell.window(), Qt::LeftButton, {}, centre(lineItem(shell, 0, 2)));
    QTest::mouseMove(shell.window(), QPoint(2, 2));  // away: the pick governs
    CHECK(shell.store().masteryItemsDone(12).count("ch12-ir-xray") == 0);
    std::vector<int> starts;  // the first line of each linked op, as Down visits them
    for (std::size_t i = 2; i < mlp.owner[0].size(); ++i)
        if (mlp.owner[0][i] >= 0 && mlp.owner[0][i] != mlp.owner[0][i - 1])
            starts.push_back(static_cast<int>(i) + 1);
    for (int line : starts) {
        QTest::keyClick(shell.window(), Qt::Key_Down);
        WAIT_VERIFY(lineItem(shell, 0, line)->property("lit").toBool());
        checkLit(shell, mlp, mlp.owner[0][static_cast<std::size_t>(line) - 1]);
    }
    CHECK(shown(shell, "ex05Followed") == QStringLiteral("followed %1 of %1 ops").arg(mlp.links.size()));
    CHECK(shell.store().masteryItemsDone(12).count("ch12-ir-xray") == 1);
}

TEST_CASE("EX05's card lays out a hovered and a picked op without overlap at every common size", "[ex05][qml][layout]")
{
    ShellFixture shell;
    for (const QSize size : {QSize(1280, 800), QSize(1440, 900), QSize(1920, 1080)}) {
        INFO(size.width() << "x" << size.height());
        shell.window()->resize(size);
        REQUIRE(shell.navigate(QStringLiteral("EX05")));
        WAIT_VERIFY(lineItem(shell, 0, 4) != nullptr);
        // Hovered: the jaxpr's first dot_general, its kernel and its time.
        QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, 4)));
        WAIT_VERIFY(!shown(shell, "ex05LinkName").isEmpty());
        WAIT_VERIFY(!shown(shell, "ex05DotTime").isEmpty());
        QTest::qWait(100);
        QStringList problems = layoutProblems(collectLayout(shell.window()));
        INFO("hovered: " << problems.join(QLatin1Char('\n')).toStdString());
        CHECK(problems.isEmpty());
        shell.shot(QStringLiteral("ex05_card_hovered_%1").arg(size.width()).toUtf8().constData());
        // Picked: a click holds the op while the pointer leaves.
        QTest::mouseClick(shell.window(), Qt::LeftButton, {}, centre(lineItem(shell, 2, 6)));
        QTest::mouseMove(shell.window(), QPoint(4, size.height() - 4));
        WAIT_VERIFY(!shown(shell, "ex05LinkName").isEmpty());
        QTest::qWait(100);
        problems = layoutProblems(collectLayout(shell.window()));
        INFO("picked: " << problems.join(QLatin1Char('\n')).toStdString());
        CHECK(problems.isEmpty());
        shell.navigate(QStringLiteral("stack"));
    }
}

TEST_CASE("EX05 sets a kernel's device time from an imported profile of the same program beside its prediction", "[ex05][qml][profile]")
{
    ShellFixture shell;
    // A profile of jit_mlp, as jax.profiler would have written it on v5e: 12 µs a run.
    const auto imported = profiledDevice("v5e", "TPU v5 lite", "mlp.xplane.pb", "2026-12-01T09:00:00Z",
                                         {profiledOp("jit_mlp", "fusion", "output fusion", 10, 12'000'000)}, 'b');
    progress::ProfileLedger(shell.store()).addProfile(imported);

    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 4) != nullptr);
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, 4)));  // the first dot_general, in kernel 'fusion'
    WAIT_VERIFY(shown(shell, "ex05Kernel").startsWith(QStringLiteral("in HLO kernel fusion ")));
    WAIT_COMPARE(shown(shell, "ex05KernelMeasured"), QStringLiteral("measured 12.0 µs a run on TPU v5 lite · your profile, 2026-12-01"));
    shell.shot("ex05_kernel_measured");
    const QVariantMap found = shell.course().measuredInstruction(QStringLiteral("jit_mlp"), QStringLiteral("fusion"));
    CHECK(found.value("details").toString().startsWith(QStringLiteral("measured · v5e · output fusion")));
    // A kernel the profile did not time shows no measured line.
    CHECK(shell.course().measuredInstruction(QStringLiteral("jit_mlp"), QStringLiteral("fusion.1")).isEmpty());
}

TEST_CASE("EX05 scrolls the other panes to an op's counterparts", "[ex05][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    click(shell, "ex05program_layernorm");
    const Program layernorm("layernorm");
    // Parsing runs off the GUI thread: wait until the new program is shown.
    WAIT_COMPARE(shown(shell, "ex05Count_hlo"), QStringLiteral("%1 ops · 0 dots").arg(ir::all_ops(layernorm.modules[2]).size()));
    // The final add: jaxpr line 17, its HLO far below the fold.
    const int link = layernorm.owner[0][16];
    int hloLine = 0;
    for (std::size_t i = 0; i < layernorm.owner[2].size() && !hloLine; ++i)
        if (layernorm.owner[2][i] == link)
            hloLine = static_cast<int>(i) + 1;
    REQUIRE(hloLine > 40);
    auto *hloPane = qobject_cast<QQuickItem *>(shell.find("ex05Pane_hlo"));
    REQUIRE(hloPane != nullptr);
    WAIT_VERIFY(lineItem(shell, 0, 17) != nullptr);
    WAIT_COMPARE(hloPane->property("contentY").toReal(), 0.0);
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, 17)));
    WAIT_VERIFY(lineItem(shell, 2, hloLine) != nullptr);
    QQuickItem *target = lineItem(shell, 2, hloLine);
    WAIT_VERIFY(target->property("lit").toBool());
    const QRectF inPane = target->mapRectToItem(hloPane, QRectF(0, 0, target->width(), target->height()));
    CHECK(inPane.top() >= 0);
    CHECK(inPane.bottom() <= hloPane->height());
    checkLit(shell, layernorm, link);
    shell.shot("ex05_scrolled_hlo");
}

TEST_CASE("EX05's panes stay put while the pointer runs down a dump", "[ex05][qml]")
{
    // The card above the panes says what the op under the pointer is; if
    // it grew or shrank with the op, the three dumps would jump under the
    // pointer (and all be repainted) as it moved from line to line.
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    auto *pane = qobject_cast<QQuickItem *>(shell.find("ex05Pane_jaxpr"));
    REQUIRE(pane != nullptr);
    const QPointF at = pane->mapToScene(QPointF(0, 0));
    int lines = 0, dots = 0;
    const auto onScreen = [&shell](QQuickItem *item) {
        return item && item->isVisible() && centre(item).y() < shell.window()->height();
    };
    for (int line = 1; onScreen(lineItem(shell, 0, line)); ++line, ++lines) {
        QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, line)));
        QTest::qWait(20);
        dots += shown(shell, "ex05DotShapes").startsWith(QStringLiteral("dot_general"));
        INFO("jaxpr line " << line);
        CHECK(pane->mapToScene(QPointF(0, 0)) == at);
    }
    CHECK(lines > 5);
    CHECK(dots > 0);  // ops with and without a decode were both passed over
}

TEST_CASE("EX05 reads a pasted dump and says where it breaks", "[ex05][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    const QString hloCount = shown(shell, "ex05Count_hlo");

    const auto paste = [&](const QString &text) {
        click(shell, "ex05Paste");
        QObject *area = shell.find("ex05PasteText");
        REQUIRE(area != nullptr);
        WAIT_VERIFY(ShellFixture::isShown(area));
        area->setProperty("text", text);
        click(shell, "ex05PasteGo");
    };

    // Not an IR at all: one sentence, and the program shown stays.
    paste(QStringLiteral("hello, world"));
    WAIT_VERIFY(shown(shell, "ex05Refusal").startsWith(QStringLiteral("pasted is not a jaxpr, StableHLO or HLO dump")));
    CHECK(shown(shell, "ex05Count_hlo") == hloCount);
    CHECK(shell.find("ex05")->property("ownProgram").toBool() == false);  // still the shipped program

    // A jaxpr with a typo: the parser's line and column, in its pane.
    const std::string broken = "{ lambda ; a:f32[8,16] b:f32[16,4]. let\n    c:f32[8,4] = dot_general[\n"
                               "      dimension_numbers=(([1], [0]), ([], []))\n    ] a b\n  in (c,) \n";
    std::string expected;
    try {
        ir::parse_jaxpr(broken);
    } catch (const ir::ParseError &e) {
        expected = e.what();
    }
    REQUIRE(!expected.empty());
    paste(QString::fromStdString(broken));
    WAIT_COMPARE(shown(shell, "ex05Error_jaxpr"), QString::fromStdString(expected));
    CHECK(shell.find("ex05")->property("ownProgram").toBool());
    shell.shot("ex05_paste_error");
    CHECK(shown(shell, "ex05Refusal").startsWith(QStringLiteral("<not shown")));
    // The sample's other layers belonged to another program: they are gone.
    CHECK(shown(shell, "ex05Count_hlo").startsWith(QStringLiteral("<not shown")));

    // A dump dropped on the window goes to the open x-ray: the shipped
    // StableHLO of the MLP joins the pasted jaxpr as its own program's layer.
    const QUrl dropped = QUrl::fromLocalFile(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/ir-samples/mlp.stablehlo.mlir"));
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{dropped})));
    WAIT_COMPARE(shown(shell, "ex05Count_stablehlo").left(7), QStringLiteral("14 ops "));
    CHECK(shown(shell, "ex05Error_jaxpr") == QString::fromStdString(expected));  // the pasted jaxpr stays

    // The fixed text reads (typed this time, sent with Ctrl+Enter), and its
    // dot is decoded on hover.
    click(shell, "ex05Paste");
    QObject *area = shell.find("ex05PasteText");
    WAIT_VERIFY(ShellFixture::isShown(area));
    area->setProperty("text", QString::fromStdString(broken + "}\n"));
    WAIT_VERIFY(area->property("activeFocus").toBool());
    QTest::keyClick(shell.window(), Qt::Key_Return, Qt::ControlModifier);
    WAIT_COMPARE(shown(shell, "ex05Count_jaxpr"), QStringLiteral("1 op · 1 dot"));
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, 2)));
    WAIT_COMPARE(shown(shell, "ex05DotFlops"), QStringLiteral("FLOPs = 2 × 1 × 8 × 4 × 16 = 1,024"));
}

TEST_CASE("EX05 shows the Python a pasted dump points to, when that file is on this machine", "[ex05][qml]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    REQUIRE(QFile::copy(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/ir-samples/mlp.py"), dir.filePath(QStringLiteral("mlp.py"))));
    // The shipped StableHLO, its locations moved to where the copy lives.
    QString text = QString::fromStdString(sample("mlp.stablehlo.mlir"));
    text.replace(QStringLiteral("/home/learner/lab/"), dir.path() + QLatin1Char('/'));

    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    click(shell, "ex05Paste");
    QObject *area = shell.find("ex05PasteText");
    WAIT_VERIFY(ShellFixture::isShown(area));
    area->setProperty("text", text);
    click(shell, "ex05PasteGo");
    WAIT_COMPARE(shown(shell, "ex05Count_stablehlo").left(7), QStringLiteral("14 ops "));
    WAIT_COMPARE(shown(shell, "ex05PythonFile"), QStringLiteral("mlp.py"));

    // Its first dot_general came from line 8: hovering it lights that line.
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 1, 8)));
    WAIT_VERIFY(shell.find("ex05Python_8")->property("lit").toBool());
    CHECK_FALSE(shell.find("ex05Python_9")->property("lit").toBool());
}

TEST_CASE("EX05 opens every real dump of the corpus, the 3 MB Llama dump included", "[ex05][qml][corpus]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    const QDir corpus(QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus"));
    const QStringList files = corpus.entryList({"*.jaxpr", "*.mlir", "*.hlo"}, QDir::Files, QDir::Name);
    REQUIRE(files.size() == 25);
    // The longest the window went without handling a timer tick while a dump loaded.
    QElapsedTimer sinceTick;
    qint64 longestStall = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        longestStall = std::max(longestStall, sinceTick.restart());
    });
    int opened = 0, refused = 0;
    for (const QString &file : files) {
        INFO(file.toStdString());
        QFile f(corpus.filePath(file));
        REQUIRE(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        const ir::Format format = ir::detect_format(text);
        const char *layer = layers[format == ir::Format::jaxpr ? 0 : format == ir::Format::stablehlo ? 1 : 2];
        // What libtpusim makes of it: the pane must show the same.
        QString expected;
        bool parses = true;
        try {
            const ir::Module m = ir::parse(text, format);
            const auto dots = ir::find_dots(m);
            const auto plural = [](std::size_t n, const char *word) {
                return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(word)).arg(n == 1 ? "" : "s");
            };
            expected = plural(ir::all_ops(m).size(), "op") + QStringLiteral(" · ") + plural(dots.size(), "dot");
        } catch (const ir::ParseError &e) {
            expected = QString::fromUtf8(e.what());
            parses = false;
        }
        sinceTick.start();
        tick.start(10);
        const QUrl url = QUrl::fromLocalFile(corpus.filePath(file));
        QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{url})));
        const QByteArray label = QByteArray(parses ? "ex05Count_" : "ex05Error_") + layer;
        WAIT_COMPARE(shown(shell, label.constData()), expected);
        tick.stop();
        (parses ? opened : refused) += 1;
    }
    CHECK(opened == 22);
    CHECK(refused == 3);
    WARN("longest stall of the window while the corpus opened: " << longestStall << " ms");

    // A chip switch re-costs the Llama dump's 21,196 kernels off the GUI thread.
    const QUrl llama = QUrl::fromLocalFile(corpus.filePath(QStringLiteral("xla_llama31_8b_bf16_1x8.hlo")));
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{llama})));
    WAIT_VERIFY(shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v5e")));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("677 dots")));
    longestStall = 0;
    sinceTick.start();
    tick.start(10);
    click(shell, "ex05chip_v6e");
    WAIT_VERIFY(shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v6e")));
    tick.stop();
    WARN("longest stall of the window while the Llama dump was re-costed for v6e: " << longestStall << " ms");

    // An op in the body of Llama 3.1 70B's layer loop: its kernel runs 80 times.
    const QString file70b = corpus.filePath(QStringLiteral("xla_llama31_70b_bf16_16x8.hlo"));
    QFile f70b(file70b);
    REQUIRE(f70b.open(QIODevice::ReadOnly));
    const auto cost70b = tpusim::fusion::cost_hlo_kernels(ir::parse_hlo(f70b.readAll().toStdString()), tpusim::chip("v6e"));
    const auto inLoop = std::find_if(cost70b.kernels.begin(), cost70b.kernels.end(), [](const auto &k) { return k.runs == 80; });
    REQUIRE(inLoop != cost70b.kernels.end());
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file70b)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("32 dots")));
    QTest::mouseMove(shell.window(), QPoint(2, 2));  // away: the pick governs
    QObject *ex05 = shell.find("ex05");
    ex05->setProperty("pickPane", 2);
    ex05->setProperty("pickLine", inLoop->position.line);
    INFO("the kernel line says: " << shown(shell, "ex05KernelTime").toStdString());
    WAIT_VERIFY(shown(shell, "ex05KernelTime").endsWith(
        QStringLiteral("runs 80 times in %1").arg(QString::fromStdString(inLoop->loop))));
}

TEST_CASE("Escape in EX05's open dialog closes the dialog and leaves the page where it is", "[ex05][qml][keys]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    shell.waitUntilBuilt();
    QObject *open = shell.findShown("ex05Open");
    REQUIRE(open);
    QMetaObject::invokeMethod(open, "clicked");
    QObject *picker = shell.find("ex05Picker");
    REQUIRE(picker);
    WAIT_VERIFY(picker->property("visible").toBool());
    QTest::qWait(100);
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_VERIFY(!picker->property("visible").toBool());
    CHECK(shell.window()->property("page").toString() == QStringLiteral("piece"));
}

namespace {

// Frames the window draws in `ms` with no input: 0 when nothing moves.
int framesWithin(ShellFixture &shell, int ms)
{
    int frames = 0;
    const auto counting = QObject::connect(shell.window(), &QQuickWindow::afterRendering, [&] { ++frames; });
    QTest::qWait(ms);
    QObject::disconnect(counting);
    return frames;
}

} // namespace

TEST_CASE("EX05 draws no frame while nothing moves, a 2.9 MB dump open or not", "[ex05][qml][idle]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    shell.waitUntilBuilt();
    QObject *page = shell.findShown("ex05");
    REQUIRE(page);
    QTest::qWait(1000);  // the first frames of the page itself
    // Each pane's ListView made a highlight for its current line and grew
    // it towards the line's width at 400 px/s: a frame every 16 ms for
    // seconds with a sample, for about 20 minutes with this dump.
    CHECK(framesWithin(shell, 2000) == 0);
    const QUrl dump = QUrl::fromLocalFile(QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_8b_bf16_1x8.hlo"));
    QVariant taken;
    QMetaObject::invokeMethod(page, "openDroppedFile", Q_RETURN_ARG(QVariant, taken), Q_ARG(QVariant, dump));
    REQUIRE(taken.toBool());
    (void)QTest::qWaitFor([&] { return !page->property("busy").toBool(); }, 20000);
    REQUIRE_FALSE(page->property("busy").toBool());
    QTest::qWait(1000);
    shell.shot("ex05-llama-idle");
    CHECK(framesWithin(shell, 5000) == 0);
    // Nor on the stack after it.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    QTest::qWait(1000);
    CHECK(framesWithin(shell, 2000) == 0);
}

TEST_CASE("EX05 opens a dump of 118,766 chained dots and decodes any of them", "[ex05][qml][large]")
{
    // As the hostile-input review built it: each dot feeds the next.
    QTemporaryDir dir;
    const int count = 118766;
    const QString path = dir.filePath(QStringLiteral("chain.hlo"));
    {
        QFile out(path);
        REQUIRE(out.open(QIODevice::WriteOnly));
        QByteArray text = "HloModule chain\n\nENTRY main {\n  p0 = f32[64,64]{1,0} parameter(0)\n";
        QByteArray previous = "p0";
        for (int i = 0; i < count; ++i) {
            const QByteArray name = "d" + QByteArray::number(i);
            text += (i + 1 == count ? "  ROOT " : "  ") + name + " = f32[64,64]{1,0} dot(" + previous +
                    ", p0), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n";
            previous = name;
        }
        text += "}\n";
        REQUIRE(out.write(text) == text.size());
    }
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    // The longest the window went without handling a timer tick.
    QElapsedTimer sinceTick;
    qint64 longestStall = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] { longestStall = std::max(longestStall, sinceTick.restart()); });
    sinceTick.start();
    tick.start(10);
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(path)})));
    const QString counted = QStringLiteral("%1 ops · %2 dots").arg(count + 1).arg(count);
    (void)QTest::qWaitFor([&] { return shown(shell, "ex05Count_hlo") == counted; }, 60000);
    REQUIRE(shown(shell, "ex05Count_hlo") == counted);
    WAIT_VERIFY(shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v5e")));
    // Every dot a kernel of its own: nothing in the dump says XLA fused it.
    CHECK(shown(shell, "ex05Cost_hlo").startsWith(QStringLiteral("%1 kernels (the dump looks unoptimized)").arg(count)));
    WARN("longest stall of the window while the chain of dots opened: " << longestStall << " ms");

    // Any dot, decoded when pointed at: the first, on the pane's line 5.
    QObject *ex05 = shell.find("ex05");
    REQUIRE(ex05 != nullptr);
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 2, 5)));
    WAIT_COMPARE(shown(shell, "ex05DotFlops"), QStringLiteral("FLOPs = 2 × 1 × 64 × 64 × 64 = 524,288"));
    const auto v5e = tpusim::roofline(tpusim::chip("v5e"), tpusim::matmul_cost([] {
        tpusim::MatmulSpec spec;
        spec.m = spec.k = spec.n = 64;
        spec.in = spec.out = tpusim::DType::f32;
        return spec;
    }()));
    CHECK(shown(shell, "ex05DotTime").startsWith(
        QStringLiteral("alone on v5e: %1").arg(QString::fromStdString(tpusim::format_time(v5e.time_s)))));

    // A chip switch re-costs every kernel and the card follows.
    longestStall = 0;
    sinceTick.start();
    tick.start(10);
    click(shell, "ex05chip_v6e");
    (void)QTest::qWaitFor([&] { return shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v6e")); }, 60000);
    tick.stop();
    REQUIRE(shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v6e")));
    WAIT_VERIFY(shown(shell, "ex05DotTime").startsWith(QStringLiteral("alone on v6e: ")));
    WARN("longest stall of the window while the chain was re-costed for v6e: " << longestStall << " ms");
}

TEST_CASE("EX05 reads the shardings and device groups of a partitioned dump out on its card", "[ex05][qml][sharding]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    // The shipped programs carry no shardings: no room is kept for them.
    CHECK(shown(shell, "ex05ShardingMeaning").startsWith(QStringLiteral("<not shown")));

    const QString file = QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_70b_bf16_16x8.hlo");
    QFile f(file);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const auto sites = ir::find_shardings(f.readAll().toStdString());
    const auto param = std::find_if(sites.begin(), sites.end(), [](const ir::ShardingSite &s) {
        return s.type.dims == std::vector<std::int64_t>{128, 80, 64, 128} && s.replicas == 2;
    });
    const auto groups = std::find_if(sites.begin(), sites.end(), [](const ir::ShardingSite &s) {
        return s.text == "[64,2]<=[2,64]T(1,0)";
    });
    REQUIRE(param != sites.end());
    REQUIRE(groups != sites.end());
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("32 dots")));
    QTest::mouseMove(shell.window(), QPoint(2, 2));  // away: the pick governs
    QObject *ex05 = shell.find("ex05");
    ex05->setProperty("pickPane", 2);
    ex05->setProperty("pickLine", param->position.line);
    WAIT_COMPARE(shown(shell, "ex05ShardingMeaning"), QString::fromStdString(param->meaning));
    CHECK(shown(shell, "ex05ShardingText").startsWith(QStringLiteral("sharding {devices=[64,1,1,1,2]<=[2,64]T(1,0)")));
    CHECK(shown(shell, "ex05ShardingMeaning").contains(QStringLiteral("of a f32[8192,80,64,128] array.")));
    shell.shot("ex05-sharding");

    // An all-reduce over pairs of devices 64 apart.
    ex05->setProperty("pickLine", groups->position.line);
    WAIT_VERIFY(shown(shell, "ex05ShardingMeaning").startsWith(QStringLiteral("64 groups of 2 devices")));
    CHECK(shown(shell, "ex05ShardingMeaning").contains(QStringLiteral("{0, 64}, {1, 65}, {2, 66} and so on.")));
}

TEST_CASE("EX05 finds text in its dumps with Ctrl+F, and a lone dump takes the panes' width", "[ex05][qml][find]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    const QString file = QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_70b_bf16_16x8.hlo");
    QFile f(file);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    QList<int> matches;  // 1-based lines holding the needle, case ignored
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(QStringLiteral("ALL-REDUCE.1"), Qt::CaseInsensitive))
            matches << i + 1;
    REQUIRE(matches.size() >= 2);
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("32 dots")));

    // Only the HLO pane holds a dump: it gets four times an empty pane's width.
    auto *hloPane = qobject_cast<QQuickItem *>(shell.findShown("ex05Pane_hlo"));
    auto *jaxprPane = qobject_cast<QQuickItem *>(shell.findShown("ex05Pane_jaxpr"));
    REQUIRE(hloPane != nullptr);
    REQUIRE(jaxprPane != nullptr);
    CHECK(hloPane->width() > 3 * jaxprPane->width());

    QTest::mouseMove(shell.window(), QPoint(2, 2));
    QTest::keyClick(shell.window(), Qt::Key_F, Qt::ControlModifier);
    WAIT_COMPARE(shell.window()->activeFocusItem()->objectName(), QStringLiteral("ex05Find"));
    shell.typeText(QStringLiteral("all-reduce.1"));
    QTest::keyClick(shell.window(), Qt::Key_Return);
    QObject *ex05 = shell.find("ex05");
    WAIT_COMPARE(ex05->property("pickLine").toInt(), matches[0]);
    CHECK(ex05->property("pickPane").toInt() == 2);
    CHECK(shown(shell, "ex05FindState") == QStringLiteral("optimized HLO, line %1").arg(matches[0]));
    shell.shot("ex05-find");
    // Enter again: the next line that holds it; the line is brought into view.
    QTest::keyClick(shell.window(), Qt::Key_Return);
    WAIT_COMPARE(ex05->property("pickLine").toInt(), matches[1]);
    WAIT_VERIFY(lineItem(shell, 2, matches[1]) != nullptr && lineItem(shell, 2, matches[1])->isVisible());

    // Text no dump holds says so, and the pick stays.
    shell.window()->activeFocusItem()->setProperty("text", QStringLiteral("no such op anywhere"));
    QTest::keyClick(shell.window(), Qt::Key_Return);
    WAIT_COMPARE(shown(shell, "ex05FindState"), QStringLiteral("\"no such op anywhere\" is in none of the dumps"));
    CHECK(ex05->property("pickLine").toInt() == matches[1]);
    // Escape clears the field first, and leaves the page only from an empty field.
    const QString page = shell.window()->property("page").toString();
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_VERIFY(shell.window()->activeFocusItem()->property("text").toString().isEmpty());
    CHECK(shell.window()->property("page").toString() == page);
    CHECK(shown(shell, "ex05FindState").isEmpty());
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_VERIFY(shell.window()->property("page").toString() != page);
}
