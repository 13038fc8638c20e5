#!/usr/bin/env python3
"""Independent reference values for tests/laws/ddg_test.cc (mpmath, 60 digits).

The sum of m independent discrete Gaussians N_Z(0, sigma2): one share's masses exp(-x^2 / (2 sigma2))
normalised by Jacobi's theta function theta_3(0, exp(-1 / (2 sigma2))) (not a summed window), the
m-fold law by m - 1 successive direct convolutions over |x| <= L (L = 40 sqrt(sigma2) + 10 per share,
the rest below 1e-100), the profile delta(eps) = sum_k max(0, P(k) - e^eps P(k - D)) and the exact
Renyi divergence of order alpha of the sum against the sum shifted by D (to check that the KLS21 bound
lies above it). Run: python3 tests/laws/data/ddg_reference.py
"""
import mpmath as mp

mp.mp.dps = 60


def share(sigma2):
    q = mp.exp(-1 / (2 * mp.mpf(sigma2)))
    norm = mp.jtheta(3, 0, q)
    width = int(40 * mp.sqrt(sigma2)) + 10
    return {x: q ** (x * x) / norm for x in range(-width, width + 1)}


def convolve(a, b):
    out = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, 0) + px * py
    return out


def law(sigma2, m):
    one = share(sigma2)
    total = one
    for _ in range(m - 1):
        total = convolve(total, one)
    return total


def delta(p, d, eps):
    keys = set(p) | {k + d for k in p}
    return mp.fsum(max(0, p.get(k, 0) - mp.exp(eps) * p.get(k - d, 0)) for k in keys)


def renyi(p, d, alpha):
    s = mp.fsum(p[k] ** alpha * p[k - d] ** (1 - alpha) for k in p if k - d in p)
    return mp.log(s) / (alpha - 1)


F = mp.mpf
for sigma2, m, k in [(F(1) / 2, 2, 0), (F(1) / 2, 2, 3), (2, 3, 1), (F(3) / 10, 7, -2), (10, 4, 25)]:
    print("pmf", sigma2, m, k, mp.nstr(law(sigma2, m)[k], 30))
for sigma2, m, d, eps in [(F(1) / 2, 2, 1, F(1) / 2), (2, 3, 1, 1), (1, 5, 2, F(1) / 4), (F(3) / 10, 7, 1, F(1) / 10),
                          (10, 4, 3, 1)]:
    print("delta", sigma2, m, d, eps, mp.nstr(delta(law(sigma2, m), d, eps), 30))
for sigma2, m, d, alpha in [(F(1) / 2, 2, 1, 2), (2, 3, 1, 5), (1, 5, 2, F(7) / 2), (10, 4, 3, 10)]:
    print("renyi", sigma2, m, d, alpha, mp.nstr(renyi(law(sigma2, m), d, alpha), 30))
