#include "cli/json.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace exactdp::cli {
namespace {

TEST(Json, OrderedObjectsAndIntervals) {
  JsonValue o = JsonValue::object();
  o.set("b", "x\"y\n").set("a", 3).set("ok", true);
  o.set_interval("delta", exactdp::Interval(mpq_class(1, 3), 64), 4);
  JsonValue arr = JsonValue::array();
  arr.push(JsonValue::number("1.5e-3")).push(JsonValue::null());
  o.set("list", arr);
  EXPECT_EQ(o.dump(),
            "{\"b\": \"x\\\"y\\n\", \"a\": 3, \"ok\": true, "
            "\"delta\": {\"lower\": \"0.3333\", \"upper\": \"0.3334\"}, \"list\": [1.5e-3, null]}");
  o.set("a", 4);  // replaces in place
  EXPECT_EQ(o.find("a")->text(), "4");
  EXPECT_EQ(o.size(), 5u);
  EXPECT_NE(o.dump(2).find("\n  \"b\""), std::string::npos);
}

TEST(Json, Errors) {
  EXPECT_THROW((void)JsonValue::number("01"), std::invalid_argument);
  EXPECT_THROW((void)JsonValue::number("nan"), std::invalid_argument);
  JsonValue s("text");
  EXPECT_THROW(s.set("k", 1), std::logic_error);
  EXPECT_EQ(json_quote(std::string("\x01", 1)), "\"\\u0001\"");
}

TEST(Json, BytesThatAreNotUtf8AreEscaped) {
  // Well-formed UTF-8 (2, 3 and 4 bytes) passes through unchanged.
  EXPECT_EQ(json_quote("r\xC3\xA9gion \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "\"r\xC3\xA9gion \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  // Latin-1 bytes, a truncated sequence, an overlong '/', a surrogate, a lone continuation.
  EXPECT_EQ(json_quote("caf\xE9"), "\"caf\\u00e9\"");
  EXPECT_EQ(json_quote("\xE2\x82"), "\"\\u00e2\\u0082\"");
  EXPECT_EQ(json_quote("\xC0\xAF"), "\"\\u00c0\\u00af\"");
  EXPECT_EQ(json_quote("\xED\xA0\x80"), "\"\\u00ed\\u00a0\\u0080\"");
  EXPECT_EQ(json_quote("\x80x"), "\"\\u0080x\"");
}

}  // namespace
}  // namespace exactdp::cli
