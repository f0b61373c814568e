// EX·05 with real dumps: the corpus opened whole, the open dialog's keys,
// no frame while idle, a dump of 118,766 dots, the shardings read out on
// the card, Ctrl+F, and the card's layout beside a lone dump.
#include <catch2/catch.hpp>

#include "ex05_support.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/chips.h>
#include <tpusim/fusion.h>
#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>
#include <tpusim/ir_sharding.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QQuickItem>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>

namespace ir = tpusim::ir;
using namespace ex05;

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
    QObject::connect(&tick, &QTimer::timeout, [&] { longestStall = std::max(longestStall, sinceTick.restart()); });
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

    // An op of a computation a reduce applies (to_apply) runs in that
    // reduce's kernel, and says so.
    {
        QFile f8b(corpus.filePath(QStringLiteral("xla_llama31_8b_bf16_1x8.hlo")));
        REQUIRE(f8b.open(QIODevice::ReadOnly));
        const ir::Module m8b = ir::parse_hlo(f8b.readAll().toStdString());
        const ir::Computation *region = m8b.find("region_0.2724");
        REQUIRE(region != nullptr);
        const auto cost8b = tpusim::fusion::cost_hlo_kernels(m8b, tpusim::chip("v6e"));
        const auto applying = std::find_if(cost8b.kernels.begin(), cost8b.kernels.end(),
                                           [](const auto &k) { return k.name == "reduce.128"; });
        REQUIRE(applying != cost8b.kernels.end());
        QTest::mouseMove(shell.window(), QPoint(2, 2)); // away: the pick governs
        QObject *ex05 = shell.find("ex05");
        ex05->setProperty("pickPane", 2);
        ex05->setProperty("pickLine", region->ops.back().position.line); // its ROOT add
        WAIT_VERIFY(shown(shell, "ex05Kernel").startsWith(QStringLiteral("in HLO kernel reduce.128 · ")));

        // A computation no op calls never runs, and its ops say so.
        const ir::Computation *dead = m8b.find("region_6.3145");
        REQUIRE(dead != nullptr);
        for (const ir::Computation &c : m8b.computations)
            for (const ir::Op &op : c.ops)
                REQUIRE(std::find(op.called.begin(), op.called.end(), dead->name) == op.called.end());
        ex05->setProperty("pickLine", dead->ops.back().position.line);
        WAIT_COMPARE(shown(shell, "ex05LinkWhere"),
                     QStringLiteral("in %region_6.3145, which no op of this module calls: it never runs"));
        CHECK_FALSE(shown(shell, "ex05Kernel").startsWith(QStringLiteral("in HLO kernel")));
        // The line the card tells of is lit, though no other layer links it.
        const int deadLine = dead->ops.back().position.line;
        WAIT_VERIFY(lineItem(shell, 2, deadLine) != nullptr && lineItem(shell, 2, deadLine)->property("lit").toBool());
        CHECK_FALSE(lineItem(shell, 2, deadLine + 2)->property("lit").toBool());
    }

    // An op in the body of Llama 3.1 70B's layer loop: its kernel runs 80 times.
    const QString file70b = corpus.filePath(QStringLiteral("xla_llama31_70b_bf16_16x8.hlo"));
    QFile f70b(file70b);
    REQUIRE(f70b.open(QIODevice::ReadOnly));
    const auto cost70b =
        tpusim::fusion::cost_hlo_kernels(ir::parse_hlo(f70b.readAll().toStdString()), tpusim::chip("v6e"));
    const auto inLoop =
        std::find_if(cost70b.kernels.begin(), cost70b.kernels.end(), [](const auto &k) { return k.runs == 80; });
    REQUIRE(inLoop != cost70b.kernels.end());
    QMetaObject::invokeMethod(shell.window(), "openFiles",
                              Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file70b)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("32 dots")));
    QTest::mouseMove(shell.window(), QPoint(2, 2)); // away: the pick governs
    QObject *ex05 = shell.find("ex05");
    ex05->setProperty("pickPane", 2);
    ex05->setProperty("pickLine", inLoop->position.line);
    INFO("the kernel line says: " << shown(shell, "ex05KernelTime").toStdString());
    WAIT_VERIFY(shown(shell, "ex05KernelTime")
                    .endsWith(QStringLiteral("runs 80 times in %1").arg(QString::fromStdString(inLoop->loop))));
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
    QTest::qWait(1000); // the first frames of the page itself
    // Each pane's ListView made a highlight for its current line and grew
    // it towards the line's width at 400 px/s: a frame every 16 ms for
    // seconds with a sample, for about 20 minutes with this dump.
    CHECK(framesWithin(shell, 2000) == 0);
    const QUrl dump = QUrl::fromLocalFile(
        QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_8b_bf16_1x8.hlo"));
    // The actions stay where they are while the dump is read: "parsing…"
    // is said beside the find field, not beside them.
    auto *paste = qobject_cast<QQuickItem *>(shell.findShown("ex05Paste"));
    REQUIRE(paste);
    const QPointF pasteAt = paste->mapToScene(QPointF(0, 0));
    QVariant taken;
    QMetaObject::invokeMethod(page, "openDroppedFile", Q_RETURN_ARG(QVariant, taken), Q_ARG(QVariant, dump));
    REQUIRE(taken.toBool());
    WAIT_VERIFY(page->property("busy").toBool());
    CHECK(shown(shell, "ex05FindState") == QStringLiteral("parsing…"));
    QTest::qWait(50); // a frame's layout
    CHECK(paste->mapToScene(QPointF(0, 0)) == pasteAt);
    (void)QTest::qWaitFor([&] { return !page->property("busy").toBool(); }, 20000);
    REQUIRE_FALSE(page->property("busy").toBool());
    CHECK(paste->mapToScene(QPointF(0, 0)) == pasteAt);
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
    QMetaObject::invokeMethod(shell.window(), "openFiles",
                              Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(path)})));
    const QString counted = QStringLiteral("%1 ops · %2 dots").arg(count + 1).arg(count);
    (void)QTest::qWaitFor([&] { return shown(shell, "ex05Count_hlo") == counted; }, 60000);
    REQUIRE(shown(shell, "ex05Count_hlo") == counted);
    WAIT_VERIFY(shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v5e")));
    // Every dot a kernel of its own: nothing in the dump says XLA fused it.
    CHECK(
        shown(shell, "ex05Cost_hlo").startsWith(QStringLiteral("%1 kernels (the dump looks unoptimized)").arg(count)));
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
    CHECK(shown(shell, "ex05DotTime")
              .startsWith(
                  QStringLiteral("alone on v5e: %1").arg(QString::fromStdString(tpusim::format_time(v5e.time_s)))));

    // A chip switch re-costs every kernel and the card follows.
    longestStall = 0;
    sinceTick.start();
    tick.start(10);
    click(shell, "ex05chip_v6e");
    (void)QTest::qWaitFor([&] { return shown(shell, "ex05Cost_hlo").endsWith(QStringLiteral("predicted on v6e")); },
                          60000);
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

    const QString file =
        QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_70b_bf16_16x8.hlo");
    QFile f(file);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const auto sites = ir::find_shardings(f.readAll().toStdString());
    const auto param = std::find_if(sites.begin(), sites.end(), [](const ir::ShardingSite &s) {
        return s.type.dims == std::vector<std::int64_t>{128, 80, 64, 128} && s.replicas == 2;
    });
    const auto groups = std::find_if(sites.begin(), sites.end(),
                                     [](const ir::ShardingSite &s) { return s.text == "[64,2]<=[2,64]T(1,0)"; });
    REQUIRE(param != sites.end());
    REQUIRE(groups != sites.end());
    QMetaObject::invokeMethod(shell.window(), "openFiles",
                              Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("32 dots")));
    QTest::mouseMove(shell.window(), QPoint(2, 2)); // away: the pick governs
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
    const QString file =
        QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_70b_bf16_16x8.hlo");
    QFile f(file);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    QList<int> matches; // 1-based lines holding the needle, case ignored
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(QStringLiteral("ALL-REDUCE.1"), Qt::CaseInsensitive))
            matches << i + 1;
    REQUIRE(matches.size() >= 2);
    QMetaObject::invokeMethod(shell.window(), "openFiles",
                              Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("32 dots")));

    // Only the HLO pane holds a dump: it gets four times an empty pane's
    // width, once the row is laid out again (at the next polish).
    auto *hloPane = qobject_cast<QQuickItem *>(shell.findShown("ex05Pane_hlo"));
    auto *jaxprPane = qobject_cast<QQuickItem *>(shell.findShown("ex05Pane_jaxpr"));
    REQUIRE(hloPane != nullptr);
    REQUIRE(jaxprPane != nullptr);
    WAIT_VERIFY(hloPane->width() > 3 * jaxprPane->width());

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

// A dump opened alone has no Python beside the card, so the card runs the
// window's width: the op and a dot's decoding sit side by side there, and
// the dumps below keep most of the height. A sample program, its Python
// beside the card, stacks them. Each operand is shown with its own type.
TEST_CASE("EX05's card sets a lone dump's dot beside its op, each operand typed", "[ex05][qml][layout]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX05")));
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    QObject *ex05 = shell.find("ex05");
    REQUIRE(ex05);
    const auto rect = [&shell](const char *name) {
        auto *item = qobject_cast<QQuickItem *>(shell.findShown(name));
        return item ? item->mapRectToScene(QRectF(0, 0, item->width(), item->height())) : QRectF();
    };
    // A sample program (the matmul): its Python beside the card, the dot
    // under the op.
    click(shell, "ex05program_matmul");
    WAIT_VERIFY(lineItem(shell, 0, 2) != nullptr);
    ex05->setProperty("pickPane", 0);
    ex05->setProperty("pickLine", 2); // c:f32[128,512] = dot_general[
    WAIT_VERIFY(!rect("ex05LinkWhere").isNull() && !shown(shell, "ex05DotShapes").isEmpty());
    CHECK(rect("ex05DotShapes").top() > rect("ex05LinkWhere").bottom());

    const QString file =
        QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_multiple_gemm_fusions.hlo");
    QMetaObject::invokeMethod(shell.window(), "openFiles",
                              Q_ARG(QVariant, QVariant(QVariantList{QUrl::fromLocalFile(file)})));
    WAIT_VERIFY(shown(shell, "ex05Count_hlo").endsWith(QStringLiteral("3 dots")));
    auto *hloPane = qobject_cast<QQuickItem *>(shell.findShown("ex05Pane_hlo"));
    REQUIRE(hloPane);
    // Line 5: ROOT d1 = f32[64,64,64] dot(p0, c), p0 and c both f16.
    ex05->setProperty("pickPane", 2);
    ex05->setProperty("pickLine", 5);
    WAIT_COMPARE(shown(shell, "ex05DotShapes"),
                 QStringLiteral("dot in optimized HLO:  f16[64,64,64] · f16[64,64,64]  →  f32[64,64,64]"));
    WAIT_VERIFY(rect("ex05DotShapes").left() > rect("ex05LinkWhere").left() + 100);
    const QRectF where = rect("ex05LinkWhere"), shapes = rect("ex05DotShapes");
    CHECK(shapes.left() >= where.right());
    CHECK(shapes.top() < where.bottom()); // beside, not under
    const double paneHeight = hloPane->height();
    INFO("the HLO pane is " << paneHeight << " px of a " << shell.window()->height() << " px window");
    CHECK(paneHeight >= 0.5 * shell.window()->height());
    // Another op, with no dot: the card keeps its height, so the panes stay.
    ex05->setProperty("pickLine", 4);
    WAIT_VERIFY(shown(shell, "ex05DotShapes").isEmpty());
    CHECK(hloPane->height() == paneHeight);
}
