// input_check.h — refuses, before any work, an input the command cannot read at all: standard
// input closed or a directory, or an input file (--keys) that is a directory.
//
// open(2) succeeds on a directory; only the first read fails (EISDIR), and the stream readers
// report that as an I/O error, i.e. an internal error (exit 1). These are bad input: each is
// refused here with a ParameterError naming the input (exit 2).
#pragma once

#include <string>

namespace exactdp::cli {

// The real standard input (fd 0) of a command that reads its table or records there.
void check_stdin_readable();

// Standard output the same regular file as standard input (`exactdp release < in.csv 1<> in.csv`
// or `>> in.csv`): release reads its input twice in place, so the table written over it replaced
// the rows of the second pass (the run then failed, exit 1, the input already overwritten), and
// an appended table was read back as input (exit 1). Refused naming stdout.
void check_stdout_is_not_stdin();

// An input file given to `option` ("--keys"): it must not be a directory. A missing or
// unreadable file is left to the reader, which names it.
void check_input_file(const std::string& option, const std::string& path);

}  // namespace exactdp::cli
