"""Shared fixtures: the exactdp command-line program (for the tests that compare with it)."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _find_cli():
    env = os.environ.get("EXACTDP_CLI")
    if env and Path(env).is_file():
        return env
    here = Path(__file__).resolve().parents[2]
    for candidate in (here / "build" / "cli" / "exactdp", shutil.which("exactdp")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return None


def load_example(stem):
    """examples/STEM.py, imported as the module STEM (the example tests: `from conftest import load_example`)."""
    path = Path(__file__).resolve().parents[2] / "examples" / f"{stem}.py"
    spec = importlib.util.spec_from_file_location(stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def cli():
    """Runs `exactdp ARGS...`, returns stdout; parses JSON when --json is given."""
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")

    def run(*args):
        result = subprocess.run([path, *map(str, args)], capture_output=True, text=True, check=True)
        return json.loads(result.stdout) if "--json" in args else result.stdout

    return run
