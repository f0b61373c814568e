#pragma once

#include <filesystem>

namespace progress::preflight {

// Everything we can learn about an existing file without writing to it:
// throws the StoreError that refuses it, or returns when it is safe to open
// read-write. A missing or empty file passes.
void checkBeforeWriting(const std::filesystem::path& file);

}  // namespace progress::preflight
