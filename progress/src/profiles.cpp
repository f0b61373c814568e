#include "progress/profiles.h"
#include "chain.h"

#include "event_log.h"

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

void bindOptional(db::Statement& s, int position, const std::optional<std::int64_t>& v) {
    if (v)
        s.bind(position, *v);
    else
        s.bindNull(position);
}

}  // namespace

AddedProfile ProfileLedger::addProfile(const ProfileImportRow& row) {
    const db::Connection& c = store_.connection();
    const std::int64_t at = store_.nowMs();
    db::Transaction transaction(c);
    {
        db::Statement find(c, "SELECT id FROM profile_imports WHERE file_sha256 = ?1 AND device = ?2");
        find.bind(1, row.fileSha256).bind(2, row.device);
        if (find.step()) return {find.int64At(0), true};
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
        if (o.predictedS)
            op.bind(11, *o.predictedS);
        else
            op.bindNull(11);
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

std::optional<ProfileImportRow> ProfileLedger::importedProfile(std::int64_t id) const {
    const db::Connection& c = store_.connection();
    db::Statement q(c, std::string("SELECT ") + kImportColumns + " FROM profile_imports WHERE id = ?1");
    q.bind(1, id);
    if (!q.step()) return std::nullopt;
    ProfileImportRow row = readImport(q);
    db::Statement ops(c, R"sql(
        SELECT program, program_id, op, kind, occurrences, self_ps, total_ps, flops, bytes_accessed, predicted_s, model
        FROM profile_ops WHERE import_id = ?1 ORDER BY self_ps DESC, id)sql");
    ops.bind(1, id);
    while (ops.step()) {
        ProfileOpRow o;
        o.program = ops.textAt(0);
        o.programId = ops.textAt(1);
        o.op = ops.textAt(2);
        o.kind = ops.textAt(3);
        o.occurrences = ops.int64At(4);
        o.selfPs = ops.int64At(5);
        o.totalPs = ops.int64At(6);
        o.flops = ops.optionalInt64At(7);
        o.bytesAccessed = ops.optionalInt64At(8);
        o.predictedS = ops.optionalDoubleAt(9);
        o.model = ops.textAt(10);
        row.ops.push_back(std::move(o));
    }
    return row;
}

}  // namespace progress
