"""exactdp.opacus.Accountant: Opacus' accountant interface, certified; floats taken at their exact
dyadic values; the history merged like Opacus' and round-tripped exactly by state_dict."""

import json
import math
from fractions import Fraction

import pytest

import exactdp
from exactdp import dp_accounting
from exactdp.dp_accounting import events
from exactdp.opacus import Accountant, PRVAccountant, RDPAccountant


def dp_sgd(mechanism, steps=1000):
    acc = Accountant(mechanism)
    for _ in range(steps):
        acc.step(noise_multiplier=1.1, sample_rate=0.01)
    return acc


@pytest.fixture(scope="module")
def accountants():
    """q = 0.01, sigma = 1.1 (as floats, like Opacus), 1000 steps, through prv and rdp."""
    return {m: dp_sgd(m) for m in ("prv", "rdp")}


def test_dp_sgd_epsilon_is_the_certified_upper_end_rounded_up(accountants):
    prv, rdp = accountants["prv"], accountants["rdp"]
    assert len(prv) == 1000 and prv.history == [(Fraction(1.1), Fraction(0.01), 1000)]
    assert prv.mechanism() == "prv" and rdp.mechanism() == "rdp"
    eps_prv, eps_rdp = prv.get_epsilon_interval(1e-5), rdp.get_epsilon_interval(1e-5)
    assert eps_prv.details["route"] == "pld" and eps_rdp.details["route"].startswith("rdp")
    for acc, interval in ((prv, eps_prv), (rdp, eps_rdp)):
        eps = acc.get_epsilon(delta=1e-5)
        assert isinstance(eps, float) and eps == interval.upper_float
        assert Fraction(eps) >= interval.upper >= interval.lower  # never below the certified end
        assert Fraction(math.nextafter(eps, 0)) < interval.upper  # and the smallest such float
    assert eps_prv.upper <= eps_rdp.upper
    assert 1.5 < eps_prv.lower_float and eps_prv.upper_float < 1.52


def test_epsilon_is_rounded_up_where_the_nearest_float_is_below():
    acc = Accountant("rdp")
    acc.step(noise_multiplier="1.1", sample_rate="0.01")
    interval = acc.get_epsilon_interval("1e-5")
    assert Fraction(float(interval.upper)) < interval.upper  # this case: round-to-nearest would be unsafe
    assert Fraction(acc.get_epsilon("1e-5")) >= interval.upper


def test_floats_are_accounted_at_their_exact_values(accountants):
    # The same numbers through the dp_accounting shape, with exactdp.from_float spelled out.
    event = events.PoissonSampledDpEvent(exactdp.from_float(0.01), events.GaussianDpEvent(exactdp.from_float(1.1)))
    direct = dp_accounting.RdpAccountant().compose(event, 1000).get_epsilon(exactdp.from_float(1e-5))
    assert accountants["rdp"].get_epsilon_interval(1e-5) == direct.interval
    # The decimal 1.1 is a different number from the float 1.1: a new history entry.
    acc = Accountant("rdp")
    acc.step(noise_multiplier=1.1, sample_rate=0.01)
    acc.step(noise_multiplier="1.1", sample_rate="0.01")
    assert len(acc) == 2 and len(acc.history) == 2 and acc.history[1][:2] == (Fraction(11, 10), Fraction(1, 100))


def test_consecutive_equal_steps_are_merged():
    acc = Accountant("rdp")
    for sigma in (1, 1, 2, 2, 2, 1):
        acc.step(noise_multiplier=sigma, sample_rate=0.01)
    assert [(int(s), n) for s, _, n in acc.history] == [(1, 2), (2, 3), (1, 1)]
    assert len(acc) == 6


def test_state_dict_round_trips_exactly(accountants):
    for mechanism, acc in accountants.items():
        state = json.loads(json.dumps(acc.state_dict()))  # exact text: JSON-safe
        assert state["mechanism"] == mechanism
        assert state["history"] == [["2476979795053773/2251799813685248", "5764607523034235/576460752303423488", 1000]]
        restored = Accountant(mechanism)
        restored.load_state_dict(state)
        assert restored.history == acc.history and len(restored) == 1000
        assert restored.get_epsilon_interval(1e-5) == acc.get_epsilon_interval(1e-5)
        assert restored.get_epsilon(1e-5) == acc.get_epsilon(1e-5)


def test_load_an_opacus_float_history():
    acc = Accountant("rdp")
    acc.load_state_dict({"history": [(1.1, 0.01, 10)], "mechanism": RDPAccountant.mechanism})
    assert acc.history == dp_sgd("rdp", 10).history and acc.mechanism() == "rdp"
    for bad in (None, {}, {"mechanism": "rdp"}):
        with pytest.raises(ValueError):
            acc.load_state_dict(bad)
    with pytest.raises(exactdp.ParameterError, match="steps"):
        acc.load_state_dict({"history": [(1.1, 0.01, 0)]})


def test_edge_cases_and_errors():
    assert Accountant().mechanism() == "prv" and PRVAccountant().mechanism() == "prv"
    assert Accountant("rdp").get_epsilon(1e-5) == 0.0  # no steps
    acc = Accountant("rdp")
    acc.step(noise_multiplier=0.0, sample_rate=0.01)  # no noise: no privacy
    assert acc.get_epsilon(1e-5) == math.inf
    with pytest.raises(exactdp.ParameterError, match="gdp"):
        Accountant("gdp")
    with pytest.raises(exactdp.ParameterError, match="sample_rate"):
        Accountant().step(noise_multiplier=1.0, sample_rate=1.5)
    with pytest.raises(exactdp.ParameterError, match="noise_multiplier"):
        Accountant().step(noise_multiplier=math.nan, sample_rate=0.5)
    with pytest.raises(exactdp.ParameterError, match="delta"):
        Accountant("rdp").get_epsilon(0.0)


def test_optimizer_hook_steps_like_opacus():
    class Optimizer:
        noise_multiplier = 1.1
        accumulated_iterations = 2

    acc = Accountant("rdp")
    hook = acc.get_optimizer_hook_fn(sample_rate=0.005)
    hook(Optimizer())
    hook(Optimizer())
    assert acc.history == [(Fraction(1.1), Fraction(0.005) * 2, 2)]
