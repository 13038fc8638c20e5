"""The accountants of exactdp.dp_accounting (one implementation; the package and its pld, rdp
and privacy_accountant modules re-export it). The package docstring describes them."""

from __future__ import annotations

import enum
import math
import numbers
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import accountant as exact
from .._convert import shown
from .._errors import ParameterError, UnsupportedEventError
from .._peer import CertifiedFloat, binary_value, is_float, peer_number
from ..dp_events import NON_PRIVATE, ComposedDpEvent, DpEvent, NoOpDpEvent, SelfComposedDpEvent
from ..events import Event
from ..interval import Interval


class NeighboringRelation(enum.Enum):
    """dp_accounting's neighbouring relations; exactdp accounts the first two."""
    ADD_OR_REMOVE_ONE = 1
    REPLACE_ONE = 2
    REPLACE_SPECIAL = 3


_RELATION_TEXT = {NeighboringRelation.ADD_OR_REMOVE_ONE: "add-remove", NeighboringRelation.REPLACE_ONE: "replace-one"}
_ROUTES = ("auto", "rdp", "pld")
_MAX_COUNT = 10**12


class _Composition:
    """The events of a ledger as exactdp events with counts, in first-use order (each DpEvent
    says which exactdp event it states: DpEvent.to_event)."""

    def __init__(self) -> None:
        self.counts: Dict[Event, int] = {}
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
        exact_event = event.to_event()
        if exact_event is None:
            raise UnsupportedEventError(f"{event!r} (in {top!r}) is accounted by no exactdp route")
        if exact_event == NON_PRIVATE:
            self.non_private = True
        elif isinstance(exact_event, Event):
            self.counts[exact_event] = self.counts.get(exact_event, 0) + count


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
    ``.interval``), get_epsilon_interval / get_delta_interval the Interval itself. A thin map
    onto :class:`exactdp.Accountant`: each event becomes the exactdp event it states. Not
    thread-safe for compose."""

    def __init__(self, route: str = "auto",
                 neighboring_relation: Any = NeighboringRelation.ADD_OR_REMOVE_ONE, pld_step: Any = None) -> None:
        if route not in _ROUTES:
            raise ParameterError(f"route = {shown(route)[:40]!r}: allowed auto, rdp, pld", "route")
        self._route = route
        self._relation = _relation(neighboring_relation)
        self._pld_step = None if pld_step is None else _one_over_n("pld_step", pld_step)
        self._orders: Optional[Tuple[Fraction, ...]] = None
        self._entries: List[List[Any]] = []  # [event, count], consecutive equal events merged
        self._cache: Dict[Tuple[Any, ...], Interval] = {}

    @property
    def neighboring_relation(self) -> NeighboringRelation:
        return self._relation

    @property
    def route(self) -> str:
        return self._route

    def _exact(self) -> exact.Accountant:
        """The exactdp.Accountant of this route, relation, grid and orders (empty)."""
        return exact.Accountant(route=self._route, neighbouring=_RELATION_TEXT[self._relation],
                                pld_step=self._pld_step, orders=self._orders)

    def _check(self, event: DpEvent) -> None:
        composition = _Composition()
        composition.add(event, 1, event)
        answering = self._exact()
        for part in composition.counts:
            if not answering.supports(part):
                raise UnsupportedEventError(
                    f"{type(self).__name__} (route {self._route}, {_RELATION_TEXT[self._relation]}) does not "
                    f"support {event!r}: its part {part.text} has no bound on this route (docs/ACCOUNTING.md)")

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
            raise ParameterError(f"count = {shown(count)} is out of range: allowed 1 <= count <= 10^12", "count")
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
            raise ParameterError(f"target_delta = {shown(delta)} is out of range: allowed 0 < delta < 1", "target_delta")
        return self._answer("delta", delta, "epsilon", math.inf)

    def get_delta_interval(self, target_epsilon: Any) -> Interval:
        """The certified delta at `target_epsilon` as an :class:`exactdp.Interval`."""
        epsilon = peer_number("target_epsilon", target_epsilon)
        if epsilon < 0:
            raise ParameterError(f"target_epsilon = {shown(epsilon)} is out of range: allowed epsilon >= 0",
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
        key = (tuple(composition.counts.items()), target_name, target)
        if key not in self._cache:
            if len(self._cache) > 16:
                self._cache.clear()
            answering = self._exact()
            for event, count in composition.counts.items():
                answering.compose(event, count)
            value = answering.get_epsilon(target) if quantity == "epsilon" else answering.get_delta(target)
            details.update(value.details)
            self._cache[key] = Interval(value.lower, value.upper, details)
        value = self._cache[key]
        return Interval(value.lower, value.upper, dict(value.details))


def _one_over_n(name: str, value: Any) -> str:
    """An exact 1/N as text. A float (dp_accounting's default 1e-4 is one: its binary value is not
    1/N) gives the largest 1/N at or below its exact value — a finer grid, as certified."""
    if is_float(value):
        x = binary_value(name, value)
        if 0 < x:
            return str(Fraction(1, -(-x.denominator // x.numerator)))
    x = peer_number(name, value)
    if x <= 0 or x.numerator != 1:
        raise ParameterError(f"{name} = {shown(x)}: allowed 1/N for an integer N >= 1", name)
    return str(x)


class RdpAccountant(Accountant):
    """dp_accounting's RdpAccountant: the certified rdp route. ``orders`` (dp_accounting's
    argument: Renyi orders alpha > 1, floats at their exact binary value) are the orders certified,
    the minimum over them answering (an order some event does not take is left out); without
    them the library searches real orders alpha > 1 itself, starting from dp_accounting's and
    Opacus' default orders (docs/ACCOUNTING.md)."""

    def __init__(self, orders: Optional[Sequence[Any]] = None,
                 neighboring_relation: Any = NeighboringRelation.ADD_OR_REMOVE_ONE) -> None:
        super().__init__("rdp", neighboring_relation)
        if orders is not None:
            if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence) or not orders:
                raise ParameterError("orders: allowed a non-empty list of Renyi orders alpha > 1", "orders")
            self._orders = tuple(peer_number("orders", a) for a in orders)


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
