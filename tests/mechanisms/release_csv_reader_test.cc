// release_csv_reader_test.cc — CsvReader (mechanisms/release/csv_reader.h): byte-for-byte round
// trips over RFC 4180 inputs read in chunks of 1, 2, 7 and 65536 bytes, field values, line
// numbers, and every error path with its line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <exactdp/mechanisms/release/csv_reader.h>
#include "tests/mechanisms/release_test_support.h"

namespace exactdp {
namespace {

using mechanisms::CsvError;
using mechanisms::CsvLimits;
using mechanisms::CsvReader;
using mechanisms::CsvRecord;
using test_support::StringReader;

const std::vector<std::size_t> kChunks = {1, 2, 7, 65536};

// Reads everything and rebuilds the bytes from raw records, terminators and the BOM.
std::string round_trip(const std::string& text, std::size_t chunk, std::vector<CsvRecord>* out = nullptr) {
  StringReader in(text, chunk);
  CsvReader reader(in);
  CsvRecord r;
  std::string rebuilt;
  bool first = true;
  while (reader.next(r)) {
    if (first && reader.has_bom()) rebuilt += "\xEF\xBB\xBF";
    first = false;
    rebuilt += r.raw;
    rebuilt += r.terminator;
    if (out) out->push_back(r);
  }
  return rebuilt;
}

TEST(CsvReader, RoundTripsEveryByte) {
  const std::vector<std::string> inputs = {
      "a,b,c\n1,2,3\n",
      "a,b,c\r\n1,2,3\r\n",
      "a,b\r\n1,2\n3,4",                                   // mixed terminators, none at the end
      "\xEF\xBB\xBFname,n\n\"x, y\",5\n",                   // BOM
      "q\n\"he said \"\"hi\"\"\"\n\"two\nlines\"\n\"\"\n",  // doubled quotes, newline, empty quoted
      "a,,c\n,,\n",                                        // empty fields
      "\xEF\xBB,x\n",                                      // starts like a BOM but is not one
      "x\n\xE2\x82\xAC\n",                                 // UTF-8 passes through
      "a\n\"\r\n\"\n",                                     // CRLF inside quotes
  };
  for (const auto& text : inputs) {
    for (const std::size_t chunk : kChunks) {
      EXPECT_EQ(round_trip(text, chunk), text) << "chunk " << chunk << ": " << text;
    }
  }
}

TEST(CsvReader, FieldValuesAndLines) {
  std::vector<CsvRecord> recs;
  round_trip("\xEF\xBB\xBFh1,h2\n\"a,\"\"b\"\"\",\"x\ny\"\nplain,\"\"\nlast,1", 3, &recs);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0].value(0), "h1");  // the BOM is not part of the first field
  EXPECT_EQ(recs[1].value(0), "a,\"b\"");
  EXPECT_EQ(recs[1].raw_field(0), "\"a,\"\"b\"\"\"");
  EXPECT_TRUE(recs[1].fields[0].quoted);
  EXPECT_EQ(recs[1].value(1), "x\ny");
  EXPECT_EQ(recs[2].line, 4u);  // record 2 spans lines 2-3
  EXPECT_EQ(recs[2].value(1), "");
  EXPECT_EQ(recs[3].terminator, "");
  EXPECT_EQ(recs[3].line, 5u);
}

TEST(CsvReader, EmptyInputHasNoRecords) {
  for (const std::string text : {"", "\xEF\xBB\xBF"}) {
    StringReader in(text);
    CsvReader reader(in);
    CsvRecord r;
    EXPECT_FALSE(reader.next(r));
  }
}

struct BadCsv {
  std::string text;
  std::uint64_t line;
  std::string needle;
};

TEST(CsvReader, MalformedInputNamesTheLine) {
  const std::vector<BadCsv> cases = {
      {"a,b\n1,\"open\n2,3\n", 4, "opened on line 2"},
      {"a,b\n1,x\"y\n", 2, "quote inside an unquoted field"},
      {"a,b\n\"x\"y,1\n", 2, "after a closing quote"},
      {"a,b\n1,2\r3,4\n", 2, "carriage return"},
      {"a\n\n\n\"\n", 5, "opened on line 4"},
  };
  for (const auto& c : cases) {
    for (const std::size_t chunk : kChunks) {
      try {
        round_trip(c.text, chunk);
        ADD_FAILURE() << "accepted: " << c.text;
      } catch (const CsvError& e) {
        EXPECT_EQ(e.line(), c.line) << c.text << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("line " + std::to_string(c.line)), std::string::npos);
      }
    }
  }
}

TEST(CsvReader, LimitsAreErrors) {
  CsvLimits small;
  small.max_input_bytes = 10;
  small.max_record_bytes = 8;
  small.max_fields = 3;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a\nb\nc\nd\ne\nf\n", "longer than the limit of 10 bytes"},
      {"abcdefghij\n", "record is longer"},
      {"a,b,c,d\n", "more than the limit of 3 fields"},
  };
  for (const auto& [text, needle] : cases) {
    StringReader in(text, 2);
    CsvReader reader(in, small);
    CsvRecord r;
    try {
      while (reader.next(r)) {
      }
      ADD_FAILURE() << "accepted: " << text;
    } catch (const CsvError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
}

TEST(CsvReader, QuoteIfNeeded) {
  EXPECT_EQ(mechanisms::csv_quote_if_needed("plain"), "plain");
  EXPECT_EQ(mechanisms::csv_quote_if_needed("a,b"), "\"a,b\"");
  EXPECT_EQ(mechanisms::csv_quote_if_needed("say \"x\""), "\"say \"\"x\"\"\"");
}

}  // namespace
}  // namespace exactdp
