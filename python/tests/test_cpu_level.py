"""EXACTDP_CPU_LEVEL (core/cpu_level.h): a cap on the run-time vector paths. Every level gives the
same seeded hardened and plain grid noise; a bad value is refused by the import and the command line."""

import os
import subprocess
import sys

import pytest

from conftest import _find_cli

_LEVELS = ("native", "avx512ifma", "avx512", "avx2", "baseline")

# Seeded grid noise at sigma / g = 2^18 (the rejection method for hardened) over 5,000 values: more
# than one 2,048-draw batch, so the group kernels, the single-proposal tail and the keystream's
# refills all run. Prints the noise's digest and the level the module read.
_PROGRAM = """
import hashlib, numpy as np, exactdp
from exactdp import _exactdp
x = np.zeros(5000)
seed = bytes(range(32))
digest = hashlib.sha256()
for hardened in (False, True):
    y = exactdp.add_noise(x, sigma="1", granularity="1/262144", hardened=hardened,
                          rng=exactdp.SeededBits(seed))
    digest.update(y.tobytes())
print(_exactdp.cpu_level_cap, digest.hexdigest())
"""


def _run(level, code):
    env = dict(os.environ, EXACTDP_CPU_LEVEL=level)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_every_level_gives_the_same_seeded_noise():
    results = {level: _run(level, _PROGRAM) for level in _LEVELS}
    for level, result in results.items():
        assert result.returncode == 0, (level, result.stderr)
    caps = {level: result.stdout.split()[0] for level, result in results.items()}
    digests = {result.stdout.split()[1] for result in results.values()}
    assert caps == {level: level for level in _LEVELS}
    assert len(digests) == 1, results


def test_import_refuses_an_unknown_level():
    result = _run("avx3", "import exactdp")
    assert result.returncode != 0
    assert "EXACTDP_CPU_LEVEL is 'avx3'" in result.stderr
    assert "native, avx512ifma, avx512, avx2, baseline" in result.stderr


def test_command_line_refuses_an_unknown_level():
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    env = dict(os.environ, EXACTDP_CPU_LEVEL="fast")
    result = subprocess.run([path, "sample", "discrete-gaussian", "--sigma2", "2", "-n", "1"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "EXACTDP_CPU_LEVEL is 'fast'" in result.stderr
