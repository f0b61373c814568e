#include "progress/profiles.h"
#include "chain.h"

#include "event_log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace progress {

namespace {

constexpr const char* kImportColumns =
    "id, file_sha256, device, device_type, chip, format, source_file, captured_at, op_events, busy_ps, "
    "span_ps, imported_at_ms";

ProfileImportRow readImport(const db::Statement& q) {
    ProfileImportRow r;
    r.id = q.int64At(0);
    r.fileSha256 = q.textAt(1);
    r.device = q.textAt(2);
    r.deviceType = q.textAt(3);
    r.chip = q.textAt(4);
    r.format = q.textAt(5);
    r.sourceFile = q.textAt(6);
    r.capturedAt = q.textAt(7);
    r.opEvents = q.int64At(8);
    r.busyPs = q.int64At(9);
    r.spanPs = q.int64At(10);
    r.importedAtMs = q.int64At(11);
    return r;
}

template <typename T>
void bindOptional(db::Statement& s, int position, const std::optional<T>& v) {
    if (v)
        s.bind(position, *v);
    else
        s.bindNull(position);
}

// An op of an import, as a later reading of the same file names it.
using OpKey = std::tuple<std::string, std::string, std::string>;  // program, its id, op

struct Price {
    std::optional<double> predictedS;
    std::string model;
};

bool samePrice(const Price& a, const Price& b) {
    if (a.model != b.model || a.predictedS.has_value() != b.predictedS.has_value()) return false;
    if (!a.predictedS) return true;
    const double x = *a.predictedS, y = *b.predictedS;
    return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

struct Pricing {
    std::int64_t id = 0;  // 0: none kept (an import from before migration 9)
    std::string pricedBy;
    std::int64_t pricedAtMs = 0;
    bool withOps = false;  // its own prices; else the ones profile_ops was written with
    int again = 0;         // the import's pricings after the one it was written with
};

Pricing newestPricing(const db::Connection& c, std::int64_t importId) {
    db::Statement q(c, R"sql(
        SELECT id, priced_by, priced_at_ms, with_ops,
               (SELECT count(*) FROM profile_pricings WHERE import_id = ?1 AND with_ops = 1)
        FROM profile_pricings WHERE import_id = ?1 ORDER BY id DESC LIMIT 1)sql");
    q.bind(1, importId);
    if (!q.step()) return {};
    return {q.int64At(0), q.textAt(1), q.int64At(2), q.int64At(3) != 0, static_cast<int>(q.int64At(4))};
}

// The import's ops with the newest pricing's predictions: what the
// reading below and a repricing compare against share this one query.
constexpr const char* kPricedOps = R"sql(
    SELECT o.id, o.program, o.program_id, o.op, o.kind, o.occurrences, o.self_ps, o.total_ps, o.flops,
           o.bytes_accessed,
           CASE WHEN ?2 = 0 THEN o.predicted_s ELSE p.predicted_s END,
           CASE WHEN ?2 = 0 THEN o.model ELSE coalesce(p.model, 'not priced by the build that priced it last') END
    FROM profile_ops o LEFT JOIN profile_op_prices p ON p.op_id = o.id AND p.pricing_id = ?3
    WHERE o.import_id = ?1 ORDER BY o.self_ps DESC, o.id)sql";

void bindPricing(db::Statement& q, std::int64_t importId, const Pricing& pricing) {
    q.bind(1, importId).bind(2, static_cast<std::int64_t>(pricing.withOps ? 1 : 0)).bind(3, pricing.id);
}

// The new pricing's id.
std::int64_t addPricing(const db::Connection& c, chain::Appender& chained, std::int64_t importId, const std::string& by,
                        std::int64_t at, bool withOps) {
    db::Statement insert(c, R"sql(
        INSERT INTO profile_pricings (import_id, priced_by, priced_at_ms, with_ops) VALUES (?1, ?2, ?3, ?4))sql");
    insert.bind(1, importId).bind(2, by).bind(3, at).bind(4, static_cast<std::int64_t>(withOps ? 1 : 0)).run();
    const std::int64_t id = c.lastInsertRowId();
    chained.add("profile_pricings", id);
    return id;
}

}  // namespace

AddedProfile ProfileLedger::addProfile(const ProfileImportRow& row) {
    const db::Connection& c = store_.connection();
    const std::int64_t at = store_.nowMs();
    db::Transaction transaction(c);
    {
        db::Statement find(c, "SELECT id FROM profile_imports WHERE file_sha256 = ?1 AND device = ?2");
        find.bind(1, row.fileSha256).bind(2, row.device);
        if (find.step()) {
            const std::int64_t id = find.int64At(0);
            const bool repriced = reprice(id, row, at);
            transaction.commit();
            return {id, true, repriced};
        }
    }
    db::Statement insert(c, R"sql(
        INSERT INTO profile_imports (file_sha256, device, device_type, chip, format, source_file, captured_at,
                                     op_events, busy_ps, span_ps, imported_at_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11))sql");
    insert.bind(1, row.fileSha256).bind(2, row.device).bind(3, row.deviceType).bind(4, row.chip);
    insert.bind(5, row.format).bind(6, row.sourceFile).bind(7, row.capturedAt).bind(8, row.opEvents);
    insert.bind(9, row.busyPs).bind(10, row.spanPs).bind(11, at);
    insert.run();
    const std::int64_t id = c.lastInsertRowId();
    chain::Appender chained(c);
    chained.add("profile_imports", id);
    addPricing(c, chained, id, row.pricedBy, at, false);
    db::Statement op(c, R"sql(
        INSERT INTO profile_ops (import_id, program, program_id, op, kind, occurrences, self_ps, total_ps, flops,
                                 bytes_accessed, predicted_s, model)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12))sql");
    for (const ProfileOpRow& o : row.ops) {
        op.reset();
        op.bind(1, id).bind(2, o.program).bind(3, o.programId).bind(4, o.op).bind(5, o.kind);
        op.bind(6, o.occurrences).bind(7, o.selfPs).bind(8, o.totalPs);
        bindOptional(op, 9, o.flops);
        bindOptional(op, 10, o.bytesAccessed);
        bindOptional(op, 11, o.predictedS);
        op.bind(12, o.model);
        op.run();
        chained.add("profile_ops", c.lastInsertRowId());
    }
    event_log::append(c, at, "profile.imported", row.device,
                      row.deviceType + " (" + (row.chip.empty() ? "no simulator chip" : row.chip) + "), " +
                          std::to_string(row.ops.size()) + " ops, import " + std::to_string(id));
    transaction.commit();
    return {id, false};
}

std::vector<ProfileImportRow> ProfileLedger::profiles() const {
    std::vector<ProfileImportRow> out;
    db::Statement q(store_.connection(), std::string("SELECT ") + kImportColumns + " FROM profile_imports ORDER BY id");
    while (q.step()) out.push_back(readImport(q));
    return out;
}

bool ProfileLedger::reprice(std::int64_t importId, const ProfileImportRow& row, std::int64_t at) {
    const db::Connection& c = store_.connection();
    const Pricing kept = newestPricing(c, importId);
    std::map<OpKey, std::pair<std::int64_t, Price>> stored;
    {
        db::Statement ops(c, kPricedOps);
        bindPricing(ops, importId, kept);
        while (ops.step())
            stored[{ops.textAt(1), ops.textAt(2), ops.textAt(3)}] = {ops.int64At(0),
                                                                     {ops.optionalDoubleAt(10), ops.textAt(11)}};
    }
    std::vector<std::pair<std::int64_t, const ProfileOpRow*>> matched;
    bool differs = false;
    for (const ProfileOpRow& o : row.ops) {
        const auto it = stored.find({o.program, o.programId, o.op});
        if (it == stored.end()) continue;  // an op the kept table lacks: nothing to set its price beside
        matched.emplace_back(it->second.first, &o);
        differs = differs || !samePrice(it->second.second, {o.predictedS, o.model});
    }
    if (!differs) return false;
    chain::Appender chained(c);
    const std::int64_t pricing = addPricing(c, chained, importId, row.pricedBy, at, true);
    db::Statement price(c, R"sql(
        INSERT INTO profile_op_prices (pricing_id, op_id, predicted_s, model) VALUES (?1, ?2, ?3, ?4))sql");
    for (const auto& [opId, o] : matched) {
        price.reset();
        price.bind(1, pricing).bind(2, opId);
        bindOptional(price, 3, o->predictedS);
        price.bind(4, o->model).run();
        chained.add("profile_op_prices", c.lastInsertRowId());
    }
    event_log::append(c, at, "profile.repriced", row.device,
                      "import " + std::to_string(importId) + ", " + std::to_string(matched.size()) + " ops, by " +
                          (row.pricedBy.empty() ? std::string("an unnamed build") : row.pricedBy));
    return true;
}

std::optional<ProfileImportRow> ProfileLedger::importedProfile(std::int64_t id) const {
    const db::Connection& c = store_.connection();
    db::Statement q(c, std::string("SELECT ") + kImportColumns + " FROM profile_imports WHERE id = ?1");
    q.bind(1, id);
    if (!q.step()) return std::nullopt;
    ProfileImportRow row = readImport(q);
    const Pricing pricing = newestPricing(c, id);
    row.pricedBy = pricing.pricedBy;
    row.pricedAtMs = pricing.id ? pricing.pricedAtMs : row.importedAtMs;
    row.pricings = 1 + pricing.again;
    db::Statement ops(c, kPricedOps);
    bindPricing(ops, id, pricing);
    while (ops.step()) {
        ProfileOpRow o;
        o.program = ops.textAt(1);
        o.programId = ops.textAt(2);
        o.op = ops.textAt(3);
        o.kind = ops.textAt(4);
        o.occurrences = ops.int64At(5);
        o.selfPs = ops.int64At(6);
        o.totalPs = ops.int64At(7);
        o.flops = ops.optionalInt64At(8);
        o.bytesAccessed = ops.optionalInt64At(9);
        o.predictedS = ops.optionalDoubleAt(10);
        o.model = ops.textAt(11);
        row.ops.push_back(std::move(o));
    }
    return row;
}

}  // namespace progress
