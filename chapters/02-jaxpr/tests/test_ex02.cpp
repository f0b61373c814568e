// g++ 12 reports false -Wrestrict overlaps inside std::string appends (GCC bug 105651).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <coursework/tracer.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>
#include <QVariantMap>

using namespace piece_input;

namespace {

coursework::tracer::Trace traced(const char *program, const char *knob = "", const char *choice = "",
                                 const char *size = "", std::int64_t value = 0)
{
    coursework::tracer::Settings s;
    if (*knob)
        s.choices[knob] = choice;
    if (*size)
        s.sizes[size] = value;
    return coursework::tracer::trace(program, s);
}

QVariantMap current(ShellFixture &shell)
{
    return shell.find("ex02Model")->property("current").toMap();
}
std::string jaxprShown(ShellFixture &shell)
{
    return current(shell).value("jaxpr").toString().toStdString();
}
int stepIndex(ShellFixture &shell)
{
    return current(shell).value("index").toInt();
}

} // namespace

TEST_CASE(
    "EX02: a program stepped line by line into its jaxpr, driven by mouse and keys, goals only for the learner's own "
    "moves",
    "[ex02][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX02")));
    WAIT_VERIFY(shownItem(shell, "ex02Size_B") != nullptr);

    // It opens on the MLP layer at its first line: the arguments are tracers, nothing recorded yet.
    coursework::tracer::Trace mlp = traced("mlp");
    CHECK(shown(shell, "ex02StepText") == "step 1 of 4 · line 1");
    CHECK(jaxprShown(shell) == mlp.text_upto(1));
    CHECK(shown(shell, "ex02Frame_x") == "f32[32,128]");
    // Pointing at a name explains what it is while tracing.
    QTest::mouseMove(window, at(item(shell, "ex02FrameRow_x"), 0.1));
    QObject *card = shell.find("ex02FrameCard_x");
    REQUIRE(card != nullptr);
    WAIT_VERIFY(card->property("visible").toBool());
    CHECK(card->property("text").toString().startsWith(QStringLiteral("x is a tracer: f32[32,128]\n")));
    QTest::mouseMove(window, QPoint(2, 2));
    WAIT_VERIFY(!card->property("visible").toBool());
    CHECK(shell.store().masteryGoalsReached(2).empty());
    shell.shot("ex02_open");

    // "To the end" from the first line shows the finished jaxpr, but the
    // goal is to step through it: lines 2 and 3 were never on screen.
    click(shell, "ex02End");
    WAIT_COMPARE(stepIndex(shell), 3);
    CHECK(jaxprShown(shell) == mlp.text());
    QTest::keyClick(window, Qt::Key_Home);
    WAIT_COMPARE(stepIndex(shell), 0);
    CHECK(shell.store().masteryGoalsReached(2).empty());

    // A click steps one line: x @ w appends dot_general.
    click(shell, "ex02Next");
    WAIT_COMPARE(shown(shell, "ex02StepText"), std::string("step 2 of 4 · line 2"));
    CHECK(jaxprShown(shell) == mlp.text_upto(2));
    CHECK(current(shell).value("added").toStringList().join("\n").contains("dot_general"));
    CHECK(shown(shell, "ex02Frame_h") == "f32[32,512]");
    // The arrow keys step on (the step bar holds the focus after a click); ← goes back.
    QTest::keyClick(window, Qt::Key_Right);
    WAIT_COMPARE(stepIndex(shell), 2);
    QTest::keyClick(window, Qt::Key_Left);
    WAIT_COMPARE(stepIndex(shell), 1);
    CHECK(shell.store().masteryGoalsReached(2).empty());
    QTest::keyClick(window, Qt::Key_End);
    WAIT_COMPARE(stepIndex(shell), 3);
    CHECK(jaxprShown(shell) == mlp.text());
    WAIT_VERIFY(shell.store().masteryGoalsReached(2).count("ch02-step-tracer/step") == 1);
    CHECK(shell.store().masteryGoalsReached(2).size() == 1);
    shell.shot("ex02_mlp_done");

    // A new batch size: jit retraces, and the jaxpr follows the shape.
    typeInto(window, item(shell, "ex02Size_B"), "4");
    WAIT_COMPARE(jaxprShown(shell), traced("mlp", "", "", "B", 4).text());
    CHECK(shown(shell, "ex02Cache") == "jit cache: 2 traces · new shapes or static args: retraced");
    CHECK(shell.store().masteryGoalsReached(2).count("ch02-step-tracer/retrace") == 0);
    // Back to a shape jit has seen: a cache hit, and the goal.
    typeInto(window, item(shell, "ex02Size_B"), "32");
    WAIT_COMPARE(shown(shell, "ex02Cache"),
                 std::string("jit cache: 2 traces · these shapes and static args: cache hit, no retrace"));
    WAIT_VERIFY(shell.store().masteryGoalsReached(2).count("ch02-step-tracer/retrace") == 1);
    // bf16: the weak-typed 0.0 follows the array's dtype.
    click(shell, "ex02Choice_dtype_bf16");
    WAIT_VERIFY(jaxprShown(shell).find("max f 0.0:bf16[]") != std::string::npos);
    CHECK(shown(shell, "ex02Frame_0.0") == "a Python float, weakly typed: enters as the literal 0.0:bf16[]");

    // The scan's body is traced once, into a sub-jaxpr of its own.
    click(shell, "ex02Program_scan");
    WAIT_VERIFY(shownItem(shell, "ex02Size_T") != nullptr);
    click(shell, "ex02Next");
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(window, Qt::Key_Right);
    WAIT_COMPARE(stepIndex(shell), 4);
    CHECK(current(shell).value("innerLabel").toString() == QStringLiteral("scan body"));
    CHECK(current(shell).value("inner").toString().contains(QStringLiteral("in (g, g) }")));
    shell.shot("ex02_scan_body");

    // A static argument: only the branch taken is traced.
    click(shell, "ex02Program_static-if");
    WAIT_VERIFY(shownItem(shell, "ex02Choice_act_tanh") != nullptr);
    click(shell, "ex02Choice_act_tanh");
    WAIT_VERIFY(shell.store().masteryGoalsReached(2).count("ch02-step-tracer/static") == 1);
    click(shell, "ex02End");
    WAIT_COMPARE(jaxprShown(shell), traced("static-if", "act", "tanh").text());

    // A Python if on a traced value: stepped into, JAX's error in place.
    click(shell, "ex02Program_traced-if");
    WAIT_VERIFY(shownItem(shell, "ex02Choice_branch_python if") != nullptr);
    click(shell, "ex02Choice_branch_python if");
    click(shell, "ex02End");
    const coursework::tracer::Trace failing = traced("traced-if", "branch", "python if");
    WAIT_COMPARE(shown(shell, "ex02Error"), failing.error);
    CHECK(
        shown(shell, "ex02Error")
            .rfind(
                "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].",
                0) == 0);
    CHECK(current(shell).value("line").toInt() == 3);
    CHECK(shell.store().masteryGoalsReached(2).count("ch02-step-tracer/concretize") == 0);
    shell.shot("ex02_error");
    // lax.cond instead: one cond equation holding both branches.
    click(shell, "ex02Choice_branch_lax.cond");
    WAIT_VERIFY(shell.store().masteryGoalsReached(2).count("ch02-step-tracer/concretize") == 1);
    CHECK(shownItem(shell, "ex02ErrorCard") == nullptr);
    click(shell, "ex02End");
    WAIT_COMPARE(jaxprShown(shell), traced("traced-if", "branch", "lax.cond").text());
    CHECK(shell.store().masteryItemsDone(2).count("ch02-step-tracer") == 1);
    shell.shot("ex02_cond");

    // A zero size: one sentence in place, and no crash.
    typeInto(window, item(shell, "ex02Size_N"), "0");
    WAIT_COMPARE(shown(shell, "ex02Problem"), std::string("A dimension must be at least 1, and length N is 0."));
    CHECK(shownItem(shell, "ex02Jaxpr") == nullptr);
    shell.shot("ex02_problem");
    typeInto(window, item(shell, "ex02Size_N"), "1024");
    WAIT_VERIFY(shownItem(shell, "ex02Jaxpr") != nullptr);

    // Leaving and coming back keeps the state.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("EX02")));
    WAIT_VERIFY(shownItem(shell, "ex02Size_N") != nullptr);
    CHECK(shell.find("ex02Model")->property("program").toString() == QStringLiteral("traced-if"));
    CHECK(shell.find("ex02Model")->property("choices").toMap().value("branch").toString() ==
          QStringLiteral("lax.cond"));
}

TEST_CASE("EX02: presets named by the chapter text are the course's doing", "[ex02][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX02")));
    WAIT_VERIFY(shownItem(shell, "ex02Size_B") != nullptr);
    QObject *root = shell.find("ex02Root");
    REQUIRE(root != nullptr);
    for (const char *preset : {"softmax", "scan", "vmap", "static-if", "error"}) {
        QVariant ok;
        REQUIRE(QMetaObject::invokeMethod(root, "applyPresetNamed", Q_RETURN_ARG(QVariant, ok),
                                          Q_ARG(QVariant, QString::fromLatin1(preset))));
        CHECK(ok.toBool());
    }
    WAIT_COMPARE(shell.find("ex02Model")->property("program").toString(), QStringLiteral("traced-if"));
    CHECK(stepIndex(shell) == 0);
    CHECK(shell.store().masteryGoalsReached(2).empty());
    QVariant bad;
    REQUIRE(QMetaObject::invokeMethod(root, "applyPresetNamed", Q_RETURN_ARG(QVariant, bad),
                                      Q_ARG(QVariant, QStringLiteral("nonesuch"))));
    CHECK(!bad.toBool());
}
