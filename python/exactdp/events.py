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
  Event.of_law(name, **parameters)        any law of exactdp.laws() with an accounting event
Parameters are exact (int, Fraction, Decimal, str; float refused); bad values raise
ParameterError naming the parameter when the event is built. The sensitivity of the discrete
mechanisms is an integer.
"""

from __future__ import annotations

from typing import Any

from . import _exactdp
from ._convert import exact_text


class Event:
    """Base class: an immutable, validated privacy event (a law of the registry and its
    parameters: ``Event.of_law("staircase", gamma=1, sensitivity=3)`` for any law of
    ``exactdp.laws()`` with "event" among its capabilities)."""

    __slots__ = ("_event",)
    _kind = ""
    _parameter = ""

    def __init__(self, value: Any, sensitivity: Any = None) -> None:
        parameters = {self._parameter: value}
        if sensitivity is not None:
            parameters["sensitivity"] = sensitivity
        self._event = _make(self._kind, parameters)

    @classmethod
    def of_law(cls, law: str, **parameters: Any) -> "Event":
        """The accounting event of ``law`` at ``parameters`` (exact values; ParameterError naming
        a bad or unknown one)."""
        event = object.__new__(Event)
        event._event = _make(law, parameters)
        return event

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._event.describe()})"


def _make(law: str, parameters: Any) -> Any:
    if not isinstance(law, str):
        raise TypeError("law must be a str (a name of exactdp.laws())")
    return _exactdp._PrivacyEvent(law, [(k, exact_text(k, v)) for k, v in parameters.items() if v is not None])


class Staircase(Event):
    __slots__ = ()

    def __init__(self, gamma: Any, sensitivity: Any, r: Any = None) -> None:
        self._event = _make("staircase", {"gamma": gamma, "sensitivity": sensitivity, "r": r})


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
