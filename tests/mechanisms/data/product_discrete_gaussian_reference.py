#!/usr/bin/env python3
"""Reference values for tests/mechanisms/joint_gaussian_calibration_test.cc: the exact delta(eps)
of two independent discrete Gaussians N_Z(0, s1) x N_Z(0, s2) against the pair shifted by
(b1, b2), by direct summation in mpmath (60 digits), independently of the library's
Euler-Maclaurin sums and of its reduction to a one-dimensional profile.

delta(eps) = sum_{x1, x2} (P(x) - e^eps Q(x))_+ with Q(x) = P(x - b). For fixed x1 the set where
P > e^eps Q is x2 < t (the loss is linear in x2), so the inner sum is F2(t - 1) - e^(eps - L1)
F2(t - 1 - b2), F2 the CDF of the second coordinate, from prefix sums of its pmf over
|x| <= 14 sigma + b (the mass outside is below 1e-40). Run: python3 product_discrete_gaussian_reference.py
"""
from fractions import Fraction
import math

import mpmath as mp

mp.mp.dps = 60


def pmf(sigma2, radius):
    f = [mp.exp(-mp.mpf(x * x) / (2 * sigma2)) for x in range(-radius, radius + 1)]
    total = mp.fsum(f)
    return [v / total for v in f]


def product_delta(eps, s1, b1, s2, b2):
    eps, s1, s2 = Fraction(eps), Fraction(s1), Fraction(s2)
    r1 = int(14 * math.sqrt(s1)) + b1
    r2 = int(14 * math.sqrt(s2)) + b2
    p1 = pmf(mp.mpf(s1.numerator) / s1.denominator, r1)
    p2 = pmf(mp.mpf(s2.numerator) / s2.denominator, r2)
    prefix = [mp.mpf(0)]
    for v in p2:
        prefix.append(prefix[-1] + v)

    def cdf2(x):  # P[X2 <= x]
        i = x + r2 + 1
        return prefix[max(0, min(i, len(prefix) - 1))]

    total = mp.mpf(0)
    for i, x1 in enumerate(range(-r1, r1 + 1)):
        l1 = Fraction(b1 * b1 - 2 * b1 * x1) / (2 * s1)
        rest = eps - l1  # the loss of coordinate 2 must exceed this: (b2^2 - 2 b2 x2)/(2 s2) > rest
        bound = (Fraction(b2 * b2) - 2 * s2 * rest) / (2 * b2)  # x2 < bound
        t = math.ceil(bound)  # x2 <= t - 1
        w = mp.mpf(rest.numerator) / rest.denominator
        inner = cdf2(t - 1) - mp.exp(w) * cdf2(t - 1 - b2)
        total += p1[i] * inner
    return total


CASES = [
    # eps, sigma2 count, b count, sigma2 sum, b sum
    ("2/3", "95", 1, "9500", 10),
    ("2/3", "85", 1, "8500", 10),
    ("1", "30", 2, "1200", 7),
    ("1/4", "200", 1, "20000", 10),
]

if __name__ == "__main__":
    for eps, s1, b1, s2, b2 in CASES:
        print(f'{{"{eps}", "{s1}", {b1}, "{s2}", {b2}, "{mp.nstr(product_delta(eps, s1, b1, s2, b2), 20)}"}},')
