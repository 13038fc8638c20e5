"""Shared fixtures: the exactdp command-line program (for the tests that compare with it)."""

import json
import os
import shutil
import subprocess
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
