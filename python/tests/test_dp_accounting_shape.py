"""exactdp.dp_accounting: dp_accounting's events and accountants, floats at their exact binary
values, answers as floats rounded up whose certified Interval (``.interval``) is the same as
exactdp.compose_events' on the same event strings."""

import json
import math
from decimal import Decimal
from fractions import Fraction

import pytest

import exactdp
from exactdp import dp_accounting
from exactdp.dp_accounting import NeighboringRelation, events

DP_SGD = events.PoissonSampledDpEvent("0.01", events.GaussianDpEvent("1.1"))
DP_SGD_TEXT = "poisson-gaussian:sigma=11/10,q=1/100"


@pytest.fixture(scope="module")
def dp_sgd_epsilons():
    """q = 0.01, sigma = 1.1, 1000 steps, delta = 1e-5 through each accountant."""
    return {name: cls().compose(DP_SGD, 1000).get_epsilon("1e-5")
            for name, cls in (("rdp", dp_accounting.RdpAccountant), ("pld", dp_accounting.PLDAccountant),
                              ("auto", dp_accounting.Accountant))}


def test_dp_sgd_rdp_and_pld_are_certified_and_pld_is_tighter(dp_sgd_epsilons):
    rdp, pld, auto = (dp_sgd_epsilons[k] for k in ("rdp", "pld", "auto"))
    for eps in (rdp, pld, auto):
        assert isinstance(eps, float) and isinstance(eps.interval, exactdp.Interval)
        assert isinstance(eps.upper, Fraction) and eps == eps.interval.upper_float
        assert 0 < eps.lower <= eps.upper
        assert Fraction(eps.upper_float) >= eps.upper  # the float to hand on is rounded up
    assert rdp.details["route"].startswith("rdp") and pld.details["route"] == "pld"
    assert pld.upper <= rdp.upper
    assert pld.upper - pld.lower < Fraction(1, 1000)  # the pld bracket: both ends proven bounds
    assert auto.interval == pld.interval and auto.details["route"] == "pld"  # auto: the smallest certified upper end
    assert 1.5 < pld.lower_float and pld.upper_float < 1.52 and 1.70 < rdp.upper_float < 1.72
    assert auto.details["neighbouring"] == "add/remove-one" and "pld" in auto.details["routes"]
    assert any(route.startswith("rdp") for route in auto.details["routes"])


def test_same_interval_as_compose_events_on_the_event_string():
    acc = dp_accounting.RdpAccountant().compose(DP_SGD, 1000)
    direct = exactdp.compose_events([(DP_SGD_TEXT, 1000)], delta="1e-5", route="rdp").value
    assert acc.get_epsilon("1e-5").interval == direct == acc.get_epsilon_interval("1e-5")
    direct_delta = exactdp.compose_events([(DP_SGD_TEXT, 1000)], epsilon=2, route="rdp").value
    assert acc.get_delta(2).interval == direct_delta == acc.get_delta_interval(2)
    assert acc.get_delta(2) == direct_delta.upper_float


def test_pld_delta_at_the_epsilon_ends_brackets_the_target():
    # Both pld ends are proven bounds on the true epsilon(1e-5): the true delta at the lower end is
    # >= 1e-5, at the upper end <= 1e-5, and the certified delta intervals must agree.
    acc = dp_accounting.PLDAccountant().compose(DP_SGD, 100)
    eps = acc.get_epsilon("1e-5")
    assert acc.get_delta(eps.lower).upper >= Fraction(1, 10**5)
    assert acc.get_delta(eps.upper).lower <= Fraction(1, 10**5)


def test_exact_parameters_and_floats_at_their_binary_values():
    same = [events.GaussianDpEvent(v) for v in ("1.1", "11/10", Fraction(11, 10), Decimal("1.10"))]
    assert all(e == same[0] for e in same) and same[0].noise_multiplier == Fraction(11, 10)
    # A float, as dp_accounting's users pass it, is its exact binary value (as exactdp.from_float).
    as_float = events.GaussianDpEvent(1.1)
    assert as_float == events.GaussianDpEvent(exactdp.from_float(1.1)) != same[0]
    assert as_float.noise_multiplier == Fraction(2476979795053773, 2251799813685248)
    assert events.PoissonSampledDpEvent(0.01, as_float).sampling_probability == Fraction(0.01)
    with pytest.raises(exactdp.ParameterError, match="noise_multiplier"):
        events.GaussianDpEvent(float("nan"))
    with pytest.raises(exactdp.ParameterError, match="noise_multiplier"):
        events.GaussianDpEvent("-1")
    with pytest.raises(exactdp.ParameterError, match="sampling_probability"):
        events.PoissonSampledDpEvent("1.5", events.GaussianDpEvent(1))
    with pytest.raises(exactdp.ParameterError, match="not an exact rational"):
        events.GaussianDpEvent("abc")


def test_compose_returns_self_and_the_ledger_merges_consecutive_uses():
    acc = dp_accounting.RdpAccountant()
    assert acc.ledger == events.NoOpDpEvent()
    assert acc.compose(DP_SGD, 600) is acc
    assert acc.ledger == events.SelfComposedDpEvent(DP_SGD, 600)
    acc.compose(DP_SGD, 400).compose(events.LaplaceDpEvent(3))
    assert acc.ledger == events.ComposedDpEvent((events.SelfComposedDpEvent(DP_SGD, 1000), events.LaplaceDpEvent(3)))
    nested = events.ComposedDpEvent([events.SelfComposedDpEvent(DP_SGD, 300), events.NoOpDpEvent(),
                                     events.SelfComposedDpEvent(events.SelfComposedDpEvent(DP_SGD, 7), 100)])
    once = dp_accounting.RdpAccountant().compose(DP_SGD, 1000).compose(events.LaplaceDpEvent(3))
    again = dp_accounting.RdpAccountant().compose(nested).compose(events.LaplaceDpEvent(3))
    assert acc.get_epsilon("1e-5") == once.get_epsilon("1e-5") == again.get_epsilon("1e-5")
    with pytest.raises(exactdp.ParameterError, match="count"):
        acc.compose(DP_SGD, 0)
    with pytest.raises(TypeError, match="DpEvent"):
        acc.compose(exactdp.events.Gaussian(1))


def test_supports_and_unsupported_events():
    rdp, pld, auto = dp_accounting.RdpAccountant(), dp_accounting.PLDAccountant(), dp_accounting.Accountant()
    staircase = events.PoissonSampledDpEvent("0.1", events.StaircaseDpEvent(1, 3))
    pure = events.EpsilonDeltaDpEvent(1)
    assert rdp.supports(DP_SGD) and pld.supports(DP_SGD) and auto.supports(DP_SGD)
    assert not rdp.supports(staircase) and pld.supports(staircase) and auto.supports(staircase)
    assert rdp.supports(pure) and not pld.supports(pure) and auto.supports(pure)
    for unsupported in (events.UnsupportedDpEvent(), events.EpsilonDeltaDpEvent(1, "1e-6"),
                        events.SampledWithReplacementDpEvent(1000, 10, events.GaussianDpEvent(1)),
                        events.PoissonSampledDpEvent("0.1", events.SelfComposedDpEvent(events.GaussianDpEvent(1), 2)),
                        events.ComposedDpEvent([DP_SGD, events.UnsupportedDpEvent()])):
        assert not any(a.supports(unsupported) for a in (rdp, pld, auto))
    with pytest.raises(exactdp.UnsupportedEventError, match="UnsupportedDpEvent"):
        auto.compose(events.UnsupportedDpEvent())
    with pytest.raises(exactdp.UnsupportedEventError, match="RdpAccountant.*StaircaseDpEvent.*poisson-staircase"):
        rdp.compose(staircase)
    assert rdp.ledger == events.NoOpDpEvent()  # a refused event is not recorded
    assert pld.compose(staircase, 3).get_epsilon("1e-5").upper < 1


def test_non_private_and_no_op():
    for event in (events.NonPrivateDpEvent(), events.GaussianDpEvent(0),
                  events.PoissonSampledDpEvent("0.01", events.LaplaceDpEvent(0))):
        acc = dp_accounting.PLDAccountant().compose(DP_SGD, 10).compose(event)
        eps = acc.get_epsilon("1e-5")
        assert eps.lower == eps.upper == math.inf and eps.upper_float == math.inf
        assert acc.get_delta(5).interval == exactdp.Interval(Fraction(1), Fraction(1)) and acc.get_delta(5) == 1
    acc = dp_accounting.Accountant().compose(events.NoOpDpEvent(), 5)
    acc.compose(events.PoissonSampledDpEvent(0, events.GaussianDpEvent(1)))
    assert acc.get_epsilon("1e-5").interval == exactdp.Interval(Fraction(0), Fraction(0))
    assert acc.get_delta(0).interval == exactdp.Interval(Fraction(0), Fraction(0))
    with pytest.raises(exactdp.ParameterError, match="target_delta"):
        acc.get_epsilon(0)


def test_neighboring_relations():
    assert dp_accounting.PLDAccountant().neighboring_relation is NeighboringRelation.ADD_OR_REMOVE_ONE
    replace = dp_accounting.PLDAccountant(NeighboringRelation.REPLACE_ONE).compose(DP_SGD, 100)
    add_remove = dp_accounting.PLDAccountant().compose(DP_SGD, 100)
    assert replace.neighboring_relation is NeighboringRelation.REPLACE_ONE
    eps_replace, eps_add_remove = replace.get_epsilon("1e-5"), add_remove.get_epsilon("1e-5")
    assert eps_replace.details["neighbouring"] == "replace-one"
    assert eps_replace.upper > eps_add_remove.upper
    rdp_replace = dp_accounting.RdpAccountant(neighboring_relation=NeighboringRelation.REPLACE_ONE)
    assert not rdp_replace.supports(DP_SGD) and rdp_replace.supports(events.GaussianDpEvent(2))
    with pytest.raises(exactdp.ParameterError, match="REPLACE_SPECIAL"):
        dp_accounting.RdpAccountant(neighboring_relation=NeighboringRelation.REPLACE_SPECIAL)


def test_rdp_orders_are_checked_before_any_work():
    with pytest.raises(exactdp.ParameterError, match="orders") as e:
        dp_accounting.RdpAccountant(orders=[1, 2]).compose(DP_SGD, 10).get_epsilon("1e-5")
    assert e.value.parameter == "orders"
    too_many = list(range(3000, 3100, 20)) + [1400]            # they sum to 16,600 > 16,384
    with pytest.raises(exactdp.LimitError, match="orders"):   # refused at once (zCDP: no pld to fall back on)
        dp_accounting.RdpAccountant(orders=too_many).compose(events.ZCDpEvent("1/8")).get_epsilon("1e-5")
    eps = dp_accounting.RdpAccountant(orders=too_many).compose(DP_SGD, 10).get_epsilon_interval("1e-5")
    assert eps.details["route"] == "pld" and "orders" in eps.details["fallback"]   # as any rdp refusal
    with pytest.raises(exactdp.ParameterError, match="orders"):
        dp_accounting.RdpAccountant(orders=[])
    replace = dp_accounting.RdpAccountant(orders=[2, 8], neighboring_relation=NeighboringRelation.REPLACE_ONE)
    assert not replace.supports(DP_SGD) and replace.supports(events.GaussianDpEvent(2))
    at_8 = replace.compose(events.GaussianDpEvent(2), 3).get_epsilon_interval("1e-5")
    assert at_8.details["rdp_order"] == "8" and at_8.details["orders_used"] == 2


def test_accountant_options():
    fine = dp_accounting.PLDAccountant(value_discretization_interval="1e-4").compose(DP_SGD, 10)
    coarse = dp_accounting.PLDAccountant(value_discretization_interval=Fraction(1, 100)).compose(DP_SGD, 10)
    assert fine.get_epsilon("1e-5").width < coarse.get_epsilon("1e-5").width
    with pytest.raises(exactdp.ParameterError, match="value_discretization_interval"):
        dp_accounting.PLDAccountant(value_discretization_interval="0.3")
    # A float grid step (dp_accounting's default is 1e-4): the largest 1/N at or below its value.
    as_float = dp_accounting.PLDAccountant(value_discretization_interval=1e-4).compose(DP_SGD, 10)
    assert as_float.get_epsilon("1e-5").interval == fine.get_epsilon("1e-5").interval
    with pytest.raises(exactdp.ParameterError, match="route"):
        dp_accounting.Accountant(route="prv")
    assert dp_accounting.rdp.RdpAccountant is dp_accounting.RdpAccountant
    assert dp_accounting.dp_event.GaussianDpEvent is dp_accounting.GaussianDpEvent is events.GaussianDpEvent


def test_exact_event_kinds_map_to_their_strings():
    acc = dp_accounting.Accountant().compose(events.DiscreteGaussianDpEvent("9/4", 1), 10)
    acc.compose(events.DiscreteLaplaceDpEvent(2, 2)).compose(events.ZCDpEvent("1/8"))
    acc.compose(events.EpsilonDeltaDpEvent("0.1"))
    eps = acc.get_epsilon("1e-6")
    assert eps.details["events"] and json.dumps(eps.details["events"])  # the event strings, reported back
    direct = exactdp.compose_events([("discrete-gaussian:sigma2=9/4,sensitivity=1", 10),
                                     "discrete-laplace:scale=2,sensitivity=2", "zcdp:rho=1/8", "pure-dp:epsilon=1/10"],
                                    delta="1e-6")
    assert eps.interval == direct.value
