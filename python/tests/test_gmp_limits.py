"""Exact numbers that grow with the input: exactdp.aggregate's quantiles are refused up front
when q or epsilon has too many digits (exactdp.LimitError naming it, before any score is made),
and an allocation that fails anyway reaches Python as exactdp.LimitError naming "memory", not
as GMP's abort() of the interpreter (core/gmp_allocation.h)."""

import subprocess
import sys
import textwrap

import pytest

import exactdp

pd = pytest.importorskip("pandas")


def records():
    return pd.DataFrame({"u": [f"u{i}" for i in range(100)], "g": ["a"] * 100, "v": [10 * i for i in range(100)]})


def quantile(q, epsilon, upper="50000"):
    return exactdp.aggregate(records(), privacy_unit="u", group_by="g", quantile={"v": ("0", upper, [q])},
                             epsilon=epsilon, keys=[("a",)])


@pytest.mark.parametrize("q, epsilon, parameter", [
    ("1/2", "1e-100000", "epsilon"),
    ("1/2", "1e-10000", "epsilon"),
    ("1e-10000", 1, "q"),
])
def test_quantile_digits_refused_naming_the_option(q, epsilon, parameter):
    with pytest.raises(exactdp.LimitError) as e:
        quantile(q, epsilon)
    assert e.value.parameter == parameter, str(e.value)
    assert "over the limit of 2^" in str(e.value)


def test_quantile_neighbours_are_served():
    table, _ = quantile("1/2", "1e-1000")
    assert len(table) == 1
    table, _ = quantile("1e-100", 1)
    assert len(table) == 1


def test_exhausted_memory_is_a_limit_error_not_an_abort():
    # Passes the estimates (30001 weights of 33,000 bits, twice: about 2^31 bits, ~250 MB) but
    # not an address space 64 MiB above what the interpreter holds after its imports.
    script = textwrap.dedent("""
        import os, resource, sys
        import pandas as pd
        import exactdp
        df = pd.DataFrame({"u": ["u1", "u2"], "g": ["a", "a"], "v": [1, 2]})
        held = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (held + (64 << 20), held + (64 << 20)))
        try:
            exactdp.aggregate(df, privacy_unit="u", group_by="g", quantile={"v": ("0", "30000", ["1/2"])},
                              epsilon="1e-10000", keys=[("a",)])
        except exactdp.LimitError as e:
            print("LimitError", e.parameter, str(e)[:200])
            sys.exit(0)
        except MemoryError:
            print("MemoryError")
            sys.exit(3)
        print("no error")
        sys.exit(4)
        """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, (run.returncode, run.stdout, run.stderr[-2000:])
    assert run.stdout.startswith("LimitError memory "), run.stdout
