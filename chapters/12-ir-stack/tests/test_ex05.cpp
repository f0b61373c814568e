#include <catch2/catch.hpp>

#include "ex05_support.h"
#include "labruns/labruns.h"
#include "layout/layoutreport.h"
#include "profilerows.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/chips.h>
#include <tpusim/dtype.h>
#include <tpusim/fusion.h>
#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>
#include <tpusim/ir_xref.h>
#include <tpusim/provenance.h>
#include <tpusim/roofline.h>

#include <QDir>
#include <QFile>
#include <QQuickItem>
#include <QTemporaryDir>
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

using namespace ex05;

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

} // namespace

TEST_CASE("EX05 links one program's ops across jaxpr, StableHLO and HLO as libtpusim does", "[ex05][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    const Program mlp("mlp");
    const auto mlpCost = tpusim::fusion::cost_hlo_kernels(mlp.modules[2], tpusim::chip("v5e"));
    WAIT_COMPARE(shown(shell, "ex05Count_hlo"),
                 QStringLiteral("%1 ops · 2 dots").arg(ir::all_ops(mlp.modules[2]).size()));
    CHECK(shown(shell, "ex05Cost_hlo") == QStringLiteral("%1 kernels as XLA fused them: %2 predicted on v5e")
                                              .arg(mlpCost.kernels.size())
                                              .arg(QString::fromStdString(tpusim::format_time(mlpCost.time_s))));

    // Source bands: every op wears the colour of its Python line, in every layer.
    for (int layer = 0; layer < 3; ++layer)
        for (std::size_t i = 0; i < mlp.owner[layer].size(); ++i) {
            const QByteArray name =
                QStringLiteral("ex05Band_%1_%2").arg(QLatin1String(layers[layer])).arg(i + 1).toUtf8();
            QObject *band = shell.find(name.constData());
            if (!band)
                continue; // not laid out: below the fold
            const int owner = mlp.owner[layer][i];
            const std::string &source = owner >= 0 ? mlp.links[static_cast<std::size_t>(owner)].source : std::string();
            const int expected = source.empty() ? 0 : std::stoi(source.substr(source.rfind(':') + 1));
            INFO(layers[layer] << " line " << i + 1);
            CHECK(band->property("source").toInt() == expected);
        }
    QObject *relu = shell.find("ex05Band_jaxpr_16");
    REQUIRE(relu != nullptr);
    CHECK(relu->property("source").toInt() == 4); // relu's max, from mlp.py:4, inside line 8's jit
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
              .arg(shape.batch)
              .arg(shape.lhs_free)
              .arg(shape.rhs_free)
              .arg(shape.contracting)
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
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 2, 12))); // ROOT %maximum.1
    const int maxLink = mlp.owner[2][11];
    REQUIRE(maxLink >= 0);
    WAIT_COMPARE(shown(shell, "ex05LinkName"),
                 QString::fromStdString(mlp.links[static_cast<std::size_t>(maxLink)].primitive));
    checkLit(shell, mlp, maxLink);
    // %maximum.1 sits in the body of the first fusion: the card names that kernel.
    // The chip was just switched to v6e: the kernels are re-costed off the
    // GUI thread, and the card shows the kernel once they are back.
    const auto &kernel = mlpCost.kernels.front();
    WAIT_COMPARE(shown(shell, "ex05Kernel"),
                 QStringLiteral("in HLO kernel %1 · output fusion on the MXU · %2")
                     .arg(QString::fromStdString(kernel.name),
                          QString::fromStdString(tpusim::format_rate(kernel.flops, "FLOP"))));
    CHECK(shown(shell, "ex05KernelBytes") ==
          QStringLiteral("reads %1, writes %2")
              .arg(QString::fromStdString(tpusim::format_bytes(kernel.bytes_read)),
                   QString::fromStdString(tpusim::format_bytes(kernel.bytes_written))));
    const auto onV6e = tpusim::fusion::cost_hlo_kernels(mlp.modules[2], tpusim::chip("v6e"));
    // The chip switch re-costs the kernels on a worker thread.
    WAIT_VERIFY(shown(shell, "ex05KernelTime")
                    .startsWith(QStringLiteral("· %1 on v6e")
                                    .arg(QString::fromStdString(tpusim::format_time(onV6e.kernels.front().time_s)))));

    // The keyboard: a click picks an op, Down steps to the next linked op,
    // and stepping through every op of the program earns the mastery item.
    QTest::mouseClick(shell.window(), Qt::LeftButton, {}, centre(lineItem(shell, 0, 2)));
    QTest::mouseMove(shell.window(), QPoint(2, 2)); // away: the pick governs
    CHECK(shell.store().masteryItemsDone(12).count("ch12-ir-xray") == 0);
    std::vector<int> starts; // the first line of each linked op, as Down visits them
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

TEST_CASE("EX05 sets a kernel's device time from an imported profile of the same program beside its prediction",
          "[ex05][qml][profile]")
{
    ShellFixture shell;
    // A profile of jit_mlp, as jax.profiler would have written it on v5e: 12 µs a run.
    const auto imported = profiledDevice("v5e", "TPU v5 lite", "mlp.xplane.pb", "2026-12-01T09:00:00Z",
                                         {profiledOp("jit_mlp", "fusion", "output fusion", 10, 12'000'000)}, 'b');
    progress::ProfileLedger(shell.store()).addProfile(imported);

    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 4) != nullptr);
    QTest::mouseMove(shell.window(), centre(lineItem(shell, 0, 4))); // the first dot_general, in kernel 'fusion'
    WAIT_VERIFY(shown(shell, "ex05Kernel").startsWith(QStringLiteral("in HLO kernel fusion ")));
    WAIT_COMPARE(shown(shell, "ex05KernelMeasured"),
                 QStringLiteral("measured 12 µs a run on TPU v5 lite · your profile, 2026-12-01"));
    shell.shot("ex05_kernel_measured");
    const QVariantMap found =
        shell.course().labRuns()->measuredInstruction(QStringLiteral("jit_mlp"), QStringLiteral("fusion"));
    CHECK(found.value("details").toString().startsWith(QStringLiteral("measured · v5e · output fusion")));
    // A kernel the profile did not time shows no measured line.
    CHECK(
        shell.course().labRuns()->measuredInstruction(QStringLiteral("jit_mlp"), QStringLiteral("fusion.1")).isEmpty());
}

TEST_CASE("EX05 scrolls the other panes to an op's counterparts", "[ex05][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    click(shell, "ex05program_layernorm");
    const Program layernorm("layernorm");
    // Parsing runs off the GUI thread: wait until the new program is shown.
    WAIT_COMPARE(shown(shell, "ex05Count_hlo"),
                 QStringLiteral("%1 ops · 0 dots").arg(ir::all_ops(layernorm.modules[2]).size()));
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
    CHECK(dots > 0); // ops with and without a decode were both passed over
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
    CHECK(shell.find("ex05")->property("ownProgram").toBool() == false); // still the shipped program

    // A jaxpr with a typo: the parser's line and column, in its pane.
    const std::string broken =
        "{ lambda ; a:f32[8,16] b:f32[16,4]. let\n    c:f32[8,4] = dot_general[\n"
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
    const QUrl dropped =
        QUrl::fromLocalFile(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/ir-samples/mlp.stablehlo.mlir"));
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(QVariantList{dropped})));
    WAIT_COMPARE(shown(shell, "ex05Count_stablehlo").left(7), QStringLiteral("14 ops "));
    CHECK(shown(shell, "ex05Error_jaxpr") == QString::fromStdString(expected)); // the pasted jaxpr stays

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

    // An op name with a typo reads, but is named, with the op meant: the
    // pane would otherwise show 0 dots and say nothing of why.
    paste(QStringLiteral(
        "module @m {\n  func.func public @main(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {\n"
        "    %0 = stablehlo.dot_genral %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, "
        "tensor<16x4xf32>) -> tensor<8x4xf32>\n    return %0 : tensor<8x4xf32>\n  }\n}\n"));
    WAIT_COMPARE(
        shown(shell, "ex05Note_stablehlo"),
        QStringLiteral("line 3: stablehlo.dot_genral is not a StableHLO op; did you mean stablehlo.dot_general?"));
    CHECK(shown(shell, "ex05Count_stablehlo") == QStringLiteral("2 ops · 0 dots"));
    shell.shot("ex05_paste_typo");
}

TEST_CASE("EX05 shows the Python a pasted dump points to, when that file is on this machine", "[ex05][qml]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    REQUIRE(QFile::copy(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/ir-samples/mlp.py"),
                        dir.filePath(QStringLiteral("mlp.py"))));
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
