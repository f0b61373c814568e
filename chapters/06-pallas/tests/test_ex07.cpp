#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/vmem_budget.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

using namespace piece_input;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

std::int64_t intValue(QQuickItem *scrub)
{
    return static_cast<std::int64_t>(scrub->property("value").toDouble());
}

// The kernel the piece shows, as libtpusim takes it.
tpusim::BudgetKernelSpec specShown(ShellFixture &shell, const std::string &kernel, tpusim::DType dtype, int buffers)
{
    const tpusim::BudgetKernelInfo &info = tpusim::budget_kernel_info(kernel);
    tpusim::BudgetKernelSpec spec;
    spec.kind = info.kind;
    spec.dtype = dtype;
    spec.input_buffers = buffers;
    for (const auto &d : info.sizes)
        spec.sizes.push_back(intValue(item(shell, ("ex07Size_" + d.name).c_str())));
    for (const auto &d : info.blocks)
        spec.blocks.push_back(intValue(item(shell, ("ex07Block_" + d.name).c_str())));
    return spec;
}

double limitShown(ShellFixture &shell)
{
    return item(shell, "ex07Limit")->property("value").toDouble() * MiB;
}

} // namespace

TEST_CASE("EX07: drag over the limit, read the compiler, raise the limit, fit three kernels, as libtpusim says",
          "[ex07][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX07")));
    WAIT_VERIFY(shownItem(shell, "ex07Block_bn") != nullptr);
    const tpusim::Chip &v5e = tpusim::chip("v5e");

    // The docs' matmul, as the piece opens: 10 MiB of a 16 MiB limit.
    tpusim::BudgetKernelSpec spec = specShown(shell, "matmul", tpusim::DType::bf16, 2);
    tpusim::VmemBudget budget = tpusim::vmem_budget(v5e, spec);
    WAIT_COMPARE(shown(shell, "ex07Total"), tpusim::format_bytes(budget.total_bytes));
    CHECK(shown(shell, "ex07Verdict") == budget.verdict);
    CHECK(shown(shell, "ex07LineTotal_1") == "2 × 2 MiB = 4 MiB");
    CHECK(shown(shell, "ex07DefaultLimitValue") == tpusim::format_fact(v5e.scoped_vmem_default));
    CHECK(shownItem(shell, "ex07ErrorToggle") == nullptr);
    shell.shot("ex07_docs");

    // bn dragged up eight lane tiles, 1024 -> 2048: 18 MiB, over the limit.
    QQuickItem *bn = item(shell, "ex07Block_bn");
    CHECK(bn->property("snapHint").toString().startsWith(QStringLiteral("snaps to multiples of 128 (128 lanes)")));
    drag(window, bn, 66);
    WAIT_COMPARE(intValue(bn), std::int64_t(2048));
    spec = specShown(shell, "matmul", tpusim::DType::bf16, 2);
    budget = tpusim::vmem_budget(v5e, spec);
    REQUIRE_FALSE(budget.fits);
    REQUIRE(budget.error);
    WAIT_COMPARE(shown(shell, "ex07Total"), tpusim::format_bytes(budget.total_bytes));
    CHECK(shown(shell, "ex07Verdict") == budget.verdict);
    CHECK(shown(shell, "ex07LimitText").find(tpusim::format_bytes(budget.limit_bytes)) != std::string::npos);

    // The compiler's message opens on request, quoted with its source; that is the "over" goal.
    click(shell, "ex07ErrorToggle");
    WAIT_COMPARE(shown(shell, "ex07ErrorQuoted"), "“" + budget.error->quoted + " …”");
    CHECK(shown(shell, "ex07ErrorSource") == "quoted from " + budget.error->source);
    CHECK(shown(shell, "ex07ErrorExplanation") == budget.error->explanation);
    WAIT_VERIFY(shell.store().masteryGoalsReached(6).count("ch06-vmem-budget/over") == 1);
    shell.shot("ex07_over");

    // Raise vmem_limit_bytes to 32 MiB: it compiles, and the limit is the raised one.
    typeInto(window, item(shell, "ex07Limit"), "32");
    WAIT_COMPARE(limitShown(shell), 32 * MiB);
    budget = tpusim::vmem_budget(v5e, spec, 32 * MiB);
    REQUIRE(budget.fits);
    WAIT_COMPARE(shown(shell, "ex07Verdict"), budget.verdict);
    CHECK(shown(shell, "ex07LimitText").find("(raised)") != std::string::npos);
    CHECK(shownItem(shell, "ex07ErrorQuoted") == nullptr);
    WAIT_VERIFY(shell.store().masteryGoalsReached(6).count("ch06-vmem-budget/raise") == 1);

    // The suggestion for these sizes under 32 MiB, taken by the button.
    const tpusim::BlockSuggestion suggestion = tpusim::largest_fitting_blocks(v5e, spec, 32 * MiB);
    REQUIRE(suggestion.found);
    CHECK(shown(shell, "ex07Suggestion") ==
          "bm=" + std::to_string(suggestion.blocks[0]) + " bk=" + std::to_string(suggestion.blocks[1]) +
              " bn=" + std::to_string(suggestion.blocks[2]) + " · " + tpusim::format_bytes(suggestion.total_bytes));
    click(shell, "ex07UseSuggestion");
    WAIT_COMPARE(specShown(shell, "matmul", tpusim::DType::bf16, 2).blocks, suggestion.blocks);
    WAIT_COMPARE(shown(shell, "ex07UseSuggestion"), std::string("in use"));

    // Flash attention: its preset, then block_q typed down to 256; it fits
    // the raised limit with blocks of the learner's own.
    click(shell, "ex07Kernel_attention");
    WAIT_VERIFY(shownItem(shell, "ex07Block_block_q") != nullptr);
    typeInto(window, item(shell, "ex07Block_block_q"), "256");
    WAIT_COMPARE(intValue(item(shell, "ex07Block_block_q")), std::int64_t(256));
    spec = specShown(shell, "attention", tpusim::DType::bf16, 2);
    budget = tpusim::vmem_budget(v5e, spec, limitShown(shell));
    REQUIRE(budget.fits);
    WAIT_COMPARE(shown(shell, "ex07Total"), tpusim::format_bytes(budget.total_bytes));
    CHECK(shown(shell, "ex07LineName_7") == "scores · temporary");

    // Three buffers per streamed input.
    click(shell, "ex07Buffers_3");
    budget = tpusim::vmem_budget(v5e, specShown(shell, "attention", tpusim::DType::bf16, 3), limitShown(shell));
    WAIT_COMPARE(shown(shell, "ex07Total"), tpusim::format_bytes(budget.total_bytes));
    CHECK(shown(shell, "ex07LineTotal_0").rfind("3 × ", 0) == 0);
    shell.shot("ex07_attention");

    // The layernorm with 128-row blocks: the third kernel fitted, the item done.
    CHECK(shell.store().masteryGoalsReached(6).count("ch06-vmem-budget/fit-three") == 0);
    click(shell, "ex07Kernel_layernorm");
    WAIT_VERIFY(shownItem(shell, "ex07Block_block_rows") != nullptr);
    typeInto(window, item(shell, "ex07Block_block_rows"), "128");
    WAIT_COMPARE(intValue(item(shell, "ex07Block_block_rows")), std::int64_t(128));
    WAIT_VERIFY(shell.store().masteryGoalsReached(6).count("ch06-vmem-budget/fit-three") == 1);
    CHECK(shell.store().masteryItemsDone(6).count("ch06-vmem-budget") == 1);
    WAIT_VERIFY(shell.findShown("goal_fit-three")->property("reached").toBool());

    // An illegal block: 12 rows is no multiple of 8, and the lowering says so first.
    typeInto(window, item(shell, "ex07Block_block_rows"), "12");
    WAIT_COMPARE(intValue(item(shell, "ex07Block_block_rows")), std::int64_t(12));
    spec = specShown(shell, "layernorm", tpusim::DType::bf16, 2);
    budget = tpusim::vmem_budget(v5e, spec, limitShown(shell));
    REQUIRE_FALSE(budget.legal);
    WAIT_COMPARE(shown(shell, "ex07Verdict"), budget.verdict);
    WAIT_COMPARE(shown(shell, "ex07ErrorQuoted"), "“" + budget.error->quoted + " …”"); // still open
    CHECK(shown(shell, "ex07LineIllegal_0") == budget.lines[0].legality.reason);
    shell.shot("ex07_illegal");

    // Per chip: on v7 a block of 24 bf16 rows pads to 32 (16-row tiles), elsewhere
    // it stays at 24, and the budget follows.
    typeInto(window, item(shell, "ex07Block_block_rows"), "24");
    click(shell, "ex07Chip_v7");
    WAIT_COMPARE(intValue(item(shell, "ex07Block_block_rows")), std::int64_t(24));
    spec = specShown(shell, "layernorm", tpusim::DType::bf16, 2);
    budget = tpusim::vmem_budget(tpusim::chip("v7"), spec, limitShown(shell));
    WAIT_COMPARE(shown(shell, "ex07Total"), tpusim::format_bytes(budget.total_bytes));
    CHECK(budget.total_bytes > tpusim::vmem_budget(v5e, spec, limitShown(shell)).total_bytes);
    CHECK(shown(shell, "ex07PhysicalValue") == tpusim::format_fact(tpusim::chip("v7").vmem_per_core));
    shell.shot("ex07_v7");
}

TEST_CASE("EX07: presets and the suggestion are the course's doing, not fits of the learner's own", "[ex07][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX07")));
    WAIT_VERIFY(shownItem(shell, "ex07Block_bn") != nullptr);
    for (const char *kernel : {"ex07Kernel_matmul", "ex07Kernel_attention", "ex07Kernel_layernorm"}) {
        click(shell, kernel);
        click(shell, "ex07UseSuggestion");
        WAIT_COMPARE(shown(shell, "ex07UseSuggestion"), std::string("in use"));
    }
    QTest::qWait(200);
    CHECK(shell.store().masteryGoalsReached(6).empty());
    CHECK_FALSE(shell.findShown("goal_fit-three")->property("reached").toBool());
}

TEST_CASE("EX07: the words after the total keep their place while a block is scrubbed", "[ex07][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX07")));
    WAIT_VERIFY(shownItem(shell, "ex07Block_bm") != nullptr);
    WAIT_COMPARE(shown(shell, "ex07Total"), std::string("10 MiB"));
    QQuickItem *limitText = item(shell, "ex07LimitText");
    const double before = limitText->mapToScene(QPointF(0, 0)).x();

    // bm up a few sublane steps: no longer a whole number of MiB.
    drag(shell.window(), item(shell, "ex07Block_bm"), 12);
    WAIT_VERIFY(shown(shell, "ex07Total").find('.') != std::string::npos);
    WAIT_COMPARE(limitText->mapToScene(QPointF(0, 0)).x(), before);
}
