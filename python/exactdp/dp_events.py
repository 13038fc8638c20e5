"""dp_accounting's DpEvent classes with exact parameters (``exactdp.dp_accounting.events``).

The names and fields are dp_accounting's (``dp_accounting.dp_event``):
  GaussianDpEvent(noise_multiplier)           Gaussian noise, sigma / L2 sensitivity
  LaplaceDpEvent(noise_multiplier)            Laplace noise, scale / L1 sensitivity
  PoissonSampledDpEvent(sampling_probability, event)
  SelfComposedDpEvent(event, count)           ComposedDpEvent(events)
  EpsilonDeltaDpEvent(epsilon, delta=0)       ZCDpEvent(rho, xi=0)
  NoOpDpEvent()  NonPrivateDpEvent()  UnsupportedDpEvent()
  SampledWithReplacementDpEvent / SampledWithoutReplacementDpEvent (source_dataset_size,
  sample_size, event): accepted as events, accounted by no exactdp route
and one class for each other law of the registry (exactdp.laws()) with an accounting event,
its fields the law's parameters (a left-out sensitivity is 1, the registry's default):
  DiscreteGaussianDpEvent(sigma2, sensitivity=1)  DiscreteLaplaceDpEvent(scale, sensitivity=1)
  StaircaseDpEvent(gamma, sensitivity, r=None)    SkellamDpEvent(mu, sensitivity=1, l1=None, dim=1)
  GdpDpEvent(mu)
  VectorDiscreteGaussianDpEvent(sigma, dim, granularity, sensitivity=1): what exactdp.add_noise
      ran (dim coordinates on the grid granularity * Z); VectorDiscreteLaplaceDpEvent(scale, ...)
  LawDpEvent(law, **parameters)   the same by the law's name (LawDpEvent("vector-discrete-gaussian",
      sigma="1.1", dim=10**6, granularity=Fraction(1, 2**18), sensitivity=1))
  event_class(law)                the class of a law; ``event.to_event()`` the exactdp.events event
PoissonSampledDpEvent(q, event) samples any of them whose law has the "poisson" capability.
Each class's law is read from its name and checked against the registry when it is defined
(EpsilonDeltaDpEvent is pure-dp, ZCDpEvent zcdp, GaussianDpEvent and LaplaceDpEvent take
dp_accounting's noise_multiplier as the law's sigma or scale).
Every number is stored as an exact ``fractions.Fraction`` (counts and sizes as int). A number
is given as int, Fraction, Decimal or str ("1.1", "11/10", "1e-5") — or, as dp_accounting's
users write it, a float, taken at its exact binary value (1.1 is 2476979795053773/2251799813685248,
as ``exactdp.from_float(1.1)``; pass the str "1.1" for the decimal). Events are frozen and
compare by value, like dp_accounting's.
"""

from __future__ import annotations

import dataclasses
import decimal
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Dict, Optional, Tuple, Type, Union

from . import _registry
from ._convert import exact_text, float_refusal, shown
from ._errors import ParameterError
from ._peer import peer_number
from .events import Event, PoissonSampled

# What a number field accepts (a float: its exact binary value); then it holds the exact Fraction.
Number = Union[Fraction, int, decimal.Decimal, str, float]
_MAX_EXPONENT = 1000  # decimal exponents beyond +-1000 are refused (far past any accounting limit)
_MAX_TEXT = 2000
MAX_EVENT_DEPTH = 100  # levels of events inside events (ComposedDpEvent, SelfComposedDpEvent, sampled)


def exact_number(name: str, value: Any) -> Fraction:
    """``value`` (int, Fraction, Decimal or str) as an exact Fraction; TypeError for a float,
    ParameterError naming ``name`` for text that is not an exact rational."""
    if isinstance(value, float) or type(value).__name__ in ("float16", "float32", "float64", "longdouble"):
        raise float_refusal(name, value)
    text = exact_text(name, value)
    if len(text) > _MAX_TEXT:
        raise ParameterError(f"{name} has {len(text)} characters: at most {_MAX_TEXT} allowed", name)
    try:
        if "/" in text:
            num, den = text.split("/")
            return Fraction(int(num), int(den))
        d = decimal.Decimal(text.strip())
        if not d.is_finite() or abs(d.adjusted()) > _MAX_EXPONENT:
            raise ParameterError(f"{name} = {text[:40]!r}: allowed finite values within 10^+-{_MAX_EXPONENT}", name)
        return Fraction(*d.as_integer_ratio())
    except (ValueError, ZeroDivisionError, decimal.InvalidOperation):
        raise ParameterError(f"{name} = {text[:40]!r} is not an exact rational (e.g. '1.1', '11/10', '1e-5')",
                             name) from None


def _at_least(name: str, value: Any, low: int, strict: bool) -> Fraction:
    x = peer_number(name, value)  # a float at its exact binary value (the peer adapters' rule)
    if x < low or (strict and x == low):
        raise ParameterError(f"{name} = {shown(x)} is out of range: allowed {name} {'>' if strict else '>='} {low}", name)
    return x


def _integer(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int")
    if int(value) < low:
        raise ParameterError(f"{name} = {shown(value)} is out of range: allowed {name} >= {low}", name)
    return int(value)


def _set(event: Any, name: str, value: Any) -> None:
    object.__setattr__(event, name, value)


def _event(name: str, value: Any) -> "DpEvent":
    if not isinstance(value, DpEvent):
        raise TypeError(f"{name} must be an exactdp.dp_accounting event (a DpEvent), not {type(value).__name__}")
    return value


def _nest(event: Any, name: str, children: Tuple["DpEvent", ...]) -> None:
    """Records the nesting depth of an event holding `children` (1 + theirs, computed from the
    children's own, so without recursion); ParameterError naming `name` past MAX_EVENT_DEPTH, so
    no walk over an event (accounting, repr, equality) can exceed Python's recursion limit."""
    depth = 1 + max((getattr(c, "_depth", 1) for c in children), default=0)
    if depth > MAX_EVENT_DEPTH:
        raise ParameterError(f"{name}: events nested {depth} deep: allowed at most {MAX_EVENT_DEPTH} levels "
                             "(compose them in one ComposedDpEvent instead)", name)
    object.__setattr__(event, "_depth", depth)


# What an event is to an accountant (DpEvent.to_event): an exactdp.events event, NOTHING (composes
# as nothing), NON_PRIVATE (no guarantee), or None (no exactdp route accounts it).
NOTHING, NON_PRIVATE = "nothing", "non-private"
Accounted = Union[Event, str, None]


@dataclass(frozen=True)
class DpEvent:
    """Base class of the events: a description of a mechanism's privacy, not an accountant."""

    def to_event(self) -> Accounted:
        """The exactdp.events event this states, NOTHING, NON_PRIVATE, or None (no route); a
        composition (ComposedDpEvent, SelfComposedDpEvent) is walked by the accountant."""
        return None


@dataclass(frozen=True)
class NoOpDpEvent(DpEvent):
    """An operation that touches no private data: composes as nothing."""

    def to_event(self) -> Accounted:
        return NOTHING


@dataclass(frozen=True)
class NonPrivateDpEvent(DpEvent):
    """An operation without any privacy guarantee: the composition's epsilon is infinite."""

    def to_event(self) -> Accounted:
        return NON_PRIVATE


_CLASSES: Dict[str, Type["LawBackedDpEvent"]] = {}


@dataclass(frozen=True)
class LawBackedDpEvent(DpEvent):
    """Base of the events that state one law of the registry: ``LAW`` is read from the class
    name when the class is defined (TypeError at import for a name the registry lacks); the
    fields are the law's parameters unless law_parameters says otherwise."""
    LAW: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__name__.startswith("_"):  # a shared base of several laws' classes
            return
        cls.LAW = cls._registry_law()
        if not _registry.has(cls.LAW, "event"):
            raise TypeError(f"{cls.__name__}: the registry law {cls.LAW} has no accounting event")
        _CLASSES.setdefault(cls.LAW, cls)

    @classmethod
    def _registry_law(cls) -> str:
        return _registry.law_of_class_name(cls.__name__)

    def law_parameters(self) -> Dict[str, Any]:
        """The law's parameters (registry names) this event states."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def to_event(self) -> Accounted:
        return Event.of_law(self.LAW, **self.law_parameters())


def event_class(law: str) -> Type[LawBackedDpEvent]:
    """The DpEvent class of a registry law with the "event" capability (ParameterError naming
    law for any other name)."""
    if law not in _CLASSES:
        raise ParameterError(f"law = {shown(law)[:60]!r}: allowed a law of exactdp.laws() with an event: "
                             f"{', '.join(_CLASSES)}", "law")
    return _CLASSES[law]


@dataclass(frozen=True)
class _RegistryFields(LawBackedDpEvent):
    """An event whose fields are exactly its law's parameters: each read as the registry's kind
    says (an integer: an int; a rational: exact, a float at its binary value), then the law
    checks the values (ParameterError naming a bad one) when the event is built."""

    def __post_init__(self) -> None:
        for p in _registry.parameters(self.LAW):
            value = getattr(self, p["name"])
            if value is not None:
                _set(self, p["name"], _integer(p["name"], value, 0) if p["kind"] == "integer"
                     else peer_number(p["name"], value))
        self.to_event()


@dataclass(frozen=True)
class UnsupportedDpEvent(DpEvent):
    """An operation whose privacy no accountant can compute (supports() is False)."""


@dataclass(frozen=True)
class _NoiseMultiplier(LawBackedDpEvent):
    """dp_accounting's noise_multiplier (noise / sensitivity) as the law's noise parameter at
    sensitivity 1; 0 is no noise (non-private)."""
    noise_multiplier: Number

    def __post_init__(self) -> None:
        _set(self, "noise_multiplier", _at_least("noise_multiplier", self.noise_multiplier, 0, False))

    def law_parameters(self) -> Dict[str, Any]:
        return {_registry.noise_parameter(self.LAW): self.noise_multiplier}

    def to_event(self) -> Accounted:
        return NON_PRIVATE if self.noise_multiplier == 0 else super().to_event()


@dataclass(frozen=True)
class GaussianDpEvent(_NoiseMultiplier):
    """Gaussian noise; noise_multiplier = sigma / (L2 sensitivity) >= 0 (0: non-private)."""
    noise_multiplier: Number


@dataclass(frozen=True)
class LaplaceDpEvent(_NoiseMultiplier):
    """Laplace noise; noise_multiplier = scale / (L1 sensitivity) >= 0 (0: non-private)."""
    noise_multiplier: Number


@dataclass(frozen=True)
class DiscreteGaussianDpEvent(LawBackedDpEvent):
    """exactdp's discrete Gaussian: variance parameter sigma2 > 0, integer sensitivity >= 1."""
    sigma2: Number
    sensitivity: int = 1

    def __post_init__(self) -> None:
        _set(self, "sigma2", _at_least("sigma2", self.sigma2, 0, True))
        _set(self, "sensitivity", _integer("sensitivity", self.sensitivity, 1))


@dataclass(frozen=True)
class DiscreteLaplaceDpEvent(LawBackedDpEvent):
    """exactdp's discrete Laplace: scale > 0, integer sensitivity >= 1."""
    scale: Number
    sensitivity: int = 1

    def __post_init__(self) -> None:
        _set(self, "scale", _at_least("scale", self.scale, 0, True))
        _set(self, "sensitivity", _integer("sensitivity", self.sensitivity, 1))


@dataclass(frozen=True)
class StaircaseDpEvent(LawBackedDpEvent):
    """exactdp's discrete staircase: gamma-DP, gamma > 0, integer sensitivity >= 1, r (or None)."""
    gamma: Number
    sensitivity: int
    r: Optional[int] = None

    def __post_init__(self) -> None:
        _set(self, "gamma", _at_least("gamma", self.gamma, 0, True))
        _set(self, "sensitivity", _integer("sensitivity", self.sensitivity, 1))
        if self.r is not None:
            _set(self, "r", _integer("r", self.r, 1))


@dataclass(frozen=True)
class SkellamDpEvent(_RegistryFields):
    """exactdp's Skellam law: mu > 0, L2 sensitivity, L1 sensitivity (None: derived), dim."""
    mu: Number
    sensitivity: Number = 1
    l1: Optional[Number] = None
    dim: int = 1


@dataclass(frozen=True)
class DistributedDiscreteGaussianDpEvent(_RegistryFields):
    """exactdp's distributed discrete Gaussian: sigma2 > 0 per client, clients, dropout in [0, 1),
    L2 sensitivity, L1 sensitivity (None: derived), dim."""
    sigma2: Number
    clients: int
    dropout: Number = 0
    sensitivity: Number = 1
    l1: Optional[Number] = None
    dim: int = 1


@dataclass(frozen=True)
class GdpDpEvent(_RegistryFields):
    """A mu-GDP operation, mu >= 0."""
    mu: Number


@dataclass(frozen=True)
class VectorDiscreteGaussianDpEvent(_RegistryFields):
    """exactdp.add_noise's Gaussian: dim coordinates of discrete Gaussian noise of standard
    deviation sigma on the grid granularity * Z (a power of two), L2 sensitivity (rational)."""
    sigma: Number
    dim: int
    granularity: Number
    sensitivity: Number = 1


@dataclass(frozen=True)
class VectorDiscreteLaplaceDpEvent(_RegistryFields):
    """exactdp.add_noise's Laplace: dim coordinates of discrete Laplace noise of scale ``scale``
    on the grid granularity * Z, L1 sensitivity (rational)."""
    scale: Number
    dim: int
    granularity: Number
    sensitivity: Number = 1


@dataclass(frozen=True, init=False)
class LawDpEvent(DpEvent):
    """The accounting event of a law of the registry (exactdp.laws(), "event" among its
    capabilities) at its parameters: ``law`` its name, ``parameters`` the (name, Fraction)
    pairs sorted by name. Validated by the law itself (ParameterError naming a bad parameter).
    Poisson sampling is PoissonSampledDpEvent(q, LawDpEvent(...)), not a "poisson-" name."""
    law: str
    parameters: Tuple[Tuple[str, Fraction], ...]

    def __init__(self, law: str, **parameters: Any) -> None:
        if not isinstance(law, str):
            raise TypeError("law must be a str (a name of exactdp.laws())")
        values = tuple(sorted((k, peer_number(k, v)) for k, v in parameters.items() if v is not None))
        if law.startswith("poisson-") and "q" in dict(values):
            raise ParameterError(f"law = {law[:60]!r}: give PoissonSampledDpEvent(q, LawDpEvent(law, ...))", "law")
        Event.of_law(law, **dict(values))  # the law validates them
        _set(self, "law", law)
        _set(self, "parameters", values)

    def to_event(self) -> Accounted:
        return Event.of_law(self.law, **dict(self.parameters))


@dataclass(frozen=True)
class EpsilonDeltaDpEvent(LawBackedDpEvent):
    """An (epsilon, delta)-DP operation; accounted (as pure DP) when delta == 0."""
    epsilon: Number
    delta: Number = Fraction(0)

    def __post_init__(self) -> None:
        _set(self, "epsilon", _at_least("epsilon", self.epsilon, 0, False))
        _set(self, "delta", _at_least("delta", self.delta, 0, False))

    @classmethod
    def _registry_law(cls) -> str:
        return _registry.law_with_parameters(frozenset({"epsilon"}))  # pure DP

    def law_parameters(self) -> Dict[str, Any]:
        return {"epsilon": self.epsilon}

    def to_event(self) -> Accounted:
        if self.delta != 0:
            return None
        return NOTHING if self.epsilon == 0 else super().to_event()


@dataclass(frozen=True)
class ZCDpEvent(LawBackedDpEvent):
    """A (xi, rho)-zCDP operation; accounted when xi == 0."""
    rho: Number
    xi: Number = Fraction(0)

    def __post_init__(self) -> None:
        _set(self, "rho", _at_least("rho", self.rho, 0, False))
        _set(self, "xi", _at_least("xi", self.xi, 0, False))

    def law_parameters(self) -> Dict[str, Any]:
        return {"rho": self.rho}

    def to_event(self) -> Accounted:
        if self.xi != 0:
            return None
        return NOTHING if self.rho == 0 else super().to_event()


@dataclass(frozen=True)
class PoissonSampledDpEvent(DpEvent):
    """`event` applied to a Poisson sample: every record kept with probability q in [0, 1]."""
    sampling_probability: Number
    event: DpEvent

    def __post_init__(self) -> None:
        q = _at_least("sampling_probability", self.sampling_probability, 0, False)
        if q > 1:
            raise ParameterError(f"sampling_probability = {shown(q)} is out of range: allowed 0 <= q <= 1",
                                 "sampling_probability")
        _set(self, "sampling_probability", q)
        _nest(self, "event", (_event("event", self.event),))

    def to_event(self) -> Accounted:
        inner = self.event.to_event()
        if self.sampling_probability == 0 or inner == NOTHING:
            return NOTHING
        if not isinstance(inner, Event):
            return inner
        try:
            return PoissonSampled(inner, peer_number("sampling_probability", self.sampling_probability))
        except ParameterError:  # already sampled, or a law without the poisson capability
            return None


@dataclass(frozen=True)
class _FixedSizeSampled(DpEvent):
    source_dataset_size: int
    sample_size: int
    event: DpEvent

    def __post_init__(self) -> None:
        _set(self, "source_dataset_size", _integer("source_dataset_size", self.source_dataset_size, 0))
        _set(self, "sample_size", _integer("sample_size", self.sample_size, 0))
        _nest(self, "event", (_event("event", self.event),))


@dataclass(frozen=True)
class SampledWithReplacementDpEvent(_FixedSizeSampled):
    """Sampling with replacement (no exactdp route accounts it)."""


@dataclass(frozen=True)
class SampledWithoutReplacementDpEvent(_FixedSizeSampled):
    """Sampling without replacement (no exactdp route accounts it)."""


@dataclass(frozen=True)
class SelfComposedDpEvent(DpEvent):
    """`event` composed with itself `count` (>= 0) times."""
    event: DpEvent
    count: int

    def __post_init__(self) -> None:
        _nest(self, "event", (_event("event", self.event),))
        _set(self, "count", _integer("count", self.count, 0))


@dataclass(frozen=True)
class ComposedDpEvent(DpEvent):
    """The adaptive composition of `events` (stored as a tuple)."""
    events: Tuple[DpEvent, ...]

    def __post_init__(self) -> None:
        events = tuple(self.events)
        for e in events:
            _event("events[i]", e)
        _nest(self, "events", events)
        _set(self, "events", events)


__all__ = [
    "ComposedDpEvent", "DiscreteGaussianDpEvent", "DiscreteLaplaceDpEvent", "DistributedDiscreteGaussianDpEvent",
    "DpEvent", "EpsilonDeltaDpEvent",
    "GaussianDpEvent", "GdpDpEvent", "LaplaceDpEvent", "LawBackedDpEvent", "LawDpEvent", "NoOpDpEvent",
    "NonPrivateDpEvent", "PoissonSampledDpEvent", "SampledWithReplacementDpEvent", "SampledWithoutReplacementDpEvent",
    "SelfComposedDpEvent", "SkellamDpEvent", "StaircaseDpEvent", "UnsupportedDpEvent",
    "VectorDiscreteGaussianDpEvent", "VectorDiscreteLaplaceDpEvent", "ZCDpEvent", "event_class",
]
