"""Typed results: every public call returns one frozen dataclass type whatever its options, and
to_dict() gives the dict the call returned before (the command's --json report's keys)."""

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import results

SEED = "01" * 32


def _accounting_calls():
    return [
        (lambda **kw: exactdp.profile("gaussian", sigma=1, epsilon=1, **kw), results.Profile,
         {"command", "law", "parameters", "epsilon", "delta", "tolerance_met", "tau_upper", "precision"}),
        (lambda **kw: exactdp.calibrate("gaussian", epsilon=1, delta="1e-5", **kw), results.Calibration,
         {"mechanism", "sigma", "delta_at_sigma", "delta_at_sigma_lower", "tolerance_met"}),
        (lambda **kw: exactdp.calibrate("discrete-gaussian", epsilon=1, delta="1e-5", **kw), results.Calibration,
         {"mechanism", "sigma2", "delta_at_sigma2", "sigma2_optimum", "significant_digits", "tolerance_met"}),
        (lambda **kw: exactdp.calibrate("dp-sgd", q="0.01", steps=100, epsilon=2, delta="1e-5", route="rdp", **kw),
         results.DpSgdCalibration,
         {"command", "mechanism", "q", "steps", "epsilon", "delta", "neighbouring", "route", "sigma", "sigma_to_use",
          "epsilon_at_sigma_upper", "epsilon_at_sigma_lower", "rdp_order", "width_met"}),
        (lambda **kw: exactdp.convert("zcdp", rho="1/2", delta="1e-6", **kw), results.Conversion,
         {"tolerance_met", "alpha", "command", "source", "epsilon"}),
        (lambda **kw: exactdp.convert("pure-dp", epsilon=1, **kw), results.Conversion,
         {"tolerance_met", "mu", "rho", "command", "source"}),
        (lambda **kw: exactdp.compose(epsilon="0.1", k=10, delta="1e-6", **kw), results.Composition,
         {"command", "mechanism", "epsilon_per_mechanism", "k", "delta", "method", "epsilon", "route"}),
        (lambda **kw: exactdp.compose_events(["gaussian:sigma=2"], delta="1e-5", **kw), results.EventComposition,
         {"command", "events", "neighbouring", "delta", "epsilon", "epsilon_upper", "route", "routes", "rdp_detail",
          "tolerance_met"}),
        (lambda **kw: exactdp.measure_gdp("laplace", scale=1, tolerance="1e-2", **kw), results.GdpMeasurement,
         {"command", "mechanism", "eps_max", "tolerance", "mu", "mu_upper", "bounded", "complete", "grid_points",
          "binary_searches", "profile_evaluations", "gdp_evaluations", "algorithm", "tail"}),
    ]


@pytest.mark.parametrize("call, kind, keys", _accounting_calls())
def test_one_return_type_and_the_old_report_keys(call, kind, keys):
    result = call()
    assert type(result) is kind and dataclasses.is_dataclass(result)
    assert set(result.to_dict()) == keys
    # the answer's interval is the result's own lower / upper
    assert result.interval.lower == result.lower and result.interval.upper == result.upper
    assert result.upper_float >= result.upper
    with pytest.warns(DeprecationWarning, match="report= is deprecated"):
        flagged = call(report=True)  # the old flag: ignored, same type
    assert type(flagged) is kind and flagged.interval == result.interval


def test_results_are_frozen_and_dict_access_is_a_deprecated_migration():
    result = exactdp.compose(epsilon="0.1", k=10, delta="1e-6")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.k = 2
    with pytest.warns(DeprecationWarning, match=r"Composition\['route'\]"):
        assert result["route"] == result.route


def test_compose_all_holds_every_method_and_answers_with_the_smallest():
    every = exactdp.compose(epsilon="0.1", k=10, delta="1e-6", method="all")
    assert every.methods is not None and set(every.methods) == {"basic", "advanced", "optimal", "gdp", "zcdp"}
    assert every.upper == min(c.upper for c in every.methods.values())
    assert set(every.to_dict()) == {"command", "mechanism", "epsilon_per_mechanism", "k", "delta", "methods"}


def test_profile_curve_is_a_list_of_profiles():
    curve = exactdp.profile("gaussian", sigma=2, curve=(0, 2, 3))
    assert [type(p) for p in curve] == [results.Profile] * 3
    assert [p.epsilon for p in curve] == [0, 1, 2]


def test_audit_release_and_estimator_guarantees_are_typed():
    samples = exactdp.discrete_gaussian("9/4", size=500, rng=exactdp.SeededBits(SEED))
    # Fixed seed; a correct sampler fails this audit with probability alpha = 1e-3 for a fresh seed.
    report = exactdp.audit(samples, law="discrete-gaussian", sigma2="9/4", alpha="1e-3")
    assert isinstance(report, results.AuditReport) and report.passed and report.n == 500
    assert all(isinstance(t, results.AuditTest) for t in report.tests)
    assert report.to_dict()["tests"][0]["name"] == report.tests[0].name
    x = np.linspace(-1, 1, 64)
    (_, value), g = exactdp.estimators.private_max(x, epsilon=1, sensitivity="1/64", rng=exactdp.SeededBits(SEED))
    assert isinstance(g, results.EstimatorGuarantee) and isinstance(value, Fraction)
    assert g.certified_epsilon.upper <= 1 and "exact_estimate" not in g.to_dict()
