#include <exactdp/laws/law.h>

#include <stdexcept>

#include <exactdp/core/rational.h>

namespace exactdp::laws {

// ---- LawParameters -------------------------------------------------------------------------

const LawParameters::Entry* LawParameters::find(std::string_view name) const {
  for (const auto& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const mpq_class& LawParameters::rational(std::string_view name) const {
  const Entry* e = find(name);
  if (e == nullptr) throw std::logic_error("LawParameters: no parameter " + std::string(name));
  return e->value;
}

mpz_class LawParameters::integer(std::string_view name) const { return rational(name).get_num(); }

bool LawParameters::given(std::string_view name) const {
  const Entry* e = find(name);
  return e != nullptr && e->given;
}

bool LawParameters::has(std::string_view name) const { return find(name) != nullptr; }

void LawParameters::set(const std::string& name, mpq_class value, bool given) {
  value.canonicalize();
  for (auto& e : entries_) {
    if (e.name == name) {
      e.value = std::move(value);
      e.given = given;
      return;
    }
  }
  entries_.push_back({name, std::move(value), given});
}

std::vector<std::pair<std::string, std::string>> LawParameters::as_text() const {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(entries_.size());
  for (const auto& e : entries_) out.emplace_back(e.name, to_string(e.value));
  return out;
}

std::string LawParameters::describe() const {
  std::string out;
  for (const auto& e : entries_) out += (out.empty() ? "" : " ") + e.name + "=" + to_string(e.value);
  return out;
}

// ---- Sampler defaults ----------------------------------------------------------------------

std::size_t Sampler::sample_int64(BitSource& bits, std::int64_t* out, std::size_t n) const {
  mpz_class v;
  for (std::size_t i = 0; i < n; ++i) {
    sample(bits, v);
    if (!mpz_fits_slong_p(v.get_mpz_t())) return i;
    out[i] = mpz_get_si(v.get_mpz_t());
  }
  return n;
}

void Sampler::sample_wide(BitSource& bits, std::int64_t* out, std::size_t n, std::vector<WideValue>& wide) const {
  mpz_class v;
  for (std::size_t i = 0; i < n; ++i) {
    sample(bits, v);
    if (mpz_fits_slong_p(v.get_mpz_t())) {
      out[i] = mpz_get_si(v.get_mpz_t());
    } else {
      out[i] = 0;
      wide.push_back({i, v});
    }
  }
}

std::int64_t Sampler::sample_isochronous(BitSource& /*bits*/) const {
  throw std::logic_error("Sampler::sample_isochronous on a plain sampler");
}
const mpq_class& Sampler::tau_upper() const { throw std::logic_error("Sampler::tau_upper on a plain sampler"); }
unsigned Sampler::tau_bits() const { throw std::logic_error("Sampler::tau_bits on a plain sampler"); }
std::uint64_t Sampler::bits_per_sample() const {
  throw std::logic_error("Sampler::bits_per_sample on a plain sampler");
}

// ---- Law -----------------------------------------------------------------------------------

namespace {

bool accepts(Role role, Use use) {
  if (use == Use::kCalibrate) return role == Role::kPrivacy;
  if (role == Role::kNoise) return true;
  return (role == Role::kSampling) == (use == Use::kSample);
}

mpq_class parse_value(const ParameterSpec& spec, const std::string& text) {
  if (spec.kind == ValueKind::kInteger) return mpq_class(parse_integer(spec.name, text));
  return parse_rational(spec.name, text);
}

}  // namespace

const ParameterSpec* Law::spec_of(std::string_view name) const {
  for (const auto& s : parameters_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string Law::capability_list() const {
  static const std::pair<Capability, const char*> kNames[] = {
      {Capability::kSample, "sample"},   {Capability::kHardened, "hardened"}, {Capability::kAudit, "audit"},
      {Capability::kProfile, "profile"}, {Capability::kEvent, "event"},       {Capability::kSubsample, "poisson"},
      {Capability::kTiming, "audit-timing"},
      {Capability::kCalibrate, "calibrate"}};
  std::string out;
  for (const auto& [c, text] : kNames) {
    if (supports(c)) out += (out.empty() ? "" : ", ") + std::string(text);
  }
  return out;
}

LawParameters Law::parse(const std::vector<std::pair<std::string, std::string>>& given, Use use) const {
  std::vector<std::pair<std::string, mpq_class>> values;
  values.reserve(given.size());
  for (const auto& [name, text] : given) {
    const ParameterSpec* spec = spec_of(name);
    if (spec == nullptr || !accepts(spec->role, use)) {
      values.emplace_back(name, mpq_class(0));  // parse_values names it with the allowed list
      continue;
    }
    values.emplace_back(name, parse_value(*spec, text));
  }
  return parse_values(values, use);
}

LawParameters Law::parse_values(const std::vector<std::pair<std::string, mpq_class>>& given, Use use) const {
  std::string allowed;
  for (const auto& s : parameters_) {
    if (accepts(s.role, use)) allowed += (allowed.empty() ? "" : ", ") + s.name;
  }
  LawParameters out;
  for (const auto& [name, value] : given) {
    const ParameterSpec* spec = spec_of(name);
    if (spec == nullptr || !accepts(spec->role, use)) {
      throw ParameterError(name, abbreviate(name) + " is not a parameter of " + name_ + " here (allowed: " +
                                     (allowed.empty() ? "none" : allowed) + ")");
    }
    if (out.given(name)) throw ParameterError(name, name + " is given twice");
    if (spec->kind == ValueKind::kInteger && value.get_den() != 1) {
      throw ParameterError::out_of_range(name, abbreviate(to_string(value)), "an integer");
    }
    out.set(name, value, true);
  }
  LawParameters ordered;  // schema order, defaults filled in
  for (const auto& s : parameters_) {
    if (!accepts(s.role, use)) continue;
    if (out.given(s.name)) {
      ordered.set(s.name, out.rational(s.name), true);
    } else if (s.fallback) {
      if (!s.fallback->empty()) ordered.set(s.name, parse_value(s, *s.fallback), false);
    } else {
      throw ParameterError(s.name, s.name + " is required for " + name_ + " (allowed: " + s.range + ")");
    }
  }
  validate(ordered, use);  // may fill computed defaults (fallback "")
  LawParameters result;    // schema order again
  for (const auto& s : parameters_) {
    if (ordered.has(s.name)) result.set(s.name, ordered.rational(s.name), ordered.given(s.name));
  }
  return result;
}

void Law::validate(LawParameters& /*p*/, Use /*use*/) const {}

void Law::unsupported(const std::string& what) const {
  throw UnsupportedError("law", "law " + name_ + " has no " + what + " (it supports: " + capability_list() + ")");
}

std::unique_ptr<Sampler> Law::make_sampler(const LawParameters& /*p*/, const std::optional<Hardening>& hardening) const {
  unsupported(hardening ? "hardened sampler" : "sampler");
}

std::unique_ptr<verification::ReferenceLaw> Law::reference_law(const LawParameters& /*p*/) const {
  unsupported("reference law for the audit");
}

accounting::PrivacyEvent Law::privacy_event(const LawParameters& /*p*/) const {
  unsupported("privacy maps");
}

std::optional<TimingUnit> Law::timing_unit(const LawParameters& /*p*/) const { return std::nullopt; }

NoiseCalibration Law::calibrate(const CalibrationTarget& /*target*/, const LawParameters& /*p*/) const {
  unsupported("calibration");
}

void Law::check_calibration(const CalibrationTarget& /*target*/, const LawParameters& /*p*/) const {
  unsupported("calibration");
}

}  // namespace exactdp::laws
