"""Privacy events for :class:`exactdp.Accountant` (dp_accounting's DpEvent, certified).

Each event states a guarantee exactly (accounting/accountant.h):
  Gaussian(sigma, sensitivity=1)          continuous Gaussian noise: mu-GDP, mu = sensitivity/sigma
  DiscreteGaussian(sigma2, sensitivity=1) rho = sensitivity^2 / (2 sigma2)-zCDP (CKS20 Thm. 4)
  Laplace(scale, sensitivity=1)           (sensitivity/scale)-DP
  DiscreteLaplace(scale, sensitivity=1)   (sensitivity/scale)-DP
  PureDP(epsilon)                         epsilon-DP
  ZCDP(rho)                               rho-zCDP
  GDP(mu)                                 mu-GDP
  Staircase(gamma, sensitivity, r=None)   the discrete staircase: gamma-DP (PLD route)
  Event.of_law(name, **parameters)        any law of exactdp.laws() with an accounting event,
                                          the grid laws included (vector-discrete-gaussian:
                                          sigma, dim, granularity, sensitivity; the noise of
                                          exactdp.add_noise), or "poisson-<law>" with q= for a
                                          law with the "poisson" capability
  PoissonSampled(event, q)                `event` on a Poisson sample at rate 0 < q <= 1
``event.text`` is the event as exactdp.compose_events takes it
("poisson-vector-discrete-gaussian:sigma=11/10,dim=1000000,granularity=1/262144,q=1/100,sensitivity=1").
A Poisson-sampled event is accounted by compose_events' routes (rdp, smoothed-pld, pld, ...):
exactdp.Accountant answers a composition holding one through compose_events.
Parameters are exact (int, Fraction, Decimal, str; float refused); bad values raise
ParameterError naming the parameter when the event is built. The sensitivity of the discrete
mechanisms is an integer.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional

from . import _exactdp
from ._convert import exact_fraction, exact_text, fraction_text
from ._errors import ParameterError
from .samplers import laws

_POISSON = "poisson-"


class Event:
    """Base class: an immutable, validated privacy event (a law of the registry and its
    parameters: ``Event.of_law("staircase", gamma=1, sensitivity=3)`` for any law of
    ``exactdp.laws()`` with "event" among its capabilities)."""

    __slots__ = ("_event", "_text")
    _event: Optional[Any]  # the library's event; None for a Poisson-sampled one
    _text: str
    _kind = ""
    _parameter = ""

    def __init__(self, value: Any, sensitivity: Any = None) -> None:
        parameters = {self._parameter: value}
        if sensitivity is not None:
            parameters["sensitivity"] = sensitivity
        _init(self, self._kind, parameters)

    @classmethod
    def of_law(cls, law: str, **parameters: Any) -> "Event":
        """The accounting event of ``law`` at ``parameters`` (exact values; ParameterError naming
        a bad or unknown one). ``law`` may be "poisson-<law>" (a law with the "poisson"
        capability) with the sampling rate ``q`` among the parameters."""
        if not isinstance(law, str):
            raise TypeError("law must be a str (a name of exactdp.laws())")
        if law.startswith(_POISSON) and law not in _registry():
            if "q" not in parameters:
                raise ParameterError(f"{law[:60]}: q (the sampling rate) is required", "q")
            rest = {k: v for k, v in parameters.items() if k != "q"}
            return PoissonSampled(Event.of_law(law[len(_POISSON):], **rest), parameters["q"])
        event = object.__new__(Event)
        _init(event, law, parameters)
        return event

    @property
    def text(self) -> str:
        """The event as exactdp.compose_events (and ``exactdp compose --event``) takes it."""
        return self._text

    @property
    def sampled(self) -> bool:
        """True for a Poisson-sampled event (accounted through compose_events' routes)."""
        return self._event is None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __repr__(self) -> str:
        if self._event is None:
            return f"{type(self).__name__}({self._text})"
        return f"{type(self).__name__}({self._event.describe()})"


@functools.lru_cache(maxsize=1)
def _registry() -> Dict[str, Dict[str, Any]]:
    """The registry's laws by name (exactdp.laws(): parameters and capabilities; immutable)."""
    return {entry["name"]: entry for entry in laws()}


def _make(law: str, parameters: Any) -> Any:
    if not isinstance(law, str):
        raise TypeError("law must be a str (a name of exactdp.laws())")
    return _exactdp._PrivacyEvent(law, [(k, exact_text(k, v)) for k, v in parameters.items() if v is not None])


def _init(event: Event, law: str, parameters: Dict[str, Any]) -> None:
    """Validates the event (the law parses its parameters) and records its compose_events text:
    the given parameters as exact "p/q", in the registry's order."""
    event._event = _make(law, parameters)
    given = {k: v for k, v in parameters.items() if v is not None}
    order = [p["name"] for p in _registry()[law]["parameters"]]
    keys = sorted(given, key=lambda k: order.index(k) if k in order else len(order))
    event._text = law + ":" + ",".join(f"{k}={fraction_text(exact_fraction(k, given[k]))}" for k in keys)


class PoissonSampled(Event):
    """`event` applied to a Poisson sample, every record kept with probability q, 0 < q <= 1
    (add/remove-one neighbours); its law must have the "poisson" capability."""
    __slots__ = ()

    def __init__(self, event: Event, q: Any) -> None:
        if not isinstance(event, Event):
            raise TypeError("event must be an exactdp.events event")
        if event._event is None:
            raise ParameterError("event is already Poisson-sampled: allowed a plain event", "event")
        law = event._text.split(":", 1)[0]
        if "poisson" not in _registry()[law]["capabilities"]:
            raise ParameterError(f"{law} has no Poisson-sampled event: allowed a law with the poisson capability "
                                 "of exactdp.laws()", "event")
        rate = exact_fraction("q", q)
        if not 0 < rate <= 1:
            raise ParameterError(f"q = {rate} is out of range: allowed 0 < q <= 1", "q")
        self._event = None
        self._text = f"{_POISSON}{event._text},q={fraction_text(rate)}"


class Staircase(Event):
    __slots__ = ()

    def __init__(self, gamma: Any, sensitivity: Any, r: Any = None) -> None:
        _init(self, "staircase", {"gamma": gamma, "sensitivity": sensitivity, "r": r})


class _WithSensitivity(Event):
    __slots__ = ()

    def __init__(self, value: Any, sensitivity: Any = 1) -> None:
        super().__init__(value, sensitivity)


class Gaussian(_WithSensitivity):
    __slots__ = ()
    _kind, _parameter = "gaussian", "sigma"

    def __init__(self, sigma: Any, sensitivity: Any = 1) -> None:
        super().__init__(sigma, sensitivity)


class DiscreteGaussian(_WithSensitivity):
    __slots__ = ()
    _kind, _parameter = "discrete-gaussian", "sigma2"

    def __init__(self, sigma2: Any, sensitivity: Any = 1) -> None:
        super().__init__(sigma2, sensitivity)


class Laplace(_WithSensitivity):
    __slots__ = ()
    _kind, _parameter = "laplace", "scale"

    def __init__(self, scale: Any, sensitivity: Any = 1) -> None:
        super().__init__(scale, sensitivity)


class DiscreteLaplace(_WithSensitivity):
    __slots__ = ()
    _kind, _parameter = "discrete-laplace", "scale"

    def __init__(self, scale: Any, sensitivity: Any = 1) -> None:
        super().__init__(scale, sensitivity)


class PureDP(Event):
    __slots__ = ()
    _kind, _parameter = "pure-dp", "epsilon"

    def __init__(self, epsilon: Any) -> None:
        super().__init__(epsilon)


class ZCDP(Event):
    __slots__ = ()
    _kind, _parameter = "zcdp", "rho"

    def __init__(self, rho: Any) -> None:
        super().__init__(rho)


class GDP(Event):
    __slots__ = ()
    _kind, _parameter = "gdp", "mu"

    def __init__(self, mu: Any) -> None:
        super().__init__(mu)
