#pragma once
// Writes profiles shaped like the ones jax.profiler writes on a TPU VM, of
// any size, for timing the reader: four TensorCore planes (XLA Modules, XLA
// Ops with device times, XLA TraceMe), the host's CPU plane with its Python
// and runtime threads, and /host:metadata with one program's Hlo Proto. The
// op mix, names and stats follow the v6e profile in tests/simulators/profiles.
#include <cstdint>
#include <string>

namespace tpuprofile::bench {

struct Written {
    std::uint64_t bytes = 0;
    std::int64_t device_events = 0;  // on the XLA Ops lines
    std::int64_t host_events = 0;
};

// Writes about `target_bytes` to `path`. Throws std::runtime_error when the
// file cannot be written.
Written write_profile(const std::string& path, std::uint64_t target_bytes);

}  // namespace tpuprofile::bench
