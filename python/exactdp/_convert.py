"""Exact conversion of Python numbers to the text the C++ parsers read.

Accepted: ``int`` (and other ``numbers.Integral`` such as numpy integers),
``fractions.Fraction``, ``decimal.Decimal`` and ``str`` ("9/4", "0.25", "1e-5").
Every conversion is exact: a Fraction is written ``numerator/denominator``, a Decimal from
its exact ``as_tuple()`` (digits and exponent), a string is handed to the C++ parser as is.
Refused: ``float`` (TypeError: a float is not the number that was typed — ``0.1`` is
3602879701896397/36028797018963968), ``bool`` (TypeError), and anything else (TypeError).
"""

from __future__ import annotations

import decimal
import fractions
import numbers

from ._errors import LimitError, ParameterError

Exact = "int | fractions.Fraction | decimal.Decimal | str"

_FLOAT_MESSAGE = (
    "{name}: a float is refused because it is not the number that was typed "
    "(0.1 is really 3602879701896397/36028797018963968); pass the value exactly as a "
    "str ('0.1'), fractions.Fraction, decimal.Decimal or int"
)


def _int_text(name: str, value: int) -> str:
    try:
        return str(value)
    except ValueError:  # over Python's int-to-str digit limit: far over exactdp's own limit
        raise LimitError(f"{name} has too many digits: at most 10000 digits allowed", name) from None


def exact_text(name: str, value: object) -> str:
    """The exact text of ``value`` for the C++ parser; ``name`` names it in errors."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise TypeError(f"{name}: a bool is not a number here; pass an int, Fraction, Decimal or str")
    if isinstance(value, float) or type(value).__name__ in ("float16", "float32", "float64", "longdouble"):
        raise TypeError(_FLOAT_MESSAGE.format(name=name))
    if isinstance(value, str):
        if not value.isascii():
            raise ParameterError(f"{name} = {value[:40]!r} is not an exact rational: ASCII digits only", name)
        return value
    if isinstance(value, fractions.Fraction):
        return f"{_int_text(name, value.numerator)}/{_int_text(name, value.denominator)}"
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ParameterError(f"{name} = {value} is not a finite number", name)
        sign, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        if len(digits) > 10_000:
            raise LimitError(f"{name} has too many digits: at most 10000 digits allowed", name)
        return ("-" if sign else "") + "".join(map(str, digits)) + f"e{exponent}"
    if isinstance(value, numbers.Integral):
        return _int_text(name, int(value))
    if isinstance(value, numbers.Real):  # a float-like type we do not know: same reason as float
        raise TypeError(_FLOAT_MESSAGE.format(name=name))
    raise TypeError(
        f"{name}: expected an int, fractions.Fraction, decimal.Decimal or str, not {type(value).__name__}"
    )
