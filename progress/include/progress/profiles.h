#pragma once

// Profiles imported from jax.profiler: per device, the op table the device
// itself measured, kept as measured runs. Append-only in SQL (migration 5);
// a file is identified by its sha256 and stored once per device. Its ops'
// predictions are priced again when a later build opening the same file
// predicts differently (migration 9); the newest pricing is the one read.

#include "progress/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace progress {

struct ProfileOpRow {
    std::string program;    // "jit_f"
    std::string programId;  // XLA's program id, as decimal text (it is a uint64)
    std::string op;         // "copy-done.4"
    std::string kind;       // "copy-done (host to HBM)"
    std::int64_t occurrences = 0;
    std::int64_t selfPs = 0, totalPs = 0;
    std::optional<std::int64_t> flops, bytesAccessed;
    std::optional<double> predictedS;  // per occurrence, from the simulator
    std::string model;                 // the prediction's model, or why there is none
};

struct ProfileImportRow {
    std::int64_t id = 0;  // set by the store
    std::string fileSha256;
    std::string device;      // "/device:TPU:0"
    std::string deviceType;  // "TPU v6 Lite"
    std::string chip;        // "v6e", "" when the simulator does not know it
    std::string format;      // "xplane.pb", "trace.json"
    std::string sourceFile;
    std::string capturedAt;  // when the profile was taken, ISO 8601 UTC; "" when it does not say
    std::int64_t opEvents = 0;
    std::int64_t busyPs = 0, spanPs = 0;
    std::int64_t importedAtMs = 0;  // set by the store
    // The build whose predictions the ops carry ("tpu-course 0.1.0"), and
    // when it made them. Given to addProfile; read back by importedProfile,
    // "" for an import kept before pricings were recorded.
    std::string pricedBy;
    std::int64_t pricedAtMs = 0;    // set by the store
    int pricings = 1;               // times the ops were priced, the import's own included
    std::vector<ProfileOpRow> ops;  // filled by importedProfile()
};

struct AddedProfile {
    std::int64_t id = 0;
    bool alreadyPresent = false;
    bool repriced = false;  // present, and its ops priced again: the predictions given differ from the kept ones
};

class ProfileLedger {
public:
    explicit ProfileLedger(Store& store) : store_(store) {}

    // Adds one device of a profile and its ops in one transaction, or finds
    // it when the same file's device was imported before; then, when an op's
    // prediction or model differs from the newest kept, keeps the row's
    // predictions as a new pricing (ops matched by program and name).
    AddedProfile addProfile(const ProfileImportRow& row);
    // Every import, oldest first, without their ops.
    std::vector<ProfileImportRow> profiles() const;
    // One import with its ops, longest self time first, each with its
    // newest pricing's prediction.
    std::optional<ProfileImportRow> importedProfile(std::int64_t id) const;

private:
    bool reprice(std::int64_t importId, const ProfileImportRow& row, std::int64_t at);
    Store& store_;
};

}  // namespace progress
