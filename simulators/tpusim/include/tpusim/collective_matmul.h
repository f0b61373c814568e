#pragma once
// The collective matmul of chapter 14, all-gather form: y = x @ w over a ring
// of devices, x sharded by rows, w by columns. Each of the n steps multiplies
// the x chunk a device holds by its w columns while that chunk travels on to
// the next device, so n matmuls run against n - 1 transfers [SB-JAX]:
//
//   time         = (n - 1) * max(C, X) + C
//   compute only = n * C   (the same local matmuls on an x already gathered)
//   exposed      = time - compute only = (n - 1) * max(0, X - C)
//
// with C one chunk's matmul (a roofline on the chip) and X one step's
// transfer on the busiest link direction, plus the latency of the hops the
// slowest transfer takes. Step 0's transfer overlaps step 0's matmul, and
// the last matmul is work the compute-only run does too, so nothing is
// exposed when X <= C, and cutting the same work into more, smaller steps
// never lowers the exposed fraction: C and X shrink together while the
// latency does not.
//
// The ring runs along one mesh axis. Where that axis has no wraparound link
// (mesh.h: v5e and v6e axes below 16, 3D chips below whole cubes) the ring
// is a line, and the transfer from the last device back to the first
// crosses every link of the line the other way: n - 1 hops, and with half
// of each chunk sent each way the two directions of every link each carry a
// whole chunk's bytes, so sending both ways gains nothing on a line.
#include <cstdint>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

struct CollectiveMatmulSpec {
    std::int64_t m = 0;         // rows of x, all devices together (sharded by rows)
    std::int64_t k = 0;         // the contracted size
    std::int64_t n = 0;         // columns of w, all devices together (sharded by columns)
    std::int64_t devices = 4;   // the ring, along one mesh axis
    int directions = 1;         // 1: each chunk one way; 2: half of each chunk each way
    DType dtype = DType::bf16;  // x, w and y; the accumulator is f32 on chip
};

struct CollectiveMatmulResult {
    double chunk_bytes = 0;           // one device's x chunk: m / devices x k
    double step_compute_s = 0;        // C: one chunk times the local w columns
    double step_transfer_s = 0;       // X: the busiest link direction's bytes, plus the hops' latency
    std::int64_t hops = 0;            // hops of the slowest transfer in a step
    bool wraps = false;               // whether the ring's axis has a wraparound link
    double time_s = 0;                // (devices - 1) * max(C, X) + C
    double compute_only_s = 0;        // devices * C
    double exposed_s = 0;             // time - compute only
    double exposed_fraction = 0;      // exposed / compute only
    double gather_then_matmul_s = 0;  // the direct program: all-gather x, then the local matmuls
    Provenance provenance;
};

// Throws InputError for sizes below 1, fewer than 2 devices, a ring larger
// than the chip's pod, directions other than 1 or 2, or m and n that the
// device count does not divide.
CollectiveMatmulResult collective_matmul(const Chip& chip, const CollectiveMatmulSpec& spec);

}  // namespace tpusim
