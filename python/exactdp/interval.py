"""Interval: a certified closed interval [lower, upper] with exact ends."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping, Optional, Union

End = Union[Fraction, float]  # a Fraction, or math.inf / -math.inf for an unbounded end


def exact_end(text: str) -> End:
    """An end as printed by exactdp ("0.0123", "1.5e-300", "3/8", "inf") read EXACTLY."""
    if text in ("inf", "+inf"):
        return math.inf
    if text == "-inf":
        return -math.inf
    return Fraction(text)


class Interval:
    """A certified interval: the true value lies in [lower, upper].

    ``lower`` and ``upper`` are ``fractions.Fraction`` — the exact ends as certified by the C++
    accounting code (outward-rounded decimals, or the exact dyadic ends of its MPFR interval),
    never rounded again. An unbounded end is ``math.inf`` / ``-math.inf``. ``upper`` is the safe
    number to use for a privacy parameter (epsilon, delta, mu); ``float(interval.upper)`` gives a
    float only when asked for. ``details`` holds what else the computation reported (route,
    tolerance_met, ...); it takes no part in equality.
    """

    __slots__ = ("lower", "upper", "details")

    def __init__(self, lower: End, upper: End, details: Optional[Mapping[str, Any]] = None) -> None:
        if isinstance(lower, float) and not math.isinf(lower) or isinstance(upper, float) and not math.isinf(upper):
            raise TypeError("Interval ends are Fractions (a float end may only be infinite)")
        if not lower <= upper:
            raise ValueError(f"Interval: lower {lower} > upper {upper}")
        self.lower = lower
        self.upper = upper
        self.details = dict(details or {})

    @classmethod
    def from_text(cls, lower: str, upper: str, details: Optional[Mapping[str, Any]] = None) -> "Interval":
        return cls(exact_end(lower), exact_end(upper), details)

    def __contains__(self, value: Any) -> bool:
        if isinstance(value, Interval):
            return self.lower <= value.lower and value.upper <= self.upper
        return self.lower <= value <= self.upper

    def contains(self, value: Any) -> bool:
        """True when value (a number or an Interval) lies inside."""
        return value in self

    @property
    def width(self) -> End:
        return self.upper - self.lower

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Interval) and (self.lower, self.upper) == (other.lower, other.upper)

    def __hash__(self) -> int:
        return hash((self.lower, self.upper))

    def __repr__(self) -> str:
        return f"Interval({_short(self.lower)}, {_short(self.upper)})"

    def __str__(self) -> str:
        return f"[{_short(self.lower)}, {_short(self.upper)}]"


def _short(x: End) -> str:
    if isinstance(x, float):
        return "inf" if x > 0 else "-inf"
    if x.denominator == 1:
        return str(x.numerator)
    # Shown with 17 significant digits for reading only; the ends themselves stay exact.
    try:
        return f"~{float(x):.17g}"
    except OverflowError:
        return "~huge"
