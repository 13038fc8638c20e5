"""A small simulation study of the sparse private mean (docs/ESTIMATION.md, "Sparse mean").

    PYTHONPATH=build/python python3 examples/estimation/sparse_mean_study.py [--reps 3]

Rows x_i ~ N(mu, I_d), d = 500, mu 5-sparse with entries of magnitude 1 to 2, R = 7 (>= 2 +
sqrt(2 log(n d)) for these n). For each n and epsilon (delta = 10^-6) it prints the mean l2 error
over `reps` fixed-seed repetitions of: the sparse mean (Cai-Wang-Zhang Algorithm 3, Peeling with
the KOV route), the same with the paper's advanced-composition route, and the dense private mean
(truncated mean + Gaussian noise calibrated for the L2 sensitivity 2 R sqrt(d) / n), beside the
paper's privacy rate sqrt(s^2 log(d) log(1/delta)) / (n epsilon) (constants omitted) and the
statistical rate sqrt(s / n). Seeds are fixed (SeededBits is for demos and tests only).
"""

import argparse
import math
from fractions import Fraction

import numpy as np

import exactdp
from exactdp import estimators


def one_run(n, d, s, epsilon, rep):
    data = np.random.default_rng(1000 * n + rep)
    mu = np.zeros(d)
    support = data.choice(d, s, replace=False)
    mu[support] = data.uniform(1, 2, s) * data.choice([-1, 1], s)
    x = mu + data.standard_normal((n, d))
    errors = []
    for i, route in enumerate(("kov", "advanced")):
        rng = exactdp.SeededBits(bytes([rep, i] + [n % 251] * 30))
        est, _ = estimators.sparse_mean(x, sparsity=s, radius=7, epsilon=epsilon, delta="1e-6", route=route, rng=rng)
        errors.append(np.linalg.norm(est - mu))
    root_d = math.isqrt(d - 1) + 1  # >= sqrt(d)
    sigma = exactdp.calibrate("gaussian", epsilon=epsilon, delta="1e-6", sensitivity=Fraction(2 * 7 * root_d, n))
    dense = exactdp.add_noise(np.clip(x, -7, 7).mean(axis=0), sigma=sigma.upper,
                              rng=exactdp.SeededBits(bytes([rep, 9] + [n % 251] * 30)))
    errors.append(np.linalg.norm(dense - mu))
    return errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    d, s = 500, 5
    print(f"d = {d}, s = {s}, R = 7, delta = 1e-6, {args.reps} repetitions; mean l2 errors")
    print(f"{'n':>6} {'eps':>5} {'sparse/kov':>11} {'sparse/adv':>11} {'dense':>8} {'privacy rate':>13} {'stat rate':>10}")
    for n in (2000, 5000, 20000):
        for epsilon in (Fraction(1, 2), Fraction(1), Fraction(2)):
            errors = np.mean([one_run(n, d, s, epsilon, rep) for rep in range(args.reps)], axis=0)
            rate = math.sqrt(s * s * math.log(d) * math.log(1e6)) / (n * float(epsilon))
            print(f"{n:>6} {str(epsilon):>5} {errors[0]:>11.4f} {errors[1]:>11.4f} {errors[2]:>8.3f} "
                  f"{rate:>13.4f} {math.sqrt(s / n):>10.4f}")


if __name__ == "__main__":
    main()
