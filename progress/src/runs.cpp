#include "progress/runs.h"
#include "chain.h"

#include "event_log.h"

#include <string>

namespace progress {

namespace {

// Reasons are kept as one text per attempt: lines joined by a newline, which
// no reason contains (each is one sentence).
std::string joinReasons(const std::vector<std::string>& reasons) {
    std::string out;
    for (const auto& r : reasons) {
        if (!out.empty()) out += '\n';
        out += r;
    }
    return out;
}

std::vector<std::string> splitReasons(const std::string& text) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    while (start <= text.size() && !text.empty()) {
        const auto end = text.find('\n', start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

void bindOptional(db::Statement& s, int position, const std::optional<double>& v) {
    if (v) {
        s.bind(position, *v);
    } else {
        s.bindNull(position);
    }
}

RunRecordRow readRecord(const db::Statement& q) {
    RunRecordRow r;
    r.id = q.int64At(0);
    r.recordSha256 = q.textAt(1);
    r.lab = q.textAt(2);
    r.kind = q.textAt(3);
    r.chip = q.textAt(4);
    r.dtype = q.textAt(5);
    r.shapesJson = q.textAt(6);
    r.measuredAt = q.textAt(7);
    r.medianS = q.optionalDoubleAt(8);
    r.baselineMedianS = q.optionalDoubleAt(9);
    r.correct = q.int64At(10) != 0;
    r.example = q.int64At(11) != 0;
    r.sourceFile = q.textAt(12);
    r.recordJson = q.textAt(13);
    r.importedAtMs = q.int64At(14);
    return r;
}

constexpr const char* kRecordColumns =
    "id, record_sha256, lab, kind, chip, dtype, shapes, measured_at, median_s, baseline_median_s, "
    "correct, example, source_file, record_json, imported_at_ms";

}  // namespace

AddedRecord RunLedger::addRunRecord(const RunRecordRow& row, const std::optional<NewAttempt>& attempt) {
    const db::Connection& c = store_.connection();
    const std::int64_t at = store_.nowMs();
    db::Transaction transaction(c);
    {
        db::Statement find(c, "SELECT id FROM run_records WHERE record_sha256 = ?1");
        find.bind(1, row.recordSha256);
        if (find.step()) {
            return {find.int64At(0), true};  // nothing written; the transaction ends unused
        }
    }
    db::Statement insert(c, R"sql(
        INSERT INTO run_records (record_sha256, lab, kind, chip, dtype, shapes, measured_at, median_s,
                                 baseline_median_s, correct, example, source_file, record_json, imported_at_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14))sql");
    insert.bind(1, row.recordSha256).bind(2, row.lab).bind(3, row.kind).bind(4, row.chip).bind(5, row.dtype);
    insert.bind(6, row.shapesJson).bind(7, row.measuredAt);
    bindOptional(insert, 8, row.medianS);
    bindOptional(insert, 9, row.baselineMedianS);
    insert.bind(10, std::int64_t{row.correct ? 1 : 0}).bind(11, std::int64_t{row.example ? 1 : 0});
    insert.bind(12, row.sourceFile).bind(13, row.recordJson).bind(14, at);
    insert.run();
    const std::int64_t id = c.lastInsertRowId();
    chain::append(c, "run_records", id);
    event_log::append(
        c, at, "run.imported", row.lab,
        row.kind + " on " + row.chip + (row.example ? " (example)" : "") + ", record " + std::to_string(id));
    if (attempt) {
        insertAttempt(attempt->gate, id, attempt->passed, attempt->reasons, at);
    }
    transaction.commit();
    return {id, false};
}

std::vector<RunRecordRow> RunLedger::runRecords() const {
    db::Statement q(store_.connection(), std::string("SELECT ") + kRecordColumns + " FROM run_records ORDER BY id");
    std::vector<RunRecordRow> out;
    while (q.step()) out.push_back(readRecord(q));
    return out;
}

std::optional<RunRecordRow> RunLedger::runRecord(std::int64_t id) const {
    db::Statement q(store_.connection(), std::string("SELECT ") + kRecordColumns + " FROM run_records WHERE id = ?1");
    q.bind(1, id);
    if (!q.step()) return std::nullopt;
    return readRecord(q);
}

void RunLedger::addPrediction(const std::string& gate, const std::string& subject, double value,
                              const std::string& unit) {
    const db::Connection& c = store_.connection();
    const std::int64_t at = store_.nowMs();
    db::Transaction transaction(c);
    db::Statement insert(
        c, "INSERT INTO predictions (gate, subject, value, unit, entered_at_ms) VALUES (?1, ?2, ?3, ?4, ?5)");
    insert.bind(1, gate).bind(2, subject).bind(3, value).bind(4, unit).bind(5, at);
    insert.run();
    chain::append(c, "predictions", c.lastInsertRowId());
    event_log::append(c, at, "prediction.entered", gate + " " + subject, std::to_string(value) + " " + unit);
    transaction.commit();
}

std::vector<Prediction> RunLedger::predictions(const std::string& gate) const {
    db::Statement q(
        store_.connection(),
        "SELECT id, gate, subject, value, unit, entered_at_ms FROM predictions WHERE gate = ?1 ORDER BY id");
    q.bind(1, gate);
    std::vector<Prediction> out;
    while (q.step()) out.push_back({q.int64At(0), q.textAt(1), q.textAt(2), q.doubleAt(3), q.textAt(4), q.int64At(5)});
    return out;
}

std::int64_t RunLedger::insertAttempt(const std::string& gate, std::int64_t runRecord, bool passed,
                                      const std::vector<std::string>& reasons, std::int64_t at) {
    const db::Connection& c = store_.connection();
    db::Statement insert(c, R"sql(
        INSERT INTO gate_attempts (gate, run_record, judged_at_ms, passed, reasons) VALUES (?1, ?2, ?3, ?4, ?5))sql");
    insert.bind(1, gate)
        .bind(2, runRecord)
        .bind(3, at)
        .bind(4, std::int64_t{passed ? 1 : 0})
        .bind(5, joinReasons(reasons));
    insert.run();
    const std::int64_t id = c.lastInsertRowId();
    chain::append(c, "gate_attempts", id);
    event_log::append(c, at, passed ? "gate.passed" : "gate.failed", gate, "run record " + std::to_string(runRecord));
    return id;
}

std::int64_t RunLedger::addGateAttempt(const std::string& gate, std::int64_t runRecord, bool passed,
                                       const std::vector<std::string>& reasons) {
    db::Transaction transaction(store_.connection());
    const std::int64_t id = insertAttempt(gate, runRecord, passed, reasons, store_.nowMs());
    transaction.commit();
    return id;
}

std::vector<GateAttempt> RunLedger::gateAttempts() const {
    db::Statement q(store_.connection(),
                    "SELECT id, gate, run_record, judged_at_ms, passed, reasons FROM gate_attempts ORDER BY id");
    std::vector<GateAttempt> out;
    while (q.step())
        out.push_back(
            {q.int64At(0), q.textAt(1), q.int64At(2), q.int64At(3), q.int64At(4) != 0, splitReasons(q.textAt(5))});
    return out;
}

}  // namespace progress
