"""exactdp.aggregate hands the frame to the library as typed columns (int64 arrays, floats as
exact dyadics m 2^e, other values as exact decimal texts), not CSV: the release is the CSV
path's bit for bit with the same seed, over seeded mixed frames."""
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import exactdp  # noqa: E402
from exactdp import _aggregate as agg  # noqa: E402
from exactdp import _exactdp  # noqa: E402

SEED = bytes(range(32))


def mixed_frame(seed: int, n: int) -> "pd.DataFrame":
    rng = np.random.default_rng(seed)
    floats = np.array([0.1, 0.125, -0.125, 2.675, 1e-300, 7.5, 3.005, 0.30000000000000004, 1e30, -0.0])
    texts = ["1.25", "-3", "7.49", "7.5", "12", "0.0000001", "+2.50", "1/4"]
    regions = ["north", "a,b", 'say "hi"', "", "x"]
    return pd.DataFrame({
        "user": rng.integers(-5, 300, n),
        "region": [regions[i] for i in rng.integers(0, 5, n)],
        "year": rng.choice([2020.0, 2021.5, -1.0], n),
        "i32": rng.integers(-50, 50, n).astype(np.int32),
        "u64": rng.integers(0, 2**63, n, dtype=np.uint64) // np.uint64(2**40),
        "f": rng.choice(floats, n) * rng.choice([1.0, 3.0], n),
        "f32": rng.choice(floats[:4], n).astype(np.float32),
        "t": [texts[i] for i in rng.integers(0, 8, n)],
        "d": [Decimal(texts[i]) if i != 7 else Fraction(1, 4) for i in rng.integers(0, 8, n)],
        "ignored": np.zeros(n),
    })


OPTIONS = dict(privacy_unit="user", group_by=["region", "year"], count=True, count_units=True,
               sum={"i32": (-40, 40), "u64": ("0", "9000000")}, mean={"f": ("-2", "3.00"), "t": ("0", "7.5")},
               quantile={"f32": ("0", "1.0", ["1/2"]), "d": ("-5", "5.00", [Fraction(1, 3)])},
               epsilon=6, delta="1e-6", max_groups=2, max_rows=3)


def spec_of(public_keys=False, **options):
    kinds = {k: options.pop(k) for k in ("count", "count_units", "sum", "mean", "quantile") if k in options}
    return agg.build_spec(mechanism="discrete-laplace", split=None, public_keys=public_keys,
                          max_groups=options.pop("max_groups"), max_rows=options.pop("max_rows"), **options, **kinds)


def both_paths(frame, spec, seed):
    csv_records, csv_originals = agg.records_csv(frame, spec)
    columns, originals = agg.records_columns(frame, spec)
    by_csv = _exactdp._aggregate_records(spec, csv_records, None, exactdp.SeededBits(seed))
    by_columns = _exactdp._aggregate_records(spec, columns, None, exactdp.SeededBits(seed))
    return by_csv, by_columns, csv_originals, originals


@pytest.mark.parametrize("seed", range(4))
def test_columns_give_the_csv_release_bit_for_bit(seed):
    frame = mixed_frame(seed, 3000)
    spec = spec_of(**OPTIONS)
    by_csv, by_columns, csv_originals, originals = both_paths(frame, spec, bytes([seed + 1]) * 32)
    assert by_columns["rows"] == by_csv["rows"] and len(by_csv["rows"]) > 3
    assert by_columns["header"] == by_csv["header"]
    assert originals == csv_originals
    kinds = {c[0]: c[1] for c in agg.records_columns(frame, spec)[0]}
    assert kinds == {"user": "int", "region": "text", "year": "text", "i32": "int", "u64": "int", "f": "dyadic",
                     "t": "text", "f32": "dyadic", "d": "text"}


def test_a_float_is_read_at_its_exact_binary_value():
    """0.1 is 0.1000000000000000055511151231257827021181583404541015625: on the grid 10^-17 it is
    10000000000000001 (the CSV path's exact decimal gives the same), not 10^16."""
    frame = pd.DataFrame({"user": np.arange(4), "g": ["a"] * 4, "v": [0.1, 0.1, 0.1, 2.675]})
    spec = spec_of(privacy_unit="user", group_by="g", sum={"v": ("0", "3.00000000000000000")}, epsilon=1,
                   delta="1e-6", max_groups=1, max_rows=1)
    columns, _ = agg.records_columns(frame, spec)
    totals = _exactdp._aggregate_bound_partition(spec, columns, None, exactdp.SeededBits(SEED))
    # 2.675 is 2.67499999999999982236431605997495353221893310546875: 267499999999999982 on the grid
    assert totals == [("a", 4, 4, [3 * 10000000000000001 + 267499999999999982], [])]
    csv_records, _ = agg.records_csv(frame, spec)
    assert _exactdp._aggregate_bound_partition(spec, csv_records, None, exactdp.SeededBits(SEED)) == totals


def test_the_public_function_and_dask_use_the_columns(monkeypatch):
    frame = mixed_frame(9, 2000)
    options = dict(OPTIONS, rng=exactdp.SeededBits(SEED))
    table, _ = exactdp.aggregate(frame, **options)
    monkeypatch.setattr(agg, "records_columns", agg.records_csv)  # the old path, same seed
    old, _ = exactdp.aggregate(frame, **dict(OPTIONS, rng=exactdp.SeededBits(SEED)))
    assert table.equals(old) and len(table) > 3


@pytest.mark.parametrize("column,bad", [("f", np.nan), ("t", None), ("region", None), ("d", float("nan")),
                                        ("year", np.nan)])
def test_a_missing_value_is_refused_naming_the_column(column, bad):
    frame = mixed_frame(1, 50)
    frame[column] = frame[column].astype(object)
    frame.loc[7, column] = bad
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.aggregate(frame, **dict(OPTIONS, rng=exactdp.SeededBits(SEED)))
    assert e.value.parameter == column and "row 7" in str(e.value) and "missing" in str(e.value)


def test_a_float_column_with_nan_or_inf_is_refused_before_the_library():
    frame = mixed_frame(2, 20)
    frame.loc[3, "f"] = np.inf
    with pytest.raises(exactdp.ParameterError, match="row 3: inf is not a finite number") as e:
        exactdp.aggregate(frame, **dict(OPTIONS, rng=exactdp.SeededBits(SEED)))
    assert e.value.parameter == "f"
    frame.loc[3, "f"] = np.nan
    with pytest.raises(exactdp.ParameterError, match="row 3: a missing value"):
        exactdp.aggregate(frame, **dict(OPTIONS, rng=exactdp.SeededBits(SEED)))


def test_a_bad_decimal_text_is_refused_naming_the_column():
    frame = mixed_frame(3, 20)
    frame.loc[5, "t"] = "12abc"
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.aggregate(frame, **dict(OPTIONS, rng=exactdp.SeededBits(SEED)))
    assert e.value.parameter == "t" and "row 5" in str(e.value)
