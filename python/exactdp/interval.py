"""Interval: a certified closed interval [lower, upper] with exact ends."""

from __future__ import annotations

import decimal
import math
import sys
from fractions import Fraction
from typing import Any, Dict, Mapping, Optional, Protocol, Union

End = Union[Fraction, float]  # a Fraction, or math.inf / -math.inf for an unbounded end


# Ends beyond 10^(+-EXPONENT_LIMIT) (e.g. delta = 6e-7078873101600, which the C++ code prints
# fine) have no Fraction of reasonable size: they are widened OUTWARD to 0, +-10^-EXPONENT_LIMIT,
# +-10^EXPONENT_LIMIT or +-inf, which keeps the interval certified; the printed text is kept in
# Interval.details ("lower_text" / "upper_text").
EXPONENT_LIMIT = 100_000


def exact_end(text: str, upper: bool) -> End:
    """An end as printed by exactdp ("0.0123", "1.5e-300", "3/8", "inf"), read EXACTLY (or
    widened outward past 10^+-EXPONENT_LIMIT): `upper` says which end it is."""
    if text in ("inf", "+inf"):
        return math.inf
    if text == "-inf":
        return -math.inf
    if "/" in text:
        num, den = text.split("/")
        return Fraction(_big_int(num), _big_int(den))
    d = decimal.Decimal(text)  # exact, whatever the context precision
    if d == 0:
        return Fraction(0)
    tiny = Fraction(1, 10**EXPONENT_LIMIT)
    if d.adjusted() < -EXPONENT_LIMIT:
        if d > 0:
            return tiny if upper else Fraction(0)
        return Fraction(0) if upper else -tiny
    if d.adjusted() > EXPONENT_LIMIT:
        if d > 0:
            return math.inf if upper else Fraction(10**EXPONENT_LIMIT)
        return -Fraction(10**EXPONENT_LIMIT) if upper else -math.inf
    return Fraction(*d.as_integer_ratio())


def _big_int(text: str) -> int:
    # int(text) refuses more than 4300 digits (sys.get_int_max_str_digits); Decimal does not.
    return int(decimal.Decimal(text)) if len(text) > 4000 else int(text)


class Interval:
    """A certified interval: the true value lies in [lower, upper].

    ``lower`` and ``upper`` are ``fractions.Fraction`` — the exact ends as certified by the C++
    accounting code (outward-rounded decimals, or the exact dyadic ends of its MPFR interval),
    never rounded again. An unbounded end is ``math.inf`` / ``-math.inf``. ``upper`` is the safe
    number to use for a privacy parameter (epsilon, delta, mu); ``upper_float`` is it as a float
    rounded up (``lower_float``: the lower end rounded down). Not ``float(interval.upper)``: that
    rounds to nearest and can land below the certified end. ``details`` holds what else the computation reported (route,
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
        result = cls(exact_end(lower, False), exact_end(upper, True), details)
        for name, text in (("lower", lower), ("upper", upper)):
            if "/" not in text and "e" in text and abs(int(text.split("e")[1])) > EXPONENT_LIMIT // 2:
                result.details[name + "_text"] = text
        return result

    def __contains__(self, value: Any) -> bool:
        if isinstance(value, Interval):
            return self.lower <= value.lower and value.upper <= self.upper
        return bool(self.lower <= value <= self.upper)

    def contains(self, value: Any) -> bool:
        """True when value (a number or an Interval) lies inside."""
        return value in self

    @property
    def width(self) -> End:
        return self.upper - self.lower

    @property
    def upper_float(self) -> float:
        """The smallest float >= upper: the certified upper end as a float, rounded UP.

        ``float(interval.upper)`` rounds to nearest and can land below the certified end; use this
        where a float is needed (an epsilon or delta handed to another library)."""
        return _float_toward(self.upper, up=True)

    @property
    def lower_float(self) -> float:
        """The largest float <= lower: the certified lower end as a float, rounded DOWN."""
        return _float_toward(self.lower, up=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Interval) and (self.lower, self.upper) == (other.lower, other.upper)

    def __hash__(self) -> int:
        return hash((self.lower, self.upper))

    def __repr__(self) -> str:
        return f"Interval({_short(self.lower)}, {_short(self.upper)})"

    def __str__(self) -> str:
        return f"[{_short(self.lower)}, {_short(self.upper)}]"


class _HasInterval(Protocol):
    @property
    def interval(self) -> Interval: ...


class IntervalEnds:
    """The ends and details of ``self.interval``, as the object's own attributes: what an answer
    that carries one certified Interval (results.CertifiedAnswer, _peer.CertifiedFloat) shares."""

    __slots__ = ()

    @property
    def lower(self: _HasInterval) -> End:
        return self.interval.lower

    @property
    def upper(self: _HasInterval) -> End:
        return self.interval.upper

    @property
    def upper_float(self: _HasInterval) -> float:
        return self.interval.upper_float

    @property
    def lower_float(self: _HasInterval) -> float:
        return self.interval.lower_float

    @property
    def details(self: _HasInterval) -> Dict[str, Any]:
        """The interval's details: the rest of the report, as the Interval answers carried it."""
        return self.interval.details


def _float_toward(x: End, up: bool) -> float:
    """x rounded to a float toward +inf (up) or -inf: exact when x is a float; an end beyond the
    float range becomes +-inf or +-max float on the safe side."""
    if isinstance(x, float):
        return x
    try:
        f = float(x)  # nearest (ties to even)
    except OverflowError:
        if x > 0:
            return math.inf if up else sys.float_info.max
        return -sys.float_info.max if up else -math.inf
    if math.isinf(f):  # float() of a Fraction just past the range
        if up:
            return f if f > 0 else -sys.float_info.max
        return sys.float_info.max if f > 0 else f
    if up and Fraction(f) < x:
        f = math.nextafter(f, math.inf)
    elif not up and Fraction(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _short(x: End) -> str:
    if isinstance(x, float):
        return "inf" if x > 0 else "-inf"
    if x.denominator == 1 and x.numerator.bit_length() <= 12_000:  # str() refuses past 4,300 digits
        return str(x.numerator)
    # Shown with 17 significant digits for reading only; the ends themselves stay exact.
    try:
        return f"~{float(x):.17g}"
    except OverflowError:
        return "~huge"
