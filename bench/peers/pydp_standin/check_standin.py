#!/usr/bin/env python3
"""check_standin.py: checks that the PyDP stand-in draws the laws it claims (bench-only).

    python3 bench/peers/pydp_standin/check_standin.py [--seed 1] [--break-laplace]

Checks, each printed with its figure:
  1. the optimal partition selection's table pi(n) satisfies both (epsilon, delta) constraints
     between n - 1 and n units (pi(n) <= e^eps pi(n-1) + delta and
     1 - pi(n-1) <= e^eps (1 - pi(n)) + delta) and is maximal (one of them, or pi(n) = 1, is
     tight), for several (epsilon, delta, k);
  2. the analytic Gaussian std: delta(std) = delta to 1e-9 relative and delta(0.999 std) > delta,
     and the textbook value 3.7306... at (1, 1e-5, 1);
  3. Laplace and Gaussian noise: the sample standard deviation of 2*10^5 draws against
     b sqrt(2) and std;
  4. every strategy's keep frequency at a few unit counts against its probability (the
     thresholding ones: P(keep | 1 unit) = the per-partition delta, at a large delta).
Statistical checks (3, 4) use a fixed seed and a two-sided z-test at alpha = 1e-6 each
(|z| < 4.89). --break-laplace scales the Laplace draws by 1.05 and must make check 3 fail.
Exit 0 when all pass, 1 otherwise.
"""
import argparse
import math
import os
import sys

import numpy as np
from scipy import special

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pydp.algorithms import _noise, numerical_mechanisms as nm, partition_selection as ps  # noqa: E402

Z = 4.89
failures = []


def check(name, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    if not ok:
        failures.append(name)


def check_table(eps, delta, k):
    s = ps.create_partition_strategy("truncated_geometric", eps, delta, k)
    e, d = eps / k, _noise.per_partition_delta(delta, k)
    worst_slack, ok = 0.0, True
    for n in range(1, len(s._table) + 2):
        p, q = s.probability_of_keep(n), s.probability_of_keep(n - 1)
        c1, c2 = math.exp(e) * q + d - p, math.exp(e) * (1 - p) + d - (1 - q)
        ok &= c1 >= -1e-12 and c2 >= -1e-12
        slack = min(c1, c2, 1 - p)
        ok &= slack <= 1e-12 * max(1.0, abs(c1), abs(c2))
        worst_slack = max(worst_slack, slack)
    check(f"pi table eps={eps} delta={delta} k={k}", ok,
          f"{len(s._table) - 1} steps to 1, constraints hold, max slack {worst_slack:.1e}")


def check_gaussian_std():
    for eps, delta, sens in ((1.0, 1e-5, 1.0), (1 / 3, 1e-6 / 3, 2 * math.sqrt(3)), (5.0, 1e-9, 600.0)):
        std = nm.GaussianMechanism(eps, delta, sens).std
        at, below = _noise.gaussian_delta(std, eps, sens), _noise.gaussian_delta(0.999 * std, eps, sens)
        check(f"analytic Gaussian eps={eps:.4g} delta={delta:.3g} D={sens:.4g}",
              abs(at - delta) <= 1e-9 * delta and below > delta, f"std {std:.6f}, delta(std) {at:.6e}")
    std = nm.GaussianMechanism(1.0, 1e-5, 1.0).std
    check("analytic Gaussian (1, 1e-5, 1) = 3.7306", abs(std - 3.7306) < 1e-4, f"{std:.6f}")


def check_std(name, draws, expected):
    n = len(draws)
    sd = float(np.std(draws))
    # var of the sample variance = (mu4 - sigma^4) / n; Laplace mu4 = 6 sigma^4, normal 3 sigma^4
    kurt = 6.0 if "Laplace" in name else 3.0
    z = (sd * sd - expected * expected) / (expected * expected * math.sqrt((kurt - 1) / n))
    check(name, abs(z) < Z, f"sample sd {sd:.4f} vs {expected:.4f} (z = {z:.2f})")


def check_keep(name, strategy, n, p, trials=200000):
    kept = sum(strategy.should_keep(n) for _ in range(trials))
    sd = math.sqrt(max(p * (1 - p), 1e-300) / trials)
    z = (kept / trials - p) / sd if p * (1 - p) > 0 else (0.0 if kept / trials == p else float("inf"))
    check(name, abs(z) < Z, f"n={n}: kept {kept / trials:.5f} vs {p:.5f} (z = {z:.2f})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--break-laplace", action="store_true")
    args = ap.parse_args()
    _noise.RNG = np.random.default_rng(args.seed)

    for eps, delta, k in ((1 / 3, 1e-6, 3), (1.0, 1e-5, 1), (0.1, 1e-10, 10), (2.0, 0.3, 2)):
        check_table(eps, delta, k)
    check_gaussian_std()

    lap = nm.LaplaceMechanism(1 / 3, 600.0)
    scale = 1.05 if args.break_laplace else 1.0
    check_std("Laplace noise sd (eps 1/3, sensitivity 600)",
              np.array([scale * (lap.add_noise(0.0)) for _ in range(200000)]), lap.diversity * math.sqrt(2))
    gau = nm.GaussianMechanism(1 / 3, 1e-6 / 3, 2 * math.sqrt(3))
    check_std("Gaussian noise sd (eps 1/3, delta 1e-6/3, D 2 sqrt 3)",
              np.array([gau.add_noise(0.0) for _ in range(200000)]), gau.std)

    tg = ps.create_partition_strategy("truncated_geometric", 1.0, 0.01, 2)
    for n in (1, 5, 10):
        check_keep("truncated geometric keep rate", tg, n, tg.probability_of_keep(n))
    for kind in ("laplace", "gaussian"):
        s = ps.create_partition_strategy(kind, 1.0, 0.02, 2)
        d = _noise.per_partition_delta(0.02 / (2 if kind == "gaussian" else 1), 2)
        check_keep(f"{kind} thresholding keep rate at 1 unit = per-partition delta", s, 1, d)
        if kind == "laplace":
            b = s._mechanism.diversity
            t = s.threshold - 10  # P(Laplace(b) >= t)
            far = 0.5 * math.exp(-t / b) if t > 0 else 1 - 0.5 * math.exp(t / b)
        else:
            far = float(special.ndtr((10 - s.threshold) / s._mechanism.std))
        check_keep(f"{kind} thresholding keep rate", s, 10, far)

    print(f"{len(failures)} failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
