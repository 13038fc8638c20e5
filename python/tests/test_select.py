"""exactdp.select: the operation `select` from Python, checked against `exactdp select --seed`
(the program as the oracle: the same seed gives the same indices) and for bad input."""

import os
import subprocess
import warnings
from fractions import Fraction

import numpy as np
import pytest

import exactdp

SEED_HEX = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
SCORES = ["3", "7", "9/2", "0.5", "-1", "7", "12", "1e1"]


def _cli(*args, scores=SCORES):
    path = os.environ.get("EXACTDP_CLI")
    if not path:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    return subprocess.run([path, "select", *args], input="\n".join(scores) + "\n", capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("law, options, flags", [
    ("exponential", {}, []),
    ("permute-and-flip", {}, []),
    ("report-noisy-max", {"noise": "laplace"}, ["--noise", "laplace"]),
    ("report-noisy-max", {"noise": "exponential"}, ["--noise", "exponential"]),
    ("exponential", {"monotonic": True}, ["--monotonic"]),
])
@pytest.mark.parametrize("top", [1, 3])
def test_seeded_selection_equals_the_cli(law, options, flags, top):
    p = _cli("--mechanism", law, "--epsilon", "1/2", "--sensitivity", "1", "--top", str(top), "-n", "50",
             "--seed", SEED_HEX, *flags)
    assert p.returncode == 0, p.stderr
    expected = [[int(i) for i in line.split()] for line in p.stdout.splitlines()]
    got = exactdp.select(SCORES, law=law, epsilon="1/2", sensitivity=1, top=top, n=50,
                         rng=exactdp.SeededBits(SEED_HEX), **options)
    assert got.selections.shape == (50, top) and got.selections.dtype == np.int64
    assert got.selections.tolist() == expected
    # the oracle can tell: another seed gives other draws
    other = exactdp.select(SCORES, law=law, epsilon="1/2", sensitivity=1, top=top, n=50,
                           rng=exactdp.SeededBits(bytes(range(1, 33))), **options)
    assert other.selections.tolist() != expected


def test_guarantee_equals_the_cli_json():
    p = _cli("--mechanism", "report-noisy-max", "--epsilon", "0.25", "--sensitivity", "2", "--top", "2", "-n", "3",
             "--delta", "1e-6", "--seed", SEED_HEX, "--json")
    assert p.returncode == 0, p.stderr
    import json
    cli = json.loads(p.stdout)
    got = exactdp.select(SCORES, law="report-noisy-max", epsilon="0.25", sensitivity=2, top=2, n=3, delta="1e-6",
                         rng=exactdp.SeededBits(SEED_HEX))
    assert got.to_dict()["selections"] == cli["selections"]
    assert (got.law, got.noise, got.candidates, got.top, got.n) == ("report-noisy-max", "laplace", 8, 2, 3)
    assert got.epsilon == Fraction(1, 4) and got.sensitivity == 2 and not got.monotonic
    assert got.grid_denominator == int(cli["grid_denominator"]) and got.noise_scale == Fraction(cli["noise_scale"])
    g = cli["guarantee"]
    assert got.rounds == int(g["rounds"]) == 6
    assert got.basic_epsilon == Fraction(g["basic_epsilon"]) == Fraction(3, 2)
    assert got.delta == Fraction(1, 10**6)
    assert got.optimal_epsilon.upper <= got.basic_epsilon
    assert str(got.optimal_epsilon.upper_float)[:8] == g["optimal_epsilon_upper"][:8]
    assert got.optimal_note is None and got.optimal_tolerance_met is True


def test_one_selection_and_its_result():
    got = exactdp.select([1, 2, 3], law="exponential", epsilon=1, sensitivity=1)
    assert got.selections.shape == (1, 1) and 0 <= got.selections[0, 0] < 3
    assert got.noise is None and got.grid_denominator is None and got.delta is None
    assert got.optimal_epsilon is None and got.rounds == 1 and got.basic_epsilon == 1
    d = got.to_dict()
    assert d["selections"] == [int(got.selections[0, 0])] and "noise" not in d and "delta" not in d
    with pytest.raises(ValueError):
        got.selections[0, 0] = 0  # the result is read-only
    one = exactdp.select([1, 2, 3], law="exponential", epsilon=1, sensitivity=1, delta="1e-6")
    assert one.optimal_note == "one round: epsilon is already exact with delta = 0"


def test_mechanism_is_the_deprecated_alias_of_law():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = exactdp.select(SCORES, law="permute-and-flip", epsilon=1, sensitivity=1,
                             rng=exactdp.SeededBits(SEED_HEX))
    with pytest.warns(DeprecationWarning, match="law="):
        old = exactdp.select(SCORES, mechanism="permute-and-flip", epsilon=1, sensitivity=1,
                             rng=exactdp.SeededBits(SEED_HEX))
    assert old.selections.tolist() == new.selections.tolist()
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.select(SCORES, law="exponential", mechanism="exponential", epsilon=1, sensitivity=1)
    assert e.value.parameter == "law"


@pytest.mark.parametrize("options, parameter, text", [
    (dict(law="softmax"), "mechanism", "softmax"),
    (dict(law="exponential", noise="laplace"), "noise", "noise applies to mechanism report-noisy-max only"),
    (dict(law="exponential", epsilon=0), "epsilon", "epsilon"),
    (dict(law="exponential", sensitivity=-1), "sensitivity", "sensitivity"),
    (dict(law="exponential", top=9), "top", "1 <= top <= the number of candidates (8)"),
    (dict(law="exponential", n=0), "n", "n = 0 is out of range"),
    (dict(law="exponential", delta=1), "delta", "delta"),
])
def test_bad_input_is_refused_naming_the_parameter(options, parameter, text):
    given = dict(epsilon=1, sensitivity=1)
    given.update(options)
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.select(SCORES, **given)
    assert e.value.parameter == parameter
    assert text in str(e.value)


def test_scores_are_exact_numbers_in_range():
    with pytest.raises(TypeError):
        exactdp.select([1.5, 2], law="exponential", epsilon=1, sensitivity=1)
    with pytest.raises(TypeError):
        exactdp.select([1, 2], law="exponential", epsilon=1, sensitivity=1, top=1.0)
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.select([], law="exponential", epsilon=1, sensitivity=1)
    assert e.value.parameter == "scores"
    with pytest.raises(exactdp.LimitError) as e:
        exactdp.select(["1e99999"] * 1000, law="exponential", epsilon=1, sensitivity=1)
    assert e.value.parameter == "scores"


def test_draws_over_the_work_limit_are_refused_naming_n_as_on_the_command_line():
    scores = [str(100 * i) for i in range(3000)]
    p = _cli("--mechanism", "report-noisy-max", "--epsilon", "1", "--sensitivity", "1", "-n", "100000",
             scores=scores)
    assert p.returncode == 2 and p.stdout == ""
    with pytest.raises(exactdp.LimitError) as e:
        exactdp.select(scores, law="report-noisy-max", epsilon=1, sensitivity=1, n=100000)
    assert e.value.parameter == "n"
    assert p.stderr == "exactdp: " + str(e.value)[:-len("lower n")] + "lower -n\n"
