"""The Opacus- and dp_accounting-shaped accountants answer where their peers answer: when the pld
route refuses a long DP-SGD run at a small delta (LimitError), the next certified route (rdp)
answers and ``details["fallback"]`` says why.

Peer values (dp_accounting 0.6 PLDAccountant, value_discretization_interval 1e-4): 8.585 at
(q 0.001, sigma 0.6, 10^5 steps, delta 1e-8) and 9.38 at delta 1e-9. Those are estimates, not
bounds, but a certified upper end below them would contradict them: the upper end must not be."""

from fractions import Fraction

import pytest

import exactdp
from exactdp import dp_accounting
from exactdp.dp_accounting import events
from exactdp.opacus import Accountant

# (sample_rate, noise_multiplier, steps, delta, dp_accounting's PLD epsilon where quoted)
RUNS = [
    ("0.001", "0.6", 10**5, "1e-8", Fraction("8.585")),
    ("0.001", "0.6", 10**5, "1e-9", Fraction("9.38")),
    ("0.001", "0.6", 10**6, "1e-10", None),
    ("0.004", "0.8", 10**4, "1e-12", None),
    ("0.01", "1.1", 10**5, "1e-9", None),
]


def opacus_epsilon(q, sigma, steps, delta):
    acc = Accountant()  # mechanism "prv": the pld route first
    acc.load_state_dict({"history": [(sigma, q, steps)]})
    return acc.get_epsilon_interval(delta)


@pytest.mark.parametrize("q,sigma,steps,delta,peer", RUNS)
def test_opacus_default_answers_every_run(q, sigma, steps, delta, peer):
    eps = opacus_epsilon(q, sigma, steps, delta)
    assert 0 < eps.lower <= eps.upper < 100
    if peer is not None:
        assert eps.upper >= peer
    if eps.details["route"] != "pld":
        assert eps.details["route"].startswith("rdp")
        assert "route pld refused" in eps.details["fallback"]
        assert "delta" in eps.details["fallback"]  # the refusal names its parameter
    else:
        assert "fallback" not in eps.details


def test_pld_accountant_falls_back_and_names_the_reason():
    # 10^8 steps: the pld route's cost model refuses (about 23 s estimated); rdp answers.
    event = events.PoissonSampledDpEvent("0.001", events.GaussianDpEvent("0.6"))
    eps = dp_accounting.PLDAccountant().compose(event, 10**8).get_epsilon("1e-9")
    assert eps.details["route"].startswith("rdp")
    assert eps.details["fallback"].startswith("route pld refused: ")
    assert eps.details["fallback"].endswith("answered by route rdp")
    # The same interval as the rdp route asked for directly.
    direct = dp_accounting.RdpAccountant().compose(event, 10**8).get_epsilon("1e-9")
    assert (direct.lower, direct.upper) == (eps.lower, eps.upper)
    assert "fallback" not in direct.details


def test_a_route_that_answers_is_not_replaced():
    event = events.PoissonSampledDpEvent("0.01", events.GaussianDpEvent("1.1"))
    eps = dp_accounting.PLDAccountant().compose(event, 1000).get_epsilon("1e-5")
    assert eps.details["route"] == "pld" and "fallback" not in eps.details


def test_bad_input_still_raises():
    event = events.PoissonSampledDpEvent("0.001", events.GaussianDpEvent("0.6"))
    with pytest.raises(exactdp.ParameterError):
        dp_accounting.PLDAccountant().compose(event, 10).get_epsilon("2")
