"""exactdp.aggregate on pandas: the options mapping, exact input, typed output, errors, and the
release and guarantee of `exactdp aggregate` on the same records (the CLI runs here only as an
oracle; the package calls the C++ library). The bounding's law is the library's and is tested
there (tests/mechanisms/aggregate_*)."""

import csv
import io
import json
import subprocess
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import _aggregate, _exactdp
from exactdp.interval import Interval

pd = pytest.importorskip("pandas")

SEED = "0f" * 32


def visits():
    """Units with several groups and rows, awkward group text, floats that are not their decimals."""
    rows = []
    for u in range(1500):
        for j in range(u % 4 + 1):
            region = ["North", 'Centre, "islands"', "South"][(u + j) % 3]
            rows.append({"user": f"u{u:04d}", "region": region, "year": 2020 + (u + j) % 2,
                         "amount": [2.675, 0.1, 59.91, 1e-7, 100.5][(u * 7 + j) % 5]})
    return pd.DataFrame(rows)


def exact_csv(frame, columns):
    """The oracle's input, written independently of exactdp: csv module, floats by Decimal."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns)
    for row in frame[columns].itertuples(index=False):
        w.writerow([format(Decimal(v), "f") if isinstance(v, float) else v for v in row])
    return out.getvalue()


def run_cli(cli_path, records, args, tmp_path):
    report = tmp_path / "g.json"
    result = subprocess.run([cli_path, "aggregate", *args, "--seed", SEED, "--json", str(report), "--digits", "60"],
                            input=records, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return list(csv.reader(io.StringIO(result.stdout))), json.loads(report.read_text())


def as_text_rows(table):
    out = [list(map(str, table.columns))]
    for row in table.itertuples(index=False):
        out.append([str(v) for v in row])
    return out


CASES = [
    # (python options, CLI options)
    (dict(count=True, sum={"amount": ("0", "100.00")}, epsilon=2, delta="1e-6", max_groups=2, max_rows=2),
     ["--count", "--sum", "amount", "--bounds", "0,100.00", "--epsilon", "2", "--delta", "1e-6",
      "--max-groups", "2", "--max-rows", "2"]),
    (dict(count_units=True, mean={"amount": (0, 200)}, epsilon="3/2", delta="1e-5", mechanism="discrete-gaussian",
          split="1/4", max_rows=3),
     ["--count-units", "--mean", "amount", "--bounds", "0,200", "--epsilon", "3/2", "--delta", "1e-5",
      "--mechanism", "discrete-gaussian", "--split", "1/4", "--max-rows", "3"]),
    (dict(count=True, mean={"amount": ("0", "100.0")},
          quantile={"amount": ("0", "100.0", [Fraction(1, 2), Decimal("0.9"), "1/3"])}, epsilon=2, delta="1e-6",
          max_groups=2, max_rows=2),
     ["--count", "--mean", "amount", "--bounds", "0,100.0", "--quantile", "amount", "--bounds", "0,100.0",
      "--q", "1/2,0.9,1/3", "--epsilon", "2", "--delta", "1e-6", "--max-groups", "2", "--max-rows", "2"]),
    (dict(count_units=True, quantile={"amount": (0, 200, [0, "0.25", 1])}, epsilon=1, delta="1e-5",
          mechanism="discrete-gaussian", max_rows=3, keys=[("North", 2020), ("South", 2021), ("Nowhere", 1999)]),
     ["--count-units", "--quantile", "amount", "--bounds", "0,200", "--q", "0,0.25,1", "--epsilon", "1",
      "--delta", "1e-5", "--mechanism", "discrete-gaussian", "--max-rows", "3", "--keys", "KEYS"]),
]


@pytest.mark.parametrize("options,cli_args", CASES)
def test_release_is_the_cli_release_bit_for_bit(tmp_path, options, cli_args):
    from conftest import _find_cli
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    frame = visits()
    table, g = exactdp.aggregate(frame, privacy_unit="user", group_by=["region", "year"],
                                 rng=exactdp.SeededBits(SEED), **options)
    if "keys" in options:
        keys_file = tmp_path / "keys.csv"
        keys_file.write_text(exact_csv(pd.DataFrame(options["keys"], columns=["region", "year"]), ["region", "year"]))
        cli_args = [str(keys_file) if a == "KEYS" else a for a in cli_args]
    rows, expected = run_cli(path, exact_csv(frame, ["user", "region", "year", "amount"]),
                             ["--privacy-unit", "user", "--group-by", "region,year", *cli_args], tmp_path)
    assert as_text_rows(table) == rows
    assert len(rows) > 2  # some groups were released
    quantiles = [c for c in table.columns if c.startswith("quantile_")]
    assert all(isinstance(v, Decimal) for c in quantiles for v in table[c])
    assert_guarantee_is_the_cli_one(g, expected)


def assert_guarantee_is_the_cli_one(g, expected):
    assert g.mechanism == expected["mechanism"]
    assert g.epsilon <= Fraction(expected["epsilon"]) <= g.requested["epsilon"]
    if g.epsilon_is_exact:
        assert g.epsilon == Fraction(expected["epsilon"])
    assert g.delta <= Fraction(expected["delta"]) and Fraction(expected["delta"]) - g.delta < Fraction(1, 10**50)
    for key in ("split", "aggregates_epsilon", "aggregates_delta"):
        assert getattr(g, key) == Fraction(expected[key]), key
    assert g.aggregates_route == expected["aggregates_route"]
    assert g.bounding["max_groups"] == expected["bounding"]["max_groups"]
    assert g.bounding["max_rows"] == expected["bounding"]["max_rows"]
    assert g.released_groups == expected["released_groups"]
    sel, cli_sel = g.partition_selection, expected["partition_selection"]
    assert sel["method"].split(":")[0] == cli_sel["method"].split(":")[0].split(" (")[0]
    if "threshold" in cli_sel:
        assert sel["threshold"] == int(cli_sel["threshold"]) and sel["scale"] == Fraction(cli_sel["scale"])
        assert isinstance(sel["delta"], Interval) and sel["delta"].upper <= Fraction(cli_sel["delta"]["upper"])
    if "table_entries" in cli_sel:  # the optimal selection's table
        assert sel["selection"] == cli_sel["selection"] == "optimal"
        assert sel["table_entries"] == cli_sel["table_entries"] and sel["table_bits"] == cli_sel["table_bits"]
        assert sel["saturation_units"] == cli_sel["saturation_units"]
        assert sel["delta_per_group"] == Fraction(cli_sel["delta_per_group"])
        assert sel["delta"].upper == Fraction(cli_sel["delta"]["upper"])
    assert len(g.quantities) == len(expected["quantities"])
    for q, e in zip(g.quantities, expected["quantities"]):
        assert q["quantity"] == e["quantity"]
        for key in ("sensitivity_per_group", "l1_sensitivity", "l2_sensitivity_squared"):
            assert q[key] == int(e[key])
        for key in ("scale", "epsilon", "sigma2", "rho_zcdp"):
            if key in e:
                assert q[key] == Fraction(e[key]), key
    assert len(g.quantiles) == len(expected["quantiles"])
    for q, e in zip(g.quantiles, expected["quantiles"]):
        for key in ("output", "column", "mechanism"):
            assert q[key] == e[key], key
        for key in ("candidates", "score_sensitivity_per_group"):
            assert q[key] == int(e[key]), key
        for key in ("q", "epsilon_per_group", "rho_zcdp"):
            assert (key in q) == (key in e), key
            if key in e:
                assert q[key] == Fraction(e[key]), key
    assert "SEEDED" in g.randomness or "seeded" in g.randomness


def test_public_keys_release_every_key_in_order_with_typed_columns(tmp_path):
    frame = visits()
    keys = [(2021, "South"), (2020, "North"), (1999, "Nowhere")]  # the last has no record
    table, g = exactdp.aggregate(frame, privacy_unit="user", group_by=["year", "region"], count=True,
                                 sum={"amount": ("0", "100.00")}, mean={"amount": ("0", "100.00")}, epsilon=1,
                                 keys=keys, rng=exactdp.SeededBits(SEED))
    assert list(table.columns) == ["year", "region", "count", "sum_amount", "mean_amount"]
    assert list(zip(table["year"], table["region"])) == keys
    assert table["year"].dtype == np.int64 and table["count"].dtype == np.int64
    assert all(isinstance(v, Decimal) for v in table["sum_amount"])
    assert all(v.as_tuple().exponent == -2 for v in table["sum_amount"])  # the grid's 2 decimals
    assert all(v.as_tuple().exponent == -8 for v in table["mean_amount"])  # d + 6
    assert g.partition_selection["keys"] == 3 and g.split == 0
    # The same keys as a DataFrame (another column order) give the same release.
    same, _ = exactdp.aggregate(frame, privacy_unit="user", group_by=["year", "region"], count=True,
                                sum={"amount": ("0", "100.00")}, mean={"amount": ("0", "100.00")}, epsilon=1,
                                keys=pd.DataFrame({"region": [k[1] for k in keys], "year": [k[0] for k in keys]}),
                                rng=exactdp.SeededBits(SEED))
    assert same.equals(table)


def test_floats_are_read_as_their_exact_value():
    """2.675 is 2.67499999999999982236431605997495353221893310546875: on the 0.01 grid it is 267
    (the decimal text "2.675" would round, ties up, to 268)."""
    frame = pd.DataFrame({"u": ["a", "b"], "g": ["x", "x"], "v": [2.675, np.float32(0.5)]})
    spec = _aggregate.build_spec(privacy_unit="u", group_by="g", epsilon=1, delta=None, max_groups=1, max_rows=1,
                                 mechanism="discrete-laplace", split=None, public_keys=True,
                                 sum={"v": ("0", "10.00")})
    records, _ = _aggregate.records_csv(frame, spec)
    assert b"2.67499999999999982236431605997495353221893310546875" in records
    [(key, rows, units, sums, kept)] = _exactdp._aggregate_bound_partition(spec, records, None, None)
    assert (key, rows, units, sums, kept) == ("x", 2, 2, [267 + 50], [])


def test_decimal_and_fraction_values_are_exact():
    frame = pd.DataFrame({"u": ["a", "b", "c"], "g": [1, 1, 1],
                          "v": [Decimal("0.125"), Fraction(3, 8), 1]}, dtype=object)
    spec = _aggregate.build_spec(privacy_unit="u", group_by="g", epsilon=1, delta=None, max_groups=1, max_rows=1,
                                 mechanism="discrete-laplace", split=None, public_keys=True,
                                 sum={"v": ("0", "2.000")})
    records, _ = _aggregate.records_csv(frame, spec)
    [(_, _, _, sums, _)] = _exactdp._aggregate_bound_partition(spec, records, None, None)
    assert sums == [125 + 375 + 1000]
    frame.loc[1, "v"] = Fraction(1, 3)
    with pytest.raises(exactdp.ParameterError, match="finite decimal") as e:
        _aggregate.records_csv(frame, spec)
    assert e.value.parameter == "v"


BASE = dict(privacy_unit="user", group_by="region", count=True, epsilon=1, delta="1e-6")


def test_text_values_are_their_exact_decimals():
    """A column of decimal texts (and p/q texts) releases what the same values as Decimals do."""
    frame = visits()
    texts = frame.assign(amount=[format(Decimal(v), "f") for v in frame["amount"]])
    texts.loc[0, "amount"] = str(Fraction(Decimal(texts.loc[0, "amount"])))  # "p/q" is read exactly too
    options = dict(BASE, sum={"amount": ("0", "100.00")}, mean={"year": ("2000", "2100")})
    decimal_table, decimal_g = exactdp.aggregate(frame, **options, rng=exactdp.SeededBits(SEED))
    text_table, text_g = exactdp.aggregate(texts, **options, rng=exactdp.SeededBits(SEED))
    assert text_table.equals(decimal_table) and text_g == decimal_g
    texts.loc[3, "amount"] = "1/3"
    with pytest.raises(exactdp.ParameterError, match="finite decimal"):
        exactdp.aggregate(texts, **options)


def test_noise_scales_have_units_and_default_bounds_are_named():
    _, g = exactdp.aggregate(visits(), **dict(BASE, sum={"amount": ("0", "100.00")}, max_rows=2))
    count, total = g.quantities
    assert count["unit"] == "rows" and "grid" not in count
    assert total["grid"] == Fraction(1, 100) and total["unit"] == "grid steps of 0.01 in amount's units"
    assert total["scale_in_units"] == total["scale"] / 100
    assert g.bounding["defaulted"] == ["max_groups"] and g.bounding["max_groups"] == 1
    _, g = exactdp.aggregate(visits(), **dict(BASE, count=False, count_units=True, law="discrete-gaussian",
                                              sum={"amount": ("0", "100.0")}, max_groups=2, max_rows=1))
    units, total = g.quantities
    assert units["unit"] == "privacy units" and total["sigma2_in_units"] == total["sigma2"] / 100
    assert g.bounding["defaulted"] == []


@pytest.mark.parametrize("change,error,parameter", [
    (dict(max_groups=0), exactdp.ParameterError, "max_groups"),
    (dict(max_rows=10**7), exactdp.ParameterError, "max_rows"),
    (dict(delta=None), exactdp.ParameterError, "delta"),
    (dict(epsilon=0), exactdp.ParameterError, "epsilon"),
    (dict(epsilon=0.5), TypeError, None),
    (dict(mechanism="gaussian"), exactdp.ParameterError, "mechanism"),
    (dict(count=False), exactdp.ParameterError, "aggregate"),
    (dict(group_by="user"), exactdp.ParameterError, "group_by"),
    (dict(group_by="nope"), exactdp.ParameterError, "nope"),
    (dict(sum={"amount": ("5", "1")}), exactdp.ParameterError, "bounds"),
    (dict(sum={"amount": (0.0, 1)}), TypeError, None),
    (dict(sum={"amount": ("0", "1")}, mean={"amount": ("0", "2")}), exactdp.ParameterError, "bounds"),
    (dict(split="3/2"), exactdp.ParameterError, "split"),
    (dict(keys=[("North",)], split="1/2"), exactdp.ParameterError, "split"),
    (dict(keys=[("North",), ("North",)]), exactdp.ParameterError, "keys"),
    (dict(keys=[("North", 1)]), exactdp.ParameterError, "keys"),
    (dict(rng=1234), TypeError, None),
    (dict(quantile={"amount": ("0", "100", ["3/2"])}), exactdp.ParameterError, "quantile"),
    (dict(quantile={"amount": ("0", "100", ["-1/2"])}), exactdp.ParameterError, "quantile"),
    (dict(quantile={"amount": ("0", "100", ["half"])}), exactdp.ParameterError, "quantile"),
    (dict(quantile={"amount": ("0", "100", ["1/2", Decimal("0.5")])}), exactdp.ParameterError, "quantile"),
    (dict(quantile={"amount": ("0", "100", [])}), exactdp.ParameterError, "quantile"),
    (dict(quantile={"amount": ("0", "100")}), exactdp.ParameterError, "quantile"),
    (dict(quantile={"amount": ("0", "100", [0.5])}), TypeError, None),
    (dict(quantile={"amount": ("0", "100.0000", ["1/2"])}), exactdp.LimitError, "bounds"),
    (dict(quantile={"amount": ("0", "100", ["1/2"])}, sum={"amount": ("0", "10")}), exactdp.ParameterError,
     "bounds"),
])
def test_bad_input_is_refused_naming_it(change, error, parameter):
    with pytest.raises(error) as e:
        exactdp.aggregate(visits(), **{**BASE, **change})
    if parameter is not None:
        assert e.value.parameter == parameter, str(e.value)


@pytest.mark.parametrize("column,bad", [("amount", np.nan), ("amount", "twelve"), ("user", None), ("region", None)])
def test_missing_or_bad_cells_are_refused_naming_the_column(column, bad):
    frame = visits().astype({column: object})
    frame.loc[3, column] = bad
    with pytest.raises((exactdp.ParameterError, TypeError)) as e:
        exactdp.aggregate(frame, **{**BASE, "sum": {"amount": ("0", "100")}})
    assert column in str(e.value) and "row 3" in str(e.value)


def test_empty_release_has_typed_columns():
    frame = visits().iloc[:0]
    table, g = exactdp.aggregate(frame, **{**BASE, "sum": {"amount": ("0", "100")}})
    assert list(table.columns) == ["region", "count", "sum_amount"] and len(table) == 0
    assert table["count"].dtype == np.int64 and g.released_groups == 0


def test_large_noise_gives_python_ints_not_wrapped():
    frame = pd.DataFrame({"u": ["a"], "g": ["x"]})
    table, _ = exactdp.aggregate(frame, privacy_unit="u", group_by="g", count=True, epsilon=Fraction(1, 10**30),
                                 keys=[("x",)], rng=exactdp.SeededBits(SEED))
    value = table["count"].iloc[0]
    assert isinstance(value, int) and abs(value) > 2**63  # scale 10^30: beyond int64


def test_a_means_sum_is_centred_on_the_bounds_midpoint():
    """Bounds 10,20 and max_rows 3: the mean's centred sum has sensitivity 3 * 5 (half the width),
    the plain sum of the same column 3 * 20; the guarantee gives the centre and the grid."""
    frame = pd.DataFrame({"user": [1, 2, 3], "g": ["a", "a", "b"], "x": [12, 19, 15]})
    _, g = exactdp.aggregate(frame, privacy_unit="user", group_by="g", count=True, sum={"x": (10, 20)},
                             mean={"x": (10, 20)}, epsilon=1, delta="1e-6", max_groups=1, max_rows=3,
                             rng=exactdp.SeededBits(SEED))
    by_name = {q["quantity"]: q for q in g.quantities}
    assert by_name["sum_x"]["sensitivity_per_group"] == 60 and "centre" not in by_name["sum_x"]
    centred = by_name["centred_sum_x"]
    assert centred["sensitivity_per_group"] == 15 and centred["centre"] == 15 and centred["grid"] == 1
    assert centred["unit"] == "grid steps of 1 in x's units"
