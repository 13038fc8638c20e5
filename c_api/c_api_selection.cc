// c_api_selection.cc — exact private selection in the C interface (exactdp.h): the operation
// `select` (operations/select.h: the command line's checks and work limits, in the C spelling)
// behind the exception barrier of c_api_support.h.
#include <memory>
#include <string>
#include <vector>

#include <exactdp/exactdp.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/select.h>

struct exactdp_selection {
  explicit exactdp_selection(exactdp::mechanisms::Selection s) : selection(std::move(s)) {}
  exactdp::mechanisms::Selection selection;
};

namespace {

// A text argument; NULL is EXACTDP_E_NULL naming it.
std::string text_argument(const char* parameter, const char* text) {
  exactdp::internal::require_non_null(text, parameter);
  return text;
}

}  // namespace

extern "C" {

int exactdp_selection_new(const char* mechanism, const char* noise, const char* epsilon,
                          const char* sensitivity, int monotonic, const char* const* scores,
                          std::size_t n, exactdp_selection** out) {
  using namespace exactdp;
  return internal::guard([&] {
    const internal::MpfrCacheRelease release;  // the selection's weights and draws use MPFR
    internal::require_non_null(out, "out");
    internal::require_non_null(mechanism, "mechanism");
    // The operation's checks (operations/select.h) in the C spelling; NULL epsilon or
    // sensitivity is EXACTDP_E_NULL, as for every text argument.
    operations::SelectRequest request;
    request.mechanism = mechanism;
    if (noise != nullptr) request.noise = noise;
    request.epsilon = text_argument("epsilon", epsilon);
    request.sensitivity = text_argument("sensitivity", sensitivity);
    if (monotonic != 0 && monotonic != 1) {
      throw ParameterError::out_of_range("monotonic", std::to_string(monotonic), "0 or 1");
    }
    request.monotonic = monotonic == 1;
    request.spelling = internal::kCSpelling;
    const operations::SelectPlan plan = operations::plan_select(request);
    if (n == 0 || n > mechanisms::kMaxCandidates) {
      throw ParameterError::out_of_range("n", std::to_string(n), "1 <= n <= 1000000");
    }
    internal::require_non_null(scores, "scores");
    std::vector<mpq_class> u;
    u.reserve(n);
    mechanisms::ScoreBudget budget;  // bounded before GMP is asked for more (score_budget.h)
    for (std::size_t i = 0; i < n; ++i) {
      internal::require_non_null(scores[i], "scores[i]");
      u.push_back(parse_rational("scores", scores[i]));
      budget.add(u.back(), "scores[" + std::to_string(i) + "]");
    }
    auto made = std::make_unique<exactdp_selection>(operations::make_selection(plan, std::move(u)));
    *out = made.release();
    return EXACTDP_OK;
  });
}

void exactdp_selection_free(exactdp_selection* selection) { delete selection; }

int exactdp_select(exactdp_selection* selection, exactdp_bits* bits, std::size_t* index) {
  using namespace exactdp;
  return internal::guard([&] {
    const internal::MpfrCacheRelease release;  // the selection's weights and draws use MPFR
    internal::require_non_null(selection, "selection");
    internal::require_non_null(bits, "bits");
    internal::require_non_null(index, "index");
    *index = selection->selection.select(*bits->source);
    return EXACTDP_OK;
  });
}

int exactdp_select_top(exactdp_selection* selection, exactdp_bits* bits, std::size_t k,
                       std::size_t* out) {
  using namespace exactdp;
  return internal::guard([&] {
    const internal::MpfrCacheRelease release;  // the selection's weights and draws use MPFR
    internal::require_non_null(selection, "selection");
    internal::require_non_null(bits, "bits");
    internal::require_non_null(out, "out");
    // k beyond the candidates is refused by select_top; the peeling work limit is the command
    // line's --top limit (operations/select.h), checked before a bit is drawn.
    if (k <= selection->selection.candidates()) {
      operations::check_select_work(selection->selection, k, 1, internal::kCSpelling);
    }
    const auto chosen = selection->selection.select_top(*bits->source, k);  // checks k
    for (std::size_t i = 0; i < chosen.size(); ++i) out[i] = chosen[i];
    return EXACTDP_OK;
  });
}

}  // extern "C"
