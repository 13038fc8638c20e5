#!/usr/bin/env python3
"""Independent reference values for tests/laws/skellam_test.cc (mpmath, 60 digits).

The Skellam masses P[X = k] = exp(-2 mu) I_|k|(2 mu) from mpmath's Bessel function, the profile
delta(eps) = sum_k max(0, P(k) - e^eps P(k - D)) summed over |k| <= 400 + D (the rest is below
1e-100 for the mu used), and the exact Renyi divergence of order alpha of Sk(mu) + D against Sk(mu)
(to check that the AKL21 bound lies above it). Run: python3 tests/laws/data/skellam_reference.py
"""
import mpmath as mp

mp.mp.dps = 60


def pmf(mu, k):
    return mp.exp(-2 * mu) * mp.besseli(abs(k), 2 * mu)


def delta(mu, d, eps):
    return mp.fsum(max(0, pmf(mu, k) - mp.exp(eps) * pmf(mu, k - d)) for k in range(-400, 401 + d))


def renyi(mu, d, alpha):
    s = mp.fsum(pmf(mu, k) ** alpha * pmf(mu, k - d) ** (1 - alpha) for k in range(-300, 301 + d))
    return mp.log(s) / (alpha - 1)


for mu, k in [(mp.mpf(1) / 3, 0), (mp.mpf(1) / 3, 3), (2, 1), (25, 0), (25, 7), (25, 40)]:
    print("pmf", mu, k, mp.nstr(pmf(mu, k), 30))
for mu, d, eps in [(mp.mpf(1) / 3, 1, mp.mpf(1) / 10), (2, 1, mp.mpf(1) / 2), (10, 3, 1), (50, 1, 1), (50, 2, mp.mpf(1) / 4)]:
    print("delta", mu, d, eps, mp.nstr(delta(mu, d, eps), 30))
for mu, d, alpha in [(10, 1, 2), (10, 1, mp.mpf(7) / 2), (10, 3, 10), (50, 2, 5)]:
    print("renyi", mu, d, alpha, mp.nstr(renyi(mu, d, alpha), 30))
