"""exactdp.calibrate for a federated training run (operations::calibrate_run, shared with
`exactdp calibrate LAW --rounds`): the value meets the target, the value below misses it, the
command line gives the same value, and bad input is refused naming the parameter."""

import json
import os
import subprocess
from fractions import Fraction

import pytest

import exactdp


def test_a_run_calibration_meets_the_target_and_matches_the_command_line():
    c = exactdp.calibrate("distributed-discrete-gaussian", epsilon=1, delta="1e-5", rounds=100, q="1/50",
                          clients=20, sensitivity=4, dropout="1/4")
    assert c.parameter == "sigma2" and c.lower < c.upper
    assert c.value.details["epsilon_at"].upper <= 1
    assert "survivors=15" in c.value.details["event"]
    s = exactdp.calibrate("skellam", epsilon=1, delta="1e-5", rounds=100, q="1/50", clients=20, sensitivity=4)
    assert s.parameter == "mu" and s.value.details["per_client"] * 20 == s.upper
    cli = os.environ.get("EXACTDP_CLI")
    if cli:
        out = subprocess.run([cli, "calibrate", "skellam", "--epsilon", "1", "--delta", "1e-5", "--rounds", "100",
                              "--q", "1/50", "--clients", "20", "--sensitivity", "4", "--json"],
                             capture_output=True, text=True, check=True).stdout
        assert Fraction(json.loads(out)["mu"]) == s.upper


@pytest.mark.parametrize("change, name", [({"rounds": 0}, "rounds"), ({"q": 2}, "q"), ({"clients": 0}, "clients"),
                                          ({"dim": 0}, "dim")])
def test_bad_run_input_is_refused_naming_it(change, name):
    given = dict(epsilon=1, delta="1e-5", rounds=10, clients=10)
    given.update(change)
    with pytest.raises(exactdp.ParameterError) as refusal:
        exactdp.calibrate("distributed-discrete-gaussian", **given)
    assert refusal.value.parameter == name
