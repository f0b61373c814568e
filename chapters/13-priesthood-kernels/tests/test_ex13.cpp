#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/chips.h>
#include <tpusim/decode_attention.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

using namespace piece_input;

namespace {

std::set<std::string> goalsReached(ShellFixture &shell)
{
    return shell.store().masteryGoalsReached(13);
}

// The step the piece shows, as libtpusim prices it.
tpusim::DecodeAttentionResult predicted(std::vector<std::int64_t> lengths, std::int64_t kvHeads, std::int64_t page,
                                        std::int64_t perStep, tpusim::DType dtype = tpusim::DType::bf16)
{
    tpusim::DecodeAttentionSpec s;
    s.context = std::move(lengths);
    s.heads = 32;
    s.kv_heads = kvHeads;
    s.page_size = page;
    s.pages_per_block = perStep;
    s.kv_dtype = dtype;
    return tpusim::decode_attention(tpusim::chip("v5e"), s);
}

const std::vector<std::int64_t> kRagged{4096, 3547, 3035, 2523, 2011, 1499, 987, 475};

} // namespace

TEST_CASE("EX13: pages, page tables and the step's price as libtpusim says; goals from the learner's edits",
          "[ex13][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX13")));
    WAIT_VERIFY(shownItem(shell, "ex13PagesPerBlock") != nullptr);

    // It opens on the ragged batch, 16-token pages, 8 pages a step: a step
    // too small for HBM's peak, so its grid steps set the time.
    tpusim::DecodeAttentionResult r = predicted(kRagged, 8, 16, 8);
    WAIT_COMPARE(shown(shell, "ex13BytesPerToken"), tpusim::format_bytes(r.bytes_per_token));
    CHECK(shown(shell, "ex13Steps") == std::to_string(r.steps));
    CHECK(shown(shell, "ex13Time").rfind(tpusim::format_time(r.time_s) + "  bound by its grid steps", 0) == 0);
    CHECK(r.bandwidth < 0.6);
    CHECK(goalsReached(shell).empty());
    // The pool holds every sequence's pages and a quarter more, each page owned once.
    QObject *model = shell.find("ex13Model");
    REQUIRE(model != nullptr);
    const QVariantMap cache = model->property("cache").toMap();
    const QVariantList pool = cache.value(QStringLiteral("pool")).toList();
    std::int64_t pages = 0;
    for (std::int64_t n : kRagged)
        pages += (n + 15) / 16;
    CHECK(pool.size() == pages + (pages + 3) / 4);
    std::vector<int> owners(pool.size(), -1);
    int owned = 0;
    const QVariantList sequences = cache.value(QStringLiteral("sequences")).toList();
    REQUIRE(sequences.size() == 8);
    for (int s = 0; s < sequences.size(); ++s)
        for (const QVariant &p : sequences[s].toMap().value(QStringLiteral("pages")).toList()) {
            CHECK(pool[p.toInt()].toInt() == s);
            ++owned;
        }
    CHECK(owned == pages);
    // The last sequence, 475 tokens: 30 pages, the last holding 11 tokens.
    CHECK(sequences[7].toMap().value(QStringLiteral("lastFill")).toInt() == 475 - 29 * 16);
    shell.shot("ex13_open");

    // Pointing at a page of sequence 3 prints that sequence's page table.
    QQuickItem *canvas = item(shell, "ex13Pool");
    const int cell = canvas->property("cell").toInt(), columns = canvas->property("columns").toInt();
    const int slot = sequences[3].toMap().value(QStringLiteral("pages")).toList()[2].toInt();
    const QPointF centre = canvas->mapToScene(QPointF((slot % columns + 0.5) * cell, (slot / columns + 0.5) * cell));
    QTest::mouseMove(window, centre.toPoint() + QPoint(1, 0));
    QTest::mouseMove(window, centre.toPoint());
    WAIT_VERIFY(
        shown(shell, "ex13PageTable")
            .rfind("sequence 3 · 2523 tokens in 158 pages · this is its page 2, pool slot " + std::to_string(slot),
                   0) == 0);

    // More pages a step, by the learner's drag: fewer, bigger steps reach the roof and leave XLA's gather behind.
    QQuickItem *perStep = item(shell, "ex13PagesPerBlock");
    for (int i = 0; i < 8 && model->property("pagesPerBlock").toInt() < 128; ++i)
        drag(window, perStep, 40);
    const int chosen = model->property("pagesPerBlock").toInt();
    REQUIRE(chosen >= 64);
    r = predicted(kRagged, 8, 16, chosen);
    WAIT_COMPARE(shown(shell, "ex13Steps"), std::to_string(r.steps));
    CHECK(r.bandwidth >= 0.6);
    CHECK(r.xla_time_s >= 2 * r.time_s);
    WAIT_VERIFY(goalsReached(shell).count("ch13-paged-cache/roof") == 1);
    WAIT_VERIFY(goalsReached(shell).count("ch13-paged-cache/xla") == 1);
    shell.shot("ex13_roof");

    // An int8 cache and one K/V head for four query heads: a token costs a fraction of the bytes.
    click(shell, "ex13KvHeads_4");
    click(shell, "ex13Dtype_int8");
    r = predicted(kRagged, 4, 16, chosen, tpusim::DType::int8);
    WAIT_COMPARE(shown(shell, "ex13BytesPerToken"), tpusim::format_bytes(r.bytes_per_token));
    CHECK(r.bytes_per_token < predicted(kRagged, 8, 16, chosen).bytes_per_token / 3);

    // Another batch: one long sequence, the pool redrawn for it.
    click(shell, "ex13Batch_one long");
    WAIT_COMPARE(model->property("cache")
                     .toMap()
                     .value(QStringLiteral("sequences"))
                     .toList()
                     .first()
                     .toMap()
                     .value(QStringLiteral("length"))
                     .toInt(),
                 16384);
}
