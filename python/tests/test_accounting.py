"""Accounting: the library's functions through the bindings, checked against the CLI's answers
(intervals inside the CLI's, exact ends; reports of the same shape) and the Accountant
(dp_accounting's shape)."""

import dataclasses
import math
from fractions import Fraction

import pytest

import exactdp
from exactdp import events


def cli_interval(d):
    return exactdp.Interval.from_text(d["lower"], d["upper"])


def test_profile_returns_an_exact_interval_inside_the_clis(cli):
    result = exactdp.profile("gaussian", sigma="1", epsilon="1")
    assert isinstance(result, exactdp.results.Profile) and (result.lower, result.upper) == (result.delta.lower,
                                                                                             result.delta.upper)
    delta = result.delta
    assert isinstance(delta, exactdp.Interval)
    assert isinstance(delta.lower, Fraction) and isinstance(delta.upper, Fraction)
    reference = cli_interval(cli("profile", "gaussian", "--sigma", "1", "--epsilon", "1", "--json")["delta"])
    assert delta in reference and delta.width < reference.width
    # digits is accepted and ignored: the ends are the library's exact dyadic ends.
    assert exactdp.profile("gaussian", sigma=1, epsilon=1, digits=20).delta == delta
    assert 0.1269 < float(delta.upper) < 0.1270  # Balle-Wang: delta(1) for sigma = 1


@pytest.mark.parametrize("mechanism, options", [
    ("discrete-gaussian", {"sigma2": "9/4", "epsilon": "1/2"}),
    ("laplace", {"scale": 2, "epsilon": Fraction(1, 4)}),
    ("discrete-laplace", {"scale": 2, "sensitivity": 2, "epsilon": "0.5"}),
])
def test_other_profiles_inside_the_clis(cli, mechanism, options):
    delta = exactdp.profile(mechanism, **options).delta
    args = [a for k, v in options.items() for a in (f"--{k}", str(v))]
    assert delta in cli_interval(cli("profile", mechanism, *args, "--json")["delta"])


def test_profile_curve():
    rows = exactdp.profile("gaussian", sigma=2, curve=(0, 2, 3))
    assert [p.epsilon for p in rows] == [0, 1, 2]
    assert rows[0].delta.upper > rows[1].delta.upper > rows[2].delta.upper


def test_calibrate_convert_compose_measure_gdp_inside_the_clis(cli):
    sigma = exactdp.calibrate("gaussian", epsilon=1, delta="1e-5").value
    assert sigma in cli_interval(cli("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--json")["sigma"])
    calibrated = exactdp.calibrate("discrete-gaussian", epsilon=1, delta="1e-5")
    assert isinstance(calibrated, exactdp.results.Calibration) and calibrated.parameter == "sigma2"
    assert calibrated.lower == calibrated.upper  # one exact value
    sigma2 = calibrated.upper
    ref = cli("calibrate", "discrete-gaussian", "--epsilon", "1", "--delta", "1e-5", "--json")
    assert sigma2 == Fraction(ref["sigma2"])
    assert calibrated.delta_at in cli_interval(ref["delta_at_sigma2"])
    assert exactdp.profile("discrete-gaussian", sigma2=sigma2, epsilon=1).upper <= Fraction(1, 10**5)

    eps = exactdp.convert("zcdp", rho="1/2", delta="1e-6").value
    ref = cli("convert", "zcdp", "--rho", "1/2", "--delta", "1e-6", "--json")
    assert eps in cli_interval(ref["epsilon"])

    composed = exactdp.compose(epsilon="0.1", k=100, delta="1e-6")
    ref = cli("compose", "pure-dp", "--epsilon", "0.1", "--k", "100", "--delta", "1e-6", "--json")
    assert composed.epsilon in cli_interval(ref["epsilon"])

    mu = exactdp.measure_gdp("laplace", scale=1, tolerance="1e-3")
    ref = cli("measure-gdp", "laplace", "--scale", "1", "--tolerance", "1e-3", "--json")
    assert mu.mu in cli_interval(ref["mu"])


def test_report_flag_is_a_deprecated_no_op_and_to_dict_is_the_old_report():
    with pytest.warns(DeprecationWarning, match="report= is deprecated"):
        result = exactdp.profile("gaussian", sigma=1, epsilon=1, report=True)
    assert result == exactdp.profile("gaussian", sigma=1, epsilon=1)  # one return type
    report = result.to_dict()
    assert report["command"] == "profile" and isinstance(report["delta"], exactdp.Interval)
    assert set(report) == {"command", "law", "parameters", "epsilon", "delta", "tolerance_met", "tau_upper",
                           "precision"}
    assert result.tolerance_met is True and result.details["tolerance_met"] is True
    with pytest.warns(DeprecationWarning, match="results are typed"):
        assert result["delta"] == result.delta
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.delta = result.delta  # type: ignore[misc]


def test_accountant_gaussian_is_exact_gdp():
    acc = exactdp.Accountant()
    assert acc.compose(events.Gaussian(sigma=2), count=4) is acc
    eps = acc.get_epsilon("1e-5")
    # 4 uses of sigma = 2 is mu = 1 GDP: the same as one Gaussian with sigma = 1.
    assert eps.details["route"].startswith("gdp")
    delta = acc.get_delta(eps.upper)
    assert delta.upper <= Fraction(1, 10**5) * (1 + Fraction(1, 10**6))
    assert exactdp.profile("gaussian", sigma=1, epsilon=1).delta == exactdp.profile("gdp", mu=1, epsilon=1).delta
    one = exactdp.Accountant().compose(events.GDP(1)).get_delta(1)
    assert one.lower <= exactdp.profile("gdp", mu=1, epsilon=1).upper
    assert exactdp.profile("gdp", mu=1, epsilon=1).lower <= one.upper


def test_accountant_pure_dp_intersects_the_clis_optimal_composition(cli):
    eps = exactdp.Accountant().compose(events.PureDP("0.1"), count=100).get_epsilon("1e-6")
    ref = cli_interval(cli("compose", "pure-dp", "--epsilon", "0.1", "--k", "100", "--delta", "1e-6",
                           "--method", "optimal", "--json")["epsilon"])
    assert eps.lower <= ref.upper and ref.lower <= eps.upper  # both contain the true optimum
    assert {c["route"].split()[0] for c in eps.details["considered"]} >= {"kov", "basic", "zcdp"}


def test_accountant_mixed_events_and_errors():
    acc = exactdp.Accountant()
    acc.compose(events.DiscreteGaussian(sigma2=4)).compose(events.DiscreteLaplace(scale=10, sensitivity=1), 3)
    acc.compose(events.Laplace(scale="2.5")).compose(events.ZCDP(rho="0.01"))
    eps = acc.get_epsilon(Fraction(1, 10**6))
    assert 0 < eps.lower <= eps.upper < math.inf
    with pytest.raises(exactdp.ParameterError, match="sigma2"):
        events.DiscreteGaussian(sigma2=0)
    with pytest.raises(exactdp.ParameterError, match="sensitivity"):
        events.DiscreteGaussian(sigma2=1, sensitivity="1/2")
    with pytest.raises(exactdp.ParameterError, match="count"):
        acc.compose(events.PureDP(1), count=0)
    with pytest.raises(exactdp.ParameterError, match="delta"):
        acc.get_epsilon(0)
    with pytest.raises(TypeError):
        acc.compose("gaussian")
    with pytest.raises(TypeError, match="float"):
        events.Gaussian(sigma=1.5)


def test_ends_beyond_ten_to_the_hundred_thousand_are_widened_outward():
    # delta ~ 6e-7078873101600: no Fraction of reasonable size; the ends are widened outward.
    delta = exactdp.profile("gaussian", sigma=27386, epsilon="208.4857142857142857", tolerance="1e-6")
    assert delta.lower == 0 and delta.upper == Fraction(1, 10**100_000)
    assert delta.details["upper_text"].endswith("e-7078873101600")
    wide = exactdp.Interval.from_text("-1e999999", "1e999999")
    assert wide.lower == -math.inf and wide.upper == math.inf
    assert exactdp.Interval.from_text("2.5e-3", "3/8") == exactdp.Interval(Fraction(1, 400), Fraction(3, 8))


def test_compose_events_routes_bracket_each_other():
    # 4-fold Gaussian with sigma = 2 is 1-GDP: the gdp route is exact; the pld interval (both
    # ends proven) must contain the exact epsilon, so the two intervals overlap.
    events_list = [("gaussian:sigma=2", 4)]
    exact = exactdp.compose_events(events_list, delta="1e-5", route="gdp")
    pld = exactdp.compose_events(events_list, delta="1e-5", route="pld", pld_step="1/1000")
    assert pld.lower <= exact.upper and exact.lower <= pld.upper
    assert pld.details["route"] == "pld"
    # DP-SGD: the pld upper end is below the rdp route's bound.
    sgd = [("poisson-gaussian:sigma=2,q=0.01", 100)]
    rdp = exactdp.compose_events(sgd, delta="1e-5", route="rdp")
    tight = exactdp.compose_events(sgd, delta="1e-5", route="pld", pld_step="1/1000")
    assert tight.upper < rdp.upper
    # a delta query, and the refusal of an event the pld route cannot discretise
    d = exactdp.compose_events(["gaussian:sigma=2"], epsilon=1)
    assert 0 < d.lower <= d.upper < 1
    with pytest.raises(exactdp.ParameterError):
        exactdp.compose_events([("pure-dp:epsilon=1", 2)], delta="1e-5", route="pld")
    # subsampled Laplace noise: only pld covers it, and the default route picks it
    lap = exactdp.compose_events([("poisson-laplace:scale=2,q=0.01", 50)], delta="1e-5", pld_step="1/1000")
    assert lap.details["route"] == "pld"
    assert 0 < lap.lower <= lap.upper < lap.lower + 0.01
    # replace-one with subsampled events: pld's dominating pair, above the add/remove bracket
    rep = exactdp.compose_events(sgd, delta="1e-5", pld_step="1/1000", neighbouring="replace-one")
    assert rep.details["route"] == "pld" and rep.details["neighbouring"] == "replace-one"
    assert tight.upper < rep.lower < rep.upper


def test_compose_events_smoothed_pld_and_exact_routes():
    # vector discrete Gaussian DP-SGD: the smoothed-pld route (Theorem 5) answers under auto, below rdp,
    # not below the continuous Gaussian's proven pld lower end.
    vec = [("poisson-vector-discrete-gaussian:sigma=1.1,sensitivity=1,dim=1000,granularity=1/1024,q=0.01", 100)]
    auto = exactdp.compose_events(vec, delta="1e-5")
    assert auto.route == "smoothed-pld" and auto.quantity == "epsilon"
    assert "Theorem 5" in auto.details_by_route["smoothed_pld_detail"]
    rdp = exactdp.compose_events(vec, delta="1e-5", route="rdp")
    assert auto.value.upper < rdp.upper
    # one subsampled Gaussian step: the closed form, relative width below 1e-6
    one = exactdp.compose_events(["poisson-gaussian:sigma=2,q=0.01"], epsilon="1/2")
    assert one.details["route"] == "exact"
    assert 0 < one.lower and one.upper - one.lower <= one.lower * Fraction(1, 10**6)
    assert Fraction(125, 10**21) < one.lower and one.upper < Fraction(127, 10**21)
    # two subsampled steps: the few-step wide-mass pld of the exact route, named in exact_detail
    two = exactdp.compose_events([("poisson-gaussian:sigma=2,q=0.01", 2)], epsilon="1/2").to_dict()
    assert two["route"] == "exact" and "wide masses" in two["exact_detail"]
    assert Fraction(25945, 10**23) <= two["delta"].upper and two["delta"].lower <= Fraction(25946, 10**23)
    assert two["delta"].upper - two["delta"].lower <= two["delta"].lower * Fraction(1, 1000)


def _shape(x):
    if isinstance(x, dict):
        return "Interval" if set(x) == {"lower", "upper"} else {k: _shape(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_shape(v) for v in x]
    return "Interval" if isinstance(x, exactdp.Interval) else type(x).__name__


def _same_report(py, ref):
    """py (library through the bindings) has the CLI's JSON report shape and its plain values,
    and every Interval of py lies inside the CLI's outward-rounded one."""
    assert _shape(py) == _shape(ref)
    for key, value in ref.items():
        if isinstance(value, dict) and set(value) == {"lower", "upper"}:
            assert py[key] in cli_interval(value), key
        elif not isinstance(value, (dict, list)):
            assert py[key] == value, key


def test_event_composition_measure_gdp_and_dp_sgd_reports_match_the_clis(cli):
    sgd = [("poisson-gaussian:sigma=2,q=0.01", 100)]
    _same_report(exactdp.compose_events(sgd, delta="1e-5", pld_step="1/1000", digits=20).to_dict(),
                 cli("compose", "--event", "poisson-gaussian:sigma=2,q=0.01", "--count", "100", "--delta", "1e-5",
                     "--pld-step", "1/1000", "--json"))
    _same_report(exactdp.compose_events(["gaussian:sigma=2", ("laplace:scale=3", 2)], epsilon=1, digits=20).to_dict(),
                 cli("compose", "--event", "gaussian:sigma=2", "--event", "laplace:scale=3", "--count", "2",
                     "--epsilon", "1", "--json"))
    _same_report(exactdp.measure_gdp("pure-dp-composition", epsilon="0.5", k=3, digits=20).to_dict(),
                 cli("measure-gdp", "pure-dp-composition", "--epsilon", "0.5", "--k", "3", "--json"))
    _same_report(exactdp.measure_gdp("staircase", gamma="1/2", sensitivity=1, tolerance="1e-2", digits=20).to_dict(),
                 cli("measure-gdp", "staircase", "--gamma", "1/2", "--sensitivity", "1", "--tolerance", "1e-2", "--json"))
    _same_report(exactdp.calibrate("dp-sgd", q="0.01", steps=1000, epsilon=2, delta="1e-5").to_dict(),
                 cli("calibrate", "dp-sgd", "--q", "0.01", "--steps", "1000", "--epsilon", "2", "--delta", "1e-5",
                     "--json", "--digits", "40"))
    # the check fails on a report that differs (a test that cannot fail is a defect)
    with pytest.raises(AssertionError):
        _same_report({"route": "rdp"}, {"route": "pld"})


def test_event_composition_errors_name_the_parameter():
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.compose_events(["gaussian:sigma=1,x=2"], delta="1e-5")
    assert e.value.parameter == "event"
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.compose_events(["gaussian:sigma=1"], delta="1e-5", route="foo")
    assert e.value.parameter == "route"
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.calibrate("dp-sgd", q="0.01", steps=0, epsilon=1, delta="1e-5")
    assert e.value.parameter == "steps"
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.measure_gdp("gaussian", sigma="1e-9")
    assert e.value.parameter == "sigma"
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.calibrate("dp-sgd", q="0.01", steps=10, epsilon=1, delta="1e-5", route="kov")
    assert e.value.parameter == "route"
    with pytest.raises(TypeError, match="stepz"):  # the options are the signature's keywords
        exactdp.compose_events(["gaussian:sigma=1"], delta="1e-5", stepz=3)  # type: ignore[call-arg]


def test_dp_sgd_routes():
    # pld (default): a decimal sigma whose certified epsilon meets the target, below rdp's answer
    pld = exactdp.calibrate("dp-sgd", q="0.01", steps=1000, epsilon="3.14", delta="1e-5")
    assert isinstance(pld, exactdp.results.DpSgdCalibration) and pld.rdp_order is None
    assert pld.route.startswith("pld") and pld.epsilon_at_sigma_upper.upper <= Fraction(314, 100)
    assert pld.epsilon_at_sigma_lower.upper > Fraction(314, 100)
    assert pld.rdp_sigma is not None and pld.sigma.upper == Fraction(pld.sigma_to_use) < Fraction(pld.rdp_sigma)
    rdp = exactdp.calibrate("dp-sgd", q="0.01", steps=1000, epsilon="3.14", delta="1e-5", route="rdp")
    assert rdp.details["route"].startswith("rdp") and rdp.upper > pld.sigma.upper
