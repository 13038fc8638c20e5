#!/usr/bin/env python3
"""Long DP-SGD runs at small delta: exactdp's certified pld bracket beside the peers' values
(BENCHMARKS.md and docs/ACCOUNTING.md, "Long compositions at small delta").

For each target (q, sigma, steps, delta), add/remove-one and replace-one:
  * exactdp `compose --route pld` (the certified bracket [lower, upper] of the TRUE epsilon),
    its CPU seconds (the child process's user + system time) and relative width;
  * dp_accounting's PLD accountant, pessimistic (connect the dots, value_discretization_interval
    1e-4), add/remove only, when importable (from --dp-accounting DIR or the environment), as
    shipped (float64 FFTs) and with its self-convolution's FFTs in 80-bit long double: at delta
    1e-10 and below the float64 round-off of the composed masses (entries down to -2e-16) is
    comparable with delta and moves its epsilon below the proven lower end;
  * Opacus' RDP and PRV accountants (add/remove), when importable.
A peer that is not installed is skipped and named once on stderr. Then `calibrate dp-sgd` at the
add/remove targets' epsilon (exactdp's upper end, rounded up to 2 decimals): sigma and CPU seconds.
Optional: never run by CI.

  bench/accounting_peers_table.py [--exactdp build/cli/exactdp] [--dp-accounting DIR] [--no-calibrate]
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accounting_peers import dp_accounting_runner, opacus_runner  # noqa: E402

TARGETS = [  # q, sigma, steps, delta
    ("0.001", "0.6", 100000, "1e-8"),
    ("0.001", "0.6", 100000, "1e-9"),
    ("0.001", "0.6", 1000000, "1e-10"),
    ("0.004", "0.8", 10000, "1e-12"),
    ("0.01", "1.1", 100000, "1e-9"),
]


def run_cpu(cmd):
    """(CompletedProcess, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def exactdp_pld(binary, q, sigma, steps, delta, relation):
    r, t = run_cpu([binary, "compose", "--event", f"poisson-gaussian:sigma={sigma},q={q}", "--count", str(steps),
                    "--delta", delta, "--route", "pld", "--neighbouring", relation, "--json", "--digits", "8"])
    if r.returncode != 0:
        return None, t, (r.stderr.strip().splitlines() or ["failed"])[-1]
    eps = json.loads(r.stdout)["epsilon"]
    return (float(eps["lower"]), float(eps["upper"])), t, ""


def exactdp_calibrate(binary, q, steps, epsilon, delta):
    r, t = run_cpu([binary, "calibrate", "dp-sgd", "--q", q, "--steps", str(steps), "--epsilon", epsilon,
                    "--delta", delta, "--json"])
    if r.returncode != 0:
        return None, t
    return json.loads(r.stdout).get("sigma_to_use"), t


def opacus_prv_runner():
    try:
        from opacus.accountants import PRVAccountant
    except ImportError:
        return None

    def run(sigma, q, steps, delta):
        acc = PRVAccountant()
        acc.history = [(sigma, q, steps)]
        return float(acc.get_epsilon(delta=delta))

    return run


def dp_accounting_long_double(folder):
    """dp_accounting's pessimistic PLD epsilon with its self-convolution in long double, or None."""
    if folder:
        sys.path.insert(0, folder)
    try:
        import numpy as np
        from scipy import fft
        from dp_accounting.pld import common
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return None

    def self_convolve(input_list, num_times, tail_mass_truncation=0):  # common.self_convolve's algorithm
        lower, upper = common.compute_self_convolve_bounds(input_list, num_times, tail_mass_truncation)
        length = upper - lower + 1
        fast_len = fft.next_fast_len(max(length, len(input_list)))
        values = np.asarray(input_list, dtype=np.longdouble)
        out = np.real(fft.ifft(fft.fft(values, fast_len) ** num_times))
        return lower, np.roll(out, -lower)[:length]

    def run(sigma, q, steps, delta):
        original, common.self_convolve = common.self_convolve, self_convolve
        try:
            one = pld.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=True,
                                              value_discretization_interval=1e-4)
            return float(one.self_compose(steps).get_epsilon_for_delta(delta))
        finally:
            common.self_convolve = original

    return run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exactdp", default="build/cli/exactdp")
    ap.add_argument("--dp-accounting", default="")
    ap.add_argument("--no-calibrate", action="store_true")
    a = ap.parse_args()
    dpa = dp_accounting_runner(a.dp_accounting) if a.dp_accounting else None
    if dpa is None:
        try:
            import dp_accounting  # noqa: F401
            dpa = dp_accounting_runner(os.path.dirname(os.path.dirname(dp_accounting.__file__)))
        except ImportError:
            print("dp_accounting: not installed, its columns are left empty", file=sys.stderr)
    dpa_ld = dp_accounting_long_double(a.dp_accounting) if dpa else None
    rdp, prv = opacus_runner(), opacus_prv_runner()
    if rdp is None:
        print("opacus: not installed, its columns are left empty", file=sys.stderr)
    print("| q, sigma, steps, delta | relation | exactdp pld [lower, upper] | width | CPU s "
          "| dp_accounting PLD pess. | same, long double FFT | Opacus RDP | Opacus PRV |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    calibrations = []
    for q, sigma, steps, delta in TARGETS:
        for relation in ("add-remove", "replace-one"):
            val, t, err = exactdp_pld(a.exactdp, q, sigma, steps, delta, relation)
            if val is None:
                cell, width = f"refused ({err[:50]})", "-"
            else:
                cell, width = f"[{val[0]:.4f}, {val[1]:.4f}]", f"{(val[1] - val[0]) / val[1]:.3%}"
                if relation == "add-remove":
                    calibrations.append((q, steps, f"{math.ceil(val[1] * 100) / 100:.2f}", delta))
            peers = ["-", "-", "-", "-"]
            if relation == "add-remove":
                args = (float(sigma), float(q), steps, float(delta))
                if dpa:
                    peers[0] = f"{dpa(*args)['pld_pessimistic'][0]:.4f}"
                if dpa_ld:
                    peers[1] = f"{dpa_ld(*args):.4f}"
                if rdp:
                    peers[2] = f"{rdp(*args)[0]:.4f}"
                if prv:
                    peers[3] = f"{prv(*args):.4f}"
            print(f"| {q}, {sigma}, {steps:.0e}, {delta} | {relation} | {cell} | {width} | {t:.2f} | "
                  + " | ".join(peers) + " |", flush=True)
    if a.no_calibrate:
        return 0
    print("\n| calibrate dp-sgd: q, steps, epsilon, delta | sigma_to_use | CPU s |")
    print("|---|---:|---:|")
    for q, steps, epsilon, delta in calibrations:
        s, t = exactdp_calibrate(a.exactdp, q, steps, epsilon, delta)
        print(f"| {q}, {steps:.0e}, {epsilon}, {delta} | {s if s else 'refused'} | {t:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
