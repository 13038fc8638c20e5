"""The accountants of exactdp.dp_accounting (one implementation; the package and its pld, rdp
and privacy_accountant modules re-export it). The package docstring describes them."""

from __future__ import annotations

import enum
import functools
import math
import numbers
from fractions import Fraction
from typing import Any, Dict, FrozenSet, List, Optional, Set, Tuple

from .. import dp_events as events
from .._errors import LimitError, ParameterError, UnsupportedEventError, UsageError
from .._peer import CertifiedFloat, binary_value, is_float, peer_number
from ..accounting import compose_events
from ..dp_events import (
    ComposedDpEvent, DpEvent, EpsilonDeltaDpEvent, NoOpDpEvent, NonPrivateDpEvent, PoissonSampledDpEvent,
    SelfComposedDpEvent, ZCDpEvent)
from ..interval import Interval


class NeighboringRelation(enum.Enum):
    """dp_accounting's neighbouring relations; exactdp accounts the first two."""
    ADD_OR_REMOVE_ONE = 1
    REPLACE_ONE = 2
    REPLACE_SPECIAL = 3


_RELATION_TEXT = {NeighboringRelation.ADD_OR_REMOVE_ONE: "add-remove", NeighboringRelation.REPLACE_ONE: "replace-one"}
_PLAIN = ("gaussian", "laplace", "discrete-gaussian", "discrete-laplace", "staircase")
_POISSON_RDP = ("poisson-gaussian", "poisson-laplace", "poisson-discrete-gaussian", "poisson-discrete-laplace")
_ROUTE_KINDS = {
    "rdp": frozenset(_PLAIN + ("pure-dp", "zcdp") + _POISSON_RDP),
    "pld": frozenset(_PLAIN + _POISSON_RDP + ("poisson-staircase",)),
}
_ROUTE_KINDS["auto"] = _ROUTE_KINDS["rdp"] | _ROUTE_KINDS["pld"]
_MAX_COUNT = 10**12

_NOTHING, _NON_PRIVATE = "nothing", "non-private"


def _base_law(event: DpEvent) -> Any:
    """(kind, [(key, value)]) of a mechanism event, _NOTHING, _NON_PRIVATE, or None (no route)."""
    if isinstance(event, (events.GaussianDpEvent, events.LaplaceDpEvent)):
        if event.noise_multiplier == 0:
            return _NON_PRIVATE
        gaussian = isinstance(event, events.GaussianDpEvent)
        return ("gaussian", [("sigma", event.noise_multiplier)]) if gaussian else \
            ("laplace", [("scale", event.noise_multiplier)])
    if isinstance(event, events.DiscreteGaussianDpEvent):
        return "discrete-gaussian", [("sigma2", event.sigma2), ("sensitivity", event.sensitivity)]
    if isinstance(event, events.DiscreteLaplaceDpEvent):
        return "discrete-laplace", [("scale", event.scale), ("sensitivity", event.sensitivity)]
    if isinstance(event, events.LawDpEvent):
        return event.law, list(event.parameters)
    if isinstance(event, events.StaircaseDpEvent):
        r = [] if event.r is None else [("r", event.r)]
        return "staircase", [("gamma", event.gamma), ("sensitivity", event.sensitivity)] + r
    if isinstance(event, EpsilonDeltaDpEvent) and event.delta == 0:
        return _NOTHING if event.epsilon == 0 else ("pure-dp", [("epsilon", event.epsilon)])
    if isinstance(event, ZCDpEvent) and event.xi == 0:
        return _NOTHING if event.rho == 0 else ("zcdp", [("rho", event.rho)])
    if isinstance(event, NonPrivateDpEvent):
        return _NON_PRIVATE
    if isinstance(event, NoOpDpEvent):
        return _NOTHING
    return None


def _law(event: DpEvent) -> Any:
    """Like _base_law, Poisson-sampled events included (q goes after the noise parameter)."""
    if not isinstance(event, PoissonSampledDpEvent):
        return _base_law(event)
    q = event.sampling_probability
    inner = _base_law(event.event)
    if q == 0 or inner == _NOTHING:
        return _NOTHING
    if inner == _NON_PRIVATE or inner is None:
        return inner
    kind, params = inner
    if kind in ("pure-dp", "zcdp"):
        return None
    return "poisson-" + kind, params[:1] + [("q", q)] + params[1:]


class _Composition:
    """The events of a ledger as compose_events' (EVENT text, count) pairs, in first-use order."""

    def __init__(self) -> None:
        self.counts: Dict[str, int] = {}
        self.kinds: Dict[str, str] = {}
        self.non_private = False

    def add(self, event: DpEvent, count: int, top: DpEvent) -> None:
        if count == 0:
            return
        if isinstance(event, SelfComposedDpEvent):
            return self.add(event.event, count * event.count, top)
        if isinstance(event, ComposedDpEvent):
            for e in event.events:
                self.add(e, count, top)
            return
        law = _law(event)
        if law is None:
            raise UnsupportedEventError(f"{event!r} (in {top!r}) is accounted by no exactdp route")
        if law == _NON_PRIVATE:
            self.non_private = True
        elif law != _NOTHING:
            kind, params = law
            text = kind + ":" + ",".join(f"{k}={str(v)}" for k, v in params)
            self.counts[text] = self.counts.get(text, 0) + count
            self.kinds[text] = kind


def _relation(value: Any) -> NeighboringRelation:
    if isinstance(value, str):
        value = {"add-remove": "ADD_OR_REMOVE_ONE", "replace-one": "REPLACE_ONE"}.get(value, value)
        value = NeighboringRelation.__members__.get(value, value)
    if value not in _RELATION_TEXT:
        raise ParameterError(f"neighboring_relation = {value!r}: allowed NeighboringRelation.ADD_OR_REMOVE_ONE "
                             "or REPLACE_ONE (REPLACE_SPECIAL has no exactdp route)", "neighboring_relation")
    return NeighboringRelation(value)


class Accountant:
    """A certified accountant with dp_accounting's methods; ``route`` is "auto" (default: the
    smallest certified upper end among the routes that apply), "rdp" or "pld". ``pld_step``
    (1/N) sets the pld route's loss grid. get_epsilon / get_delta return a
    :class:`~exactdp._peer.CertifiedFloat` (the certified upper end rounded UP; the Interval as
    ``.interval``), get_epsilon_interval / get_delta_interval the Interval itself. Not
    thread-safe for compose."""

    def __init__(self, route: str = "auto",
                 neighboring_relation: Any = NeighboringRelation.ADD_OR_REMOVE_ONE, pld_step: Any = None) -> None:
        if route not in _ROUTE_KINDS:
            raise ParameterError(f"route = {str(route)[:40]!r}: allowed auto, rdp, pld", "route")
        self._route = route
        self._relation = _relation(neighboring_relation)
        self._pld_step = None if pld_step is None else _one_over_n("pld_step", pld_step)
        self._entries: List[List[Any]] = []  # [event, count], consecutive equal events merged
        self._cache: Dict[Tuple[Any, ...], Interval] = {}

    @property
    def neighboring_relation(self) -> NeighboringRelation:
        return self._relation

    @property
    def route(self) -> str:
        return self._route

    def _allowed(self) -> FrozenSet[str]:
        return _route_kinds(self._route, self._relation)

    def _check(self, event: DpEvent) -> None:
        composition = _Composition()
        composition.add(event, 1, event)
        allowed = self._allowed()
        for text, kind in composition.kinds.items():
            known = kind in _ROUTE_KINDS["auto"]
            if (known and kind not in allowed) or (not known and not _library_supports(self._route, self._relation, text)):
                raise UnsupportedEventError(
                    f"{type(self).__name__} (route {self._route}, {_RELATION_TEXT[self._relation]}) does not "
                    f"support {event!r}: its part {text} has no bound on this route (docs/ACCOUNTING.md)")

    def supports(self, event: DpEvent) -> bool:
        """True when compose(event) would be accepted (the route can account every part)."""
        if not isinstance(event, DpEvent):
            return False
        try:
            self._check(event)
        except UnsupportedEventError:
            return False
        return True

    def compose(self, event: DpEvent, count: int = 1) -> "Accountant":
        """Records `count` (1..10^12) uses of `event`; returns self. UnsupportedEventError (naming
        the event) when the route cannot account it."""
        if not isinstance(event, DpEvent):
            raise TypeError(f"event must be an exactdp.dp_accounting event (a DpEvent), not {type(event).__name__}")
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise TypeError("count must be an int")
        if not 1 <= int(count) <= _MAX_COUNT:
            raise ParameterError(f"count = {count} is out of range: allowed 1 <= count <= 10^12", "count")
        self._check(event)
        if self._entries and self._entries[-1][0] == event:
            self._entries[-1][1] += int(count)
        else:
            self._entries.append([event, int(count)])
        return self

    @property
    def ledger(self) -> DpEvent:
        """The composed events as one event, built like dp_accounting's DpEventBuilder:
        NoOpDpEvent when empty, the event itself when composed once, else a ComposedDpEvent of
        SelfComposedDpEvent(event, count) entries (count 1: the event)."""
        parts = [e if c == 1 else SelfComposedDpEvent(e, c) for e, c in self._entries]
        if not parts:
            return NoOpDpEvent()
        return parts[0] if len(parts) == 1 else ComposedDpEvent(tuple(parts))  # type: ignore[no-any-return]

    def get_epsilon(self, target_delta: Any) -> CertifiedFloat:
        """The certified epsilon at `target_delta` (0 < delta < 1; a float at its exact binary
        value) as dp_accounting returns it, a float: the certified upper end rounded UP, with the
        Interval one attribute away (``.interval``; ``.details`` names the route)."""
        return CertifiedFloat(self.get_epsilon_interval(target_delta))

    def get_delta(self, target_epsilon: Any) -> CertifiedFloat:
        """The certified delta at `target_epsilon` (>= 0; a float at its exact binary value), a
        float: the certified upper end rounded UP, the Interval as ``.interval``."""
        return CertifiedFloat(self.get_delta_interval(target_epsilon))

    def get_epsilon_interval(self, target_delta: Any) -> Interval:
        """The certified epsilon at `target_delta` as an :class:`exactdp.Interval`."""
        delta = peer_number("target_delta", target_delta)
        if not 0 < delta < 1:
            raise ParameterError(f"target_delta = {delta} is out of range: allowed 0 < delta < 1", "target_delta")
        return self._answer("delta", delta, "epsilon", math.inf)

    def get_delta_interval(self, target_epsilon: Any) -> Interval:
        """The certified delta at `target_epsilon` as an :class:`exactdp.Interval`."""
        epsilon = peer_number("target_epsilon", target_epsilon)
        if epsilon < 0:
            raise ParameterError(f"target_epsilon = {epsilon} is out of range: allowed epsilon >= 0",
                                 "target_epsilon")
        return self._answer("epsilon", epsilon, "delta", Fraction(1))

    def _answer(self, target_name: str, target: Fraction, quantity: str, worst: Any) -> Interval:
        composition = _Composition()
        for event, count in self._entries:
            composition.add(event, count, event)
        details: Dict[str, Any] = {"neighbouring": _RELATION_TEXT[self._relation], target_name: target}
        if composition.non_private:
            return Interval(worst, worst, dict(details, route="non-private"))
        if not composition.counts:
            return Interval(Fraction(0), Fraction(0), dict(details, route="no events"))
        pairs = list(composition.counts.items())
        key = (tuple(pairs), target_name, target)
        if key not in self._cache:
            if len(self._cache) > 16:
                self._cache.clear()
            report = self._report(pairs, set(composition.kinds.values()), target_name, target)
            self._cache[key] = report[quantity]
            self._cache[key].details.update({k: v for k, v in report.items() if k not in (quantity, "command")})
        value = self._cache[key]
        return Interval(value.lower, value.upper, value.details)


    def _report(self, pairs: List[Tuple[str, int]], kinds: Set[str], target_name: str,
                target: Fraction) -> Dict[str, Any]:
        """compose_events' report on this accountant's route; when that route refuses the
        composition as too costly (LimitError), the next certified route that covers every event
        answers instead (pld -> rdp, rdp -> pld) and ``fallback`` in the report says why."""
        relation = _RELATION_TEXT[self._relation]
        try:
            return _compose_on(self._route, pairs, relation, self._pld_step, {target_name: str(target)})
        except LimitError as refusal:
            fallback = _FALLBACK.get(self._route)
            if fallback is None or not kinds <= _route_kinds(fallback, self._relation):
                raise
            report = compose_events(pairs, route=fallback, neighbouring=relation,
                                    pld_step=self._pld_step if fallback == "pld" else None,
                                    delta=str(target) if target_name == "delta" else None,
                                    epsilon=str(target) if target_name == "epsilon" else None).to_dict()
            report["fallback"] = f"route {self._route} refused: {refusal}; answered by route {fallback}"
            return report


# The next certified route when a route refuses a composition as too costly (LimitError).
_FALLBACK = {"pld": "rdp", "rdp": "pld"}

# The library's routes an adapter route runs, in order: "pld" is the pld route, or the
# smoothed-pld route (docs/REAL_VALUED_ACCOUNTING.md, Theorem 5') where the pld route has no
# certified pair (the vector discrete Gaussian on a grid); both are privacy loss distributions
# with proven ends. "auto" runs the library's auto (it includes every route).
_LIBRARY_ROUTES = {"pld": ("pld", "smoothed-pld"), "rdp": ("rdp",), "auto": ("auto",)}
_PROBE_ROUTES = {"pld": ("pld", "smoothed-pld"), "rdp": ("rdp",), "auto": ("rdp", "pld", "smoothed-pld")}


def _refused_route(error: ParameterError) -> bool:
    return not isinstance(error, LimitError) and error.parameter == "route"


def _compose_on(route: str, pairs: List[Tuple[str, int]], relation: str, pld_step: Any,
                target: Dict[str, str]) -> Dict[str, Any]:
    """compose_events' report on the first library route of `route` that accounts every event."""
    routes = _LIBRARY_ROUTES[route]
    for i, name in enumerate(routes):
        try:
            return compose_events(pairs, route=name, neighbouring=relation,
                                  pld_step=pld_step if name != "rdp" else None, delta=target.get("delta"),
                                  epsilon=target.get("epsilon")).to_dict()
        except ParameterError as refusal:
            if not _refused_route(refusal) or i + 1 == len(routes):
                if _refused_route(refusal):
                    raise UnsupportedEventError(f"route {route}: {refusal}") from None
                raise
    raise AssertionError("unreachable")


@functools.lru_cache(maxsize=256)
def _library_supports(route: str, relation: NeighboringRelation, text: str) -> bool:
    """Whether a library route of `route` accounts the event `text` (a law this adapter does not
    map itself, e.g. a grid law): one use of it at epsilon 10 on a coarse grid (milliseconds);
    a refusal naming "route" means no."""
    for name in _PROBE_ROUTES[route]:
        try:
            compose_events([(text, 1)], epsilon="10", route=name, neighbouring=_RELATION_TEXT[relation],
                           pld_step=None if name == "rdp" else "1/4")
            return True
        except LimitError:
            return True
        except ParameterError as refusal:
            if not _refused_route(refusal):
                raise
    return False


def _route_kinds(route: str, relation: NeighboringRelation) -> FrozenSet[str]:
    """The event kinds `route` accounts under `relation`."""
    kinds = _ROUTE_KINDS[route]
    if relation is NeighboringRelation.REPLACE_ONE and route == "rdp":
        kinds = frozenset(k for k in kinds if not k.startswith("poisson-"))
    return kinds


def _one_over_n(name: str, value: Any) -> str:
    """An exact 1/N as text. A float (dp_accounting's default 1e-4 is one: its binary value is not
    1/N) gives the largest 1/N at or below its exact value — a finer grid, as certified."""
    if is_float(value):
        x = binary_value(name, value)
        if 0 < x:
            return str(Fraction(1, -(-x.denominator // x.numerator)))
    x = peer_number(name, value)
    if x <= 0 or x.numerator != 1:
        raise ParameterError(f"{name} = {x}: allowed 1/N for an integer N >= 1", name)
    return str(x)


class RdpAccountant(Accountant):
    """dp_accounting's RdpAccountant: the certified rdp route (its orders are chosen by the library,
    a search over real orders alpha > 1 that starts from dp_accounting's and Opacus' default orders:
    ``orders`` must be None). Poisson-sampled events
    under REPLACE_ONE are not supported by this route (use PLDAccountant)."""

    def __init__(self, orders: Any = None,
                 neighboring_relation: Any = NeighboringRelation.ADD_OR_REMOVE_ONE) -> None:
        if orders is not None:
            raise UsageError("RdpAccountant: orders cannot be set: the rdp route searches real orders "
                             "alpha > 1 itself, from these default orders on (docs/ACCOUNTING.md)")
        super().__init__("rdp", neighboring_relation)


class PLDAccountant(Accountant):
    """dp_accounting's PLDAccountant: the certified pld route (both ends of every answer are
    proven bounds). ``value_discretization_interval`` is the loss grid step, exactly 1/N
    (e.g. "1e-4"; a float: the largest 1/N at or below it; default: the library's, 1/5000 up
    to 5000 composed events, else 1/2500)."""

    def __init__(self, neighboring_relation: Any = NeighboringRelation.ADD_OR_REMOVE_ONE,
                 value_discretization_interval: Any = None) -> None:
        step = value_discretization_interval
        super().__init__("pld", neighboring_relation,
                         None if step is None else _one_over_n("value_discretization_interval", step))


PrivacyAccountant = Accountant  # dp_accounting's base class name
