#pragma once
// A gate counts only with its evidence. A passed attempt stands when the
// run record it was judged on still hashes to the SHA-256 it was kept
// under, still passes every check a record is imported with, and, when it
// was judged on host time, judging it again gives the same verdict. An
// attempt inserted by hand, or whose record was edited in the file, is
// shown as not passed, with the reason.
#include <progress/runs.h>

#include <vector>

class LabCatalog;

std::vector<progress::GateAttempt> attemptsWithEvidence(const std::vector<progress::GateAttempt> &attempts,
                                                        const std::vector<progress::RunRecordRow> &records,
                                                        const LabCatalog &labs, const progress::RunLedger &ledger);

// Whether the attempt was judged on a profile's device time (its first
// reason says so, as devicetiming.h writes it) rather than the host's timer.
bool judgedOnDeviceTime(const progress::GateAttempt &attempt);
