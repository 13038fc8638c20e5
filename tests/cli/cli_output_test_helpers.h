// cli_output_test_helpers.h — for the output-path tests: the commands that write files (each
// output option with a command line that succeeds), a fresh directory, what a path names
// (type, inode, mode, contents or link text) to show a refused target unchanged, the special
// files a target may be (device, FIFO, socket, directory, links, a read-only file), and a run
// with a real file on standard input.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/cli_test_helpers.h"

namespace exactdp::test_support {

inline const std::string kOutputSeed(64, 'a');

// One output option of one command: its command line without a seed (`seeded`: it takes --seed
// and --seed-file), what it reads on stdin, and whether it reads stdin at all.
struct OutputWriter {
  std::string name;
  std::string option;
  std::vector<std::string> base;
  std::string input;
  bool seeded = true;
  bool reads_stdin = true;

  // The command line with `extra` and, unless extra names --seed-file, the fixed seed.
  [[nodiscard]] std::vector<std::string> args(std::vector<std::string> extra) const {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    if (seeded && std::find(extra.begin(), extra.end(), "--seed-file") == extra.end()) {
      a.insert(a.end(), {"--seed", kOutputSeed});
    }
    return a;
  }
  // The command line writing `path` with this writer's option.
  [[nodiscard]] std::vector<std::string> writing(const std::string& path, std::vector<std::string> extra = {}) const {
    extra.insert(extra.end(), {option, path});
    return args(std::move(extra));
  }
};

inline const std::string kReleaseTable = "region,count\nNorth,10\nSouth,20\n";
inline const std::string kAggregateRecords = "user,region\nu1,a\nu2,a\nu3,b\n";
inline const std::string kEstimateRows = "x,y\n1,2\n3,-1\n";

inline std::vector<std::string> aggregate_base() {
  return {"aggregate", "--privacy-unit", "user", "--group-by", "region", "--count",
          "--delta", "1e-6", "--epsilon", "1"};
}
inline std::vector<std::string> estimate_base() {
  return {"estimate", "sparse-mean", "--s", "1", "--bound", "4", "--epsilon", "1"};
}

// Every option of every command that writes a file.
inline std::vector<OutputWriter> output_writers() {
  const std::vector<std::string> release = {"release", "--mechanism", "discrete-laplace", "--epsilon", "1",
                                            "--column", "count"};
  const std::vector<std::string> profile = {"profile", "discrete-gaussian", "--sigma2", "4", "--curve", "0", "4", "5"};
  const std::vector<std::string> gdp = {"measure-gdp", "pure-dp", "--epsilon", "0.2", "--tolerance", "0.01",
                                        "--points", "5"};
  return {
      {"release", "--json", release, kReleaseTable},
      {"release", "--output", release, kReleaseTable},
      {"aggregate", "--json", aggregate_base(), kAggregateRecords},
      {"aggregate", "--output", aggregate_base(), kAggregateRecords},
      {"estimate", "--json", estimate_base(), kEstimateRows},
      {"estimate", "--output", estimate_base(), kEstimateRows},
      {"profile", "--svg", profile, "", false, false},
      {"measure-gdp", "--svg", gdp, "", false, false},
  };
}

// A fresh, empty directory (mode 0777, so that another user can work in it too).
inline std::string fresh_output_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "output_" + name + "_" + std::to_string(::getpid());
  (void)std::system(("rm -rf '" + dir + "'").c_str());
  EXPECT_EQ(::mkdir(dir.c_str(), 0777), 0) << dir;
  (void)::chmod(dir.c_str(), 0777);  // whatever the umask
  return dir;
}

inline void write_bytes(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The sorted names in a directory (a temporary left behind shows up here).
inline std::vector<std::string> dir_entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// What a path names, without following a link: enough to see that it was not replaced.
struct PathState {
  bool exists = false;
  mode_t mode = 0;  // type and permission bits
  dev_t device = 0;
  ino_t inode = 0;
  std::string contents;  // a regular file's bytes, a link's text
  bool operator==(const PathState&) const = default;
};

inline PathState path_state(const std::string& path) {
  PathState s;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return s;
  s = {true, st.st_mode, st.st_dev, st.st_ino, ""};
  if (S_ISREG(st.st_mode)) s.contents = read_text_file(path);
  if (S_ISLNK(st.st_mode)) {
    char buf[4096];
    const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
    if (n > 0) s.contents.assign(buf, static_cast<std::size_t>(n));
  }
  return s;
}

inline std::ostream& operator<<(std::ostream& os, const PathState& s) {
  return os << (s.exists ? "mode " + std::to_string(s.mode) + " inode " + std::to_string(s.inode) : "absent");
}

// A target that must be refused: how to make it in `dir`, and what the message calls it.
struct RefusedTarget {
  std::string kind;
  std::function<std::string(const std::string& dir)> make;  // returns the path
  std::string says;
};

// A character device like /dev/null: a copy made with mknod where we may (root), so that a broken
// guard can only replace the copy; else /dev/null itself (which a non-root run cannot replace).
inline std::string make_character_device(const std::string& dir) {
  const std::string path = dir + "/null";
  if (::mknod(path.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) return path;
  return "/dev/null";
}

inline std::string make_socket(const std::string& dir) {
  const std::string path = dir + "/sock";
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  EXPECT_LT(path.size(), sizeof addr.sun_path) << path;
  std::memcpy(addr.sun_path, path.c_str(), std::min(path.size(), sizeof addr.sun_path - 1));
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  EXPECT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
  ::close(fd);  // the socket file stays
  return path;
}

inline std::vector<RefusedTarget> refused_targets() {
  return {
      {"character device", make_character_device, "is a character device"},
      {"FIFO",
       [](const std::string& dir) {
         EXPECT_EQ(::mkfifo((dir + "/fifo").c_str(), 0666), 0);
         return dir + "/fifo";
       },
       "is a named pipe (FIFO)"},
      {"socket", make_socket, "is a socket"},
      {"directory",
       [](const std::string& dir) {
         EXPECT_EQ(::mkdir((dir + "/sub").c_str(), 0777), 0);
         return dir + "/sub";
       },
       "is a directory"},
      {"symlink to a regular file",
       [](const std::string& dir) {
         write_bytes(dir + "/real.txt", "the file the link names\n");
         EXPECT_EQ(::symlink("real.txt", (dir + "/link").c_str()), 0);
         return dir + "/link";
       },
       "is a symbolic link"},
      {"dangling symlink",
       [](const std::string& dir) {
         EXPECT_EQ(::symlink("missing.txt", (dir + "/dangling").c_str()), 0);
         return dir + "/dangling";
       },
       "is a symbolic link"},
      {"read-only file",
       [](const std::string& dir) {
         write_bytes(dir + "/ro.txt", "read-only bytes\n");
         EXPECT_EQ(::chmod((dir + "/ro.txt").c_str(), 0444), 0);
         return dir + "/ro.txt";
       },
       "is read-only (mode 0444)"},
  };
}

// Runs the command with the file `stdin_path` as the real standard input (fd 0 and std::cin),
// as `exactdp ... < stdin_path` does.
// File descriptor `target` (0 or 1) replaced by `replacement` (taken over and closed; -1: target
// closed) until the end of the scope, then restored; std::cin's state is cleared both ways.
class ReplacedFd {
 public:
  ReplacedFd(int target, int replacement) : target_(target), saved_(::dup(target)) {
    if (target == 1) std::cout.flush();
    if (replacement >= 0) {
      ::dup2(replacement, target);
      ::close(replacement);
    } else {
      ::close(target);
    }
    std::cin.clear();
  }
  ~ReplacedFd() {
    if (target_ == 1) std::cout.flush();
    ::dup2(saved_, target_);
    ::close(saved_);
    std::cin.clear();
  }
  ReplacedFd(const ReplacedFd&) = delete;
  ReplacedFd& operator=(const ReplacedFd&) = delete;

 private:
  int target_;
  int saved_;
};

// Runs the command with standard input as given (a ReplacedFd of 0 alive), output captured.
inline CliRun run_with_current_stdin(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  cli::Io io{std::cin, out, err, false};
  const int status = cli::run_exactdp(args, io);
  return {status, out.str(), err.str()};
}

inline CliRun run_with_stdin_path(const std::vector<std::string>& args, const std::string& stdin_path) {
  const int fd = ::open(stdin_path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0);
  const ReplacedFd in(0, fd);
  return run_with_current_stdin(args);
}

}  // namespace exactdp::test_support
