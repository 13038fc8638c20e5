"""The discrete Gaussian aggregate's joint calibration (route product-profile) in Python's typed
guarantee: each quantity's sigma2 beside the zCDP split's ``sigma2_zcdp_split`` (Fractions) and
the certified ``aggregates_delta_certified`` (an Interval), the same as ``exactdp aggregate
--json`` on the same records and seed."""

import csv
import io
import json
import subprocess
from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp.interval import Interval

pd = pytest.importorskip("pandas")

SEED = "0f" * 32


def records():
    rng = np.random.default_rng(7)
    n = 3000
    return pd.DataFrame({"user": [f"u{i % 700:03d}" for i in range(n)], "region": ["North", "South", "East"] * 1000,
                         "amount": [str(v) for v in rng.integers(0, 105, n) / 10]})


def cli_guarantee(tmp_path, frame, args):
    from conftest import _find_cli
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    keys = tmp_path / "keys.csv"
    keys.write_text("region\nNorth\nSouth\nEast\n")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([["user", "region", "amount"], *frame.itertuples(index=False)])
    report = tmp_path / "g.json"
    done = subprocess.run([path, "aggregate", "--privacy-unit", "user", "--group-by", "region", *args,
                           "--keys", str(keys), "--seed", SEED, "--json", str(report), "--digits", "60"],
                          input=out.getvalue(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(report.read_text())


def test_the_joint_calibration_is_in_the_typed_guarantee(tmp_path):
    frame = records()
    _, g = exactdp.aggregate(frame, privacy_unit="user", group_by="region", count=True,
                             sum={"amount": ("0", "10.5")}, epsilon=1, delta="1e-6", law="discrete-gaussian",
                             keys=pd.DataFrame({"region": ["North", "South", "East"]}), rng=exactdp.SeededBits(SEED))
    assert g.aggregates_route.startswith("product-profile")
    assert isinstance(g.aggregates_delta_certified, Interval)
    assert g.aggregates_delta_certified.upper <= g.aggregates_delta
    for q in g.quantities:
        assert isinstance(q["sigma2"], Fraction) and isinstance(q["sigma2_zcdp_split"], Fraction)
        assert q["sigma2"] < q["sigma2_zcdp_split"]                 # lowered jointly below the split
    assert "aggregates_delta_certified" in g.to_dict()

    expected = cli_guarantee(tmp_path, frame, ["--count", "--sum", "amount", "--bounds", "0,10.5", "--epsilon", "1",
                                               "--delta", "1e-6", "--mechanism", "discrete-gaussian"])
    assert g.aggregates_route == expected["aggregates_route"]
    for q, e in zip(g.quantities, expected["quantities"]):
        assert (q["sigma2"], q["sigma2_zcdp_split"]) == (Fraction(e["sigma2"]), Fraction(e["sigma2_zcdp_split"]))
    cli_delta = expected["aggregates_delta_certified"]
    assert Fraction(cli_delta["lower"]) <= g.aggregates_delta_certified.lower
    assert g.aggregates_delta_certified.upper <= Fraction(cli_delta["upper"])


def test_other_routes_leave_the_fields_out():
    _, g = exactdp.aggregate(records(), privacy_unit="user", group_by="region", count=True, epsilon=1,
                             keys=pd.DataFrame({"region": ["North"]}), rng=exactdp.SeededBits(SEED))
    assert g.aggregates_delta_certified is None and "aggregates_delta_certified" not in g.to_dict()
    assert all("sigma2_zcdp_split" not in q for q in g.quantities)
