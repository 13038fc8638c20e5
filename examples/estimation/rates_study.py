"""The rates of "The cost of privacy" (Cai, Wang and Zhang), shown: a simulation study of
exactdp.estimators (docs/ESTIMATION.md, "Simulation study").

    PYTHONPATH=build/python python3 examples/estimation/rates_study.py            # full: SVGs + table
    PYTHONPATH=build/python python3 examples/estimation/rates_study.py --reduced  # the CI setting
    PYTHONPATH=build/python python3 examples/estimation/rates_study.py --reduced --seeds 10  # spread

Synthetic data only: Gaussian designs, s-sparse means and coefficients with nonzero entries of
magnitude 1 to 2 (sparse mean, noisy OLS) or 1.5 to 2.5 (DP-LASSO), random signs and support.
For every point of every sweep (one of n, epsilon, s, d varied, the others fixed; delta = 10^-6
throughout) it runs `reps` repetitions and records the SQUARED l2 error ||estimate - truth||^2 of:

  sparse mean   Algorithm 3 (Peeling, KOV route); non-private: the top-s coordinates of the
                sample mean; naive private: the Gaussian mechanism on all d coordinates of the
                truncated mean, exactdp's grid noise (add_noise), sigma certified for the grid
                release by the vector-discrete-gaussian law's profile (dense_gaussian_sigma).
  DP-LASSO      Algorithm 4; non-private: OLS restricted to the s largest OLS coefficients;
                naive private: noisy OLS on all d coefficients (no hard thresholding; valid
                here because n > d and the design's lambda_min(X^T X / n) > 1/2).
  noisy OLS     Section 4.3.1; non-private: OLS.

Reported: the mean squared error and its standard error over the repetitions, per point and
method; the log-log slope of the private estimator's mean squared error against the swept
variable (least squares over the sweep's points, standard error by the delta method:
var(log m) = (se / m)^2), and the paper's rate up to its constants,

  rate = C1 * stat + C2 * priv,  sparse mean and DP-LASSO: stat = s log d / n,
                                 priv = s^2 log^2 d / (n eps)^2 (the minimax lower bounds);
                                 noisy OLS: stat = d / n, priv = d^2 / (n eps)^2,

with C1, C2 >= 0 fitted ONCE per estimator (least squares of the relative residual
(m - C1 stat - C2 priv) / m over every point of every sweep of that estimator) and then drawn
unchanged (dashed) on each of its plots. Data come from numpy's PCG64 seeded with (seed, sweep,
point, rep); noise from exactdp.SeededBits keyed by a hash of the same (tests and studies only:
SeededBits is not for releases).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np

import exactdp
from exactdp import estimators

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loglog_svg  # noqa: E402  (beside this script)

DELTA = Fraction(1, 10**6)
REPS, LASSO_REPS, REDUCED_REPS = 40, 12, 24  # repetitions per point
MEAN_RADIUS = 8          # >= max |mu_j| + sqrt(2 log(n d)) for every sweep (n d <= 1.3e7)
LASSO_BOUNDS = {"coordinate_bound": 4, "response_bound": 18, "coefficient_bound": 3}
OLS_BOUNDS = {"coordinate_bound": 1, "response_bound": 8, "eigen_bound": 4}
OLS_COEFFICIENTS = (0.5, -1.0, 0.25, 0.75, -0.5, 1.0, -0.25, 0.5)


@dataclass(frozen=True)
class Sweep:
    """One curve family: `variable` takes `values`, the rest is `fixed` (n, d, s, epsilon)."""
    name: str
    estimator: str          # sparse_mean | dp_lasso | noisy_ols
    variable: str           # n | epsilon | s | d
    values: Tuple
    fixed: Dict
    target: str = ""        # the slope expected in words ("" = no slope in the table)
    interval: Tuple[float, float] = (0.0, 0.0)   # the slope's acceptance interval (tests)
    fit_values: Tuple = ()  # the values the slope is fitted on (default: all)
    reps: int = 0           # repetitions per point (0: the run's)

    def fitted(self, points: Sequence["Point"]) -> List["Point"]:
        return [p for p, v in zip(points, self.values) if not self.fit_values or v in self.fit_values]


@dataclass
class Point:
    x: float
    errors: Dict[str, np.ndarray] = field(default_factory=dict)   # method -> squared errors

    def mean(self, method: str) -> float:
        return float(np.mean(self.errors[method]))

    def se(self, method: str) -> float:
        e = self.errors[method]
        return float(np.std(e, ddof=1) / math.sqrt(len(e))) if len(e) > 1 else 0.0


# ---------------------------------------------------------------- randomness

def data_rng(seed: int, sweep: str, point: int, rep: int) -> np.random.Generator:
    key = int.from_bytes(hashlib.sha256(f"{sweep}".encode()).digest()[:8], "little")
    return np.random.default_rng([seed, key, point, rep])


def noise_rng(seed: int, sweep: str, point: int, rep: int, method: str) -> exactdp.SeededBits:
    return exactdp.SeededBits(hashlib.sha256(f"{seed}/{sweep}/{point}/{rep}/{method}".encode()).digest())


def sparse_vector(data: np.random.Generator, d: int, s: int, lo: float, hi: float) -> np.ndarray:
    v = np.zeros(d)
    support = data.choice(d, s, replace=False)
    v[support] = data.uniform(lo, hi, s) * data.choice([-1.0, 1.0], s)
    return v


# ---------------------------------------------------------------- the naive private mean

def _sqrt_upper(d: int, bits: int = 20) -> Fraction:
    """A rational >= sqrt(d), within 2^-bits."""
    return Fraction(math.isqrt(d << (2 * bits)) + 1, 1 << bits)


@lru_cache(maxsize=None)
def dense_gaussian_sigma(d: int, n: int, radius: int, epsilon: Fraction) -> Tuple[Fraction, Fraction]:
    """(sigma, granularity) for the Gaussian mechanism on the d-dimensional mean of rows clipped
    to [-radius, radius]^d (L2 sensitivity 2 radius sqrt(d) / n), released with add_noise on the
    grid g: the continuous Gaussian's certified sigma at the sensitivity inflated by the rounding
    (2 g sqrt(d), twice docs/REAL_VALUED_ACCOUNTING.md's Lemma 1 term), then CERTIFIED for what is
    released by the vector-discrete-gaussian law's profile (Theorem 3 there): delta(eps) <= DELTA
    (sigma grows by 1/1000 until it is)."""
    sensitivity = Fraction(2 * radius, n) * _sqrt_upper(d)
    sigma0 = exactdp.calibrate("gaussian", epsilon=epsilon, delta=DELTA, sensitivity=sensitivity).upper
    g = exactdp.noise_granularity(sigma=sigma0)
    sigma = exactdp.calibrate("gaussian", epsilon=epsilon, delta=DELTA,
                              sensitivity=sensitivity + 2 * g * _sqrt_upper(d)).upper
    for _ in range(20):
        delta = exactdp.profile("vector-discrete-gaussian", sigma=sigma, sensitivity=sensitivity, dim=d,
                                granularity=g, epsilon=epsilon)
        if delta.upper <= DELTA:
            return sigma, g
        sigma = sigma * Fraction(1001, 1000)
    raise RuntimeError("dense_gaussian_sigma: no certified sigma found")


# ---------------------------------------------------------------- one repetition per estimator

def run_sparse_mean(p: Dict, data: np.random.Generator, bits: Callable[[str], exactdp.SeededBits],
                    sparse_mean: Callable = None) -> Dict[str, float]:
    """Squared l2 errors of the sparse mean, the non-private top-s mean and the dense private mean."""
    n, d, s, eps = p["n"], p["d"], p["s"], p["epsilon"]
    mu = sparse_vector(data, d, s, 1.0, 2.0)
    x = data.standard_normal((n, d))
    x += mu
    est, _ = (sparse_mean or estimators.sparse_mean)(x, sparsity=s, radius=MEAN_RADIUS, epsilon=eps, delta=DELTA,
                                                      route="kov", rng=bits("private"))
    xbar = x.mean(axis=0)
    top = np.zeros(d)
    keep = np.argsort(-np.abs(xbar), kind="stable")[:s]
    top[keep] = xbar[keep]
    out = {"private": est, "non-private": top}
    if p.get("dense", True):
        sigma, g = dense_gaussian_sigma(d, n, MEAN_RADIUS, eps)
        clipped_mean = np.clip(x, -MEAN_RADIUS, MEAN_RADIUS).mean(axis=0)
        out["dense private"] = exactdp.add_noise(clipped_mean, sigma=sigma, granularity=g, rng=bits("dense"))
    return {k: float(np.sum((v - mu) ** 2)) for k, v in out.items()}


def _ols(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.linalg.lstsq(x, y, rcond=None)[0]


def run_dp_lasso(p: Dict, data: np.random.Generator, bits: Callable[[str], exactdp.SeededBits],
                 **_: object) -> Dict[str, float]:
    """Squared l2 errors of DP-LASSO, the non-private top-s OLS and noisy OLS on all d."""
    n, d, s, eps = p["n"], p["d"], p["s"], p["epsilon"]
    beta = sparse_vector(data, d, s, 1.5, 2.5)
    x = data.standard_normal((n, d))
    y = x @ beta + 0.5 * data.standard_normal(n)
    est, _ = estimators.dp_lasso(x, y, sparsity=s, epsilon=eps, delta=DELTA, route="kov", rng=bits("private"),
                                 **LASSO_BOUNDS)
    full = _ols(x, y)
    keep = np.argsort(-np.abs(full), kind="stable")[:s]
    top = np.zeros(d)
    top[keep] = _ols(x[:, keep], y)
    out = {"private": est, "non-private": top}
    if p.get("dense", True):
        out["dense private"], _ = estimators.noisy_ols(
            x, y, coordinate_bound=LASSO_BOUNDS["coordinate_bound"],
            response_bound=LASSO_BOUNDS["response_bound"], eigen_bound=2, epsilon=eps, delta=DELTA,
            rng=bits("dense"))
    return {k: float(np.sum((v - beta) ** 2)) for k, v in out.items()}


def run_noisy_ols(p: Dict, data: np.random.Generator, bits: Callable[[str], exactdp.SeededBits],
                  **_: object) -> Dict[str, float]:
    """Squared l2 errors of noisy OLS and of OLS (unit-variance response noise). The design is
    uniform on [-1, 1]^d (lambda_min(E x x^T) = 1/3 > 1/eigen_bound): Lemma 3's sensitivity grows
    as c'^3 with the truncation c' = c sqrt(d), and a Gaussian design truncated at 4 standard
    deviations would put the statistical regime beyond n = 2.6e6 even at epsilon = 1000."""
    n, d, eps = p["n"], p["d"], p["epsilon"]
    beta = np.array(OLS_COEFFICIENTS[:d])
    x = data.uniform(-1.0, 1.0, (n, d))
    y = x @ beta + data.standard_normal(n)
    est, _ = estimators.noisy_ols(x, y, epsilon=eps, delta=DELTA, rng=bits("private"), **OLS_BOUNDS)
    out = {"private": est, "non-private": _ols(x, y)}
    return {k: float(np.sum((v - beta) ** 2)) for k, v in out.items()}


RUNNERS = {"sparse_mean": run_sparse_mean, "dp_lasso": run_dp_lasso, "noisy_ols": run_noisy_ols}


# ---------------------------------------------------------------- the sweeps

F = Fraction
N_MEAN = (8000, 16000, 32000, 64000)
N_LASSO = (40000, 80000, 160000, 320000)
N_OLS = (10000, 20000, 40000, 80000, 160000)


def full_sweeps() -> List[Sweep]:
    """The full study. Regimes: the sparse mean's privacy term (~ s^2 / (n eps)^2, constants of
    Peeling's noise) dominates its statistical term s / n while n < 4.6e5 at eps = 1/2 and
    n > 450 at eps = 16; selection of the support needs n eps >= 4000 here (d = 200)."""
    m, la, ols = {"d": 200, "s": 5}, {"d": 40, "s": 3}, {"d": 3}
    return [
        Sweep("sparse_mean_n_privacy", "sparse_mean", "n", N_MEAN, {**m, "epsilon": F(1, 2)},
              "-2 (privacy regime)", (-2.3, -1.7)),
        Sweep("sparse_mean_n_statistical", "sparse_mean", "n", N_MEAN, {**m, "epsilon": F(16)},
              "-1 (statistical regime)", (-1.3, -0.7)),
        Sweep("sparse_mean_epsilon", "sparse_mean", "epsilon", (F(1, 4), F(1, 2), F(1), F(2), F(4), F(8), F(16), F(32)),
              {**m, "n": 16000}, "-2 (privacy regime, fitted for eps <= 1)", fit_values=(F(1, 4), F(1, 2), F(1))),
        Sweep("sparse_mean_s", "sparse_mean", "s", (4, 8, 16, 32), {"d": 200, "n": 32000, "epsilon": F(1, 2)},
              "2 (paper); 3 with basic-like composition"),
        Sweep("sparse_mean_d", "sparse_mean", "d", (25, 50, 100, 200, 400, 800), {"s": 5, "n": 16000,
              "epsilon": F(1)}, "~0 (log^2 d)"),
        Sweep("dp_lasso_n_privacy", "dp_lasso", "n", N_LASSO, {**la, "epsilon": F(16)},
              "-2 (privacy; -1.8 with T = log2 n parts)", reps=LASSO_REPS),
        Sweep("dp_lasso_n_statistical", "dp_lasso", "n", N_LASSO, {**la, "epsilon": F(1000), "dense": False},
              "-1 (statistical; -0.9 with T = log2 n parts)", reps=LASSO_REPS),
        Sweep("dp_lasso_epsilon", "dp_lasso", "epsilon", (F(4), F(8), F(16), F(32), F(64)),
              {**la, "n": 160000, "dense": False}, "-2 (privacy regime)", reps=LASSO_REPS),
        Sweep("dp_lasso_d", "dp_lasso", "d", (10, 20, 40, 80), {"s": 3, "n": 80000, "epsilon": F(16), "dense": False},
              "~0 (log^2 d)", reps=LASSO_REPS),
        Sweep("noisy_ols_n_privacy", "noisy_ols", "n", N_OLS, {**ols, "epsilon": F(1)}, "-2 (privacy regime)"),
        Sweep("noisy_ols_n_statistical", "noisy_ols", "n", N_OLS, {**ols, "epsilon": F(1000)},
              "-1 (statistical regime)"),
        Sweep("noisy_ols_epsilon", "noisy_ols", "epsilon", (F(1, 2), F(1), F(2), F(4), F(8)), {**ols, "n": 40000},
              "-2 (privacy regime)"),
        Sweep("noisy_ols_d", "noisy_ols", "d", (2, 3, 4, 6, 8), {"n": 40000, "epsilon": F(1)},
              "2 (paper); 4 by Lemma 3's c'^3 sensitivity"),
    ]


def reduced_sweeps() -> List[Sweep]:
    """The CI setting: the sparse mean's two regimes in n (d = 100) and noisy OLS's."""
    m, n = {"d": 100, "s": 5, "dense": False}, (8000, 16000, 32000, 64000)
    return [
        Sweep("sparse_mean_n_privacy", "sparse_mean", "n", n, {**m, "epsilon": F(1, 2)},
              "-2 (privacy regime)", (-2.5, -1.3), reps=REDUCED_REPS),
        Sweep("sparse_mean_n_statistical", "sparse_mean", "n", n, {**m, "epsilon": F(16)},
              "-1 (statistical regime)", (-1.5, -0.5), reps=REDUCED_REPS),
        Sweep("noisy_ols_n_privacy", "noisy_ols", "n", N_OLS[:3], {"d": 3, "epsilon": F(1)},
              "-2 (privacy regime)", (-2.8, -1.2), reps=REDUCED_REPS),
        Sweep("noisy_ols_n_statistical", "noisy_ols", "n", N_OLS[:3], {"d": 3, "epsilon": F(1000)},
              "-1 (statistical regime)", (-1.6, -0.4), reps=REDUCED_REPS),
    ]


def run_sweep(sweep: Sweep, reps: int, seed: int, **override: Callable) -> List[Point]:
    """Every point of the sweep, `reps` repetitions each; override: e.g. sparse_mean=broken."""
    points = []
    for i, value in enumerate(sweep.values):
        params = {**sweep.fixed, sweep.variable: value}
        point = Point(float(value))
        rows = []
        for rep in range(reps):
            bits = lambda method, rep=rep: noise_rng(seed, sweep.name, i, rep, method)  # noqa: E731
            rows.append(RUNNERS[sweep.estimator](params, data_rng(seed, sweep.name, i, rep), bits, **override))
        point.errors = {k: np.array([r[k] for r in rows]) for k in rows[0]}
        points.append(point)
    return points


# ---------------------------------------------------------------- slopes and the rate

def loglog_slope(points: Sequence[Point], method: str = "private") -> Tuple[float, float]:
    """(slope, standard error): least squares of log(mean) on log(x); the error by the delta
    method from the means' standard errors (var(log m) = (se / m)^2, the points independent)."""
    lx = np.log([p.x for p in points])
    ly = np.log([p.mean(method) for p in points])
    c = (lx - lx.mean()) / np.sum((lx - lx.mean()) ** 2)
    var = np.array([(p.se(method) / p.mean(method)) ** 2 for p in points])
    return float(c @ ly), float(math.sqrt(c ** 2 @ var))


def rate_terms(estimator: str, params: Dict) -> Tuple[float, float]:
    """(stat, priv) of the paper's rate for these parameters (constants omitted)."""
    n, d, eps = params["n"], params["d"], float(params["epsilon"])
    if estimator == "noisy_ols":
        return d / n, d * d / (n * eps) ** 2
    s = params["s"]
    return s * math.log(d) / n, (s * math.log(d) / (n * eps)) ** 2


def fit_rate(estimator: str, sweeps: Sequence[Sweep], results: Dict[str, List[Point]]) -> Tuple[float, float]:
    """C1, C2 >= 0 minimising sum ((m - C1 stat - C2 priv) / m)^2 over every point of the
    estimator's sweeps (non-negative least squares in two variables)."""
    rows, target = [], []
    for sw in sweeps:
        if sw.estimator != estimator:
            continue
        for p in results[sw.name]:
            stat, priv = rate_terms(estimator, {**sw.fixed, sw.variable: p.x})
            m = p.mean("private")
            rows.append([stat / m, priv / m])
            target.append(1.0)
    a, b = np.array(rows), np.array(target)
    c = np.linalg.lstsq(a, b, rcond=None)[0]
    if np.all(c >= 0):
        return float(c[0]), float(c[1])
    alone = [max(0.0, float(a[:, j] @ b / (a[:, j] @ a[:, j]))) for j in (0, 1)]
    errors = [np.sum((b - a[:, j] * alone[j]) ** 2) for j in (0, 1)]
    return (alone[0], 0.0) if errors[0] <= errors[1] else (0.0, alone[1])


def rate_constant(sweep: Sweep, points: Sequence[Point], term: int) -> float:
    """The geometric mean over the sweep's points of mean squared error / the rate's term
    (0: statistical, 1: privacy): the constant of that term, measured where it dominates."""
    logs = [math.log(p.mean("private") / rate_terms(sweep.estimator, {**sweep.fixed, sweep.variable: p.x})[term])
            for p in points]
    return math.exp(sum(logs) / len(logs))


# ---------------------------------------------------------------- the report: plots and table

NAMES = {"sparse_mean": ("sparse mean (Peeling)", "non-private top-s mean", "dense Gaussian mechanism"),
         "dp_lasso": ("DP-LASSO", "non-private top-s OLS", "noisy OLS on all d"),
         "noisy_ols": ("noisy OLS", "OLS (non-private)", "")}
VARIABLE_LABEL = {"n": "n (rows)", "epsilon": "epsilon", "s": "s (sparsity)", "d": "d (dimension)"}
COLORS = (("#1f77b4", "#ff7f0e"), ("#d62728", "#9467bd"), ("#2ca02c", "#8c564b"))


def _fixed_text(fixed: Dict) -> str:
    return ", ".join(f"{'eps' if k == 'epsilon' else k} = {v}" for k, v in fixed.items() if k != "dense")


def chart_for(estimator: str, variable: str, sweeps: Sequence[Sweep], results: Dict[str, List[Point]],
              constants: Tuple[float, float]) -> loglog_svg.Chart:
    """One estimator's sweeps of one variable: the private estimator (error bars: one standard
    error), the paper's rate with the fitted constants (dashed, same colour), the dense private
    baseline, and the non-private estimator (of the first sweep)."""
    private, nonprivate, dense = NAMES[estimator]
    group = [sw for sw in sweeps if sw.estimator == estimator and sw.variable == variable]
    chart = loglog_svg.Chart(f"{private}: squared l2 error against {variable} "
                             f"(delta = 1e-6, mean of {len(results[group[0].name][0].errors['private'])} runs)",
                             VARIABLE_LABEL[variable], "mean squared l2 error")
    for k, sw in enumerate(group):
        pts, (c1, c2) = results[sw.name], constants
        colour, dense_colour = COLORS[k % len(COLORS)]
        label = _fixed_text({"epsilon": sw.fixed["epsilon"]}) if variable == "n" else _fixed_text(sw.fixed)
        xs = [p.x for p in pts]
        chart.series.append(loglog_svg.Series(f"{private}, {label}", xs, [p.mean("private") for p in pts],
                                              [p.se("private") for p in pts], color=colour))
        rate = [c1 * t[0] + c2 * t[1] for t in (rate_terms(estimator, {**sw.fixed, variable: x}) for x in xs)]
        chart.series.append(loglog_svg.Series(f"rate, fitted C1, C2, {label}", xs, rate, dashed=True, color=colour))
        if dense and "dense private" in pts[0].errors:
            chart.series.append(loglog_svg.Series(f"{dense}, {label}", xs, [p.mean("dense private") for p in pts],
                                                  [p.se("dense private") for p in pts], color=dense_colour))
    pts = results[group[0].name]
    chart.series.append(loglog_svg.Series(nonprivate, [p.x for p in pts], [p.mean("non-private") for p in pts],
                                          [p.se("non-private") for p in pts], color="#7f7f7f"))
    return chart


def slope_table(sweeps: Sequence[Sweep], results: Dict[str, List[Point]]) -> str:
    """The markdown table of the private estimators' log-log slopes (mean squared error)."""
    lines = ["| sweep | varied | fixed | slope of the mean squared error (+- s.e.) | expected |",
             "|---|---|---|---|---|"]
    for sw in sweeps:
        slope, se = loglog_slope(sw.fitted(results[sw.name]))
        values = ", ".join(str(v) for v in (sw.fit_values or sw.values))
        lines.append(f"| `{sw.name}` | {sw.variable} in {values} | {_fixed_text(sw.fixed)} | "
                     f"{slope:.3f} +- {se:.3f} | {sw.target} |")
    return "\n".join(lines)


def point_table(sweeps: Sequence[Sweep], results: Dict[str, List[Point]]) -> str:
    """Every point: mean squared error +- standard error of each method."""
    lines = []
    for sw in sweeps:
        lines.append(f"{sw.name} ({_fixed_text(sw.fixed)})")
        for p in results[sw.name]:
            cells = "  ".join(f"{m} {p.mean(m):.3e} +- {p.se(m):.1e}" for m in p.errors)
            lines.append(f"  {sw.variable} = {p.x:g}: {cells}")
    return "\n".join(lines)


# ---------------------------------------------------------------- the CI checks

# The measured constants' acceptance intervals for the reduced setting (rate_constant: privacy
# term for the privacy sweeps, statistical term for the statistical ones), about 3x either side
# of the values measured at seed 0 with 40 repetitions: 1145, 0.218 (1 / ln 100 = 0.217 in
# theory: the error is s / n once the support is found), 1.29e7, 3.08 (3 in theory: d / (n
# Var x) for x uniform on [-1, 1]). 10x the noise moves a privacy constant 100x.
REDUCED_CONSTANTS = {"sparse_mean_n_privacy": (1, (400.0, 3500.0)), "sparse_mean_n_statistical": (0, (0.1, 0.5)),
                     "noisy_ols_n_privacy": (1, (5e6, 3.5e7)), "noisy_ols_n_statistical": (0, (1.5, 6.0))}


def check(sweeps: Sequence[Sweep], results: Dict[str, List[Point]],
          constants: Dict[str, Tuple[int, Tuple[float, float]]] = None) -> List[str]:
    """The failures (empty: all pass): every slope with an interval inside it, every measured
    rate constant named in `constants` inside its interval."""
    constants = REDUCED_CONSTANTS if constants is None else constants
    failures = []
    for sw in sweeps:
        if sw.interval != (0.0, 0.0):
            slope, se = loglog_slope(sw.fitted(results[sw.name]))
            if not sw.interval[0] <= slope <= sw.interval[1]:
                failures.append(f"{sw.name}: slope {slope:.3f} +- {se:.3f} outside {sw.interval}")
        if sw.name in constants:
            term, (lo, hi) = constants[sw.name]
            c = rate_constant(sw, results[sw.name], term)
            if not lo <= c <= hi:
                failures.append(f"{sw.name}: rate constant {c:.4g} outside [{lo}, {hi}]")
    return failures


def run_study(sweeps: Sequence[Sweep], reps: int, seed: int, **override: Callable) -> Dict[str, List[Point]]:
    """Every sweep, sw.reps repetitions per point (or `reps` where the sweep sets none)."""
    return {sw.name: run_sweep(sw, sw.reps or reps, seed, **override) for sw in sweeps}


def write_charts(sweeps: Sequence[Sweep], results: Dict[str, List[Point]], directory: str) -> List[str]:
    paths = []
    for estimator in RUNNERS:
        if not any(sw.estimator == estimator for sw in sweeps):
            continue
        constants = fit_rate(estimator, sweeps, results)
        print(f"{estimator}: fitted rate constants C1 = {constants[0]:.4g}, C2 = {constants[1]:.4g}")
        for variable in VARIABLE_LABEL:
            if any(sw.estimator == estimator and sw.variable == variable for sw in sweeps):
                path = os.path.join(directory, f"estimation_rates_{estimator}_{variable}.svg")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(loglog_svg.render(chart_for(estimator, variable, sweeps, results, constants)))
                paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description="The rates of 'The cost of privacy', shown: a simulation "
                                     "study of exactdp.estimators (docs/ESTIMATION.md).")
    parser.add_argument("--reduced", action="store_true", help="the CI setting (about 45 s of CPU)")
    parser.add_argument("--reps", type=int, default=REPS, help=f"repetitions per point (default {REPS}; "
                        f"the full run's DP-LASSO sweeps use {LASSO_REPS}, the reduced run {REDUCED_REPS})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=1, help="repeat the study over seeds seed..seed+N-1 "
                        "(no plots): the spread of the slopes and the checks' false-alarm rate")
    parser.add_argument("--svg-dir", default=None, help="write the SVGs here (full run default: docs/)")
    args = parser.parse_args()
    sweeps = reduced_sweeps() if args.reduced else full_sweeps()
    reps = args.reps
    if args.seeds > 1:
        spread(sweeps, reps, args.seed, args.seeds)
        return
    start = time.process_time()
    results = run_study(sweeps, reps, args.seed)
    print(point_table(sweeps, results))
    print(slope_table(sweeps, results))
    if args.reduced:
        print("checks:", check(sweeps, results) or "all pass")
    svg_dir = args.svg_dir or (None if args.reduced else os.path.join(os.path.dirname(__file__), "..", "..", "docs"))
    if svg_dir:
        for path in write_charts(sweeps, results, svg_dir):
            print("wrote", os.path.normpath(path))
    print(f"CPU time of this process: {time.process_time() - start:.1f} s")


def spread(sweeps: Sequence[Sweep], reps: int, seed: int, seeds: int) -> None:
    """The slopes and constants over several seeds, and how many seeds fail a check."""
    slopes: Dict[str, List[float]] = {sw.name: [] for sw in sweeps}
    fails = 0
    for k in range(seed, seed + seeds):
        results = run_study(sweeps, reps, k)
        failures = check(sweeps, results)
        fails += bool(failures)
        for sw in sweeps:
            slopes[sw.name].append(loglog_slope(sw.fitted(results[sw.name]))[0])
        consts = {sw.name: rate_constant(sw, results[sw.name], REDUCED_CONSTANTS.get(sw.name, (1,))[0])
                  for sw in sweeps}
        print(f"seed {k}: " + ", ".join(f"{n} {s[-1]:.3f} (C {consts[n]:.3g})" for n, s in slopes.items())
              + (f"  FAILS: {failures}" if failures else ""))
    for name, s in slopes.items():
        print(f"{name}: slope mean {np.mean(s):.3f}, sd {np.std(s, ddof=1):.3f}, range [{min(s):.3f}, {max(s):.3f}]")
    print(f"{fails} of {seeds} seeds fail a check")


if __name__ == "__main__":
    main()
