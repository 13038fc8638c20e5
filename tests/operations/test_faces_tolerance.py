"""A bad tolerance of an event composition through both faces: the command line (`exactdp compose
--event ... --tolerance T`) and Python (`exactdp.compose_events(..., tolerance=T)`) refuse it with
the same error, naming tolerance, from one check (operations::checked_ziv_options), and check the
target before it in both.

Run by ctest (operations_faces) with PYTHONPATH holding the built package and EXACTDP_CLI the
built command."""
import importlib
import os

import pytest

import faces_cli

CLI = os.environ.get("EXACTDP_CLI")
# As test_faces.py: under ctest a package that does not import fails the run.
exactdp = importlib.import_module("exactdp") if CLI else pytest.importorskip("exactdp")
pytestmark = pytest.mark.skipif(not CLI, reason="EXACTDP_CLI (the built exactdp) not set")

EVENT = "gaussian:sigma=2"


def cli_error(*args):
    return faces_cli.cli_error("compose", "--event", EVENT, *args)


def python_error(error, **kwargs):
    with pytest.raises(error) as info:
        exactdp.compose_events([EVENT], **kwargs)
    return info.value


@pytest.mark.parametrize("tolerance, error, says", [
    ("0", "ParameterError", "2^-10000 <= tolerance < 1"),
    ("-1/2", "ParameterError", "2^-10000 <= tolerance < 1"),
    ("1", "ParameterError", "2^-10000 <= tolerance < 1"),
    ("1e-20000", "ParameterError", "2^-10000"),
    ("1e-300", "LimitError", "2^-700"),
])
def test_a_bad_tolerance_is_the_same_error_in_both_faces(tolerance, error, says):
    text = cli_error("--delta", "1e-5", "--tolerance", tolerance)
    got = python_error(getattr(exactdp, error), delta="1e-5", tolerance=tolerance)
    assert got.parameter == "tolerance"
    assert str(got) == text
    assert says in text


def test_the_target_is_checked_before_the_tolerance_in_both_faces():
    text = cli_error("--delta", "2", "--tolerance", "0")
    got = python_error(exactdp.ParameterError, delta=2, tolerance=0)
    assert got.parameter == "delta"
    assert str(got) == text
