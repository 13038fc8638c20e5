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
``details["route"]`` names it and ``considered`` lists the others. ``tolerance`` goes with it. dp_accounting's own names (GaussianDpEvent,
PoissonSampledDpEvent, RdpAccountant, PLDAccountant, ledger, supports) are in
:mod:`exactdp.dp_accounting`; Opacus' accountant is :mod:`exactdp.opacus`.
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, List

from . import _exactdp
from ._convert import exact_text
from ._errors import ParameterError
from .accounting import compose_events
from .events import Event
from .interval import Interval


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
    """A certified privacy accountant; ``tolerance`` is the relative width wanted (default 2^-100)."""

    def __init__(self, tolerance: Any = None) -> None:
        self._tolerance = None if tolerance is None else exact_text("tolerance", tolerance)
        self._acc = _exactdp._Accountant("" if self._tolerance is None else self._tolerance)
        self._texts: List[List[Any]] = []  # [event text, count], for compose_events
        self._sampled = False

    def compose(self, event: Event, count: int = 1) -> "Accountant":
        """Records `count` (>= 1) more uses of `event`; returns self."""
        if not isinstance(event, Event):
            raise TypeError("event must be an exactdp.events event (Gaussian, DiscreteGaussian, ...)")
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise TypeError("count must be an int")
        if not 1 <= int(count) <= 10**12:
            raise ParameterError(f"count = {count} is out of range: allowed 1 <= count <= 10^12", "count")
        if event.sampled:
            self._sampled = True
        else:
            self._acc.compose(event._event, int(count))
        if self._texts and self._texts[-1][0] == event.text:
            self._texts[-1][1] += int(count)
        else:
            self._texts.append([event.text, int(count)])
        return self

    def get_epsilon(self, delta: Any) -> Interval:
        """The smallest certified epsilon such that the composition is (epsilon, delta)-DP."""
        if self._sampled:
            return self._composed("delta", delta, "epsilon")
        return _answer(self._acc.get_epsilon(exact_text("delta", delta)))

    def get_delta(self, epsilon: Any) -> Interval:
        """The smallest certified delta such that the composition is (epsilon, delta)-DP."""
        if self._sampled:
            return self._composed("epsilon", epsilon, "delta")
        return _answer(self._acc.get_delta(exact_text("epsilon", epsilon)))

    def _composed(self, target_name: str, target: Any, quantity: str) -> Interval:
        """compose_events' answer on every event composed (a Poisson-sampled one among them)."""
        target_text = exact_text(target_name, target)
        r = compose_events([(pair[0], pair[1]) for pair in self._texts], tolerance=self._tolerance,
                           delta=target_text if target_name == "delta" else None,
                           epsilon=target_text if target_name == "epsilon" else None)
        considered = [{"route": name, "value": value} for name, value in r.routes.items()]
        return Interval(r.lower, r.upper, {"route": r.route, "tolerance_met": r.tolerance_met,
                                           "considered": considered})
