"""What the peer-shaped adapters (exactdp.dp_accounting, exactdp.opacus) share: their float rule
and the float they answer with.

Float rule: the code these adapters stand in for passes floats, so there (and only there) a
Python float or numpy floating scalar is taken at its exact binary value — 1.1 is
2476979795053773/2251799813685248, as ``exactdp.from_float(1.1)`` — and that value is the one
accounted. Every other exactdp function refuses floats (TypeError).

Answer: :class:`CertifiedFloat`, a ``float`` whose value is a certified upper end rounded UP
(toward +inf, never to nearest), with the certified :class:`exactdp.Interval` one attribute away.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ._errors import ParameterError
from .interval import End, Interval, IntervalEnds

_NUMPY_FLOATS = ("float16", "float32", "float64", "longdouble", "float128")


def is_float(value: Any) -> bool:
    """True for a Python float or a numpy floating scalar."""
    return isinstance(value, float) or type(value).__name__ in _NUMPY_FLOATS


def binary_value(name: str, value: Any) -> Fraction:
    """The exact value of the float `value` (every finite binary float is a dyadic rational);
    ParameterError naming `name` for NaN and +-inf."""
    try:
        return Fraction(*value.as_integer_ratio())
    except (OverflowError, ValueError):
        raise ParameterError(f"{name} = {value} is not finite: allowed finite values", name) from None


def peer_number(name: str, value: Any) -> Fraction:
    """A parameter of the adapters as an exact Fraction: a float at its exact binary value, any
    other value (int, Fraction, Decimal, str) as ``exactdp.dp_events.exact_number`` reads it."""
    if is_float(value):
        return binary_value(name, value)
    from .dp_events import exact_number  # dp_events takes its number fields through this function
    return exact_number(name, value)


class CertifiedFloat(IntervalEnds, float):
    """A float that is a certified bound: the upper end of ``interval`` rounded UP to a double
    (the smallest double >= it; ``inf`` for an unbounded end). It formats (``"%.3f" % eps``),
    compares (``eps < 2``) and computes like any float — arithmetic on it gives a plain float,
    which carries no certificate. ``interval`` is the certified :class:`exactdp.Interval`;
    ``details`` (its details: route, fallback, ...), ``lower``, ``upper``, ``lower_float``,
    ``upper_float`` and ``width`` are the interval's own, so code written for an Interval
    answer keeps working."""

    __slots__ = ("interval",)
    interval: Interval

    def __new__(cls, interval: Interval) -> "CertifiedFloat":
        if not isinstance(interval, Interval):
            raise TypeError(f"interval must be an exactdp.Interval, not {type(interval).__name__}")
        self = super().__new__(cls, interval.upper_float)
        self.interval = interval
        return self

    def __reduce__(self) -> Any:
        return CertifiedFloat, (self.interval,)

    @property
    def width(self) -> End:
        return self.interval.width
