"""The law registry from Python (exactdp.laws, exactdp.sample), the seed and size checks, and
errors that name Python arguments and map to exactdp's exception classes."""

import dataclasses
import warnings
from fractions import Fraction

import numpy as np
import pytest

import exactdp

SEED = bytes(range(32))


def test_laws_lists_the_registry_with_one_spelling_each():
    laws = {law["name"]: law for law in exactdp.laws()}
    assert {"discrete-gaussian", "discrete-laplace", "bernoulli-exp", "staircase"} <= set(laws)
    assert all("_" not in name for name in laws)
    staircase = laws["staircase"]
    assert "sample" in staircase["capabilities"] and "audit" in staircase["capabilities"]
    assert [p["name"] for p in staircase["parameters"]][:2] == ["gamma", "sensitivity"]
    assert "hardened" in laws["discrete-gaussian"]["capabilities"]


def test_sample_staircase_is_reproducible_and_audits():
    a = exactdp.sample("staircase", gamma=1, sensitivity=3, size=4000, rng=exactdp.SeededBits(SEED))
    b = exactdp.sample("staircase", gamma=1, sensitivity=3, size=4000, rng=exactdp.SeededBits(SEED))
    assert a.dtype == np.int64 and np.array_equal(a, b)
    # alpha = 1e-6; the broken variant (gamma = 1/2 samples) must fail against gamma = 1.
    assert exactdp.audit(a, law="staircase", gamma=1, sensitivity=3).passed is True
    wrong = exactdp.sample("staircase", gamma="1/2", sensitivity=3, size=4000, rng=exactdp.SeededBits(SEED))
    assert exactdp.audit(wrong, law="staircase", gamma=1, sensitivity=3).passed is False


def test_sample_by_name_is_the_named_sampler():
    a = exactdp.sample("discrete-gaussian", sigma2="9/4", size=50, rng=exactdp.SeededBits(SEED))
    b = exactdp.discrete_gaussian("9/4", size=50, rng=exactdp.SeededBits(SEED))
    assert np.array_equal(a, b)


def test_sample_refusals_name_the_argument():
    with pytest.raises(TypeError, match="sigma2"):
        exactdp.sample("discrete-gaussian", sigma2=0.5)
    with pytest.raises(exactdp.ParameterError, match="sigma") as e:
        exactdp.sample("discrete-gaussian", sigma=1)
    assert "--" not in str(e.value)
    with pytest.raises(exactdp.ParameterError, match="no sampler"):
        exactdp.sample("gaussian", sigma=1)  # never treated as another law
    with pytest.raises(exactdp.ParameterError, match="law"):
        exactdp.sample("poisson", lam=1)
    with pytest.raises(exactdp.ParameterError, match="hardened"):
        exactdp.sample("bernoulli-exp", gamma=1, hardened=True)
    with pytest.raises(exactdp.ParameterError, match="tau_bits"):
        exactdp.sample("discrete-gaussian", sigma2=1, tau_bits=64)


def test_all_zero_seed_is_refused_unless_allowed():
    with pytest.raises(exactdp.ParameterError, match="all-zero") as e:
        exactdp.SeededBits(bytes(32))
    assert e.value.parameter == "seed"
    with pytest.raises(exactdp.ParameterError, match="all-zero"):
        exactdp.SeededBits("0" * 64)
    exactdp.SeededBits(bytes(32), allow_weak=True)
    exactdp.SeededBits(bytes([0] * 31 + [1]))  # one nonzero byte is enough


def test_bytearray_and_memoryview_seeds_give_the_bytes_stream():
    want = exactdp.discrete_gaussian(4, size=20, rng=exactdp.SeededBits(SEED))
    for seed in (bytearray(SEED), memoryview(SEED), memoryview(bytearray(SEED))):
        assert np.array_equal(exactdp.discrete_gaussian(4, size=20, rng=exactdp.SeededBits(seed)), want)
    with pytest.raises(exactdp.ParameterError, match="seed"):
        exactdp.SeededBits(bytearray(31))


@pytest.mark.parametrize("size", [(2**32, 2**32, 0), (2**63, 0), (0, 10**11), (10**6, 10**5)])
def test_overflowing_shapes_name_size(size):
    with pytest.raises(exactdp.ParameterError, match="size") as e:
        exactdp.discrete_gaussian(1, size=size)
    assert e.value.parameter == "size"


def test_empty_shapes_still_work():
    assert exactdp.discrete_gaussian(1, size=(3, 0)).shape == (3, 0)


def test_audit_errors_name_python_arguments():
    with pytest.raises(ValueError, match="sigma") as e:
        exactdp.audit([1, 2, 3], sigma="1.5")
    assert "--" not in str(e.value)
    with pytest.raises(exactdp.ParameterError, match="alpha"):
        exactdp.audit([1, 2], sigma2=1, alpha=2)
    with pytest.raises(exactdp.ParameterError, match="samples"):
        exactdp.audit([], sigma2=1)


def test_audit_report_is_typed():
    samples = exactdp.discrete_laplace(2, size=3000, rng=exactdp.SeededBits(SEED))
    r = exactdp.audit(samples, law="discrete-laplace", scale=2, alpha="1e-3")
    assert isinstance(r, exactdp.results.AuditReport) and r.n == 3000 and type(r.n) is int
    assert r.alpha == Fraction(1, 1000)
    assert all(isinstance(t.p_value, exactdp.Interval) for t in r.tests)
    assert all(isinstance(t.threshold, Fraction) for t in r.tests)
    old = r.to_dict()  # the dict the audit returned before its typed report
    assert set(old) == {"law", "n", "alpha", "verdict", "passed", "tests"}
    assert old["tests"][0] == dataclasses.asdict(r.tests[0]) and old["tests"][0]["p_value"] == r.tests[0].p_value


def test_audit_wide_and_unsigned_samples():
    big = [10**30, -(10**30)] + [0] * 100
    assert exactdp.audit(big, sigma2=1, alpha="1e-3").passed is False
    # uint64 samples are read as the integers they hold: a balanced 0/1 sequence fits
    # Bernoulli(exp(-0.693)) ~ 1/2 (its chi-square statistic is 0.0004), a 2 is off the support.
    u = np.array([0, 1, 0, 1] * 500, dtype=np.uint64)
    assert exactdp.audit(u, law="bernoulli-exp", gamma=Fraction(693, 1000), alpha="1e-3").passed is True
    u[7] = 2
    assert exactdp.audit(u, law="bernoulli-exp", gamma=Fraction(693, 1000), alpha="1e-3").passed is False


def test_old_underscore_spelling_warns():
    samples = exactdp.discrete_gaussian("9/4", size=200, rng=exactdp.SeededBits(SEED))
    with pytest.warns(DeprecationWarning, match="discrete-gaussian"):
        exactdp.audit(samples, law="discrete_gaussian", sigma2="9/4")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exactdp.audit(samples, law="discrete-gaussian", sigma2="9/4")


def test_library_failures_are_exactdp_exceptions():
    with pytest.raises(exactdp.ParameterError):
        exactdp.audit([1], law="discrete-gaussian", sigma2="1/0")


def _cli_interval(d):
    return exactdp.Interval.from_text(d["lower"], d["upper"])


@pytest.mark.parametrize("args, kwargs", [
    (["staircase", "--gamma", "1", "--sensitivity", "3", "--epsilon", "1/2"],
     {"gamma": 1, "sensitivity": 3, "epsilon": Fraction(1, 2)}),
    (["discrete-gaussian", "--sigma2", "4", "--epsilon", "1", "--hardened"],
     {"sigma2": 4, "epsilon": 1, "hardened": True}),
    (["gdp", "--mu", "1", "--epsilon", "1"], {"mu": 1, "epsilon": 1}),
])
def test_profile_from_the_library_inside_the_clis(cli, args, kwargs):
    delta = exactdp.profile(args[0], **kwargs).delta
    ref = cli("profile", *args, "--json")
    assert delta in _cli_interval(ref["delta"])
    assert delta.details["tolerance_met"] is True


def test_staircase_profile_is_zero_from_gamma_on():
    assert exactdp.profile("staircase", gamma=1, sensitivity=3, epsilon=1).delta == exactdp.Interval(0, 0)
    assert exactdp.profile("staircase", gamma=1, sensitivity=3, epsilon="0.9").lower > 0


def test_profile_input_is_not_argv():
    with pytest.raises(exactdp.ParameterError, match="law") as e:
        exactdp.profile("--help")
    assert e.value.parameter == "law"
    with pytest.raises(exactdp.ParameterError, match="no certified profile"):
        exactdp.profile("zcdp", rho=1, epsilon=1)  # never treated as another law
    with pytest.raises(exactdp.UsageError, match="sigma2"):
        exactdp.profile("gaussian", sigma2=1, epsilon=1)
    with pytest.raises(exactdp.ParameterError, match="tolerance"):
        exactdp.profile("gaussian", sigma=1, epsilon=1, tolerance=2)


def test_calibrate_returns_a_calibration_for_both_mechanisms():
    sigma = exactdp.calibrate("gaussian", epsilon=1, delta="1e-5")
    sigma2 = exactdp.calibrate("discrete-gaussian", epsilon=1, delta="1e-5")
    assert isinstance(sigma, exactdp.results.Calibration) and isinstance(sigma2.value, exactdp.Interval)
    assert (sigma.parameter, sigma2.parameter) == ("sigma", "sigma2")
    assert sigma.lower < sigma.upper and sigma2.lower == sigma2.upper == 14
    assert sigma2.delta_at.upper <= Fraction(1, 10**5) and sigma.delta_at_lower is not None
    assert sigma2.optimum is not None and sigma2.optimum.upper <= 14
    assert exactdp.profile("gaussian", sigma=sigma.upper, epsilon=1).upper <= Fraction(1, 10**5)
    with pytest.warns(DeprecationWarning):
        assert exactdp.calibrate("discrete_gaussian", epsilon=1, delta="1e-5") == sigma2
    with pytest.raises(exactdp.ParameterError, match="delta"):
        exactdp.calibrate("gaussian", epsilon=1, delta=2)
    with pytest.raises(exactdp.ParameterError, match="sensitivity"):
        exactdp.calibrate("discrete-gaussian", epsilon=1, delta="1e-5", sensitivity="1/2")
    with pytest.raises(exactdp.UsageError, match="sigma"):
        exactdp.calibrate("gaussian", epsilon=1, delta="1e-5", sigma=1)


def test_convert_from_the_library_inside_the_clis(cli):
    cases = [
        ("zcdp", {"rho": "1/2", "epsilon": 2}, "delta"),
        ("gdp", {"mu": 1, "delta": "1e-5"}, "epsilon"),
        ("gdp", {"epsilon": 1, "delta": "1e-5"}, "mu"),
    ]
    for source, values, key in cases:
        got = exactdp.convert(source, **values)
        assert got.result == key
        args = [a for k, v in values.items() for a in (f"--{k}", str(v))]
        assert got.value in _cli_interval(cli("convert", source, *args, "--json")[key])
    both = exactdp.convert("pure-dp", epsilon=1)
    assert both.rho == Fraction(1, 2) and both.result == "mu"
    assert both.to_dict()["rho"] == Fraction(1, 2) and "mu" in both.to_dict()
    assert both.value in _cli_interval(cli("convert", "pure-dp", "--epsilon", "1", "--json")["mu"])


def test_convert_errors_name_python_arguments():
    with pytest.raises(exactdp.ParameterError, match="mu") as e:
        exactdp.convert("zcdp", rho=1, mu=1)
    assert "--" not in str(e.value)
    with pytest.raises(exactdp.ParameterError, match="delta"):
        exactdp.convert("zcdp", rho=1, delta=1, epsilon=1)
    with pytest.raises(exactdp.ParameterError, match="source"):
        exactdp.convert("--help")


def test_accountant_events_come_from_the_registry():
    from exactdp import events
    stair = events.Staircase(gamma=1, sensitivity=3)
    assert "staircase" in repr(stair)
    eps = exactdp.Accountant().compose(stair, count=2).get_epsilon("1e-6")
    assert eps.upper <= 2  # two uses of a 1-DP mechanism
    generic = events.Event.of_law("discrete-gaussian", sigma2=4)
    a = exactdp.Accountant().compose(generic).get_epsilon("1e-6")
    b = exactdp.Accountant().compose(events.DiscreteGaussian(sigma2=4)).get_epsilon("1e-6")
    assert a == b
    with pytest.raises(exactdp.ParameterError, match="no accounting event"):
        events.Event.of_law("bernoulli-exp", gamma=1)
    with pytest.raises(exactdp.ParameterError, match="sigma2"):
        events.Event.of_law("discrete-gaussian", sigma2=0)


def test_compose_pure_dp_every_method_inside_the_clis(cli):
    got = exactdp.compose(epsilon="0.1", k=100, delta="1e-6", method="all")
    ref = cli("compose", "pure-dp", "--epsilon", "0.1", "--k", "100", "--delta", "1e-6", "--method", "all", "--json")
    assert got.methods is not None and got.method == "all"
    for method, result in got.methods.items():
        assert result.epsilon in _cli_interval(ref["methods"][method]["epsilon"]), method
    assert got.methods["basic"].epsilon == exactdp.Interval(10, 10)
    assert got.upper == min(c.upper for c in got.methods.values())
    assert got.to_dict()["methods"]["basic"]["epsilon"] == exactdp.Interval(10, 10)
    with pytest.raises(exactdp.ParameterError, match="method"):
        exactdp.compose(epsilon=1, k=2, delta="1e-6", method="best")
    with pytest.raises(exactdp.ParameterError, match="k"):
        exactdp.compose(epsilon=1, k=0, delta="1e-6")
    with pytest.raises(exactdp.ParameterError, match="epsilon"):
        exactdp.compose(epsilon=10**5, k=10**6, delta="1e-6", method="zcdp")


hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@hypothesis.given(st.integers(1, 10**4), st.integers(1, 1000))
@hypothesis.settings(max_examples=40, deadline=None, derandomize=True)
def test_exact_parameter_spellings_draw_the_same(p, q):
    # int, Fraction, Decimal and str of the same rational reach the law as the same mpq.
    import decimal
    value = Fraction(p, q)
    spellings = [value, f"{p}/{q}"]
    if q in (1, 2, 4, 5, 8, 10, 16, 20, 25):
        spellings.append(decimal.Decimal(p) / decimal.Decimal(q))
    if q == 1:
        spellings.append(p)
    draws = [exactdp.sample("staircase", gamma=v, sensitivity=2, size=8, rng=exactdp.SeededBits(SEED)).tolist()
             for v in spellings]
    assert all(d == draws[0] for d in draws)
    with pytest.raises(TypeError, match="gamma"):
        exactdp.sample("staircase", gamma=float(value), sensitivity=2)


def test_calibrate_serves_every_calibrating_law_of_the_registry():
    # The Laplace laws' closed form scale = sensitivity / epsilon: pure epsilon-DP, so the
    # certified profile at that epsilon is 0 (a scale 10 % smaller would leave delta > 0).
    for law, sensitivity in (("discrete-laplace", 3), ("laplace", Fraction(3, 2))):
        scale = exactdp.calibrate(law, epsilon="1/2", sensitivity=sensitivity)
        assert scale.lower == scale.upper == 2 * sensitivity
        assert exactdp.profile(law, scale=scale.upper, sensitivity=sensitivity, epsilon="1/2").upper == 0
        smaller = scale.upper * Fraction(9, 10)
        assert exactdp.profile(law, scale=smaller, sensitivity=sensitivity, epsilon="1/2").lower > 0
        assert exactdp.calibrate(law, epsilon="1/2", sensitivity=sensitivity).to_dict()["scale"] == scale.value
    with pytest.raises(exactdp.ParameterError, match="mechanism"):
        exactdp.calibrate("staircase", epsilon=1, delta="1e-6")
    with pytest.raises(exactdp.ParameterError, match="sensitivity"):
        exactdp.calibrate("discrete-laplace", epsilon=1, sensitivity="3/2")
