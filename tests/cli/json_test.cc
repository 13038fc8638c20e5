#include "cli/json.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace exactdp::cli {
namespace {

TEST(Json, OrderedObjectsAndIntervals) {
  JsonValue o = JsonValue::object();
  o.set("b", "x\"y\n").set("a", 3).set("ok", true);
  o.set_interval("delta", accounting::Interval(mpq_class(1, 3), 64), 4);
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

}  // namespace
}  // namespace exactdp::cli
