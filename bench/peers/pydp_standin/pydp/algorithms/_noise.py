"""Shared helpers of the PyDP stand-in (NOT PyDP): the random source and the analytic Gaussian.

The random source is numpy's default generator seeded from the operating system. Its floating-
point Laplace and Gaussian draws are not hardened against floating-point attacks: fine for an
accuracy comparison, not for a release.
"""
import math

import numpy as np
from scipy import special

RNG = np.random.default_rng()


def check_positive(name, value):
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")


def check_probability(name, value, open_zero=False):
    if not (isinstance(value, (int, float)) and 0 <= value <= 1) or (open_zero and value == 0):
        raise ValueError(f"{name} must be in {'(0' if open_zero else '[0'}, 1], got {value!r}")


def gaussian_delta(sigma, epsilon, l2_sensitivity):
    """The smallest delta for which N(0, sigma^2) noise is (epsilon, delta)-DP at this L2
    sensitivity: Balle and Wang, "Improving the Gaussian Mechanism for Differential Privacy:
    Analytical Calibration and Optimal Denoising" (ICML 2018), Theorem 8:
        Phi(D / (2 sigma) - epsilon sigma / D) - e^epsilon Phi(-D / (2 sigma) - epsilon sigma / D).
    The second term is taken in log space so that a large epsilon does not overflow."""
    a = l2_sensitivity / (2 * sigma)
    b = epsilon * sigma / l2_sensitivity
    first = special.ndtr(a - b)
    second = math.exp(epsilon + special.log_ndtr(-a - b))
    return max(0.0, float(first - second))


def analytic_gaussian_std(epsilon, delta, l2_sensitivity):
    """The smallest sigma (to a relative 1e-12) with gaussian_delta(sigma) <= delta, by
    bisection: gaussian_delta decreases in sigma."""
    check_positive("epsilon", epsilon)
    check_probability("delta", delta, open_zero=True)
    check_positive("l2_sensitivity", l2_sensitivity)
    lo, hi = 0.0, l2_sensitivity
    while gaussian_delta(hi, epsilon, l2_sensitivity) > delta:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-12 * hi:
        mid = (lo + hi) / 2
        if mid > 0 and gaussian_delta(mid, epsilon, l2_sensitivity) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def per_partition_delta(delta, max_partitions_contributed):
    """delta_k with 1 - (1 - delta_k)^k = delta: the probability that a partition holding one
    unit is kept, so that a unit present in k partitions gets any of them kept with probability
    at most delta (the split PyDP's partition selection documents)."""
    if delta == 1:
        return 1.0
    return -math.expm1(math.log1p(-delta) / max_partitions_contributed)
