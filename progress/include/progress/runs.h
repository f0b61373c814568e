#pragma once

// Run records, predictions and gate attempts: the learner's evidence. All
// three tables are append-only in SQL (see migrations.h); this interface
// only ever adds and reads.

#include "progress/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace progress {

struct RunRecordRow {
    std::int64_t id = 0;       // set by the store
    std::string recordSha256;  // of the canonical record: the identity of a record
    std::string lab;           // "L07"
    std::string kind;          // "measured" or "verified-off-chip"
    std::string chip;          // "v5e", or "cpu" for verified-off-chip
    std::string dtype;
    std::string shapesJson;         // {"m":4096,...}
    std::string measuredAt;         // the record's own date, ISO 8601 UTC
    std::optional<double> medianS;  // empty without timing
    std::optional<double> baselineMedianS;
    bool correct = false;
    bool example = false;  // a shipped example: shown, never counted
    std::string sourceFile;
    std::string recordJson;
    std::int64_t importedAtMs = 0;  // set by the store
};

struct Prediction {
    std::int64_t id = 0;
    std::string gate;     // "G0"
    std::string subject;  // what is predicted, e.g. a bench row id
    double value = 0;
    std::string unit;  // "s"
    std::int64_t enteredAtMs = 0;
};

struct GateAttempt {
    std::int64_t id = 0;
    std::string gate;
    std::int64_t runRecord = 0;
    std::int64_t judgedAtMs = 0;
    bool passed = false;
    std::vector<std::string> reasons;
};

// A verdict to keep with a record being added, in the same transaction.
struct NewAttempt {
    std::string gate;
    bool passed = false;
    std::vector<std::string> reasons;
};

struct AddedRecord {
    std::int64_t id = 0;
    bool alreadyPresent = false;  // the same record was imported before
};

// A view of a Store for the evidence tables. Uses the Store's connection,
// clock and transactions; holds no state of its own.
class RunLedger {
public:
    explicit RunLedger(Store& store) : store_(store) {}

    // Adds a record, or finds it when a record with the same hash is there.
    // A new record's gate attempt, when given, is kept in the same
    // transaction: never a record without its verdict, or the reverse.
    AddedRecord addRunRecord(const RunRecordRow& row, const std::optional<NewAttempt>& attempt = std::nullopt);
    std::vector<RunRecordRow> runRecords() const;  // oldest first
    std::optional<RunRecordRow> runRecord(std::int64_t id) const;

    void addPrediction(const std::string& gate, const std::string& subject, double value, const std::string& unit);
    // Every prediction for a gate, oldest first.
    std::vector<Prediction> predictions(const std::string& gate) const;

    // Records a verdict; the record must exist.
    std::int64_t addGateAttempt(const std::string& gate, std::int64_t runRecord, bool passed,
                                const std::vector<std::string>& reasons);
    std::vector<GateAttempt> gateAttempts() const;  // oldest first

private:
    std::int64_t insertAttempt(const std::string& gate, std::int64_t runRecord, bool passed,
                               const std::vector<std::string>& reasons, std::int64_t at);
    Store& store_;
};

}  // namespace progress
