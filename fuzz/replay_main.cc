// Replays every file of a libFuzzer corpus directory (or the files named) through
// LLVMFuzzerTestOneInput, so builds without libFuzzer (gcc) still run the corpus as a test.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
int replay_file(const std::filesystem::path& path) {
  // Named before it runs, so that a crash (abort, sanitizer report) says which input it was.
  std::fprintf(stderr, "replay: %s\n", path.c_str());
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return 1;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  int failures = 0;
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      // Sorted, so that every run replays the corpus in the same order.
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        failures += replay_file(file);
        ++count;
      }
    } else {
      failures += replay_file(arg);
      ++count;
    }
  }
  std::printf("replayed %zu inputs\n", count);
  return (failures == 0 && count > 0) ? 0 : 1;
}
