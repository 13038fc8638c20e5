"""The accountants account what exactdp.add_noise ran: its grid law (vector-discrete-gaussian at
the granularity used, Poisson-sampled at the stated rate), not the continuous Gaussian.

DP-SGD reference: sigma 1.1, q 0.01, 1000 steps, delta 1e-5, d = 10^6 (stated as dim, no array
of that size), granularity 2^-18 (automatic): compose_events on the event string answers
[1.52587.., 1.5262] (smoothed-pld route); the continuous sampled Gaussian 1.5154 (pld route).
"""

from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import dp_accounting, opacus
from exactdp.dp_accounting import dp_event
from exactdp.events import Event, PoissonSampled

STRING = ("poisson-vector-discrete-gaussian:sigma=1.1,sensitivity=1,dim=1000000,granularity=1/262144,q=0.01", 1000)
G = Fraction(1, 2**18)


@pytest.fixture(scope="module")
def reference():
    return exactdp.compose_events([STRING], delta="1e-5")


def _same(a, b):
    return a.lower == b.lower and a.upper == b.upper


def test_noise_event_is_the_grid_law_at_the_automatic_granularity():
    event = exactdp.noise_event(dim=10**6, sigma="1.1", sensitivity=1, sample_rate="0.01")
    assert event.sampled and exactdp.noise_granularity(sigma="1.1") == G
    assert event.text == ("poisson-vector-discrete-gaussian:sigma=11/10,dim=1000000,granularity=1/262144,"
                          "sensitivity=1,q=1/100")


def test_recorded_event_composed_1000_times_is_the_string_answer(reference):
    acc = exactdp.Accountant()
    acc.compose(exactdp.noise_event(dim=10**6, sigma="1.1", sensitivity=1, sample_rate="0.01"), 1000)
    answer = acc.get_epsilon("1e-5")
    assert _same(answer, reference) and answer.details["route"] == "smoothed-pld"
    assert answer.upper > Fraction(15154, 10000)          # above the continuous Gaussian's 1.5154


def test_add_noise_records_into_each_accountant_shape():
    """Three calls on a small array record three steps of the same law into each shape; each
    answer is the compose_events answer of the event string at d = 1000."""
    x = np.zeros(1000)
    text = exactdp.noise_event(x, sigma="1.1", sensitivity=1, sample_rate="0.01").text
    want = exactdp.compose_events([(text, 3)], delta="1e-5")
    for acc in (exactdp.Accountant(), dp_accounting.PLDAccountant(), opacus.accountants.PRVAccountant()):
        for _ in range(3):
            y = exactdp.add_noise(x, sigma="1.1", accountant=acc, sensitivity=1, sample_rate="0.01")
            assert isinstance(y, np.ndarray) and y.shape == x.shape   # the return type is unchanged
        got = acc.get_epsilon("1e-5")
        got = got if isinstance(got, exactdp.Interval) else got.interval
        assert _same(got, want), type(acc)


def test_the_accountant_shapes_record_a_sensitivity_other_than_one():
    """The dp_accounting and Opacus shapes carry sensitivity (Opacus' as noise_multiplier = sigma /
    max_grad_norm): each answers as compose_events on the event string."""
    x = np.zeros(100)
    text = exactdp.noise_event(x, sigma="2.2", sensitivity=2, sample_rate="0.01").text
    want = exactdp.compose_events([(text, 2)], delta="1e-5")
    for acc in (dp_accounting.PLDAccountant(), opacus.accountants.PRVAccountant()):
        for _ in range(2):
            exactdp.add_noise(x, sigma="2.2", accountant=acc, sensitivity=2, sample_rate="0.01")
        assert _same(acc.get_epsilon("1e-5").interval, want), type(acc)


def test_add_noise_charges_before_noising_and_refuses_an_unaccountable_call():
    x = np.zeros(10)
    with pytest.raises(exactdp.ParameterError, match="sensitivity"):
        exactdp.add_noise(x, sigma=1, accountant=exactdp.Accountant())
    with pytest.raises(exactdp.ParameterError, match="hardened"):
        exactdp.add_noise(x, sigma=1, accountant=exactdp.Accountant(), sensitivity=1, hardened=True)
    with pytest.raises(exactdp.ParameterError, match="sigma2"):
        exactdp.add_noise(x, sigma2=2, accountant=exactdp.Accountant(), sensitivity=1)
    with pytest.raises(exactdp.ParameterError, match="dim"):
        exactdp.add_noise(x, sigma=1, accountant=exactdp.Accountant(), sensitivity=1, dim=5)
    acc = exactdp.Accountant()
    bad = np.array([0.0, np.nan])
    with pytest.raises(exactdp.ParameterError):
        exactdp.add_noise(bad, sigma=1, accountant=acc, sensitivity=1)
    assert acc.get_epsilon("1e-5").upper > 0                    # the refused call was charged


def test_opacus_step_with_granularity_and_dim_is_the_grid_law(reference):
    grid, continuous = opacus.accountants.PRVAccountant(), opacus.accountants.PRVAccountant()
    for _ in range(1000):
        grid.step(noise_multiplier="1.1", sample_rate="0.01", granularity=G, dim=10**6)
        continuous.step(noise_multiplier="1.1", sample_rate="0.01")
    assert _same(grid.get_epsilon_interval("1e-5"), reference)
    assert grid.get_epsilon("1e-5") >= continuous.get_epsilon("1e-5")
    assert continuous.get_epsilon_interval("1e-5").upper < reference.upper   # the under-report avoided
    restored = opacus.accountants.PRVAccountant()
    restored.load_state_dict(grid.state_dict())
    assert restored.history == grid.history and _same(restored.get_epsilon_interval("1e-5"), reference)


def test_dp_accounting_routes_of_the_grid_law(reference):
    law = dp_event.LawDpEvent("vector-discrete-gaussian", sigma="1.1", sensitivity=1, dim=10**6, granularity=G)
    event = dp_event.PoissonSampledDpEvent("0.01", law)
    pld = dp_accounting.PLDAccountant().compose(event, 1000).get_epsilon_interval("1e-5")
    assert _same(pld, reference) and pld.details["route"] == "smoothed-pld"
    rdp = dp_accounting.RdpAccountant().compose(event, 1000).get_epsilon_interval("1e-5")
    assert rdp.details["route"] == "rdp" and rdp.upper >= reference.upper
    # Under replace-one no route accounts it (smoothed-pld and the subsampled rdp bound are add/remove).
    assert not dp_accounting.PLDAccountant(neighboring_relation="REPLACE_ONE").supports(event)


def _example_parameters(entry):
    values = {"sigma2": 2, "scale": 2, "gamma": 1, "sigma": 2, "mu": 1, "epsilon": 1, "rho": 1, "dim": 10,
              "granularity": "1/8", "sensitivity": 3, "clients": 3}
    return {p["name"]: values[p["name"]] for p in entry["parameters"] if p["required"]}


def test_of_law_works_for_every_registry_law_with_an_event():
    with_event = [entry for entry in exactdp.laws() if "event" in entry["capabilities"]]
    assert any(e["name"].startswith("vector-") for e in with_event)
    for entry in with_event:
        params = _example_parameters(entry)
        plain = Event.of_law(entry["name"], **params)
        assert exactdp.compose_events([(plain.text, 2)], delta="1e-5").upper > 0, entry["name"]
        assert dp_event.LawDpEvent(entry["name"], **params) == dp_event.LawDpEvent(entry["name"], **params)
        if "poisson" in entry["capabilities"]:
            sampled = Event.of_law("poisson-" + entry["name"], q="1/10", **params)
            assert sampled == PoissonSampled(plain, "1/10")
            acc = exactdp.Accountant().compose(sampled, 2)
            assert _same(acc.get_epsilon("1e-5"), exactdp.compose_events([(sampled.text, 2)], delta="1e-5"))
        else:
            with pytest.raises(exactdp.ParameterError, match="poisson"):
                PoissonSampled(plain, "1/10")


def test_of_law_refuses_unknown_laws_and_missing_rates():
    with pytest.raises(exactdp.ParameterError, match="unknown law"):
        Event.of_law("poisson-no-such-law", q="1/2")
    with pytest.raises(exactdp.ParameterError, match="q"):
        Event.of_law("poisson-vector-discrete-gaussian", sigma=1, dim=2, granularity="1/8")
