#include "pagedcachemodel.h"
#include "variants.h"

#include <tpusim/chips.h>
#include <tpusim/decode_attention.h>
#include <tpusim/error.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

using simqml::qs;

namespace {

QString percentText(double fraction)
{
    return qs(tpusim::format_fixed(100.0 * fraction, 1) + " %");
}

// A serving pool hands pages out as sequences grow, so a sequence's pages
// are scattered: the pool here has a quarter more pages than the sequences
// use, handed out in an order shuffled with a fixed seed (the same picture
// for the same lengths).
QVariantMap pagesOf(const std::vector<std::int64_t> &lengths, std::int64_t pageSize)
{
    std::vector<std::int64_t> needed;
    for (std::int64_t n : lengths)
        needed.push_back((n + pageSize - 1) / pageSize);
    const std::int64_t used = std::accumulate(needed.begin(), needed.end(), std::int64_t{0});
    const std::int64_t poolSize = used + (used + 3) / 4;
    std::vector<std::int64_t> order(static_cast<std::size_t>(poolSize));
    std::iota(order.begin(), order.end(), 0);
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;
    for (std::size_t i = order.size(); i > 1; --i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        std::swap(order[i - 1], order[static_cast<std::size_t>((state >> 33) % i)]);
    }
    QVariantList pool;
    for (std::int64_t i = 0; i < poolSize; ++i)
        pool << -1;
    QVariantList sequences;
    std::size_t next = 0;
    for (std::size_t s = 0; s < lengths.size(); ++s) {
        QVariantList pages;
        for (std::int64_t p = 0; p < needed[s]; ++p) {
            const std::int64_t at = order[next++];
            pages << double(at);
            pool[static_cast<int>(at)] = int(s);
        }
        const std::int64_t fill = lengths[s] - (needed[s] - 1) * pageSize;
        sequences << QVariantMap{{"length", double(lengths[s])}, {"pages", pages}, {"lastFill", double(fill)}};
    }
    return {{"sequences", sequences}, {"pool", pool}};
}

} // namespace

PagedCacheModel::PagedCacheModel(QObject *parent) : QObject(parent)
{
    connect(this, &PagedCacheModel::inputsChanged, this, &PagedCacheModel::recompute);
}

void PagedCacheModel::recompute()
{
    try {
        tpusim::DecodeAttentionSpec s;
        for (const QVariant &v : m_lengths)
            s.context.push_back(static_cast<std::int64_t>(v.toDouble()));
        s.heads = m_heads;
        s.kv_heads = m_kvHeads;
        s.head_dim = m_headDim;
        s.page_size = m_pageSize;
        s.pages_per_block = m_pagesPerBlock;
        s.kv_dtype = tpusim::parse_dtype(m_kvDtype.toStdString());
        const tpusim::Chip &chip = tpusim::chip(m_chip.toStdString());
        const tpusim::DecodeAttentionResult r = tpusim::decode_attention(chip, s);
        const double ridge = tpusim::ridge_point(chip, tpusim::DType::bf16);
        const QVariantMap figures{
            {"time", qs(tpusim::format_time(r.time_s))},
            {"timeS", r.time_s},
            {"callTime", qs(tpusim::format_time(r.call_s))},
            {"bound", qs(r.bound)},
            {"kvBytes", qs(tpusim::format_bytes(r.kv_bytes))},
            {"bytesPerToken", qs(tpusim::format_bytes(r.bytes_per_token))},
            {"bytesPerTokenB", r.bytes_per_token},
            {"bandwidth", r.bandwidth},
            {"bandwidthText", percentText(r.bandwidth)},
            {"attainable", chip.hbm_attainable.value},
            {"padding", r.padding},
            {"paddingText", percentText(r.padding)},
            {"steps", double(r.steps)},
            {"xlaTime", qs(tpusim::format_time(r.xla_time_s))},
            {"xlaTimeS", r.xla_time_s},
            {"xlaBytes", qs(tpusim::format_bytes(r.xla_bytes))},
            {"intensityText", qs(tpusim::format_intensity(r.intensity))},
            {"ridgeText", qs(tpusim::format_intensity(ridge))},
            {"tokensPerS", qs(tpusim::format_rate(r.sequences_per_s, "tokens/s"))},
        };
        QVariantMap out = pagesOf(s.context, s.page_size);
        out.insert(QStringLiteral("figures"), figures);
        out.insert(QStringLiteral("provenance"), simqml::provenance(r.provenance));
        m_cache = out;
    } catch (const tpusim::InputError &e) {
        m_cache = QVariantMap{{"problem", QString::fromUtf8(e.what())}};
    }
    emit cacheChanged();
}
