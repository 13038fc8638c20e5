"""One event vocabulary from the registry: every law of exactdp.laws() with an accounting event
has its class in exactdp.events, exactdp.dp_events and exactdp.dp_accounting.dp_event, with the
law's parameters, stating the same event as Event.of_law; the adapters map them onto
exactdp.Accountant."""

import dataclasses
import inspect
from fractions import Fraction

import pytest

import exactdp
from exactdp import dp_accounting, dp_events, events
from exactdp.dp_accounting import dp_event

EXAMPLE = {"sigma2": 2, "scale": 2, "gamma": 1, "sigma": 2, "mu": 1, "epsilon": 1, "rho": 1, "dim": 10,
           "granularity": Fraction(1, 8), "sensitivity": 3, "r": 2, "clients": 3, "dropout": Fraction(1, 3),
           "l1": 5}


def _event_laws():
    return [entry for entry in exactdp.laws() if "event" in entry["capabilities"]]


def _event_parameters(entry):
    return [p["name"] for p in entry["parameters"] if p["role"] != "sampling"]


def _example(entry):
    return {name: EXAMPLE[name] for name in _event_parameters(entry)}


def test_every_registry_law_with_an_event_has_a_class_in_exactdp_events():
    laws = _event_laws()
    assert {"vector-discrete-gaussian", "vector-discrete-laplace", "skellam"} <= {e["name"] for e in laws}
    for entry in laws:
        cls = events.event_class(entry["name"])
        assert cls.LAW == entry["name"] and getattr(events, cls.__name__) is cls
        signature = list(inspect.signature(cls.__init__).parameters)[1:]
        assert signature == _event_parameters(entry), cls.__name__   # the registry's names and order
        assert cls(**_example(entry)) == events.Event.of_law(entry["name"], **_example(entry))


def test_every_registry_law_with_an_event_has_a_dp_event_class_in_both_layouts():
    for entry in _event_laws():
        law = entry["name"]
        cls = dp_events.event_class(law)
        assert cls.LAW == law
        assert getattr(dp_event, cls.__name__) is cls and getattr(dp_accounting, cls.__name__) is cls
        fields = [f.name for f in dataclasses.fields(cls)]
        if fields == ["noise_multiplier"]:                 # dp_accounting's GaussianDpEvent, LaplaceDpEvent
            instance = cls(noise_multiplier=EXAMPLE[_event_parameters(entry)[0]])
            want = events.Event.of_law(law, **{_event_parameters(entry)[0]: EXAMPLE[_event_parameters(entry)[0]]})
        else:                                              # the law's parameters (EpsilonDelta, ZCDp: + delta, xi)
            instance = cls(**_example(entry))
            want = events.Event.of_law(law, **_example(entry))
            assert fields[:len(_event_parameters(entry))] == _event_parameters(entry), cls.__name__
        assert instance.to_event() == want, law
        if "poisson" in entry["capabilities"]:
            sampled = dp_events.PoissonSampledDpEvent(Fraction(1, 10), instance)
            assert sampled.to_event() == events.PoissonSampled(want, Fraction(1, 10))


def test_a_class_named_after_no_registry_law_fails_when_defined():
    with pytest.raises(TypeError, match="registry"):
        type("NoSuchLaw", (events.LawEvent,), {"__slots__": ()})
    with pytest.raises(TypeError, match="registry"):
        dataclasses.dataclass(frozen=True)(type("NoSuchLawDpEvent", (dp_events.LawBackedDpEvent,), {}))
    with pytest.raises(exactdp.ParameterError, match="law"):
        events.event_class("bernoulli-exp")   # a law with a sampler but no accounting event


def test_omitted_parameters_take_the_registry_default():
    assert events.Gaussian(2) == events.Gaussian(2, 1) == events.Event.of_law("gaussian", sigma=2)
    assert events.Gaussian(2).text == "gaussian:sigma=2,sensitivity=1"
    assert dp_event.SkellamDpEvent(4).to_event() == events.Skellam(4, 1)


def test_the_new_classes_account_as_their_law_string():
    """The grid law and skellam composed in each vocabulary answer as compose_events does."""
    grid = dict(sigma="1.1", dim=1000, granularity=Fraction(1, 2**18), sensitivity=1)
    text = events.VectorDiscreteGaussian(**grid).text
    want = exactdp.compose_events([("poisson-" + text + ",q=1/100", 20)], delta="1e-5")
    exact = exactdp.Accountant().compose(events.PoissonSampled(events.VectorDiscreteGaussian(**grid), "0.01"), 20)
    peer = dp_accounting.PLDAccountant().compose(
        dp_event.PoissonSampledDpEvent("0.01", dp_event.VectorDiscreteGaussianDpEvent(**grid)), 20)
    assert exact.get_epsilon("1e-5").upper == want.upper == peer.get_epsilon_interval("1e-5").upper
    skellam = exactdp.compose_events([("skellam:mu=100,sensitivity=1", 3)], delta="1e-5")
    acc = dp_accounting.Accountant().compose(dp_event.SkellamDpEvent(100), 3)
    assert acc.get_epsilon_interval("1e-5").upper == skellam.upper
