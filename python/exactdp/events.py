"""Privacy events for :class:`exactdp.Accountant` (dp_accounting's DpEvent, certified).

One class per law of the registry (exactdp.laws()) with the "event" capability; the class's name
is the law's (accounting/accountant.h states each guarantee exactly):
  Gaussian(sigma, sensitivity)            continuous Gaussian noise: mu-GDP, mu = sensitivity/sigma
  DiscreteGaussian(sigma2, sensitivity)   rho = sensitivity^2 / (2 sigma2)-zCDP (CKS20 Thm. 4)
  Laplace(scale, sensitivity)             (sensitivity/scale)-DP
  DiscreteLaplace(scale, sensitivity)     (sensitivity/scale)-DP
  Staircase(gamma, sensitivity, r=None)   the discrete staircase: gamma-DP (PLD route)
  Skellam(mu, sensitivity, l1, dim)       the Skellam law (difference of two Poisson(mu))
  VectorDiscreteGaussian(sigma, dim, granularity, sensitivity)
                                          the noise of exactdp.add_noise: dim coordinates on the
  VectorDiscreteLaplace(scale, dim, granularity, sensitivity)   grid granularity * Z
  DistributedDiscreteGaussian(sigma2, clients, dropout, sensitivity, l1, dim)
                                          the clients' summed discrete Gaussians (federated)
  PureDP(epsilon)  ZCDP(rho)  GDP(mu)     epsilon-DP, rho-zCDP, mu-GDP
  PoissonSampled(event, q)                `event` on a Poisson sample at rate 0 < q <= 1 (a law
                                          with the "poisson" capability)
  Event.of_law(name, **parameters)        the same by the law's name, or "poisson-<law>" with q=
  event_class(name)                       the class of a law
Each class's parameters are its law's, named and ordered as the registry lists them; a parameter
left out takes the registry's default (sensitivity 1), and the class is checked against the
registry when it is defined. ``event.text`` is the event as exactdp.compose_events takes it
("poisson-vector-discrete-gaussian:sigma=11/10,dim=1000000,granularity=1/262144,sensitivity=1,q=1/100").
A Poisson-sampled event is accounted by compose_events' routes (rdp, smoothed-pld, pld, ...):
exactdp.Accountant answers a composition holding one through compose_events.
Parameters are exact (int, Fraction, Decimal, str; float refused); bad values raise
ParameterError naming the parameter when the event is built. The sensitivity of the discrete
mechanisms is an integer.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type

from . import _exactdp, _registry
from ._convert import Exact, exact_fraction, exact_text, fraction_text, shown
from ._errors import ParameterError

_POISSON = "poisson-"


class Event:
    """Base class: an immutable, validated privacy event (a law of the registry and its
    parameters: ``Event.of_law("staircase", gamma=1, sensitivity=3)`` for any law of
    ``exactdp.laws()`` with "event" among its capabilities)."""

    __slots__ = ("_event", "_text")
    _event: Optional[Any]  # the library's event; None for a Poisson-sampled one
    _text: str

    @classmethod
    def of_law(cls, law: str, **parameters: Any) -> "Event":
        """The accounting event of ``law`` at ``parameters`` (exact values; ParameterError naming
        a bad or unknown one). ``law`` may be "poisson-<law>" (a law with the "poisson"
        capability) with the sampling rate ``q`` among the parameters."""
        if not isinstance(law, str):
            raise TypeError("law must be a str (a name of exactdp.laws())")
        if law.startswith(_POISSON) and law not in _registry.by_name():
            if "q" not in parameters:
                raise ParameterError(f"{law[:60]}: q (the sampling rate) is required", "q")
            rest = {k: v for k, v in parameters.items() if k != "q"}
            return PoissonSampled(Event.of_law(law[len(_POISSON):], **rest), parameters["q"])
        event = object.__new__(_CLASSES.get(law, Event))
        _init(event, law, parameters)
        return event

    @property
    def text(self) -> str:
        """The event as exactdp.compose_events (and ``exactdp compose --event``) takes it."""
        return self._text

    @property
    def law(self) -> str:
        """The registry law's name ("poisson-<law>" for a Poisson-sampled event)."""
        return self._text.split(":", 1)[0]

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


class LawEvent(Event):
    """Base of the one-class-per-law events: the subclass's name names its law (checked against
    the registry when the class is defined); its constructor takes the law's parameters."""
    __slots__ = ()
    LAW = ""  # the registry law, set from the class name

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.LAW = _registry.law_of_class_name(cls.__name__)
        if not _registry.has(cls.LAW, "event"):
            raise TypeError(f"{cls.__name__}: the registry law {cls.LAW} has no accounting event")
        _CLASSES[cls.LAW] = cls

    def _of(self, **parameters: Any) -> None:
        _init(self, self.LAW, parameters)


_CLASSES: Dict[str, Type[LawEvent]] = {}


def event_class(law: str) -> Type[LawEvent]:
    """The event class of a registry law with the "event" capability (ParameterError naming law
    for any other name)."""
    if law not in _CLASSES:
        raise ParameterError(f"law = {shown(law)[:60]!r}: allowed a law of exactdp.laws() with an event: "
                             f"{', '.join(_CLASSES)}", "law")
    return _CLASSES[law]


def _make(law: str, parameters: Any) -> Any:
    if not isinstance(law, str):
        raise TypeError("law must be a str (a name of exactdp.laws())")
    return _exactdp._PrivacyEvent(law, [(k, exact_text(k, v)) for k, v in parameters.items() if v is not None])


def _init(event: Event, law: str, parameters: Dict[str, Any]) -> None:
    """Validates the event (the law parses its parameters) and records its compose_events text:
    the given parameters, and the registry's defaults of those left out, as exact "p/q" in the
    registry's order."""
    event._event = _make(law, parameters)
    given = {k: v for k, v in parameters.items() if v is not None}
    if law in _registry.by_name():
        given = dict(_registry.event_defaults(law), **given)
        order = [p["name"] for p in _registry.parameters(law, with_sampling=True)]
    else:
        order = []
    keys = sorted(given, key=lambda k: order.index(k) if k in order else len(order))
    event._text = law + ":" + ",".join(f"{k}={fraction_text(exact_fraction(k, given[k]))}" for k in keys)


class PoissonSampled(Event):
    """`event` applied to a Poisson sample, every record kept with probability q, 0 < q <= 1
    (add/remove-one neighbours); its law must have the "poisson" capability."""
    __slots__ = ()

    def __init__(self, event: Event, q: Exact) -> None:
        if not isinstance(event, Event):
            raise TypeError("event must be an exactdp.events event")
        if event._event is None:
            raise ParameterError("event is already Poisson-sampled: allowed a plain event", "event")
        if not _registry.has(event.law, "poisson"):
            raise ParameterError(f"{event.law} has no Poisson-sampled event: allowed a law with the poisson "
                                 "capability of exactdp.laws()", "event")
        rate = exact_fraction("q", q)
        if not 0 < rate <= 1:
            raise ParameterError(f"q = {shown(rate)} is out of range: allowed 0 < q <= 1", "q")
        self._event = None
        self._text = f"{_POISSON}{event._text},q={fraction_text(rate)}"


# ---- one class per registry law with an event (test_event_vocabularies checks every law has one)

class Gaussian(LawEvent):
    """Continuous Gaussian noise of standard deviation sigma: mu-GDP, mu = sensitivity / sigma."""
    __slots__ = ()

    def __init__(self, sigma: Exact, sensitivity: Optional[Exact] = None) -> None:
        self._of(sigma=sigma, sensitivity=sensitivity)


class Laplace(LawEvent):
    """Continuous Laplace noise of scale b: (sensitivity / b)-DP."""
    __slots__ = ()

    def __init__(self, scale: Exact, sensitivity: Optional[Exact] = None) -> None:
        self._of(scale=scale, sensitivity=sensitivity)


class DiscreteGaussian(LawEvent):
    """The discrete Gaussian of variance parameter sigma2: sensitivity^2 / (2 sigma2)-zCDP."""
    __slots__ = ()

    def __init__(self, sigma2: Exact, sensitivity: Optional[Exact] = None) -> None:
        self._of(sigma2=sigma2, sensitivity=sensitivity)


class DiscreteLaplace(LawEvent):
    """The discrete Laplace of scale t: (sensitivity / t)-DP."""
    __slots__ = ()

    def __init__(self, scale: Exact, sensitivity: Optional[Exact] = None) -> None:
        self._of(scale=scale, sensitivity=sensitivity)


class Staircase(LawEvent):
    """The discrete staircase: gamma-DP at integer sensitivity (r: the step, None for the optimal)."""
    __slots__ = ()

    def __init__(self, gamma: Exact, sensitivity: Exact, r: Optional[Exact] = None) -> None:
        self._of(gamma=gamma, sensitivity=sensitivity, r=r)


class Skellam(LawEvent):
    """The Skellam law Sk(mu) = Poisson(mu) - Poisson(mu) on an integer query of L2 sensitivity
    ``sensitivity`` (L1: ``l1``, None: derived) in ``dim`` coordinates."""
    __slots__ = ()

    def __init__(self, mu: Exact, sensitivity: Optional[Exact] = None, l1: Optional[Exact] = None,
                 dim: Optional[int] = None) -> None:
        self._of(mu=mu, sensitivity=sensitivity, l1=l1, dim=dim)


class DistributedDiscreteGaussian(LawEvent):
    """The sum of the surviving clients' discrete Gaussians (sigma2 each, ceil(clients (1 - dropout))
    shares) on an integer query of L2 sensitivity ``sensitivity`` (L1: ``l1``) in ``dim`` coordinates."""
    __slots__ = ()

    def __init__(self, sigma2: Exact, clients: Exact, dropout: Optional[Exact] = None,
                 sensitivity: Optional[Exact] = None, l1: Optional[Exact] = None, dim: Optional[Exact] = None) -> None:
        self._of(sigma2=sigma2, clients=clients, dropout=dropout, sensitivity=sensitivity, l1=l1, dim=dim)


class VectorDiscreteGaussian(LawEvent):
    """exactdp.add_noise's Gaussian: dim coordinates of discrete Gaussian noise of standard
    deviation sigma on the grid granularity * Z, for a query of L2 sensitivity ``sensitivity``
    (the rounding to the grid is charged)."""
    __slots__ = ()

    def __init__(self, sigma: Exact, dim: int, granularity: Exact, sensitivity: Optional[Exact] = None) -> None:
        self._of(sigma=sigma, dim=dim, granularity=granularity, sensitivity=sensitivity)


class VectorDiscreteLaplace(LawEvent):
    """exactdp.add_noise's Laplace: dim coordinates of discrete Laplace noise of scale ``scale``
    on the grid granularity * Z, for a query of L1 sensitivity ``sensitivity``."""
    __slots__ = ()

    def __init__(self, scale: Exact, dim: int, granularity: Exact, sensitivity: Optional[Exact] = None) -> None:
        self._of(scale=scale, dim=dim, granularity=granularity, sensitivity=sensitivity)


class PureDP(LawEvent):
    """An epsilon-DP mechanism."""
    __slots__ = ()

    def __init__(self, epsilon: Exact) -> None:
        self._of(epsilon=epsilon)


class ZCDP(LawEvent):
    """A rho-zCDP mechanism."""
    __slots__ = ()

    def __init__(self, rho: Exact) -> None:
        self._of(rho=rho)


class GDP(LawEvent):
    """A mu-GDP mechanism."""
    __slots__ = ()

    def __init__(self, mu: Exact) -> None:
        self._of(mu=mu)
