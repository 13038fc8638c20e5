#!/usr/bin/env python3
"""Reference values for tests/accounting/product_discrete_gaussian_smoothed_test.cc, in mpmath
(50 digits), independently of the library's interval arithmetic and normal tails.

bound: min(1, R delta_G(eps - 2 ln R; mu)) with ln R = sum_j copies_j ln((1 + eta_j)/(1 - eta_j)),
  eta_j = 2 / (e^(2 pi^2 t2_j) - 1), mu^2 = sum_j copies_j shift_j^2 / (sigma2_j - t2_j) and
  delta_G(e; mu) = Phi(mu/2 - e/mu) - e^e Phi(-mu/2 - e/mu) (Balle and Wang 2018, Theorem 8).
exact: delta(eps) = E_P[(1 - e^(eps - L))_+] of the product of discrete Gaussians N_Z(0, s_j)
  against the same shifted by b_j, with L = sum_j (b_j^2 - 2 b_j x_j) / (2 s_j). The cases put
  every coordinate's loss on one lattice 1/D, so the law of L is an exact convolution of integer-
  keyed pmfs (each over |x| <= 14 sigma + b, the mass outside below 1e-40).
Run: python3 product_discrete_gaussian_smoothed_reference.py
"""
from fractions import Fraction
import math

import mpmath as mp

mp.mp.dps = 50


def q(text):
    f = Fraction(text)
    return mp.mpf(f.numerator) / f.denominator


def bound(eps, blocks):
    log_r = mp.mpf(0)
    mu2 = mp.mpf(0)
    for s2, b, copies, t2 in blocks:
        eta = 2 / mp.expm1(2 * mp.pi ** 2 * q(t2))
        log_r += copies * (mp.log1p(eta) - mp.log1p(-eta))
        mu2 += copies * mp.mpf(b * b) / (q(s2) - q(t2))
    e = q(eps) - 2 * log_r
    mu = mp.sqrt(mu2)
    g = mp.ncdf(mu / 2 - e / mu) - mp.exp(e) * mp.ncdf(-mu / 2 - e / mu)
    return min(mp.mpf(1), mp.exp(log_r) * g)


def loss_pmf(s2, b, unit):
    """{k: P[L = k / unit]} for one coordinate (unit D with (b^2 - 2 b x) D / (2 s2) integral)."""
    s = Fraction(s2)
    radius = int(14 * math.sqrt(s)) + b
    w = {x: mp.exp(-q(x * x) / (2 * q(s2))) for x in range(-radius, radius + 1)}
    total = mp.fsum(w.values())
    out = {}
    for x, v in w.items():
        k = Fraction(b * b - 2 * b * x) / (2 * s) * unit
        assert k.denominator == 1, "the case's losses are not on the lattice"
        out[int(k)] = out.get(int(k), 0) + v / total
    return out


def convolve(a, b):
    out = {}
    for i, u in a.items():
        for j, v in b.items():
            out[i + j] = out.get(i + j, 0) + u * v
    return out


def exact(eps, blocks, unit):
    law = {0: mp.mpf(1)}
    for s2, b, copies in blocks:
        one = loss_pmf(s2, b, unit)
        for _ in range(copies):
            law = convolve(law, one)
    e = q(eps)
    return mp.fsum(p * (1 - mp.exp(e - mp.mpf(k) / unit)) for k, p in law.items() if mp.mpf(k) / unit > e)


BOUND_CASES = [
    # eps, [(sigma2, shift, copies, t2)]
    ("2/3", [("1430", 2, 3, "1"), ("14300000", 200, 3, "4"), ("3560000", 100, 3, "4")]),
    ("1", [("30", 1, 3, "1/2")]),
    ("1/10", [("250", 1, 2, "3/4"), ("2500", 3, 1, "5/8")]),
]

EXACT_CASES = [
    # eps, [(sigma2, shift, copies)], lattice 1/D
    ("1", [("30", 1, 3)], 60),
    ("1/2", [("20", 1, 2), ("80", 2, 2)], 40),
    ("2/3", [("50", 1, 3), ("1250", 5, 2)], 500),
]

if __name__ == "__main__":
    for eps, blocks in BOUND_CASES:
        print(eps, blocks, mp.nstr(bound(eps, blocks), 20))
    for eps, blocks, unit in EXACT_CASES:
        print(eps, blocks, mp.nstr(exact(eps, blocks, unit), 20))
