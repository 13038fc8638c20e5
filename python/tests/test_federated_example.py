"""examples/federated_digits.py, quick settings: 100 clients through exactdp.federated with the
modular sum as secure aggregation; the printed certified epsilon is the accountant's and its delta
carries the hardened shares' charge, the distributed model learns (well above chance), central
DP-SGD runs at an epsilon no larger, and the same rounds with Skellam shares at the same variance
learn at nearly the same certified epsilon."""

import io
import re

import pytest
from conftest import load_example

pytest.importorskip("sklearn", reason="python3-sklearn (scripts/setup installs it)")


def test_quick_run_prints_epsilon_and_accuracies(tmp_path):
    printed = io.StringIO()
    rows = load_example("federated_digits").main(["--quick", "--svg", str(tmp_path / "plot.svg")], out=printed)
    text = printed.getvalue()
    assert "100 clients, 15 rounds" in text
    row, = rows
    assert row.accuracy > 0.6 and row.central_accuracy > 0.6 and row.skellam_accuracy > 0.6  # chance is 0.1
    found = re.search(r"certified epsilon <= ([0-9.]+) at delta <= 1e-5 \+ ([0-9.e+-]+)[^;]*; "
                      r"central DP-SGD \(z = [0-9.]+, epsilon <= ([0-9.]+)\)", text)
    assert found and float(found.group(3)) <= float(found.group(1)) + 1e-4
    assert abs(float(found.group(1)) - row.epsilon) < 1e-3
    # the hardened shares' charge, (1 + e^epsilon) rounds n D tau, is added to delta = 10^-5
    charge = row.delta - 1e-5
    assert charge > 1e-11 and charge * (1 - 1e-9) <= float(found.group(2)) <= charge * (1 + 1e-2)  # rounded up
    skellam = re.search(r"Skellam shares: accuracy [0-9.]+, certified epsilon <= ([0-9.]+) at delta <= 1e-5$",
                        text, re.M)
    assert skellam and abs(float(skellam.group(1)) - row.skellam_epsilon) < 1e-3
    assert abs(row.skellam_delta - 1e-5) < 1e-15          # plain Skellam draws: nothing to charge
    # same variance and sensitivity: the Skellam sum's epsilon is within 1% of the discrete Gaussian's
    assert abs(row.skellam_epsilon - row.epsilon) < 0.01 * row.epsilon
    plot = (tmp_path / "plot.svg").read_text()
    assert plot.startswith("<svg") and plot.count("<polyline") == 3 and "Skellam" in plot
