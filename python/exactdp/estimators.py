"""Private estimators of "The cost of privacy" (Cai, Wang and Zhang), exact on a power-of-two grid.

    private_max(v, epsilon=..., sensitivity=...)            Algorithm 1 (one noisy argmax of |v_j|
                                                            and the chosen value, noised again)
    peeling(v, sparsity=..., epsilon=..., delta=None, ...)  Algorithm 2 (top-s by PrivateMax)
    sparse_mean(x, sparsity=..., radius=..., epsilon=...)   Algorithm 3 (truncated mean, Peeling)
    dp_lasso(x, y, sparsity=..., ...)                       Algorithm 4 (private hard thresholding)
    noisy_ols(x, y, coordinate_bound=..., ...)              Section 4.3.1 (OLS + discrete Gaussian)

Data are numpy float64 arrays, read exactly (every float is a dyadic rational) and mapped to the grid 2^-k, or
pandas DataFrames / Series (and numpy arrays of other dtypes), whose columns are read directly: floats at their
exact binary value, ints, decimal strings, Decimal and Fraction exactly (the same result as the float64 array of
the same values); parameters are exact (int, Fraction, Decimal or str; a float is refused). Every
estimator returns ``(estimate, guarantee)``: ``estimate`` a float64 ndarray (the exact release,
rounded to nearest; ``guarantee["exact_estimate"]`` holds the exact Fractions), ``guarantee`` a
dict with ``epsilon`` / ``delta`` (the target), ``certified_epsilon`` (an Interval whose upper end
is <= epsilon, proven), ``composition`` (words), ``routes`` (each composition route's per-round
budget, the noise scale it needs and its certified epsilon; the one used first), ``budget_split``
and ``tuning`` (exact Fractions) and ``support``. docs/ESTIMATION.md has the algorithms, the
sensitivity proofs and the tuning defaults. rng: None (the OS CSPRNG) or an exactdp.SeededBits
(tests only).
"""

from __future__ import annotations

import numbers
import re
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _exactdp
from ._convert import Exact, exact_text, fraction_from_text, shown
from ._errors import ParameterError
from .interval import Interval
from .results import EstimatorGuarantee
from .samplers import SeededBits

__all__ = ["private_max", "peeling", "sparse_mean", "dp_lasso", "noisy_ols"]

_ROUTES = ("basic", "advanced", "kov")



def _array(name: str, value: Any, ndim: int) -> "np.ndarray[Any, Any]":
    if not isinstance(value, np.ndarray) and type(value).__module__.startswith("pandas") \
            and hasattr(value, "to_numpy"):  # a DataFrame / Series: its float64 columns, read as they are
        value = value.to_numpy()
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be a numpy float64 array (or a pandas DataFrame / Series of float64), "
                        f"not {type(value).__name__}")
    if value.dtype != np.float64:
        raise TypeError(f"{name}: dtype {value.dtype} is not supported: allowed float64")
    if value.ndim != ndim:
        raise ParameterError(f"{name} has {value.ndim} dimensions: allowed {ndim}", name)
    return np.ascontiguousarray(value)


def _optional(name: str, value: Any) -> str:
    return "" if value is None else exact_text(name, value)


def _count(name: str, value: Any, optional: bool = False) -> Optional[int]:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int")
    if int(value) < 1:
        raise ParameterError(f"{name} = {shown(value)} is out of range: allowed {name} >= 1", name)
    return int(value)


def _required_count(name: str, value: Any) -> int:
    count = _count(name, value)
    assert count is not None
    return count


def _route(route: Any) -> str:
    if route is None:
        return ""
    if route not in _ROUTES:
        raise ParameterError(f"route = {shown(route)[:40]!r} is not known: allowed basic, advanced, kov", "route")
    return str(route)


def _rng(rng: Any) -> Any:
    if rng is not None and not isinstance(rng, SeededBits):
        raise TypeError("rng must be None (the OS CSPRNG) or an exactdp.SeededBits")
    return rng


def _k(granularity_exponent: Any) -> Optional[int]:
    if granularity_exponent is None:
        return None
    if isinstance(granularity_exponent, bool) or not isinstance(granularity_exponent, numbers.Integral):
        raise TypeError("granularity_exponent must be None or an int")
    return int(granularity_exponent)


def _interval(d: Dict[str, str]) -> Interval:
    return Interval.from_text(d["lower"], d["upper"])


def _guarantee(raw: Dict[str, Any], exact: Optional[List[Fraction]] = None,
               support: Optional[List[int]] = None) -> EstimatorGuarantee:
    return EstimatorGuarantee.from_dict({
        "epsilon": fraction_from_text(raw["epsilon"]),
        "delta": None if raw["delta"] is None else fraction_from_text(raw["delta"]),
        "certified_epsilon": _interval(raw["certified_epsilon"]),
        "composition": raw["composition"],
        "routes": [{"route": r["route"], "epsilon_per_round": fraction_from_text(r["epsilon_per_round"]),
                    "noise_scale": fraction_from_text(r["noise_scale"]), "epsilon": _interval(r["epsilon"])}
                   for r in raw["routes"]],
        "budget_split": {k: fraction_from_text(v) for k, v in raw["budget_split"].items()},
        "tuning": {k: fraction_from_text(v) for k, v in raw["tuning"].items()},
        "exact_estimate": exact, "support": support,
    })


def _result(raw: Dict[str, Any]) -> Tuple["np.ndarray[Any, Any]", EstimatorGuarantee]:
    exact = [fraction_from_text(t) for t in raw["estimate"]]
    guarantee = _guarantee(raw["guarantee"], exact, list(raw["support"]))
    return np.array([float(q) for q in exact], dtype=np.float64), guarantee


def private_max(v: Any, *, epsilon: Exact, sensitivity: Exact,
                granularity_exponent: Optional[int] = None,
                rng: Optional[SeededBits] = None) -> Tuple[Tuple[int, Fraction], EstimatorGuarantee]:
    """Algorithm 1: the index j* of the noisy max of |v_j| and v_j* + fresh noise, epsilon-DP
    (pure: argmax 2/3 of it, value 1/3) when every v_j moves by <= sensitivity between
    neighbouring data sets. Returns ((index, value), guarantee) with value a Fraction. v: a float64
    array, or a pandas Series (or an array of another dtype) read exactly as a column (the same
    result as the float64 array of the same values)."""
    budget = (exact_text("epsilon", epsilon), exact_text("sensitivity", sensitivity), _k(granularity_exponent),
              _rng(rng))
    if _is_tabular(v):
        raw = _exactdp._private_max_columns(_columns("v", v, 1), *budget)
    else:
        raw = _exactdp._private_max(_array("v", v, 1), *budget)
    return (int(raw["index"]), fraction_from_text(raw["value"])), _guarantee(raw["guarantee"])


def peeling(v: Any, *, sparsity: int, epsilon: Exact, sensitivity: Exact,
            delta: Optional[Exact] = None, route: Optional[str] = None, granularity_exponent: Optional[int] = None,
            rng: Optional[SeededBits] = None) -> Tuple[Tuple[List[int], List[Fraction]], EstimatorGuarantee]:
    """Algorithm 2: the top-`sparsity` coordinates of |v| by repeated PrivateMax. route: None (kov
    with a delta, basic without), "basic", "advanced" (the paper's) or "kov". Returns
    ((indices, values), guarantee), values Fractions in the order chosen. v: as private_max's."""
    budget = (exact_text("epsilon", epsilon), _optional("delta", delta), _route(route),
              exact_text("sensitivity", sensitivity), _required_count("sparsity", sparsity), _k(granularity_exponent),
              _rng(rng))
    if _is_tabular(v):
        raw = _exactdp._peeling_columns(_columns("v", v, 1), *budget)
    else:
        raw = _exactdp._peeling(_array("v", v, 1), *budget)
    return (list(raw["indices"]), [fraction_from_text(t) for t in raw["values"]]), _guarantee(raw["guarantee"])


def _is_frame(value: Any) -> bool:
    return type(value).__module__.startswith("pandas") and hasattr(value, "columns")


# A decimal the library reads as it is (operations/estimate_input.h): such strings skip Python's
# exact conversion (about 4 us a value), which any other text (p/q, ...) goes through.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _decimal_texts(series: Any) -> Optional[List[str]]:
    """The column's values when every one is a str the library reads as a decimal, else None."""
    if series.dtype != object:
        return None
    values: List[Any] = series.tolist()
    if all(type(v) is str and _DECIMAL.fullmatch(v) for v in values):
        return [str(v) for v in values]
    return None


def _frame_columns(frame: Any, name: str = "x") -> List[Tuple[str, str, Any, Any]]:
    """A DataFrame's columns for the library without CSV text, as exactdp.aggregate hands them
    over: ints as int64, floats at their exact binary value, anything else (str, Decimal,
    Fraction) as its exact decimal; a missing or non-numeric value is refused naming `name`."""
    from ._aggregate import _column  # the same typed columns as exactdp.aggregate's
    names = [str(c) for c in frame.columns]
    if len(set(names)) != len(names):
        raise ParameterError(f"{name}: the DataFrame names a column twice: allowed each column once", name)
    out: List[Tuple[str, str, Any, Any]] = []
    for c, column_name in zip(frame.columns, names):
        texts = _decimal_texts(frame[c])
        if texts is not None:
            out.append((column_name, "text", texts, None))
            continue
        try:
            _, kind, values, exponents = _column(frame, c, key=False, value=True)
        except ParameterError as e:
            raise type(e)(str(e), name) from None
        out.append((column_name, kind, values, exponents))
    return out


def _is_series(value: Any) -> bool:
    return type(value).__module__.startswith("pandas") and hasattr(value, "to_frame") and not hasattr(value, "columns")


def _is_tabular(value: Any) -> bool:
    """Whether value is read as columns: a DataFrame, a Series, or a numpy array not of float64."""
    return _is_frame(value) or _is_series(value) or (isinstance(value, np.ndarray) and value.dtype != np.float64)


def _columns(name: str, value: Any, ndim: int) -> List[Tuple[str, str, Any, Any]]:
    """value's columns for the library (ndim 1: one column; 2: one per coordinate): a DataFrame's
    or Series' as they are; an array through pandas (its float64 values at their exact value)."""
    if not (_is_frame(value) or _is_series(value)):
        if not isinstance(value, np.ndarray):
            raise TypeError(f"{name} must be a numpy array or a pandas DataFrame / Series, not {type(value).__name__}")
        if value.ndim != ndim:
            raise ParameterError(f"{name} has {value.ndim} dimensions: allowed {ndim}", name)
        import pandas as pd  # an array of another dtype than float64 is read as columns
        value = pd.DataFrame(value) if ndim == 2 else pd.Series(value, name=name)
    if _is_series(value):
        if ndim != 1:
            raise ParameterError(f"{name} is a Series: allowed a DataFrame (one column per coordinate)", name)
        value = value.to_frame()
    elif ndim == 1:
        raise ParameterError(f"{name} is a DataFrame: allowed a Series or a 1-d array", name)
    return _frame_columns(value, name)


def sparse_mean(x: Any, *, sparsity: int, radius: Exact, epsilon: Exact,
                delta: Optional[Exact] = None, route: Optional[str] = None, granularity_exponent: Optional[int] = None,
                rng: Optional[SeededBits] = None) -> Tuple["np.ndarray[Any, Any]", EstimatorGuarantee]:
    """Algorithm 3: the s-sparse private mean of the rows of x (n x d), coordinates truncated at
    radius R (which must bound the data without looking at it). x: a float64 array, or a pandas
    DataFrame whose columns are read directly (one coordinate each: floats at their exact binary
    value, ints and decimal strings / Decimal / Fraction exactly; the same estimate as the array
    of the same values, as `exactdp estimate sparse-mean` gives for the same CSV)."""
    budget = (exact_text("epsilon", epsilon), _optional("delta", delta), _route(route), exact_text("radius", radius),
              _required_count("sparsity", sparsity), _k(granularity_exponent), _rng(rng))
    if _is_tabular(x):
        return _result(_exactdp._sparse_mean_columns(_columns("x", x, 2), *budget))
    return _result(_exactdp._sparse_mean(_array("x", x, 2), *budget))


def noisy_ols(x: Any, y: Any, *, coordinate_bound: Exact,
              response_bound: Exact, eigen_bound: Exact, epsilon: Exact, delta: Exact,
              granularity_exponent: Optional[int] = None,
              rng: Optional[SeededBits] = None) -> Tuple["np.ndarray[Any, Any]", EstimatorGuarantee]:
    """Section 4.3.1: exact OLS of the truncated data (|x_ij| <= coordinate_bound, |y_i| <=
    response_bound) plus exact discrete Gaussian noise; requires lambda_min(X^T X / n) >
    1 / eigen_bound (ParameterError naming design otherwise). x: a float64 array or a DataFrame (one
    column per coordinate), y: a float64 array or a Series; a DataFrame / Series is read exactly as
    columns (the same estimate as the float64 arrays of the same values)."""
    budget = (exact_text("epsilon", epsilon), exact_text("delta", delta),
              exact_text("coordinate_bound", coordinate_bound), exact_text("response_bound", response_bound),
              exact_text("eigen_bound", eigen_bound), _k(granularity_exponent), _rng(rng))
    if _is_tabular(x) or _is_tabular(y):
        return _result(_exactdp._noisy_ols_columns(_columns("x", x, 2), _columns("y", y, 1), *budget))
    return _result(_exactdp._noisy_ols(_array("x", x, 2), _array("y", y, 1), *budget))


def dp_lasso(x: Any, y: Any, *, sparsity: int, coordinate_bound: Exact,
             response_bound: Exact, coefficient_bound: Exact, epsilon: Exact, delta: Optional[Exact] = None,
             route: Optional[str] = None, iterations: Optional[int] = None, step_size: Exact = "1/2",
             granularity_exponent: Optional[int] = None,
             rng: Optional[SeededBits] = None) -> Tuple["np.ndarray[Any, Any]", EstimatorGuarantee]:
    """Algorithm 4: private iterative hard thresholding over `iterations` disjoint parts of the rows
    (default floor(log2 n)), step size eta (default 1/2), coefficients clamped at coefficient_bound.
    x, y: as noisy_ols'."""
    budget = (exact_text("epsilon", epsilon), _optional("delta", delta), _route(route),
              _required_count("sparsity", sparsity), _count("iterations", iterations, optional=True),
              exact_text("step_size", step_size), exact_text("coordinate_bound", coordinate_bound),
              exact_text("response_bound", response_bound), exact_text("coefficient_bound", coefficient_bound),
              _k(granularity_exponent), _rng(rng))
    if _is_tabular(x) or _is_tabular(y):
        return _result(_exactdp._dp_lasso_columns(_columns("x", x, 2), _columns("y", y, 1), *budget))
    return _result(_exactdp._dp_lasso(_array("x", x, 2), _array("y", y, 1), *budget))
