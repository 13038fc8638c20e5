"""exactdp.dask.release: exact noise for a partitioned Dask dataframe, one guarantee.

    noised, guarantee = exactdp.dask.release(ddf, columns=["c"], law="discrete-gaussian",
                                             epsilon="1", delta="1e-6", sensitivity=1)

* Calibration and the certified guarantee are computed ONCE, on the client, by the same code as
  ``exactdp release`` (mechanisms/release/release_calibration.h; docs/RELEASE.md), so the
  guarantee is the single-machine release's: the same contribution model (a person contributes at
  most ``contributions`` records, each changing one row and each noised cell of it by at most
  ``sensitivity``, an integer), the same routes ("exact-profile" for one column and one
  contribution, else "zcdp" for the discrete Gaussian; "pure-dp-l1" for the discrete Laplace) and
  the same certified (epsilon, delta), rho-zCDP and mu-GDP where they hold.
* Noise is drawn on the workers, inside each partition's task, from the worker's own OS CSPRNG:
  no seed travels over the wire. With ``seed=`` (32 bytes; reproducible demos and tests ONLY)
  each partition derives its own stream, BLAKE2b(seed || partition index), so partitions never
  share noise and a rerun gives the same release.
* Retries: noise is drawn inside the task, so a retried task (worker lost) draws fresh noise for
  the same partition and only one result is ever kept and released. This is safe: the output
  holds exactly one noised copy of each cell, with noise of the calibrated law; a draw that was
  discarded never left the worker. (With seed=, a retry draws the same noise again.)
* Other columns are untouched; noised columns must be integer columns (exact discrete noise).
  Every cell is added exactly: a uint64 column stays uint64, other integer columns become
  int64, and a noised value that would leave that type is refused (ParameterError naming the
  column and the row) instead of wrapping.
"""

from __future__ import annotations

import hashlib
import os
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _exactdp, samplers
from ._errors import LimitError, ParameterError
from .interval import Interval
from .results import AggregateGuarantee, ReleaseGuarantee
from ._convert import Exact, decimal_int_text, exact_text, fraction_from_text, law_keyword

# The registry laws the release serves (mechanisms/release/release_calibration.h: release_laws).
MECHANISMS = tuple(_exactdp._release_laws())

DataFrame = Any  # a pandas or Dask dataframe (neither ships type information here)
# (key, rows, units, sums per value column, kept values per quantile column): a group's totals
Totals = List[Tuple[str, int, int, List[int], List[List[int]]]]


def _partition_seed(seed: bytes, index: int) -> bytes:
    return hashlib.blake2b(seed + index.to_bytes(8, "little"), digest_size=32).digest()


def _noise_partition(df: DataFrame, columns: List[str], mechanism: str, parameter: Tuple[str, str],
                     seed: Optional[bytes], release_id: str,
                     partition_info: Optional[Dict[str, Any]] = None) -> DataFrame:
    df = df.copy()
    rng = None
    if seed is not None:
        index = partition_info["number"] if partition_info else 0
        rng = samplers.SeededBits(_partition_seed(seed, index))
    name, value = parameter  # the law's noise parameter, e.g. ("sigma2", "9/4")
    for c in columns:
        noise = samplers.sample(mechanism, (len(df),), rng, False, None, **{name: value})
        df[c] = add_noise_exactly(df[c].to_numpy(), noise, c, df.index)
    return df


def _refuse(column: str, index: Any, row: int, value: int, noise: int, dtype: Any) -> None:
    raise ParameterError(
        f"column {column!r}, row {index[row]!r}: {value} + noise {decimal_int_text(noise)} = "
        f"{decimal_int_text(value + noise)} is outside "
        f"the range of the column's type {dtype} ({np.iinfo(dtype).min}..{np.iinfo(dtype).max}); "
        "nothing of the release was kept", column)


def add_noise_exactly(values: "np.ndarray[Any, Any]", noise: "np.ndarray[Any, Any]", column: str,
                      index: Any) -> "np.ndarray[Any, Any]":
    """values + noise, every cell exact: a uint64 column stays uint64, every other integer column
    becomes int64, and a cell whose noised value leaves that type is refused (ParameterError
    naming the column and the row), never wrapped."""
    dtype: Any = np.dtype(np.uint64) if values.dtype == np.uint64 else np.dtype(np.int64)
    if noise.dtype == object:  # a noise value beyond int64: Python ints, checked one by one
        info = np.iinfo(dtype)
        out = [int(v) + int(n) for v, n in zip(values.tolist(), noise.tolist())]
        for row, cell in enumerate(out):
            if not info.min <= cell <= info.max:
                _refuse(column, index, row, int(values[row]), int(noise[row]), dtype)
        return np.array(out, dtype=dtype)
    v: Any = values.astype(dtype)  # exact: every integer kind but uint64 fits in int64
    with np.errstate(over="ignore"):
        total = v + noise.astype(dtype)  # wraps modulo 2^64 where it overflows; detected below
    if dtype == np.uint64:
        bad = ((noise >= 0) & (total < v)) | ((noise < 0) & (total > v))
    else:
        bad = ((v > 0) & (noise > 0) & (total < 0)) | ((v < 0) & (noise < 0) & (total >= 0))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        _refuse(column, index, row, int(values[row]), int(noise[row]), dtype)
    result: "np.ndarray[Any, Any]" = total
    return result


@law_keyword
def calibrate(law: str, epsilon: Exact, delta: Optional[Exact], sensitivity: Exact, contributions: int = 1,
              columns: int = 1) -> ReleaseGuarantee:
    """The per-cell noise parameter and the certified guarantee of a release (on the client),
    exactly as ``exactdp release`` computes them for the same options. law: "discrete-gaussian"
    or "discrete-laplace" (``mechanism=`` is its deprecated old name)."""
    if law not in MECHANISMS:
        raise ValueError(f"law = {law!r}: allowed {', '.join(MECHANISMS)}")
    for name, value in (("contributions", contributions), ("columns", columns)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} = {value!r}: allowed an integer >= 1")
    return _calibration(law, epsilon, delta, sensitivity, contributions, columns, 1)


def _calibration(law: str, epsilon: Exact, delta: Optional[Exact], sensitivity: Exact, contributions: int,
                 columns: int, rows: int) -> ReleaseGuarantee:
    """calibrate's guarantee, after the release's draw-cost limit for `rows` rows (LimitError
    naming epsilon, as ``exactdp release`` and exactdp.release). The guarantee does not depend
    on the rows."""
    raw = _exactdp._release_calibration(
        law, exact_text("epsilon", epsilon), None if delta is None else exact_text("delta", delta),
        exact_text("sensitivity", sensitivity), contributions, columns, rows)
    name = raw["parameter_name"]
    return ReleaseGuarantee.from_dict({"mechanism": law, name: fraction_from_text(raw["parameter"]), "parameter": raw["parameter"],
            "parameter_name": name,
            "route": raw["route"], "route_detail": raw["route_detail"],
            "contributions": contributions, "columns": columns,
            "sensitivity": exact_text("sensitivity", sensitivity),
            "epsilon": Interval.from_text(raw["epsilon"]["lower"], raw["epsilon"]["upper"]),
            "delta": Interval.from_text(raw["delta"]["lower"], raw["delta"]["upper"]),
            "rho": None if raw["rho"] is None else fraction_from_text(raw["rho"]),
            "mu": None if raw["mu"] is None else Interval.from_text(raw["mu"]["lower"], raw["mu"]["upper"])})


# More rows than any release draws: a noise parameter whose draws this many rows pass is not
# limited at all (fewer than 1,000 digits: operations/draw_cost.h), so the rows need no count.
_UNLIMITED_ROWS = 2**40


def _check_draw_cost(ddf: DataFrame, law: str, epsilon: Exact, delta: Optional[Exact], sensitivity: Exact,
                     contributions: int, columns: int) -> None:
    """The release's draw-cost limit (LimitError naming epsilon, the text of ``exactdp release``),
    on the client before any partition draws. The rows are counted (one pass over ddf) only for
    a noise parameter long enough to be limited."""
    try:
        _calibration(law, epsilon, delta, sensitivity, contributions, columns, _UNLIMITED_ROWS)
    except LimitError:
        _calibration(law, epsilon, delta, sensitivity, contributions, columns, int(len(ddf)))


@law_keyword
def release(ddf: DataFrame, columns: List[str], law: str = "discrete-gaussian", epsilon: Exact = "1",
            delta: Optional[Exact] = None, sensitivity: Exact = 1, contributions: int = 1,
            seed: Optional[bytes] = None) -> Tuple[DataFrame, ReleaseGuarantee]:
    """Noises `columns` of the Dask dataframe `ddf`; returns (noised dataframe, guarantee).

    law: "discrete-gaussian" or "discrete-laplace" (``mechanism=`` is its deprecated old name).
    The guarantee dict (that of ``exactdp release`` with the same options): mechanism, route,
    the per-cell parameter (sigma2 or scale, exact), the contribution model, the certified
    ``epsilon`` and ``delta`` Intervals (upper ends <= the requested ones), ``rho`` (zCDP) and
    ``mu`` (GDP) where they hold, else None. ``delta`` is required for the discrete Gaussian.
    A pandas DataFrame is refused (ParameterError naming ddf): exactdp.release releases it.
    """
    if not hasattr(ddf, "map_partitions"):
        raise ParameterError(
            f"ddf: a {type(ddf).__name__} is not a Dask dataframe; release a pandas DataFrame with "
            "exactdp.release(df, columns=..., epsilon=..., ...) (the same release, per-column sensitivity "
            "and grid included), or wrap it with dask.dataframe.from_pandas", "ddf")
    for c in columns:
        if c not in ddf.columns:
            raise ValueError(f"column {c!r} is not in the dataframe")
        if ddf[c].dtype.kind not in "iu":
            raise TypeError(f"column {c!r} must hold integers for exact discrete noise (dtype {ddf[c].dtype})")
    if seed is not None and (not isinstance(seed, (bytes, bytearray)) or len(seed) != 32):
        raise ValueError("seed must be 32 bytes")
    if seed is not None:
        samplers.SeededBits(bytes(seed))  # refuses the all-zero seed (sodium_is_zero), naming seed
    if not columns:
        raise ValueError("columns: name at least one integer column to noise")
    g = calibrate(law, epsilon, delta, sensitivity, contributions, len(columns))
    _check_draw_cost(ddf, law, epsilon, delta, sensitivity, contributions, len(columns))
    parameter = (g.parameter_name, g.parameter)
    noised = ddf.map_partitions(_noise_partition, list(columns), law, parameter,
                                None if seed is None else bytes(seed),
                                # a fresh id per call: Dask names tasks by their arguments, so
                                # without it a second release could be served the first one's
                                # cached partitions instead of drawing new noise
                                os.urandom(16).hex(), meta=ddf._meta)
    return noised, g


# --- exactdp.dask.aggregate: `exactdp aggregate` on a Dask dataframe (docs/AGGREGATE.md, "From
# Python and Dask"). Every unit's records are brought into ONE partition by a shuffle on the
# unit's text, each partition is bounded on its worker (exact bounded totals per group key, Python
# ints), the totals are added exactly on the client, and ONE selection and noise step runs there
# with ONE guarantee: the single-machine release's (mechanisms/aggregate/aggregate_from_totals.h).

_UNIT_TEXT = "__exactdp_unit__"


def _aggregate_seed(seed: bytes, index: Optional[int]) -> bytes:
    """The substream of partition `index` (None: the client's selection and noise step)."""
    tail = b"select+noise" if index is None else index.to_bytes(8, "little")
    return hashlib.blake2b(seed + tail, digest_size=32, person=b"exactdp-aggregat").digest()


def _with_unit_text(df: DataFrame, privacy_unit: str) -> DataFrame:
    from ._aggregate import _missing, key_text
    texts = []
    for row, v in zip(df.index, df[privacy_unit].tolist()):
        if _missing(v):
            raise ParameterError(f"column {privacy_unit!r}, row {row!r}: a missing value (None/NaN)", privacy_unit)
        texts.append(key_text(v))
    return df.assign(**{_UNIT_TEXT: texts})


def _bound_partition(df: DataFrame, spec: Dict[str, Any], keys_csv: Optional[bytes], seed: Optional[bytes],
                     index: int, release_id: str) -> Tuple[Totals, Dict[Tuple[str, ...], Tuple[Any, ...]]]:
    from . import _aggregate as agg
    del release_id  # only makes the task names of two releases differ
    frame = df.drop(columns=[_UNIT_TEXT])
    records, originals = agg.records_columns(frame, spec, unit_texts=df[_UNIT_TEXT].tolist())
    rng = None if seed is None else samplers.SeededBits(_aggregate_seed(seed, index))
    return agg.call_with_texts(_exactdp._aggregate_bound_partition, spec, records, keys_csv, rng), originals


def _merge(parts: Sequence[Tuple[Totals, Dict[Tuple[str, ...], Tuple[Any, ...]]]]
           ) -> Tuple[Totals, Dict[Tuple[str, ...], Tuple[Any, ...]]]:
    """Exact sums of the partitions' totals per key (Python ints), each quantile's kept values of
    a key concatenated (exact: a unit's rows are all in one partition), and the group values."""
    merged: Dict[str, List[Any]] = {}
    originals: Dict[Tuple[str, ...], Tuple[Any, ...]] = {}
    for totals, values in parts:
        for texts, row in values.items():
            originals.setdefault(texts, row)
        for key, rows, units, sums, kept in totals:
            have = merged.get(key)
            if have is None:
                merged[key] = [rows, units, list(sums), [list(k) for k in kept]]
            else:
                have[0] += rows
                have[1] += units
                have[2] = [a + b for a, b in zip(have[2], sums)]
                for into, part in zip(have[3], kept):
                    into.extend(part)
    return [(k, v[0], v[1], v[2], v[3]) for k, v in merged.items()], originals


def bounded_totals(ddf: DataFrame, spec: Dict[str, Any], keys_csv: Optional[bytes], seed: Optional[bytes],
                   npartitions: Optional[int] = None,
                   shuffle: bool = True) -> Tuple[Totals, Dict[Tuple[str, ...], Tuple[Any, ...]]]:
    """The exact bounded totals [(key, rows, units, sums, kept values per quantile)] of the whole
    frame, and the group
    values: the records shuffled on the unit's text (every unit in ONE partition), each partition
    bounded on its worker, the totals added on the client. shuffle=False only for the test that
    shows what the shuffle prevents (a unit split over partitions is bounded, and counted, twice)."""
    import dask
    from ._aggregate import spec_columns
    columns = spec_columns(spec)
    privacy_unit = spec["privacy_unit"]
    meta = ddf._meta[columns].assign(**{_UNIT_TEXT: ddf._meta[privacy_unit].astype(object)})
    texts = ddf[columns].map_partitions(_with_unit_text, privacy_unit, meta=meta)
    if shuffle:
        texts = texts.shuffle(on=_UNIT_TEXT, npartitions=npartitions or ddf.npartitions)
    release_id = os.urandom(16).hex()
    delayed = dask.delayed
    tasks = [delayed(_bound_partition)(part, spec, keys_csv, seed, i, release_id)
             for i, part in enumerate(texts.to_delayed())]
    return _merge(dask.compute(*tasks))


@law_keyword
def aggregate(ddf: DataFrame, *, privacy_unit: str, group_by: Any, count: bool = False, count_units: bool = False,
              sum: Optional[Dict[str, Tuple[Any, Any]]] = None, mean: Optional[Dict[str, Tuple[Any, Any]]] = None,
              quantile: Optional[Dict[str, Tuple[Any, Any, Any]]] = None,
              epsilon: Exact, delta: Optional[Exact] = None, max_groups: Optional[int] = None,
              max_rows: Optional[int] = None,
              law: str = "discrete-laplace", split: Optional[Exact] = None, keys: Any = None,
              selection: Optional[str] = None, seed: Optional[bytes] = None,
              npartitions: Optional[int] = None) -> Tuple[DataFrame, AggregateGuarantee]:
    """exactdp.aggregate on the Dask dataframe `ddf`: the same options (law= included), table and guarantee.

    The records are shuffled on the privacy unit (so each unit's records are in one partition:
    the bounding needs all of them together), bounded per partition on the workers (their OS
    CSPRNG; no seed crosses the wire), merged exactly on the client, then selected and noised once.
    Quantiles: each partition sends every group's kept values (grid indices, one per kept row),
    concatenated on the client, so the quantile is the single-machine one (client memory: one
    Python int per kept row of a quantile column).
    seed= (32 bytes; demos and tests only) gives every partition its own substream
    BLAKE2b(seed || index) and the client's step another. npartitions: of the shuffle (default:
    ddf's). The table is a pandas DataFrame (it is small: one row per released group).
    """
    from . import _aggregate as agg
    if seed is not None and (not isinstance(seed, (bytes, bytearray)) or len(seed) != 32):
        raise ValueError("seed must be 32 bytes")
    if seed is not None:
        samplers.SeededBits(bytes(seed))  # refuses the all-zero seed, naming seed
    spec = agg.build_spec(privacy_unit=privacy_unit, group_by=group_by, epsilon=epsilon, delta=delta,
                          max_groups=max_groups, max_rows=max_rows, mechanism=law, split=split,
                          public_keys=keys is not None, selection=selection, count=count, count_units=count_units, sum=sum, mean=mean,
                          quantile=quantile)
    agg.frame_columns(ddf, spec)
    keys_bytes, key_originals = agg.keys_csv(keys, spec["group_by"])
    totals, originals = bounded_totals(ddf, spec, keys_bytes, None if seed is None else bytes(seed), npartitions)
    rng = None if seed is None else samplers.SeededBits(_aggregate_seed(bytes(seed), None))
    raw = agg.call(_exactdp._aggregate_from_totals, spec, totals, keys_bytes, rng)
    originals.update(key_originals)
    out = agg.table(raw, spec, originals, {g: ddf[g].dtype for g in spec["group_by"]})
    return out, agg.guarantee(raw["guarantee"], spec, len(out), len(key_originals), seed is not None)
