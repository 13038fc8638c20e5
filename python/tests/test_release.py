"""exactdp.release on a pandas DataFrame: per-column sensitivity and grid, integer columns stay
integers next to decimal ones, the guarantee certified within the budget, the same noisy table
as `exactdp release --seed` (the program as the test oracle only), and exactdp.dask.release
refusing a pandas frame."""

import csv
import io
import subprocess
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import exactdp

pd = pytest.importorskip("pandas")

SEED_HEX = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def frame():
    return pd.DataFrame({"region": ["north", "south", "east"], "count": np.array([76, 3, 0], dtype=np.int64),
                         "amount": [Decimal("12.30"), Decimal("0.05"), Decimal("-1.50")]})


def test_integer_column_stays_integer_next_to_a_decimal_one():
    out, g = exactdp.release(frame(), columns=["count", "amount"], epsilon="1", mechanism="discrete-laplace",
                             sensitivity={"count": 1, "amount": 5}, granularity={"amount": "0.01"},
                             rng=exactdp.SeededBits(bytes.fromhex(SEED_HEX)))
    assert out["count"].dtype == np.int64
    assert all(isinstance(v, Decimal) and v.as_tuple().exponent == -2 for v in out["amount"])
    assert list(out["region"]) == ["north", "south", "east"]
    cols = {c["column"]: c for c in g.columns}
    assert cols["count"]["scale"] == 2 and cols["count"]["granularity"] is None  # C K Delta / eps = 2 * 1 / 1
    assert cols["amount"]["scale"] == 1000 and cols["amount"]["sensitivity_grid_steps"] == 500
    # Containment, re-derived: the privacy loss sum_c K Delta_c / t_c is exactly <= epsilon.
    assert Fraction(1, 2) + Fraction(500, 1000) <= 1 and g.epsilon.upper <= 1
    assert g.l1_sensitivity == 501


def test_gaussian_per_column_guarantee_is_contained():
    out, g = exactdp.release(frame(), columns=["amount", "count"], epsilon="1", delta="1e-6",
                             sensitivity={"count": 1, "amount": 5}, granularity={"amount": "0.01"},
                             contributions=2)
    assert g.route == "zcdp"
    cols = {c["column"]: c for c in g.columns}
    rho = sum(Fraction(2 * 2 * d * d) / (2 * cols[c]["sigma2"]) for c, d in (("count", 1), ("amount", 500)))
    assert rho == g.rho
    eps = exactdp.convert("zcdp", rho=rho, delta="1e-6")
    assert eps.upper <= 1
    # the check is not vacuous: the amount column with a quarter of its sigma2 overspends
    broken = Fraction(4 * 1) / (2 * cols["count"]["sigma2"]) + Fraction(4 * 250000) / (2 * cols["amount"]["sigma2"] / 4)
    assert exactdp.convert("zcdp", rho=broken, delta="1e-6").lower > 1


def _cli_table(cli_path, args, table):
    r = subprocess.run([cli_path, "release", "--seed", SEED_HEX, *args], input=table, capture_output=True,
                       text=True, check=True)
    return list(csv.reader(io.StringIO(r.stdout)))


@pytest.mark.parametrize("mechanism,delta", [("discrete-laplace", None), ("discrete-gaussian", "1e-6")])
def test_seeded_release_equals_the_cli(mechanism, delta):
    from conftest import _find_cli
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    df = frame()
    args = ["--mechanism", mechanism, "--epsilon", "1", "--column", "amount", "--column", "count",
            "--sensitivity", "amount=5", "--granularity", "amount=0.01", "--contributions", "2"]
    if delta:
        args += ["--delta", delta]
    table = "region,count,amount\nnorth,76,12.30\nsouth,3,0.05\neast,0,-1.50\n"
    expected = _cli_table(path, args, table)
    out, _ = exactdp.release(df, columns=["amount", "count"], epsilon="1", delta=delta, mechanism=mechanism,
                             sensitivity={"amount": 5}, granularity={"amount": "0.01"}, contributions=2,
                             rng=exactdp.SeededBits(bytes.fromhex(SEED_HEX)))
    got = [["region", "count", "amount"]] + [[r, str(c), str(a)] for r, c, a in
                                              zip(out["region"], out["count"], out["amount"])]
    assert got == expected
    # and the oracle can tell: another seed gives another table
    other, _ = exactdp.release(df, columns=["amount", "count"], epsilon="1", delta=delta, mechanism=mechanism,
                               sensitivity={"amount": 5}, granularity={"amount": "0.01"}, contributions=2,
                               rng=exactdp.SeededBits(bytes(range(1, 33))))
    assert [str(v) for v in other["amount"]] != [row[2] for row in expected[1:]]


def test_integers_past_int64_become_python_ints():
    df = pd.DataFrame({"c": np.array([np.iinfo(np.int64).max] * 200, dtype=np.int64)})
    out, _ = exactdp.release(df, columns=["c"], epsilon="1", mechanism="discrete-laplace", sensitivity=100)
    assert out["c"].dtype == object  # some noisy value passed 2^63 - 1 (probability 1 - 2^-200-ish)
    assert all(isinstance(v, int) for v in out["c"])


def test_bad_options_name_the_column():
    df = frame()
    with pytest.raises(exactdp.ParameterError, match="'count'"):
        exactdp.release(df, columns=["count"], epsilon=1, mechanism="discrete-laplace", sensitivity="1.5")
    with pytest.raises(exactdp.ParameterError, match="'nope'"):
        exactdp.release(df, columns=["count"], epsilon=1, mechanism="discrete-laplace", sensitivity={"nope": 2})
    with pytest.raises(exactdp.ParameterError, match="'amount'"):
        exactdp.release(df, columns=["amount"], epsilon=1, mechanism="discrete-laplace")  # decimals, no grid
    with pytest.raises(exactdp.ParameterError, match="'amount'.*not a multiple"):
        exactdp.release(df, columns=["amount"], epsilon=1, mechanism="discrete-laplace", granularity="0.1")
    with pytest.raises(exactdp.ParameterError, match="not in the DataFrame"):
        exactdp.release(df, columns=["missing"], epsilon=1, mechanism="discrete-laplace")
    with pytest.raises(exactdp.ParameterError, match="delta"):
        exactdp.release(df, columns=["count"], epsilon=1)
    with pytest.raises(exactdp.ParameterError, match="float"):
        exactdp.release(pd.DataFrame({"f": [0.5]}), columns=["f"], epsilon=1, mechanism="discrete-laplace",
                        granularity="0.5")
    out, _ = exactdp.release(pd.DataFrame({"f": [0.5, 0.26]}), columns=["f"], epsilon=1,
                             mechanism="discrete-laplace", granularity="0.25", rounding="nearest")
    assert all(isinstance(v, Decimal) for v in out["f"])


def test_dask_release_refuses_a_pandas_frame():
    import exactdp.dask
    with pytest.raises(exactdp.ParameterError, match="exactdp.release"):
        exactdp.dask.release(frame(), columns=["count"], mechanism="discrete-laplace", epsilon="1")


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.uint64])
def test_numpy_integer_columns_are_read_directly_with_the_text_path_release(dtype):
    """A numpy integer column goes to the library as the integers it holds (no text); the seeded
    release equals the one of the same integers as Python ints (the exact-text path)."""
    values = np.array([0, 7, 255, 3, 100], dtype=dtype)
    direct = pd.DataFrame({"c": values})
    as_text = pd.DataFrame({"c": pd.Series([int(v) for v in values], dtype=object)})
    options = dict(columns=["c"], epsilon="1", delta="1e-6", law="discrete-gaussian", sensitivity=3)
    out, g = exactdp.release(direct, **options, rng=exactdp.SeededBits(SEED_HEX))
    want, want_g = exactdp.release(as_text, **options, rng=exactdp.SeededBits(SEED_HEX))
    assert out["c"].tolist() == want["c"].tolist() and g == want_g
    assert out["c"].tolist() != values.tolist()  # noised


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_and_decimal_string_columns_equal_the_cli(dtype):
    """A numpy float column (rounding="nearest" on a grid) goes to the library as the exact binary
    values it holds, and a column of decimal strings as the decimals they spell: the seeded
    release equals `exactdp release --round nearest` on the CSV of the same exact values."""
    from conftest import _find_cli
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    # 2.675 is below the tie (2.67, not the 2.68 of its text); float64 0.005 is above it (0.01)
    floats = np.array([0.1, 2.675, 0.005, 12.5], dtype=dtype)
    strings = ["1.005", "-0.125", "3", "0.0049"]
    df = pd.DataFrame({"key": list("abcd"), "f": floats, "s": pd.Series(strings, dtype=object)})
    table = "key,f,s\n" + "".join(f"{k},{Decimal(float(x))},{t}\n" for k, x, t in zip("abcd", floats, strings))
    expected = _cli_table(path, ["--mechanism", "discrete-laplace", "--epsilon", "1", "--column", "f", "--column",
                                 "s", "--granularity", "0.01", "--round", "nearest", "--sensitivity", "f=2"], table)
    options = dict(columns=["s", "f"], epsilon="1", law="discrete-laplace", granularity="0.01", rounding="nearest",
                   sensitivity={"f": 2})
    out, g = exactdp.release(df, **options, rng=exactdp.SeededBits(SEED_HEX))
    got = [["key", "f", "s"]] + [[k, str(a), str(b)] for k, a, b in zip(out["key"], out["f"], out["s"])]
    assert got == expected
    # the same noisy values as the per-cell exact-text path of the same floats as Python objects
    as_objects = df.assign(f=pd.Series([float(x) for x in floats], dtype=object))
    want, want_g = exactdp.release(as_objects, **options, rng=exactdp.SeededBits(SEED_HEX))
    assert out["f"].tolist() == want["f"].tolist() and g == want_g


def test_float_columns_refuse_missing_and_infinite_values():
    options = dict(columns=["f"], epsilon="1", law="discrete-laplace", granularity="0.25", rounding="nearest")
    for bad, what in ((np.nan, "missing value"), (np.inf, "infinite value")):
        with pytest.raises(exactdp.ParameterError, match=f"column 'f': an? {what}") as info:
            exactdp.release(pd.DataFrame({"f": np.array([0.5, bad])}), **options)
        assert info.value.parameter == "values"
