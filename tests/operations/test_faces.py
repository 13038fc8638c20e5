"""One over-limit request through both faces of an operation (operations/compose.h): the
command line (`exactdp compose pure-dp`) and Python (`exactdp.compose`) refuse it with the same
error, naming the same parameter, from the same check. compose pure-dp is not in the C interface.

Run by ctest (operations_faces) with PYTHONPATH holding the built package and EXACTDP_CLI the
built command."""
import os
import subprocess

import pytest

exactdp = pytest.importorskip("exactdp")
CLI = os.environ.get("EXACTDP_CLI")
pytestmark = pytest.mark.skipif(not CLI, reason="EXACTDP_CLI (the built exactdp) not set")


def cli_error(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    prefix = "exactdp: "
    assert p.stderr.startswith(prefix) and p.stderr.endswith("\n"), p.stderr
    return p.stderr[len(prefix):-1]


def python_error(error, **kwargs):
    with pytest.raises(error) as info:
        exactdp.compose(**kwargs)
    return info.value


def test_zcdp_limit_is_the_same_error_in_both_faces():
    text = cli_error("compose", "pure-dp", "--epsilon", "1000", "--k", "10000", "--delta", "1e-6",
                     "--method", "zcdp")
    error = python_error(exactdp.ParameterError, epsilon=1000, k=10000, delta="1e-6", method="zcdp")
    assert error.parameter == "epsilon"
    assert text.startswith("epsilon = 1000 is out of range")
    # One check, one sentence: only the spelling of the option differs (--method / method).
    assert str(error) == text.replace("--method", "method")
    assert "10^9" in str(error) and "rho = 5000000000" in str(error)


def test_tolerance_cost_limit_is_the_same_error_in_both_faces():
    text = cli_error("compose", "pure-dp", "--epsilon", "1", "--k", "2", "--delta", "1e-5",
                     "--method", "gdp", "--tolerance", "1e-200")
    error = python_error(exactdp.LimitError, epsilon=1, k=2, delta="1e-5", method="gdp", tolerance="1e-200")
    assert error.parameter == "tolerance"
    assert str(error) == text
    assert "2^-600" in text
