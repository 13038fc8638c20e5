"""Exact conversion of Python numbers to the text the C++ parsers read.

Accepted: ``int`` (and other ``numbers.Integral`` such as numpy integers),
``fractions.Fraction``, ``decimal.Decimal`` and ``str`` ("9/4", "0.25", "1e-5").
Every conversion is exact: a Fraction is written ``numerator/denominator``, a Decimal from
its exact ``as_tuple()`` (digits and exponent), a string is handed to the C++ parser as is.
Refused: ``float`` (TypeError: a float is not the number that was typed — ``0.1`` is
3602879701896397/2^55; the message echoes the value, shows that, and names str / Decimal /
Fraction and ``exactdp.from_float``), ``bool`` (TypeError), and anything else (TypeError).

The library's own limits (core/rational.h: at most 10,000 digits, a decimal exponent of at most
100,000 in magnitude) are checked here BEFORE any value is expanded: ``Decimal('1e-999999999')``,
``'1e-999999999'`` or an int of 20,000 digits raise LimitError naming the parameter at once,
where ``Fraction`` would build 10^999999999 first. ``exact_fraction`` is the one checked way from
a user's value to a ``Fraction``; ``int_text`` / ``int_from_text`` convert integers of any size
the library accepts, whatever ``sys.get_int_max_str_digits()`` says.
"""

from __future__ import annotations

import decimal
import fractions
import functools
import numbers
import re
import warnings
from typing import Any, Callable, Tuple, TypeVar, Union, cast

from ._errors import LimitError, ParameterError

# An exact number as the public functions take it (numpy integers are accepted too, as ints).
Exact = Union[int, fractions.Fraction, decimal.Decimal, str]

_FLOAT_MESSAGE = (
    "{name} = {typed}: a float is refused because it is not the number that was typed: its exact "
    "binary value is {exact}, not {typed}. Pass the number exactly as a str ('{typed}'), "
    "decimal.Decimal('{typed}') or fractions.Fraction; or exactdp.from_float({typed}) only if the "
    "float's binary value is really what you mean"
)


def float_refusal(name: str, value: object) -> TypeError:
    """The TypeError for a float given where an exact number is required: echoes the value as
    typed (str of the float: 0.1, 1e-05), shows its exact binary value and names the ways out."""
    typed = str(value)
    try:
        numerator, denominator = value.as_integer_ratio()  # type: ignore[attr-defined]
    except (OverflowError, ValueError):  # inf, nan
        return TypeError(f"{name} = {typed}: a float is refused, and {typed} is not a finite number; pass "
                         "a finite exact number as a str, decimal.Decimal, fractions.Fraction or int")
    except AttributeError:  # a float-like type we do not know: its binary value is not shown
        numerator, denominator = None, 1
    power = denominator.bit_length() - 1
    exact = ("not shown" if numerator is None else str(numerator) if denominator == 1
             else f"{numerator}/2^{power}")
    return TypeError(_FLOAT_MESSAGE.format(name=name, typed=typed, exact=exact))


_F = TypeVar("_F", bound=Callable[..., Any])


def law_keyword(function: _F) -> _F:
    """Decorate a public function whose noise law is the keyword ``law=``: the old name
    ``mechanism=`` still works for one release, with a DeprecationWarning naming ``law=``;
    giving both is a ParameterError naming law."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if "mechanism" in kwargs:
            if "law" in kwargs or _law_given_positionally(function, args):
                raise ParameterError(f"{function.__name__}: give law= only (mechanism= is its deprecated old name), "
                                     "not both", "law")
            warnings.warn(f"{function.__name__}: mechanism= is deprecated, use law= (the same value)",
                          DeprecationWarning, stacklevel=2)
            kwargs["law"] = kwargs.pop("mechanism")
        return function(*args, **kwargs)
    return cast(_F, wrapper)


def _law_given_positionally(function: Callable[..., Any], args: Tuple[Any, ...]) -> bool:
    """Whether ``args`` reach the positional parameter ``law`` of ``function``."""
    names = function.__code__.co_varnames[:function.__code__.co_argcount]
    return "law" in names and len(args) > names.index("law")


MAX_DIGITS = 10_000  # kMaxRationalDigits, core/rational.h
MAX_EXPONENT = 100_000  # kMaxDecimalExponent
MAX_INT_BITS = 33_220  # 2^33220 > 10^10000: an int of more bits has more than 10,000 digits
_SHORT = 4_000  # digits that str() / int() convert under Python's default limit (4,300)

# An exact rational as the C++ parser reads it: an integer, p/q, or a decimal with an exponent.
_NUMBER = re.compile(r"([+-]?)(?:(\d+)/(\d+)|(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)\Z", re.ASCII)


def _too_many_digits(name: str, digits: int) -> LimitError:
    return LimitError(f"{name}: {digits} digits is over the limit of {MAX_DIGITS} digits for an "
                      "exact rational parameter", name)


def int_text(name: str, value: int) -> str:
    """The decimal text of an int of at most 10,000 digits (LimitError naming ``name`` above,
    checked on its bits before any conversion), whatever Python's int-to-str digit limit."""
    if value.bit_length() > MAX_INT_BITS:
        raise LimitError(f"{name} has too many digits: at most {MAX_DIGITS} digits allowed", name)
    return decimal_int_text(value)


def int_shown(value: int) -> str:
    """An int for a message: its digits, or its digit count when str() would refuse it (Python's
    int-to-str limit of 4,300 digits would turn the message itself into a ValueError)."""
    if value.bit_length() <= 3 * _SHORT:
        return str(value)
    return f"an int of {len(decimal_int_text(abs(value)))} digits" if value.bit_length() <= MAX_INT_BITS \
        else f"an int of more than {MAX_DIGITS} digits"


def shown(value: object) -> str:
    """A value for a message as str() shows it, safe from Python's int-to-str limit: an int or a
    Fraction past it is shown by its digit count (str() would raise a bare ValueError instead)."""
    if isinstance(value, fractions.Fraction):
        if value.denominator == 1:
            return int_shown(value.numerator)
        return f"{int_shown(value.numerator)}/{int_shown(value.denominator)}"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int_shown(int(value))
    return str(value)


def count_text(name: str, value: "numbers.Integral | int") -> str:
    """An int option's decimal text for the operation that checks its range (steps, k, top, threads,
    contributions): LimitError naming ``name`` past 10,000 digits, whatever Python's str limit."""
    return int_text(name, int(value))


def decimal_int_text(value: int) -> str:
    """str(value) for an int of any size (a library output may exceed Python's str limit)."""
    if value.bit_length() <= 3 * _SHORT:  # under 3,700 digits
        return str(value)
    return format(decimal.Decimal(value), "f")  # exact, and not subject to the int-to-str limit


def fraction_text(value: fractions.Fraction) -> str:
    """str(value) ("p/q", or "n" for an integer) for a Fraction of any size."""
    num = decimal_int_text(value.numerator)
    return num if value.denominator == 1 else f"{num}/{decimal_int_text(value.denominator)}"


def int_from_text(text: str) -> int:
    """int(text) for a decimal integer text of any length (library outputs of 10,000 digits)."""
    if isinstance(text, int):
        return text
    if len(text) <= _SHORT:
        return int(text)
    with decimal.localcontext() as ctx:
        ctx.prec = len(text) + 2
        ctx.Emax = decimal.MAX_EMAX
        return int(decimal.Decimal(text))


def fraction_from_text(text: str) -> fractions.Fraction:
    """Fraction(text) for a library output (p, p/q or a decimal), digits of any count."""
    if "/" in text:
        num, den = text.split("/", 1)
        return fractions.Fraction(int_from_text(num), int_from_text(den))
    if len(text) <= _SHORT:
        return fractions.Fraction(text)
    return fractions.Fraction(*decimal.Decimal(text).as_integer_ratio())


def _check_exponent(name: str, exponent: int) -> None:
    if abs(exponent) > MAX_EXPONENT:
        raise LimitError(f"{name}: exponent {exponent} is over the limit: allowed |exponent| <= "
                         f"{MAX_EXPONENT}", name)


def parse_exact_text(name: str, text: str) -> fractions.Fraction:
    """The exact value of a text in the C++ parser's syntax, its limits checked before the value
    is built (ParameterError naming ``name`` for bad syntax or a zero denominator, LimitError
    for more than 10,000 digits or an exponent over 100,000)."""
    m = _NUMBER.match(text) if text.isascii() else None
    if m is None or (m.group(2) is None and not (m.group(4) or m.group(5))):
        raise ParameterError(f"{name} = {text[:40]!r} is not an exact rational: allowed an integer, "
                             "p/q or a decimal such as '0.25' or '1e-5'", name)
    sign, num, den, whole, frac, exp = m.groups()
    if num is not None:
        if len(num) + len(den) > MAX_DIGITS:
            raise _too_many_digits(name, len(num) + len(den))
        if int_from_text(den) == 0:
            raise ParameterError(f"{name} = {text[:40]!r}: the denominator is zero", name)
        value = fractions.Fraction(int_from_text(num), int_from_text(den))
    else:
        whole, frac = whole or "", frac or ""
        if len(whole) + len(frac) > MAX_DIGITS:
            raise _too_many_digits(name, len(whole) + len(frac))
        if exp is not None and len(exp.lstrip("+-").lstrip("0")) > 7:
            raise LimitError(f"{name}: the exponent in {text[:40]!r} is over the limit: allowed "
                             f"|exponent| <= {MAX_EXPONENT}", name)
        e = 0 if exp is None else int(exp)
        _check_exponent(name, e)
        e -= len(frac)
        mantissa = int_from_text(whole + frac or "0")
        value = fractions.Fraction(mantissa * 10**e) if e >= 0 else fractions.Fraction(mantissa, 10**-e)
    return -value if sign == "-" else value


def check_decimal(name: str, value: decimal.Decimal) -> None:
    """A finite Decimal within the library's limits (checked before format() or Fraction())."""
    if not value.is_finite():
        raise ParameterError(f"{name} = {value} is not a finite number", name)
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    if len(digits) > MAX_DIGITS:
        raise _too_many_digits(name, len(digits))
    _check_exponent(name, exponent)


def check_frame(name: str, frame: object) -> None:
    """A pandas DataFrame with unique column labels (ParameterError naming ``name`` otherwise:
    a dict, a list, duplicate labels)."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover
        raise ParameterError(f"{name}: a pandas DataFrame is needed (pandas is not installed)", name) from None
    if not isinstance(frame, pd.DataFrame):
        raise ParameterError(f"{name} must be a pandas DataFrame, not {type(frame).__name__}", name)
    if not frame.columns.is_unique:
        duplicated = list(frame.columns[frame.columns.duplicated()])[:5]
        raise ParameterError(f"{name}: the DataFrame has duplicate column labels {duplicated!r}: allowed "
                             "unique labels", name)


def exact_fraction(name: str, value: object) -> fractions.Fraction:
    """``value`` (int, Fraction, Decimal or str) as an exact Fraction, refused as ``exact_text``
    refuses it and with the library's limits checked before the value is expanded."""
    text = exact_text(name, value)
    if isinstance(value, fractions.Fraction):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, str):
        return fractions.Fraction(int(value))
    return parse_exact_text(name, text)


def exact_text(name: str, value: object) -> str:
    """The exact text of ``value`` for the C++ parser; ``name`` names it in errors."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise TypeError(f"{name}: a bool is not a number here; pass an int, Fraction, Decimal or str")
    if isinstance(value, float) or type(value).__name__ in ("float16", "float32", "float64", "longdouble"):
        raise float_refusal(name, value)
    if isinstance(value, str):
        if not value.isascii():
            raise ParameterError(f"{name} = {value[:40]!r} is not an exact rational: ASCII digits only", name)
        return value
    if isinstance(value, fractions.Fraction):
        return f"{int_text(name, value.numerator)}/{int_text(name, value.denominator)}"
    if isinstance(value, decimal.Decimal):
        check_decimal(name, value)
        sign, digits, exponent = value.as_tuple()
        return ("-" if sign else "") + "".join(map(str, digits)) + f"e{exponent}"
    if isinstance(value, numbers.Integral):
        return int_text(name, int(value))
    if isinstance(value, numbers.Real):  # a float-like type we do not know: same reason as float
        raise float_refusal(name, value)
    raise TypeError(
        f"{name}: expected an int, fractions.Fraction, decimal.Decimal or str, not {type(value).__name__}"
    )
