// libFuzzer target for the profile reader: any bytes, read as a file the way
// the app reads one (an .xplane.pb, a trace JSON, gzip or not), must give a
// profile whose op tables can be made, or a ProfileError. A crash, a
// sanitizer report, a hang or any other exception is a bug.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "tpuprofile/op_table.h"
#include "tpuprofile/read.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // A file in memory: the reader stats, opens and streams it as any other.
    const int fd = memfd_create("profile", 0);
    if (fd < 0) return 0;
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        const tpuprofile::Profile p = tpuprofile::read_profile(path);
        for (std::size_t i = 0; i < p.devices.size(); ++i) (void)tpuprofile::op_table(p, i);
    } catch (const tpuprofile::ProfileError&) {
    }
    close(fd);
    return 0;
}
