// laws/event_text.h: an event written as kind:key=value,... parsed through the registry, as
// `exactdp compose --event` and exactdp.compose_events take it; malformed text names "event".
#include <gtest/gtest.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/laws/event_text.h>

namespace exactdp::laws {
namespace {

std::string rejected_parameter(const std::string& text) {
  try {
    (void)parse_event_text(text);
  } catch (const ParameterError& e) {
    return e.parameter();
  }
  return "(accepted)";
}

TEST(EventTextTest, PlainAndSubsampledEvents) {
  const accounting::RdpEvent g = parse_event_text("gaussian:sigma=2");
  EXPECT_FALSE(g.is_subsampled());
  EXPECT_EQ(g.plain_event().maps().gaussian_noise()->sigma, 2);
  const accounting::RdpEvent p = parse_event_text("poisson-gaussian:sigma=1,q=0.01");
  ASSERT_TRUE(p.is_subsampled());
  EXPECT_EQ(p.subsampled_q(), mpq_class(1, 100));
  EXPECT_NE(event_kinds().find("poisson-staircase"), std::string::npos);
}

TEST(EventTextTest, MalformedTextNamesTheEventAndBadValuesTheirParameter) {
  EXPECT_EQ(rejected_parameter("gaussian"), "event");
  EXPECT_EQ(rejected_parameter("gaussian:sigma"), "event");
  EXPECT_EQ(rejected_parameter("gaussian:sigma=1,sigma=2"), "event");
  EXPECT_EQ(rejected_parameter("gaussian:sigma=1,x=2"), "event");
  EXPECT_EQ(rejected_parameter("frob:x=1"), "event");
  EXPECT_EQ(rejected_parameter("poisson-gaussian:sigma=1"), "event");  // q required
  EXPECT_EQ(rejected_parameter("gaussian:sensitivity=1"), "event");    // sigma required
  EXPECT_EQ(rejected_parameter("gaussian:sigma=-1"), "sigma");
  EXPECT_EQ(rejected_parameter("poisson-gaussian:sigma=1,q=2"), "q");
  EXPECT_EQ(rejected_parameter("gaussian:sigma=2"), "(accepted)");  // the helper sees acceptance
}

TEST(EventTextTest, Counts) {
  EXPECT_EQ(parse_event_count("1000"), 1000UL);
  EXPECT_THROW((void)parse_event_count("0"), ParameterError);
  EXPECT_THROW((void)parse_event_count("1000000000001"), ParameterError);
  EXPECT_THROW((void)parse_event_count("1.5"), ParameterError);
}

}  // namespace
}  // namespace exactdp::laws
