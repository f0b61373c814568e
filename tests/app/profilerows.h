#pragma once
// A profile as the store keeps it, made in a test: one device's import and
// its ops, without reading a file.
#include <progress/profiles.h>

#include <optional>
#include <string>
#include <vector>

inline progress::ProfileOpRow profiledOp(const std::string &program, const std::string &op, const std::string &kind,
                                         std::int64_t occurrences, std::int64_t psPerRun,
                                         std::optional<std::int64_t> flops = {}, std::optional<std::int64_t> bytes = {})
{
    progress::ProfileOpRow row;
    row.program = program;
    row.programId = "7";
    row.op = op;
    row.kind = kind;
    row.occurrences = occurrences;
    row.selfPs = row.totalPs = occurrences * psPerRun;
    row.flops = flops;
    row.bytesAccessed = bytes;
    return row;
}

// Distinct files get distinct `fill` characters for their sha256.
inline progress::ProfileImportRow profiledDevice(const std::string &chip, const std::string &deviceType,
                                                 const std::string &file, const std::string &capturedAt,
                                                 std::vector<progress::ProfileOpRow> ops, char fill = 'a')
{
    progress::ProfileImportRow row;
    row.fileSha256 = std::string(64, fill);
    row.device = "/device:TPU:0";
    row.deviceType = deviceType;
    row.chip = chip;
    row.format = "xplane.pb";
    row.sourceFile = file;
    row.capturedAt = capturedAt;
    for (const auto &op : ops) {
        row.opEvents += op.occurrences;
        row.busyPs += op.selfPs;
    }
    row.spanPs = row.busyPs;
    row.ops = std::move(ops);
    return row;
}
