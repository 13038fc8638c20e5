"""exactdp.aggregate (this module is private; the function is exported by the package):
``exactdp aggregate`` (docs/AGGREGATE.md) on a pandas DataFrame.

    table, guarantee = exactdp.aggregate(df, privacy_unit="user", group_by=["region"], count=True,
                                         mean={"amount": ("0", "100.00")}, epsilon=1, delta="1e-6",
                                         max_groups=2, max_rows=3)

The C++ library does the work (mechanisms/aggregate/: bounding, selection, noise, guarantee),
never the CLI. The frame's needed columns are handed to it as typed columns, without CSV text
(records_columns; mechanisms/aggregate/aggregate_columns.h): numpy integer columns as int64
arrays, float values as exact dyadics m 2^e (every finite float is one), any other value as an
exact decimal text (Decimals as written, decimal and p/q texts at their exact value, ints as
ints), unit and group values as text. The release is the one ``exactdp aggregate`` makes of the
same values written exactly as CSV (records_csv, kept for that comparison): bit for bit with the
same seed.
Group values become text for the library (integers and integral floats as integers, other floats
by repr, text as is) and are mapped back, so the output's group-by columns keep their dtype.

Output: a DataFrame (group-by columns, then ``count``, ``count_units``, ``sum_COL``, ``mean_COL``,
``quantile_COL_Q`` in that order: every ``sum`` column in the dict's order, then every ``mean``
column, then every quantile column by column then q, in the dicts' orders; Q is q as the CLI
names it, e.g. ``quantile_x_0.5``): counts int64 (an object column of Python ints if one does not
fit), sums, means and quantiles ``decimal.Decimal`` exact with the CLI's digits (a sum and a
quantile with d decimals, a mean with d + 6, d from the bounds). The guarantee, an
exactdp.results.AggregateGuarantee, has the CLI's ``--json`` fields with exact types (Fraction,
Interval, int), each noise scale's unit, and the bounds left at their default.
"""

from __future__ import annotations

import csv
import decimal
import fractions
import numbers
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar

import numpy as np

from . import _convert, _exactdp
from ._convert import (Exact, law_keyword, check_decimal, check_frame, decimal_int_text, exact_text, fraction_from_text,
                       int_from_text, int_text, parse_exact_text)
from ._errors import LimitError, ParameterError
from .interval import Interval
from .results import AggregateGuarantee

# The aggregate kinds: (keyword, takes {column: (L, U)}). A new kind of the library is one line
# here and one in python/src/aggregate.cc (kKinds). quantile (``{column: (L, U, [q, ...])}``)
# is the one kind with a parameter: _quantile_outputs.
KINDS: Tuple[Tuple[str, bool], ...] = (("count", False), ("count_units", False), ("sum", True), ("mean", True))

DataFrame = Any  # a pandas DataFrame (pandas ships no type information here)
# {group texts as the library reads them: the first group-by values seen with those texts}
Originals = Dict[Tuple[str, ...], Tuple[Any, ...]]
_T = TypeVar("_T")

DEFAULT_BOUND = 1  # max_groups and max_rows when not given: one group and one row per privacy unit
_MAX_VALUE_DIGITS = 10_000  # the CSV reader's limit on a value cell (docs/AGGREGATE.md, Limits)


def _bound_text(name: str, value: Any) -> str:
    if isinstance(value, bool) or isinstance(value, (float, np.floating, fractions.Fraction)):
        raise TypeError(f"{name}: bounds are plain decimals whose written digits set the grid: pass "
                        f"an int, a str ('100.00') or a decimal.Decimal, not {type(value).__name__}")
    if isinstance(value, decimal.Decimal):
        check_decimal(name, value)  # before format() writes out its exponent
        return format(value, "f")
    if isinstance(value, numbers.Integral):
        return int_text(name, int(value))
    if isinstance(value, str):
        return value
    raise TypeError(f"{name}: expected an int, str or decimal.Decimal, not {type(value).__name__}")


def _bounds_pair(kind: str, column: str, pair: Any, bounds: Dict[str, str]) -> None:
    """Records column's "L,U" in bounds (one pair of bounds per column)."""
    text = f"{_bound_text(kind, pair[0])},{_bound_text(kind, pair[1])}"
    if bounds.setdefault(column, text) != text:
        raise ParameterError(f"column {column!r} is given two different bounds ({bounds[column]} and {text})",
                             "bounds")


def _quantile_outputs(given: Any, bounds: Dict[str, str]) -> List[Tuple[str, str, Optional[str]]]:
    """quantile={column: (L, U, [q, ...])}: one ("quantile", column, q text) per q, in order."""
    if not isinstance(given, dict):
        raise TypeError("quantile: expected a dict {column: (L, U, [q, ...])}")
    outputs: List[Tuple[str, str, Optional[str]]] = []
    for column, spec in given.items():
        if not isinstance(spec, (tuple, list)) or len(spec) != 3 or not isinstance(spec[2], (tuple, list)) \
                or not spec[2]:
            raise ParameterError(f"quantile[{column!r}] = {spec!r}: allowed a triple (L, U, [q, ...]) with at "
                                 "least one q", "quantile")
        _bounds_pair("quantile", column, spec, bounds)
        seen = set()
        for q in spec[2]:
            text = exact_text("quantile", q)
            try:  # the limits are checked before the value is built: LimitError passes through
                exact: Any = parse_exact_text("quantile", text)
            except LimitError:
                raise
            except ParameterError:  # not a rational: the library refuses it, naming quantile
                exact = text
            if exact in seen:  # two equal output columns
                raise ParameterError(f"quantile[{column!r}]: q = {q!r} is given twice", "quantile")
            seen.add(exact)
            outputs.append(("quantile", column, text))
    return outputs


def _value_options(options: Dict[str, Any]) -> Tuple[List[Tuple[str, str, Optional[str]]], List[Tuple[str, str]]]:
    """(outputs, bounds) of the spec: outputs as (kind, column, q text or None), bounds as
    (column, "L,U")."""
    outputs: List[Tuple[str, str, Optional[str]]] = []
    bounds: Dict[str, str] = {}
    for kind, with_columns in KINDS:
        given = options.get(kind)
        if not with_columns:
            if given:
                outputs.append((kind, "", None))
            continue
        if given is None:
            continue
        if not isinstance(given, dict):
            raise TypeError(f"{kind}: expected a dict {{column: (L, U)}}")
        for column, pair in given.items():
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ParameterError(f"{kind}[{column!r}] = {pair!r}: allowed a pair (L, U)", kind)
            _bounds_pair(kind, column, pair, bounds)
            outputs.append((kind, column, None))
    if options.get("quantile") is not None:
        outputs.extend(_quantile_outputs(options["quantile"], bounds))
    return outputs, list(bounds.items())


def _bounding_option(name: str, value: Any) -> int:
    """An int; its range (1..10^6) is the operation's check, the same as the command line's."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterError(f"{name} = {value!r} is out of range: allowed an integer 1 <= {name} <= 1000000", name)
    return int(value)


def build_spec(*, privacy_unit: str, group_by: Any, epsilon: Any, delta: Any, max_groups: Optional[int],
               max_rows: Optional[int],
               mechanism: str, split: Any, public_keys: bool, selection: Optional[str] = None,
               **kinds: Any) -> Dict[str, Any]:
    """The request of exactdp.aggregate / exactdp.dask.aggregate, checked by the library
    (validate_aggregate_request and the calibration) before any data is read."""
    group_by = [group_by] if isinstance(group_by, str) else list(group_by)
    for name in [privacy_unit, *group_by]:
        if not isinstance(name, str):
            raise TypeError(f"column names must be str, not {type(name).__name__} ({name!r})")
    if not isinstance(mechanism, str):
        raise TypeError("law must be a str")
    if selection is not None and not isinstance(selection, str):
        raise TypeError("selection must be a str")
    outputs, bounds = _value_options(kinds)
    spec = {"privacy_unit": privacy_unit, "group_by": group_by, "outputs": outputs, "bounds": bounds,
            "max_groups": _bounding_option("max_groups", DEFAULT_BOUND if max_groups is None else max_groups),
            "max_rows": _bounding_option("max_rows", DEFAULT_BOUND if max_rows is None else max_rows),
            # the bounds left at their default, said in the guarantee (not read by the library)
            "defaulted": [name for name, v in (("max_groups", max_groups), ("max_rows", max_rows)) if v is None],
            "mechanism": mechanism,
            "epsilon": exact_text("epsilon", epsilon),
            "delta": None if delta is None else exact_text("delta", delta),
            "split": None if split is None else exact_text("split", split), "public_keys": public_keys,
            "selection": selection}
    call(_exactdp._aggregate_guarantee, spec)  # every check that needs no data, now
    return spec


def call(function: Callable[..., _T], *args: Any) -> _T:
    """Calls the C++ core; a ParameterError's parameter is given its Python name (max_groups, ...)."""
    try:
        return function(*args)
    except ParameterError as e:
        name = e.parameter.replace("-", "_")
        if name == e.parameter:
            raise
        raise type(e)(str(e).replace(e.parameter, name), name) from None


def call_with_texts(function: Callable[..., _T], *args: Any) -> _T:
    """call() on typed columns: text that is not valid Unicode is refused as the CSV path refuses it."""
    try:
        return call(function, *args)
    except UnicodeEncodeError as e:
        raise ParameterError(f"text that is not valid Unicode ({e.reason}) in a unit or group value", "df") from None


def spec_columns(spec: Dict[str, Any]) -> List[str]:
    """The columns the records CSV holds: the unit, the group-by columns, the value columns."""
    out: List[str] = []
    for c in [spec["privacy_unit"], *spec["group_by"], *(c for c, _ in spec["bounds"])]:
        if c not in out:
            out.append(c)
    return out


def frame_columns(frame: Any, spec: Dict[str, Any]) -> List[str]:
    """spec_columns(spec), each one a column of `frame` (pandas or Dask), else ParameterError."""
    columns = spec_columns(spec)
    for c in columns:
        if c not in frame.columns:
            raise ParameterError(f"column {c!r} is not in the dataframe", c)
    return columns


def _quote(text: str) -> str:
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def key_text(value: Any) -> str:
    """A unit or group value as the library's text: equal numbers give equal text."""
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, numbers.Integral):
        return decimal_int_text(int(value))
    if isinstance(value, (float, np.floating)):
        return str(int(value)) if float(value).is_integer() else repr(float(value))
    return str(value)


def _missing(value: Any) -> bool:
    """None, NaN, NaT or pd.NA."""
    if value is None:
        return True
    try:
        import pandas as pd
        result = pd.isna(value)
    except ImportError:  # pragma: no cover (pandas is what gives the frames)
        return bool(value != value)
    return bool(result) if isinstance(result, (bool, np.bool_)) else False


def _scaled_decimal(n: int, k: int) -> str:
    """n / 10^k as a plain decimal, exactly (built from text: no context rounding)."""
    return format(decimal.Decimal(f"{n}e-{k}"), "f")


def _exact_decimal(column: str, row: Any, value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"column {column!r}, row {row!r}: a bool is not a value to sum")
    if isinstance(value, numbers.Integral):
        if int(value).bit_length() > _convert.MAX_INT_BITS:  # checked before any conversion
            raise LimitError(f"column {column!r}, row {row!r}: over {_MAX_VALUE_DIGITS} digits", column)
        return decimal_int_text(int(value))
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            raise ParameterError(f"column {column!r}, row {row!r}: {value} is not a finite number", column)
        if isinstance(value, (float, np.float32, np.float16)):  # widening to float is exact
            return format(decimal.Decimal(float(value)), "f")  # Decimal(float) is exact
        num, den = value.as_integer_ratio()  # den = 2^k: num 5^k / 10^k, exact for every width
        k = den.bit_length() - 1
        return _scaled_decimal(num * 5**k, k)
    if isinstance(value, fractions.Fraction):
        if value.numerator.bit_length() + value.denominator.bit_length() > _convert.MAX_INT_BITS:
            raise LimitError(f"column {column!r}, row {row!r}: over {_MAX_VALUE_DIGITS} digits", column)
        den, k2, k5 = value.denominator, 0, 0
        while den % 2 == 0:
            den, k2 = den // 2, k2 + 1
        while den % 5 == 0:
            den, k5 = den // 5, k5 + 1
        if den != 1:
            raise ParameterError(f"column {column!r}, row {row!r}: {value} has no finite decimal expansion", column)
        k = max(k2, k5)
        return _scaled_decimal(value.numerator * 10**k // value.denominator, k)
    if isinstance(value, str):  # an exact decimal (or p/q) as text, its limits checked before expansion
        try:
            exact = parse_exact_text(column, value)
        except ParameterError as e:
            raise type(e)(f"column {column!r}, row {row!r}: {e}", column) from None
        return _exact_decimal(column, row, exact)
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ParameterError(f"column {column!r}, row {row!r}: {value} is not a finite number", column)
        _, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        if (len(digits) + exponent if exponent > 0 else max(len(digits), -exponent)) > _MAX_VALUE_DIGITS + 1:
            # format() would write every digit of the exponent
            raise LimitError(f"column {column!r}, row {row!r}: over {_MAX_VALUE_DIGITS} digits", column)
        return format(value, "f")
    raise TypeError(f"column {column!r}, row {row!r}: expected a number, not {type(value).__name__}")


def _cells(frame: DataFrame, column: str, exact: bool) -> List[str]:
    series = frame[column]
    values = series.tolist()
    index = series.index
    numpy_dtype = isinstance(series.dtype, np.dtype)
    if numpy_dtype and series.dtype.kind in "iu":  # numpy ints: no missing value
        return [str(v) for v in values]
    missing = series.isna().to_numpy()
    if missing.any():
        row = index[int(np.flatnonzero(missing)[0])]
        raise ParameterError(f"column {column!r}, row {row!r}: a missing value (None/NaN)", column)
    if exact and numpy_dtype and series.dtype in (np.float64, np.float32, np.float16):
        finite = np.isfinite(series.to_numpy())
        if not finite.all():
            row = int(np.flatnonzero(~finite)[0])
            raise ParameterError(f"column {column!r}, row {index[row]!r}: {values[row]} is not a finite number", column)
        return [format(decimal.Decimal(v), "f") for v in values]  # tolist gave floats: Decimal is exact
    if not exact:
        return [_quote(v) if type(v) is str else _quote(key_text(v)) for v in values]
    out = []
    for i, v in enumerate(values):
        text = _exact_decimal(column, index[i], v)
        if len(text) > _MAX_VALUE_DIGITS:
            raise LimitError(f"column {column!r}, row {index[i]!r}: over {_MAX_VALUE_DIGITS} digits", column)
        out.append(text)
    return out


def records_csv(frame: DataFrame, spec: Dict[str, Any],
                unit_texts: Optional[Sequence[str]] = None) -> Tuple[bytes, Originals]:
    """The frame's needed columns as exact CSV bytes, and {group text tuple: first value tuple}.
    `unit_texts` (the Dask path): the privacy unit's texts, already made."""
    check_frame("df", frame)
    columns = frame_columns(frame, spec)
    values = {c for c, _ in spec["bounds"]}
    cells = {c: _cells(frame, c, exact=c in values and c not in [spec["privacy_unit"], *spec["group_by"]])
             for c in columns if not (unit_texts is not None and c == spec["privacy_unit"])}
    if unit_texts is not None:
        cells[spec["privacy_unit"]] = [_quote(t) for t in unit_texts]
    for c in values & set([spec["privacy_unit"], *spec["group_by"]]):  # a key column also summed
        cells[c] = _cells(frame, c, exact=True)
    lines = [",".join(_quote(c) for c in columns)]
    lines.extend(",".join(row) for row in zip(*(cells[c] for c in columns)))
    originals: Originals = {}
    group_values = [frame[g].tolist() for g in spec["group_by"]]
    for texts, row in zip(zip(*(cells[g] for g in spec["group_by"])), zip(*group_values)):
        originals.setdefault(texts, row)
    return _utf8("\n".join(lines) + "\n"), originals


def _int64_values(series: Any) -> Optional[Any]:
    """A numpy integer column as int64 (exact), else None (uint64 past 2^63 - 1 included)."""
    if not isinstance(series.dtype, np.dtype) or series.dtype.kind not in "iu":
        return None
    values = series.to_numpy()
    if series.dtype == np.uint64 and len(values) and int(values.max()) > np.iinfo(np.int64).max:
        return None
    return values.astype(np.int64, copy=False)


def _dyadic_values(frame: DataFrame, column: str) -> Optional[Tuple[Any, Any]]:
    """A numpy float column as (m, e) int arrays, value m 2^e exactly (frexp's fraction times
    2^53 is an integer for every float up to float64), else None. Missing and non-finite values
    are refused naming the column, as the CSV path refuses them."""
    series = frame[column]
    if series.dtype not in (np.float64, np.float32, np.float16):
        return None
    values = series.to_numpy().astype(np.float64)  # widening is exact
    missing = np.isnan(values)
    if missing.any():
        row = series.index[int(np.flatnonzero(missing)[0])]
        raise ParameterError(f"column {column!r}, row {row!r}: a missing value (None/NaN)", column)
    finite = np.isfinite(values)
    if not finite.all():
        row = int(np.flatnonzero(~finite)[0])
        raise ParameterError(f"column {column!r}, row {series.index[row]!r}: {values[row]} is not a finite number",
                             column)
    fraction, exponent = np.frexp(values)
    return np.ldexp(fraction, 53).astype(np.int64), exponent.astype(np.int32) - 53


def _unquoted(cells: List[str]) -> List[str]:
    """The values of _cells' CSV texts (only a text with a quote, comma or line end is quoted)."""
    return [c[1:-1].replace('""', '"') if c.startswith('"') else c for c in cells]


def _column(frame: DataFrame, column: str, key: bool, value: bool) -> Tuple[str, str, Any, Any]:
    """One column for the library (aggregate_columns.h): ints as int64, a value's floats as exact
    dyadics, anything else as the texts the CSV path writes (exact decimals for a value)."""
    ints = _int64_values(frame[column])
    if ints is not None:
        return column, "int", ints, None
    if value and not key:
        dyadic = _dyadic_values(frame, column)
        if dyadic is not None:
            return column, "dyadic", dyadic[0], dyadic[1]
    return column, "text", _unquoted(_cells(frame, column, exact=value)), None


def records_columns(frame: DataFrame, spec: Dict[str, Any],
                    unit_texts: Optional[Sequence[str]] = None) -> Tuple[List[Tuple[str, str, Any, Any]], Originals]:
    """The frame's needed columns for the library without CSV text (the same values as
    records_csv: the release is bit for bit the same), and {group text tuple: first value tuple}.
    `unit_texts` (the Dask path): the privacy unit's texts, already made."""
    check_frame("df", frame)
    columns = frame_columns(frame, spec)
    values = {c for c, _ in spec["bounds"]}
    keys = {spec["privacy_unit"], *spec["group_by"]}
    out = []
    for c in columns:
        if unit_texts is not None and c == spec["privacy_unit"] and c not in values:
            out.append((c, "text", list(unit_texts), None))
        else:
            out.append(_column(frame, c, key=c in keys, value=c in values))
    return out, _group_originals(frame, spec["group_by"], {c[0]: c for c in out})


def _group_originals(frame: DataFrame, group_by: List[str], columns: Dict[str, Tuple[str, str, Any, Any]]
                     ) -> Originals:
    """{group text tuple as the output quotes it: the first value tuple with those texts}, from
    the first row of each distinct tuple of the library's group columns (ints or texts)."""
    import pandas as pd
    if not group_by or len(frame) == 0:
        return {}
    identity = pd.DataFrame({i: columns[g][2] for i, g in enumerate(group_by)})
    rows = np.flatnonzero(~identity.duplicated().to_numpy())
    texts = [[str(v) for v in columns[g][2][rows].tolist()] if columns[g][1] == "int" else
             [columns[g][2][i] for i in rows] for g in group_by]
    group_values = [frame[g].iloc[rows].tolist() for g in group_by]
    originals: Originals = {}
    for text, row in zip(zip(*texts), zip(*group_values)):
        originals.setdefault(tuple(_quote(t) for t in text), row)
    return originals


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ParameterError(f"text that is not valid Unicode ({e.reason}) in a unit or group value", "df") from None


def keys_csv(keys: Any, group_by: List[str]) -> Tuple[Optional[bytes], Originals]:
    """The public keys as a CSV (DataFrame with the group-by columns, or a list of tuples; a
    list of scalars with one group-by column) and {group text tuple: key value tuple}."""
    if keys is None:
        return None, {}
    if hasattr(keys, "columns"):
        check_frame("keys", keys)
        for g in group_by:
            if g not in keys.columns:
                raise ParameterError(f"keys: no column {g!r}", "keys")
        rows = list(zip(*(keys[g].tolist() for g in group_by)))
    else:
        rows = [tuple(k) if isinstance(k, (tuple, list)) else (k,) for k in keys]
    originals: Originals = {}
    lines = [",".join(_quote(g) for g in group_by)]
    for k in rows:
        if len(k) != len(group_by) or any(_missing(v) for v in k):
            raise ParameterError(f"keys: {k!r} is not a key of {len(group_by)} non-missing value(s)", "keys")
        texts = tuple(_quote(key_text(v)) for v in k)
        originals.setdefault(texts, k)
        lines.append(",".join(texts) if len(texts) > 1 or texts[0] else '""')
    return _utf8("\n".join(lines) + "\n"), originals


def _parse_csv_line(line: str) -> List[str]:
    return next(csv.reader([line], strict=True))


def table(raw: Dict[str, Any], spec: Dict[str, Any], originals: Originals, dtypes: Dict[str, Any]) -> DataFrame:
    """The released table as a typed DataFrame."""
    import pandas as pd
    names = _parse_csv_line(raw["header"])
    k = len(spec["group_by"])
    rows = [_parse_csv_line(r) for r in raw["rows"]]
    data: Dict[int, Any] = {}
    columns = []
    for j, name in enumerate(names):
        if j < k:
            col = pd.Series([originals[tuple(_quote(t) for t in r[:k])][j] for r in rows], dtype=object)
            try:
                col = col.astype(dtypes[name]) if name in dtypes else col
            except (TypeError, ValueError):
                pass
        elif name in ("count", "count_units"):
            ints = [int_from_text(r[j]) for r in rows]
            fits = all(-2**63 <= v < 2**63 for v in ints)
            col = pd.Series(ints, dtype=np.int64 if fits else object)
        else:
            col = pd.Series([decimal.Decimal(r[j]) for r in rows], dtype=object)
        columns.append(name)
        data[j] = col
    frame = pd.DataFrame({j: data[j] for j in range(len(names))})
    frame.columns = columns
    return frame


def check_rng(rng: Any) -> None:
    if rng is not None and not isinstance(rng, _exactdp.SeededBits):
        raise TypeError(f"rng: expected None or an exactdp.SeededBits, not {type(rng).__name__}")


def _q(text: Optional[str]) -> Optional[fractions.Fraction]:
    return None if text is None else fraction_from_text(text)


def _int(value: Any) -> int:
    return int_from_text(value) if isinstance(value, str) else int(value)


def _interval(d: Dict[str, str]) -> Interval:
    return Interval.from_text(d["lower"], d["upper"])


def _with_units(quantity: Dict[str, Any]) -> Dict[str, Any]:
    """A quantity's noise in its own units too: a count's in rows (count) or privacy units
    (count_units); a sum's (and a mean's ``centred_sum_COL``: the kept values minus ``centre``, the
    bounds' midpoint on the grid) is in grid steps of its bounds (``grid``), and ``scale_in_units`` /
    ``sigma2_in_units`` give it in the column's units (scale G, sigma2 G^2), as the CLI prints it."""
    name = quantity["quantity"]
    grid = quantity.pop("grid", None)
    if grid is None:
        quantity["unit"] = "privacy units" if name == "count_units" else "rows"
        return quantity
    step = fraction_from_text(grid)
    prefix = next((p for p in ("sum_", "centred_sum_") if name.startswith(p)), "")
    column = name[len(prefix):]
    k = len(decimal_int_text(step.denominator)) - 1  # the grid is 10^-d (a bound's written digits)
    text = _scaled_decimal(step.numerator * 10**k // step.denominator, k) if 10**k % step.denominator == 0 else str(step)
    quantity.update(grid=step, unit=f"grid steps of {text} in {column}'s units")
    if "scale" in quantity:
        quantity["scale_in_units"] = quantity["scale"] * step
    if "sigma2" in quantity:
        quantity["sigma2_in_units"] = quantity["sigma2"] * step * step
    return quantity


def guarantee(raw: Dict[str, Any], spec: Dict[str, Any], released: int, keys: int,
              seeded: bool) -> AggregateGuarantee:
    """The CLI's --json guarantee with exact types (docs/AGGREGATE.md, "Report")."""
    g = raw
    if g["selection"] is None:
        selection: Dict[str, Any] = {"method": "public keys: every key released, none selected from the data",
                                     "keys": keys}
    else:
        s = g["selection"]
        selection = {"selection": s["selection"], "epsilon": _q(s["epsilon"]),
                     "delta_requested": _q(s["delta_requested"]), "released_groups": released}
        if s["selection"] == "optimal":
            bound = fraction_from_text(s["delta_bound"])
            selection.update({"method": "optimal: each group released with probability p(units) (exact Bernoulli)",
                              "delta": Interval(bound, bound), "epsilon_per_group": _q(s["epsilon_per_group"]),
                              "delta_per_group": _q(s["delta_per_group"]), "table_entries": s["table_entries"],
                              "table_bits": s["table_bits"], "saturation_units": s["saturation_units"]})
        else:
            selection.update({"method": "threshold: units + discrete Laplace noise >= tau",
                              "delta": _interval(s["delta"]), "scale": _q(s["scale"]),
                              "threshold": _int(s["threshold"])})
    integers: Tuple[str, ...] = ("sensitivity_per_group", "l1_sensitivity", "l2_sensitivity_squared")
    rationals: Tuple[str, ...] = ("sigma2", "sigma2_zcdp_split", "rho_zcdp", "scale", "epsilon", "centre")
    quantities = [_with_units({key: _int(v) if key in integers else _q(v) if key in rationals else v
                               for key, v in q.items()}) for q in g["quantities"]]
    integers = ("candidates", "score_sensitivity_per_group")
    rationals = ("q", "epsilon_per_group", "rho_zcdp")
    quantiles = [{key: _int(v) if key in integers else _q(v) if key in rationals else v for key, v in q.items()}
                 for q in g["quantiles"]]
    return AggregateGuarantee.from_dict({
        "mechanism": g["mechanism"],
        "requested": {"epsilon": _q(g["requested_epsilon"]), "delta": _q(g["requested_delta"])},
        "epsilon": _q(g["epsilon"]), "epsilon_is_exact": g["epsilon_is_exact"], "delta": _q(g["delta"]),
        "neighbouring": "add or remove one privacy unit with all its records",
        "bounding": {"privacy_unit": spec["privacy_unit"], "max_groups": spec["max_groups"],
                     "max_rows": spec["max_rows"], "defaulted": list(spec.get("defaulted", [])),
                     "method": "exact reservoir sampling (Algorithm R) with the CSPRNG, per unit"},
        "split": _q(g["split"]), "partition_selection": selection,
        "aggregates_epsilon": _q(g["aggregates_epsilon"]), "aggregates_delta": _q(g["aggregates_delta"]),
        "aggregates_epsilon_certified": _interval(g["aggregates_epsilon_certified"]),
        "aggregates_route": g["aggregates_route"],
        "aggregates_delta_certified": None if g.get("aggregates_delta_certified") is None
        else _interval(g["aggregates_delta_certified"]),
        "composition": "basic (adaptive) composition of selection and aggregates",
        "quantities": quantities, "quantiles": quantiles, "released_groups": released,
        "randomness": "seeded ChaCha20 (reproducible demo: NOT private)" if seeded else "OS CSPRNG",
    })


@law_keyword
def aggregate(df: DataFrame, *, privacy_unit: str, group_by: Any, count: bool = False, count_units: bool = False,
              sum: Optional[Dict[str, Tuple[Any, Any]]] = None, mean: Optional[Dict[str, Tuple[Any, Any]]] = None,
              quantile: Optional[Dict[str, Tuple[Any, Any, Sequence[Any]]]] = None,
              epsilon: Exact, delta: Optional[Exact] = None, max_groups: Optional[int] = None,
              max_rows: Optional[int] = None,
              law: str = "discrete-laplace", split: Optional[Exact] = None, keys: Any = None,
              selection: Optional[str] = None, rng: Optional[_exactdp.SeededBits] = None
              ) -> Tuple[DataFrame, AggregateGuarantee]:
    """Releases counts, sums, means and quantiles per group of the pandas DataFrame `df` with unit-level DP
    (``exactdp aggregate``, docs/AGGREGATE.md); returns (table, guarantee).

    privacy_unit: the column of the person; group_by: a column name or a list of them.
    count / count_units: noisy kept rows / units per group. sum / mean: {column: (L, U)} with
    L, U plain decimals (int, str or Decimal; their written digits set the grid, e.g. ("0",
    "100.00") gives 0.01); a mean's sum is centred on the bounds' midpoint (its noise follows
    (U - L) / 2 per row, the guarantee's ``centred_sum_COL``). quantile: {column: (L, U, [q, ...])}: a private q-quantile of the
    column per group for each q (exact: int, Fraction, Decimal or str; 0 <= q <= 1) by the
    exponential mechanism on the bounds' grid (at most 100000 points). epsilon, delta, split: exact numbers (no float). max_groups (L0) and
    max_rows (Linf): the contribution bounds (default 1 each: every unit keeps one row in one group;
    the guarantee's ``bounding["defaulted"]`` names the bounds left at that default). law: "discrete-laplace" or
    "discrete-gaussian" (``mechanism=`` is its deprecated old name). keys: the public groups (a
    DataFrame with the group-by columns or a list of tuples): exactly these are released, in that order, and no partition selection runs.
    selection: without keys, "optimal" (the exact optimal partition selection; the default) or
    "threshold" (a discrete Laplace count against a threshold); refused with keys.
    rng: None (the OS CSPRNG) or an exactdp.SeededBits (demos and tests only).
    Bad input: ParameterError naming the argument; TypeError for a float parameter.
    """
    check_rng(rng)
    spec = build_spec(privacy_unit=privacy_unit, group_by=group_by, epsilon=epsilon, delta=delta,
                      max_groups=max_groups, max_rows=max_rows, mechanism=law, split=split,
                      public_keys=keys is not None, selection=selection, count=count, count_units=count_units, sum=sum, mean=mean,
                      quantile=quantile)
    records, originals = records_columns(df, spec)
    keys_bytes, key_originals = keys_csv(keys, spec["group_by"])
    raw = call_with_texts(_exactdp._aggregate_records, spec, records, keys_bytes, rng)
    originals.update(key_originals)
    dtypes = {g: df[g].dtype for g in spec["group_by"]}
    out = table(raw, spec, originals, dtypes)
    return out, guarantee(raw["guarantee"], spec, len(out), len(key_originals), rng is not None)
