#!/usr/bin/env python3
"""Numerical sanity check of the replace-one dominating pair of the Poisson-subsampled Gaussian.

docs/ACCOUNTING.md ("Replace-one with subsampled events") PROVES that for every a, b with
|a|, |b| <= Delta (any dimension, sigma = 1)

    H_g((1-q) N(0,I) + q N(a,I) || (1-q) N(0,I) + q N(b,I))
        <= H_g((1-q) N(0,1) + q N(Delta,1) || (1-q) N(0,1) + q N(-Delta,1))      for all g >= 0,

H_g(P||Q) = integral of (p - g r)^+ (the hockey-stick divergence, delta at eps = log g). This
script is not part of that proof: it only recomputes both sides numerically (double precision,
pure Python: no numpy needed) and reports the largest ratio found, so that a mistake in the
argument would show up as a ratio above 1.

  * 1-D family: a = (al, be), b = (-al, be), al^2 + be^2 = Delta^2 (every pair with |a| = |b| =
    Delta is a rotation of one of these). The coordinate y has the same law under both sides, so
    H = E_y[h(w(y))] with w(y) the posterior probability that the record was sampled and h the
    1-D antipodal divergence at rate w and shift al (closed form at the loss threshold).
  * 2-D brute force: random a, b in the disc of radius Delta, the divergence by Simpson's rule
    on a square grid, against the 1-D closed form.

Usage: python3 examples/accounting/replace_one_dominating_pair_check.py [--quick]
"""
import math
import random
import sys

SQRT2 = math.sqrt(2.0)


def upper_tail(x):
    return 0.5 * math.erfc(x / SQRT2)


def log_mixture(w, t):
    """log((1 - w) + w e^t), without overflow or log(0)."""
    if t > 0:
        return t + math.log(w + (1 - w) * math.exp(-t))
    return math.log((1 - w) + w * math.exp(t))


def antipodal(w, al, g):
    """H_g((1-w) N(0) + w N(al) || (1-w) N(0) + w N(-al)) in one dimension (closed form)."""
    if w <= 0 or al <= 0:
        return max(0.0, 1 - g)
    lg = math.log(g)

    def loss(x):
        return log_mixture(w, al * x - al * al / 2) - log_mixture(w, -al * x - al * al / 2)

    lo, hi = -60.0, 60.0  # the loss is increasing: bisect for loss(x) = log g
    if loss(hi) <= lg:
        return 0.0
    if loss(lo) < lg:
        for _ in range(90):
            mid = 0.5 * (lo + hi)
            if loss(mid) > lg:
                hi = mid
            else:
                lo = mid
    x = 0.5 * (lo + hi)
    return (1 - w) * (1 - g) * upper_tail(x) + w * upper_tail(x - al) - g * w * upper_tail(x + al)


def npdf(y):
    return math.exp(-y * y / 2) / math.sqrt(2 * math.pi)


def family(q, delta, be, g, n=1200):
    """H_g for a = (al, be), b = (-al, be), al = sqrt(Delta^2 - be^2), by Simpson over y."""
    al = math.sqrt(max(delta * delta - be * be, 0.0))
    if be == 0:
        return antipodal(q, al, g)
    lo, hi = -12.0, be + 12.0
    h = (hi - lo) / n
    total = 0.0
    for i in range(n + 1):
        y = lo + i * h
        t = q * math.exp(be * y - be * be / 2)
        w = t / ((1 - q) + t)
        weight = 1 if i in (0, n) else (4 if i % 2 else 2)
        total += weight * ((1 - q) * npdf(y) + q * npdf(y - be)) * antipodal(w, al, g)
    return total * h / 3


def brute_force_2d(q, a, b, g, n=500, reach=9.0):
    """H_g of the 2-D mixtures by Simpson's rule on [-reach, reach]^2 (shifted to cover a, b)."""
    lo = -reach - 1
    h = (2 * reach + 2) / n
    total = 0.0
    for i in range(n + 1):
        x = lo + i * h
        wi = 1 if i in (0, n) else (4 if i % 2 else 2)
        for j in range(n + 1):
            y = lo + j * h
            wj = 1 if j in (0, n) else (4 if j % 2 else 2)
            base = (1 - q) * math.exp(-(x * x + y * y) / 2)
            p = base + q * math.exp(-((x - a[0]) ** 2 + (y - a[1]) ** 2) / 2)
            r = base + q * math.exp(-((x - b[0]) ** 2 + (y - b[1]) ** 2) / 2)
            d = p - g * r
            if d > 0:
                total += wi * wj * d
    return total * h * h / 9 / (2 * math.pi)


def main():
    quick = "--quick" in sys.argv
    worst = 0.0
    qs = [0.01, 0.2, 0.9] if quick else [0.001, 0.01, 0.05, 0.2, 0.5, 0.9, 1.0]
    sigmas = [0.5, 1.1, 3.0] if quick else [0.3, 0.5, 0.8, 1.1, 2.0, 5.0]
    epss = [0.1, 1.0, 4.0] if quick else [0.0, 0.05, 0.3, 1.0, 2.0, 4.0, 8.0]
    for q in qs:
        for sigma in sigmas:
            for eps in epss:
                delta, g = 1 / sigma, math.exp(eps)
                top = antipodal(q, delta, g)
                if top < 1e-250:
                    continue
                for frac in (0.02, 0.1, 0.3, 0.6, 0.9, 1.0):
                    ratio = family(q, delta, delta * frac, g) / top
                    worst = max(worst, ratio)
                    if ratio > 1 + 1e-9:
                        print(f"ABOVE: q={q} sigma={sigma} eps={eps} be/Delta={frac} ratio={ratio!r}")
    print(f"1-D family: largest ratio to the antipodal pair {worst!r} (<= 1 up to rounding expected)")
    rng = random.Random(20261126)
    worst2 = 0.0
    for _ in range(3 if quick else 12):
        q = rng.choice([0.05, 0.3, 0.7])
        delta = rng.choice([0.6, 1.0, 1.6])
        g = math.exp(rng.choice([0.0, 0.2, 0.7, 1.5]))

        def point():
            rad, ang = delta * math.sqrt(rng.random()), 2 * math.pi * rng.random()
            return (rad * math.cos(ang), rad * math.sin(ang))

        a, b = point(), point()
        top = antipodal(q, delta, g)
        value = brute_force_2d(q, a, b, g)
        worst2 = max(worst2, value / top)
        print(f"2-D q={q} Delta={delta} g={g:.4f} a=({a[0]:.3f},{a[1]:.3f}) b=({b[0]:.3f},{b[1]:.3f}): "
              f"{value:.6e} <= {top:.6e}")
    print(f"2-D brute force: largest ratio {worst2!r}")
    # The check can fail: a pair outside the relation (|a| = 1.5 Delta) exceeds the bound.
    q, delta, g = 0.3, 1.0, math.exp(0.5)
    outside = brute_force_2d(q, (1.5 * delta, 0.0), (-delta, 0.0), g)
    print(f"outside the relation (|a| = 1.5 Delta): ratio {outside / antipodal(q, delta, g)!r} (> 1 expected)")


if __name__ == "__main__":
    main()
