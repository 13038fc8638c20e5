"""Accountant: dp_accounting's shape (compose / get_epsilon / get_delta), certified.

    acc = exactdp.Accountant()
    acc.compose(exactdp.events.DiscreteGaussian(sigma2=4), count=10)
    acc.get_epsilon("1e-6")   # Interval; .upper is the epsilon to use

Every applicable composition route of accounting/accountant.h ("gdp", "kov", "basic", "zcdp")
is evaluated and the one with the smallest certified upper end answers; ``details`` names it
(``route``), says whether the tolerance was met and lists the others (``considered``). The
ends are the exact dyadic ends of the C++ MPFR interval (lower rounded down, upper up).
Not thread-safe for compose (like the C++ class).

A composition holding a Poisson-sampled event (events.PoissonSampled, or
``Event.of_law("poisson-<law>", q=...)``: e.g. what ``exactdp.add_noise(...,
sample_rate=...)`` records) is answered by exactdp.compose_events instead, on all the events
composed: the smallest certified upper end of its routes (rdp, pld, smoothed-pld, ...);
``details["route"]`` names it and ``considered`` lists the others. ``tolerance`` goes with it.

``Accountant(route=..., neighbouring=..., pld_step=...)`` answers every composition through
compose_events with those settings: ``route`` "auto" (the smallest certified upper end), "rdp",
"pld" (the pld route, or smoothed-pld where the pld route has no certified pair, e.g. a grid
law: both are privacy loss distributions with proven ends) or any route compose_events names;
``orders`` (rdp route) the Renyi orders to certify at, the minimum over them answering.
When the route refuses the composition as too costly (LimitError), pld falls back to rdp and rdp
to pld where that route accounts every event, and ``details["fallback"]`` says why.
``supports(event)`` says whether the route accounts an event. dp_accounting's own names
(GaussianDpEvent, PoissonSampledDpEvent, RdpAccountant, PLDAccountant, ledger, supports) are in
:mod:`exactdp.dp_accounting`; Opacus' accountant is :mod:`exactdp.opacus`; both map their
events onto this class.
"""

from __future__ import annotations

import functools
import numbers
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _exactdp
from ._convert import Exact, exact_text, shown
from ._errors import LimitError, ParameterError
from .accounting import compose_events
from .events import Event
from .interval import Interval

# The library routes a route runs, first that accounts every event: pld's family (docs/
# REAL_VALUED_ACCOUNTING.md, Theorem 5'); other names are the library's own.
_FAMILY: Dict[str, Tuple[str, ...]] = {"pld": ("pld", "smoothed-pld")}
# The next certified route when a route refuses a composition as too costly (LimitError).
_FALLBACK = {"pld": "rdp", "rdp": "pld"}


def _answer(raw: Dict[str, Any]) -> Interval:
    considered = [
        {"route": c["route"], "value": Interval.from_text(c["value"]["lower"], c["value"]["upper"]),
         "exact_route": c["exact_route"], "tolerance_met": c["tolerance_met"]}
        for c in raw["considered"]
    ]
    return Interval.from_text(
        raw["value"]["lower"], raw["value"]["upper"],
        {"route": raw["route"], "tolerance_met": raw["tolerance_met"], "considered": considered},
    )


class Accountant:
    """A certified privacy accountant; ``tolerance`` is the relative width wanted (default
    2^-100); route, neighbouring ("add-remove" or "replace-one"), pld_step (1/N) and orders: see
    the module docstring."""

    def __init__(self, tolerance: Optional[Exact] = None, *, route: Optional[str] = None,
                 neighbouring: Optional[str] = None, pld_step: Optional[Exact] = None,
                 orders: Optional[Sequence[Exact]] = None) -> None:
        self._tolerance = None if tolerance is None else exact_text("tolerance", tolerance)
        self._acc = _exactdp._Accountant("" if self._tolerance is None else self._tolerance)
        self._texts: List[List[Any]] = []  # [event text, count], for compose_events
        self._sampled = False
        if route is not None and not isinstance(route, str):
            raise TypeError("route must be a str (auto, rdp, pld, or a route of exactdp.compose_events)")
        self._settings = _Settings(route, neighbouring, None if pld_step is None else exact_text("pld_step", pld_step),
                                   None if orders is None else _orders(orders))
        if orders is not None and route != "rdp":
            raise ParameterError("orders apply to the rdp route: give route=\"rdp\"", "orders")

    def compose(self, event: Event, count: int = 1) -> "Accountant":
        """Records `count` (>= 1) more uses of `event`; returns self."""
        if not isinstance(event, Event):
            raise TypeError("event must be an exactdp.events event (Gaussian, DiscreteGaussian, ...)")
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise TypeError("count must be an int")
        if not 1 <= int(count) <= 10**12:
            raise ParameterError(f"count = {shown(count)} is out of range: allowed 1 <= count <= 10^12", "count")
        if event.sampled or self._settings.chosen:
            self._sampled = True
        else:
            self._acc.compose(event._event, int(count))
        if self._texts and self._texts[-1][0] == event.text:
            self._texts[-1][1] += int(count)
        else:
            self._texts.append([event.text, int(count)])
        return self

    def supports(self, event: Event) -> bool:
        """Whether this accountant's route accounts `event` under its neighbouring relation."""
        if not isinstance(event, Event):
            return False
        if not self._settings.chosen:
            return True
        return _supports(self._settings.route or "auto", self._settings.neighbouring or "add-remove", event.text)

    def get_epsilon(self, delta: Exact) -> Interval:
        """The smallest certified epsilon such that the composition is (epsilon, delta)-DP."""
        if self._sampled:
            return self._composed("delta", delta, "epsilon")
        return _answer(self._acc.get_epsilon(exact_text("delta", delta)))

    def get_delta(self, epsilon: Exact) -> Interval:
        """The smallest certified delta such that the composition is (epsilon, delta)-DP."""
        if self._sampled:
            return self._composed("epsilon", epsilon, "delta")
        return _answer(self._acc.get_delta(exact_text("epsilon", epsilon)))

    def _composed(self, target_name: str, target: Any, quantity: str) -> Interval:
        """compose_events' answer on every event composed (a Poisson-sampled one among them, or
        a route chosen), the rest of its report in the details."""
        pairs = [(pair[0], pair[1]) for pair in self._texts]
        report = _report(self._settings, pairs, self._tolerance, target_name, exact_text(target_name, target))
        value = report.pop(quantity)
        report.pop("command", None)
        report["considered"] = [{"route": name, "value": one} for name, one in report.get("routes", {}).items()]
        return Interval(value.lower, value.upper, report)


class _Settings:
    """The compose_events settings an Accountant was given (chosen: any of them)."""

    def __init__(self, route: Optional[str], neighbouring: Optional[str], pld_step: Optional[str],
                 orders: Optional[Tuple[str, ...]]) -> None:
        self.route, self.neighbouring, self.pld_step, self.orders = route, neighbouring, pld_step, orders
        self.chosen = any(x is not None for x in (route, neighbouring, pld_step, orders))


def _orders(orders: Sequence[Exact]) -> Tuple[str, ...]:
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence) or not orders:
        raise ParameterError("orders: allowed a non-empty list of Renyi orders alpha > 1", "orders")
    return tuple(exact_text("orders", a) for a in orders)


def _compose(settings: _Settings, route: str, pairs: List[Tuple[str, int]], tolerance: Optional[str],
             target_name: str, target: str) -> Dict[str, Any]:
    if settings.orders is not None and route == "rdp":
        return _at_orders(settings, pairs, tolerance, target_name, target)
    result = compose_events(pairs, route=route, neighbouring=settings.neighbouring,
                            pld_step=settings.pld_step if route != "rdp" else None, tolerance=tolerance,
                            delta=target if target_name == "delta" else None,
                            epsilon=target if target_name == "epsilon" else None)
    return result.to_dict()


def _at_orders(settings: _Settings, pairs: List[Tuple[str, int]], tolerance: Optional[str], target_name: str,
               target: str) -> Dict[str, Any]:
    """The rdp route at the given orders, as a report shaped like compose_events'."""
    assert settings.orders is not None
    relation = settings.neighbouring or "add-remove"
    raw = _exactdp._rdp_at_orders([(text, str(count)) for text, count in pairs], target_name == "delta", target,
                                  relation, list(settings.orders), tolerance or "")
    value = Interval.from_text(raw["value"]["lower"], raw["value"]["upper"])
    quantity = "epsilon" if target_name == "delta" else "delta"
    return {"events": [{"event": text, "count": count} for text, count in pairs], "neighbouring": raw["neighbouring"],
            target_name: target, quantity: value, "route": "rdp", "rdp_order": raw["order"],
            "orders_used": raw["orders_used"], "routes": {"rdp": value}, "tolerance_met": raw["tolerance_met"]}


def _refused_route(error: ParameterError) -> bool:
    return not isinstance(error, LimitError) and error.parameter == "route"


def _on_route(settings: _Settings, route: str, pairs: List[Tuple[str, int]], tolerance: Optional[str],
              target_name: str, target: str) -> Dict[str, Any]:
    """The report of the first library route of `route`'s family that accounts every event."""
    family = _FAMILY.get(route, (route,))
    for i, name in enumerate(family):
        try:
            return _compose(settings, name, pairs, tolerance, target_name, target)
        except ParameterError as refusal:
            if not _refused_route(refusal) or i + 1 == len(family):
                raise
    raise AssertionError("unreachable")


def _report(settings: _Settings, pairs: List[Tuple[str, int]], tolerance: Optional[str], target_name: str,
            target: str) -> Dict[str, Any]:
    """compose_events' report on the chosen route; when that route refuses the composition as
    too costly (LimitError), the next certified route that covers every event answers instead
    and ``fallback`` in the report says why."""
    route = settings.route or "auto"
    try:
        return _on_route(settings, route, pairs, tolerance, target_name, target)
    except LimitError as refusal:
        fallback = _FALLBACK.get(route)
        relation = settings.neighbouring or "add-remove"
        if fallback is None or not all(_supports(fallback, relation, text) for text, _ in pairs):
            raise
        report = _on_route(settings, fallback, pairs, tolerance, target_name, target)
        report["fallback"] = f"route {route} refused: {refusal}; answered by route {fallback}"
        return report


@functools.lru_cache(maxsize=256)
def _supports(route: str, relation: str, text: str) -> bool:
    """Whether `route` (its family) accounts the event `text` under `relation`: one use of it at
    epsilon 10 on a coarse grid (milliseconds); a refusal naming "route" means no, a LimitError
    (too costly at this point) means yes."""
    probes = ("rdp", "pld", "smoothed-pld") if route == "auto" else _FAMILY.get(route, (route,))
    for name in probes:
        try:
            compose_events([(text, 1)], epsilon="10", route=name, neighbouring=relation,
                           pld_step=None if name == "rdp" else "1/4")
            return True
        except LimitError:
            return True
        except ParameterError as refusal:
            if not _refused_route(refusal):
                raise
    return False
