"""exactdp.release: exact noise for the columns of a pandas DataFrame, one certified guarantee.

    noised, guarantee = exactdp.release(df, columns=["count", "amount"], epsilon="1",
                                        law="discrete-laplace",
                                        sensitivity={"count": 1, "amount": 5},
                                        granularity={"amount": "0.01"})

The same release as ``exactdp release`` on the CSV of the same table (docs/RELEASE.md), done by
the C++ library (mechanisms/release/release_values.h: release_columns) through the extension
module, never the command line:

* the contribution model: a person contributes at most ``contributions`` records, each changing
  one row and, in it, column c's value by at most its sensitivity s_c. ``sensitivity`` and
  ``granularity`` are a scalar (every column) or a dict by column (columns it leaves out get
  sensitivity 1 and no grid); ``rounding`` likewise ("refuse" or "nearest").
* a column without a granularity is an **integer column**: its values must be integers, its
  sensitivity an integer >= 1, and it comes back as int64 (or, when a noisy value leaves int64,
  as an object column of Python ints), never as a decimal.
* a column with a granularity G (exact: int, Fraction, Decimal or str such as "0.01" or
  "1/1024"; denominator 2^a 5^b) holds decimals on the grid G Z: each value (int, Fraction,
  Decimal or str; a float only with rounding="nearest", by its exact binary value) is mapped to
  its grid index exactly, Delta_c = ceil(s_c / G) grid steps, and it comes back as an object
  column of **decimal.Decimal** with exactly G's number of decimal places (Decimal("12.30")),
  the text ``exactdp release`` prints: exact, since every grid point is a finite decimal.
* calibration per column (docs/RELEASE.md, "Per-column sensitivity and grid"): discrete Laplace
  scale C K Delta_c / epsilon, discrete Gaussian sigma2_c with rho = sum_c K^2 Delta_c^2 /
  (2 sigma2_c); the guarantee is certified (epsilon, delta upper ends <= the request).
* draws are made row by row, the noised columns in the DataFrame's column order (the CSV's
  header order), so with ``rng=SeededBits(seed)`` the result equals ``exactdp release --seed``
  on the same table (tests and demos only: a seeded release is not private).

Returns (a new DataFrame, the guarantee dict). Other columns and the index are copied as they are.
"""

from __future__ import annotations

import decimal
import numbers
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _exactdp
from ._convert import Exact, check_frame, count_text, exact_text, fraction_from_text, int_from_text, law_keyword
from ._errors import ParameterError
from .interval import Interval
from .results import ReleaseGuarantee
from .samplers import SeededBits

_INT64 = np.iinfo(np.int64)

DataFrame = Any  # a pandas DataFrame (pandas ships no type information here)
PerColumn = Union[None, Exact, Mapping[Any, Optional[Exact]]]  # one value for every column, or per column


def _per_column(name: str, value: Any, columns: List[str], default: Any) -> Dict[str, Any]:
    """A scalar for every column, or a dict by column (unknown keys refused, naming the column)."""
    if isinstance(value, Mapping):
        for key in value:
            if key not in columns:
                raise ParameterError(f"{name}: column {key!r} is not one of the noised columns {columns!r}", name)
        return {c: value.get(c, default) for c in columns}
    return {c: value for c in columns}


def _value_text(column: Any, value: Any, grid: bool, rounding: str) -> str:
    """One cell's exact text; floats only on a grid with rounding="nearest" (their exact value)."""
    if value is None or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        raise ParameterError(f"column {column!r}: a missing value (None/NaN) cannot be released", "values")
    if isinstance(value, (float, np.floating)):
        if not (grid and rounding == "nearest"):
            raise ParameterError(
                f"column {column!r}: the float {value!r} is refused ({'a float is not exact: give a granularity and rounding=nearest, or pass Decimal/str values' if grid else 'an integer column holds integers'})",
                "values")
        return "{}/{}".format(*value.as_integer_ratio())
    if not grid and not isinstance(value, numbers.Integral):
        raise ParameterError(f"column {column!r}: {value!r} is not an integer (give the column a granularity "
                             "for decimal values)", "values")
    try:
        return exact_text("values", value)
    except TypeError as e:
        raise ParameterError(f"column {column!r}: {e}", "values") from None


def _column_values(df: DataFrame, column: Any, grid: bool,
                   rounding: str) -> Union[List[str], "np.ndarray[Any, Any]"]:
    """A column as the library reads it: a numpy integer column as is (the integers it holds),
    a numpy float column on a grid with rounding="nearest" as float64 (the exact binary values it
    holds), no text in between; other columns as their cells' exact texts (decimal strings and
    Decimals exactly)."""
    series = df[column]
    if isinstance(series.dtype, np.dtype) and series.dtype.kind in "iu":  # widened exactly
        return np.ascontiguousarray(series.to_numpy(), dtype=np.uint64 if series.dtype.kind == "u" else np.int64)
    if _is_binary_float(series.dtype) and grid and rounding == "nearest":  # widened exactly to float64
        floats = np.ascontiguousarray(series.to_numpy(), dtype=np.float64)
        if np.isnan(floats).any():
            raise ParameterError(f"column {column!r}: a missing value (None/NaN) cannot be released", "values")
        if np.isinf(floats).any():
            raise ParameterError(f"column {column!r}: an infinite value cannot be released: allowed finite "
                                 "values", "values")
        return floats
    if series.dtype.kind == "b":
        raise ParameterError(f"column {column!r}: a bool column is not a number column", "values")
    return [_value_text(column, v, grid, rounding) for v in series.tolist()]


def _is_binary_float(dtype: Any) -> bool:
    """float16, float32 or float64: every value is exactly a float64 (not longdouble)."""
    return isinstance(dtype, np.dtype) and dtype.kind == "f" and dtype.itemsize <= 8


def _integer_result(texts: List[str]) -> "np.ndarray[Any, Any]":
    values = [int_from_text(t) for t in texts]
    if all(_INT64.min <= v <= _INT64.max for v in values):
        return np.array(values, dtype=np.int64)
    return np.array(values, dtype=object)


def _check_frame(df: DataFrame, columns: Any) -> List[Any]:
    import pandas as pd
    if not isinstance(df, pd.DataFrame):
        if hasattr(df, "map_partitions"):
            raise ParameterError("df: a Dask dataframe is released by exactdp.dask.release", "df")
        check_frame("df", df)  # a dict, a list, ...: ParameterError naming df
    if isinstance(columns, (str, bytes)) or not columns:
        raise ParameterError("columns: name at least one column to noise (a list of column labels)", "columns")
    columns = list(columns)
    if len(set(columns)) != len(columns):
        raise ParameterError(f"columns: a column is named twice in {columns!r}", "columns")
    if not df.columns.is_unique:
        raise ParameterError("df: the DataFrame has duplicate column labels", "df")
    for c in columns:
        if c not in df.columns:
            raise ParameterError(f"column {c!r} is not in the DataFrame", "columns")
    position = {c: i for i, c in enumerate(df.columns)}
    return sorted(columns, key=lambda c: position[c])  # draw order: the DataFrame's (the CSV header's)


def _guarantee(raw: Dict[str, Any], specs: List[Tuple[Optional[str], str, str]], columns: List[Any],
               contributions: int, hardened: bool) -> ReleaseGuarantee:
    name = raw["parameter_name"]
    per_column = []
    for c, (grid, rounding, s), p in zip(columns, specs, raw["column_parameters"]):
        entry = {"column": c, name: fraction_from_text(p), "sensitivity": s,
                 "granularity": None if grid is None else fraction_from_text(grid)}
        if grid is not None:
            entry["rounding"] = rounding
            entry["sensitivity_grid_steps"] = -((-fraction_from_text(s)) // fraction_from_text(grid))
        per_column.append(entry)
    out = {"mechanism": raw["mechanism"], "parameter_name": name, "route": raw["route"],
           "route_detail": raw["route_detail"], "contributions": contributions, "hardened": hardened,
           "columns": per_column, "cells": raw["cells"],
           "l1_sensitivity": int_from_text(raw["l1_sensitivity"]),
           "l2_sensitivity_squared": int_from_text(raw["l2_sensitivity_squared"]),
           "epsilon": Interval.from_text(raw["epsilon"]["lower"], raw["epsilon"]["upper"]),
           "delta": Interval.from_text(raw["delta"]["lower"], raw["delta"]["upper"]),
           "rho": None if raw["rho"] is None else fraction_from_text(raw["rho"]),
           "mu": None if raw["mu"] is None else Interval.from_text(raw["mu"]["lower"], raw["mu"]["upper"])}
    if hardened:
        out["tau_upper_per_cell"] = fraction_from_text(raw["tau_upper_per_cell"])
        out["hardened_charge"] = Interval.from_text(raw["hardened_charge"]["lower"], raw["hardened_charge"]["upper"])
    return ReleaseGuarantee.from_dict(out)


@law_keyword
def release(df: DataFrame, *, columns: Sequence[Any], epsilon: Exact, delta: Optional[Exact] = None,
            law: str = "discrete-gaussian", sensitivity: PerColumn = 1, granularity: PerColumn = None,
            rounding: Union[str, Mapping[Any, str]] = "refuse", contributions: int = 1,
            rng: Optional[SeededBits] = None, hardened: bool = False) -> Tuple[DataFrame, ReleaseGuarantee]:
    """Noises `columns` of the pandas DataFrame `df`; returns (noised DataFrame, guarantee).

    law: "discrete-gaussian" or "discrete-laplace" (``mechanism=`` is its deprecated old name).
    guarantee: mechanism (the law), route, route_detail, the contribution model, ``columns`` (per column:
    its label, its noise parameter sigma2 or scale as an exact Fraction in grid steps, its
    sensitivity, granularity, rounding and Delta in grid steps), the certified ``epsilon`` and
    ``delta`` Intervals (upper ends <= the request), ``rho`` (zCDP) and ``mu`` (GDP) where they
    hold, else None; hardened: the samplers' tau and the charge included in delta.
    ParameterError (naming the column where there is one) for bad options or values.
    """
    order = _check_frame(df, columns)
    if isinstance(contributions, bool) or not isinstance(contributions, numbers.Integral) or contributions < 1:
        raise ParameterError(f"contributions = {contributions!r}: allowed an integer >= 1", "contributions")
    if rng is not None and not isinstance(rng, SeededBits):
        raise TypeError("rng must be None (the OS CSPRNG) or an exactdp.SeededBits")
    grids = _per_column("granularity", granularity, order, None)
    sens = _per_column("sensitivity", sensitivity, order, 1)
    rounds = _per_column("rounding", rounding, order, "refuse")
    specs: List[Tuple[Optional[str], str, str]] = []
    values: List[Union[List[str], "np.ndarray[Any, Any]"]] = []
    for c in order:
        if rounds[c] not in ("refuse", "nearest"):
            raise ParameterError(f"column {c!r}: rounding = {rounds[c]!r}: allowed 'refuse' or 'nearest'", "rounding")
        grid = None if grids[c] is None else exact_text(f"granularity of column {c!r}", grids[c])
        specs.append((grid, rounds[c], exact_text(f"sensitivity of column {c!r}", sens[c])))
        values.append(_column_values(df, c, grid is not None, rounds[c]))
    try:
        noisy, raw = _exactdp._release_columns(
            law, exact_text("epsilon", epsilon), None if delta is None else exact_text("delta", delta),
            bool(hardened), count_text("contributions", contributions), values, specs, rng)
    except ParameterError as e:
        raise type(e)(_name_column(str(e), order), e.parameter) from None
    out = df.copy()
    for c, (grid, _, _), texts in zip(order, specs, noisy):
        out[c] = _integer_result(texts) if grid is None else np.array([decimal.Decimal(t) for t in texts], dtype=object)
    return out, _guarantee(raw, specs, order, int(contributions), bool(hardened))


def _name_column(message: str, order: List[Any]) -> str:
    """The library names a column by its index ("column 1"); say its label too."""
    import re
    m = re.search(r"column (\d+)", message)
    if m and int(m.group(1)) < len(order):
        return message.replace(m.group(0), f"column {order[int(m.group(1))]!r}", 1)
    return message
