"""Privacy events for :class:`exactdp.Accountant` (dp_accounting's DpEvent, certified).

Each event states a guarantee exactly (accounting/accountant.h):
  Gaussian(sigma, sensitivity=1)          continuous Gaussian noise: mu-GDP, mu = sensitivity/sigma
  DiscreteGaussian(sigma2, sensitivity=1) rho = sensitivity^2 / (2 sigma2)-zCDP (CKS20 Thm. 4)
  Laplace(scale, sensitivity=1)           (sensitivity/scale)-DP
  DiscreteLaplace(scale, sensitivity=1)   (sensitivity/scale)-DP
  PureDP(epsilon)                         epsilon-DP
  ZCDP(rho)                               rho-zCDP
  GDP(mu)                                 mu-GDP
Parameters are exact (int, Fraction, Decimal, str; float refused); bad values raise
ParameterError naming the parameter when the event is built. The sensitivity of the discrete
mechanisms is an integer.
"""

from __future__ import annotations

from typing import Any

from . import _exactdp
from ._convert import exact_text


class Event:
    """Base class: an immutable, validated privacy event."""

    __slots__ = ("_event",)
    _kind = ""
    _parameter = ""

    def __init__(self, value: Any, sensitivity: Any = None) -> None:
        if sensitivity is None:
            self._event = _exactdp._PrivacyEvent(self._kind, exact_text(self._parameter, value))
        else:
            self._event = _exactdp._PrivacyEvent(
                self._kind, exact_text(self._parameter, value), exact_text("sensitivity", sensitivity)
            )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._event.describe()})"


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
    _kind, _parameter = "discrete_gaussian", "sigma2"

    def __init__(self, sigma2: Any, sensitivity: Any = 1) -> None:
        super().__init__(sigma2, sensitivity)


class Laplace(_WithSensitivity):
    __slots__ = ()
    _kind, _parameter = "laplace", "scale"

    def __init__(self, scale: Any, sensitivity: Any = 1) -> None:
        super().__init__(scale, sensitivity)


class DiscreteLaplace(_WithSensitivity):
    __slots__ = ()
    _kind, _parameter = "discrete_laplace", "scale"

    def __init__(self, scale: Any, sensitivity: Any = 1) -> None:
        super().__init__(scale, sensitivity)


class PureDP(Event):
    __slots__ = ()
    _kind, _parameter = "pure_dp", "epsilon"

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
