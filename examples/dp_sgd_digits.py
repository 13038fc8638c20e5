"""DP-SGD end to end: scikit-learn's bundled digits, exact grid noise, certified accounting.

    PYTHONPATH=build/python /usr/bin/python3 examples/dp_sgd_digits.py            # about a minute
    PYTHONPATH=build/python /usr/bin/python3 examples/dp_sgd_digits.py --quick    # a few seconds

A multinomial logistic regression (64 pixels + a bias, 10 classes: d = 650 parameters) is trained
on sklearn.datasets.load_digits (bundled with scikit-learn, no download) by DP-SGD:

* Poisson sampling: every training example joins a step's batch independently with probability
  q = 1/16, exactly (Bernoulli(a / 2^32) from 32 uniform bits, a = 2^28: the inclusion
  probability is q itself, so the accounted q is the one used). The bits come from the OS CSPRNG
  (os.urandom), or, with --seed, from numpy's PCG64 (reproducible runs and tests only).
* per-example clipping of the gradient to L2 norm C = 1, then the sum of the clipped gradients;
* exactdp grid noise on that sum: the release is (round_half_even(sum / g) + Z) g with Z exact
  discrete Gaussian of parameter sigma^2 / g^2 per coordinate, sigma = noise multiplier x C,
  g = exactdp.noise_granularity(sigma=sigma) (docs/REAL_VALUED.md);
* the certified accountant of that noise, in Opacus' shape: exactdp.opacus.Accountant with
  step(noise_multiplier=, sample_rate=q, granularity=g, dim=650, max_grad_norm=C,
  sensitivity=S) per step, i.e. the event
  poisson-vector-discrete-gaussian:sigma=..,sensitivity=S,dim=650,granularity=g,q=1/16 composed
  over the steps (docs/REAL_VALUED_ACCOUNTING.md; without granularity and dim the step would be
  the continuous Gaussian, which under-reports grid noise). S is the L2
  sensitivity of the float sum as computed: C (1 + 2^-20), which covers the rounding errors of
  the clipping and of the summation (Config.sensitivity says why); the rounding to the grid is
  charged by the law itself (Lemma 1 there).

The noise of step t + 1 is drawn on a worker thread (concurrent.futures.ThreadPoolExecutor),
started when step t takes its own, while step t's update and step t + 1's gradients compute:
exactdp.add_noise releases the GIL while it sets its sampler up and draws. It is
drawn as exactdp.add_noise(zeros(d)), which is Z g exactly, and placed on the grid when the sum
is known by exact float arithmetic: n = rint(sum * 2^k), n + Z g 2^k, times 2^-k, each step exact
while |n + Z| < 2^53 (checked; otherwise the step fails). This is bit for bit what
exactdp.add_noise(sum) gives with the same draws (python/tests/test_dp_sgd_example.py checks it).

Printed beside it: the same training with numpy floating-point Gaussian noise at the same sigma
(not private as computed: the low bits of a float sum leak) and without privacy (no clipping,
no noise). The full run sweeps the noise multiplier and writes an accuracy-vs-epsilon plot as a
hand-written SVG (docs/dp_sgd_digits.svg; no plotting library). When torch imports, a torch
variant of the exactdp run (CPU tensors through exactdp.add_noise) is run too; else it is skipped.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import sys
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple

import numpy as np
from numpy.typing import NDArray

import exactdp

CLASSES, FEATURES = 10, 64
DIM = CLASSES * (FEATURES + 1)      # weights and biases: the number of coordinates noised
Q_NUMERATOR_BITS = 32               # q = a / 2^32 exactly


@dataclass(frozen=True)
class Config:
    """One training run. noise: "exactdp" (grid noise), "float" (numpy normal) or "none"."""
    noise: str = "exactdp"
    noise_multiplier: Fraction = Fraction(11, 10)
    clip: Fraction = Fraction(1)
    q: Fraction = Fraction(1, 16)
    steps: int = 600
    learning_rate: float = 4.0
    delta: Fraction = Fraction(1, 100000)
    prefetch: bool = True
    noise_factor: int = 1            # tests only: multiplies the exactdp noise's sigma (a broken run)
    seed: Optional[int] = None       # None: the OS CSPRNG for sampling and noise

    @property
    def sigma(self) -> Fraction:
        return self.noise_multiplier * self.clip

    @property
    def sensitivity(self) -> Fraction:
        """The L2 sensitivity (add/remove one example) of the clipped sum AS COMPUTED in float64:
        C (1 + 2^-20). Each clipped gradient has norm <= C (1 + 100 u), u = 2^-53 (the norms and
        the scaling, a few roundings each); a float sum of B terms in any order (BLAS, FMA)
        is within gamma_B sum_i |G_i| of the exact sum, gamma_B = B u / (1 - B u), so two
        neighbouring sums as computed differ by at most C (1 + 100 u) (1 + 2 B gamma_B),
        B <= 1438 examples: below C (1 + 10^-9), inside C (1 + 2^-20)."""
        return self.clip * (1 + Fraction(1, 2**20))


# (x_train, y_train, x_test, y_test)
Data = Tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any]]

def load_digits_split(test_fraction: float = 0.2) -> Data:
    """(x_train, y_train, x_test, y_test): pixels scaled to [0, 1], a fixed shuffled split."""
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = digits.data.astype(np.float64) / 16.0
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(y))
    cut = int(round(len(y) * (1 - test_fraction)))
    train, test = order[:cut], order[cut:]
    return x[train], y[train], x[test], y[test]


class PoissonSampler:
    """Each of n examples joins a batch independently with probability q = a / 2^32 exactly:
    example i joins when its 32 uniform bits, read as an integer u, satisfy u < a."""

    def __init__(self, n: int, q: Fraction, seed: Optional[int]):
        threshold = q * 2**Q_NUMERATOR_BITS
        if threshold.denominator != 1 or not 0 <= threshold <= 2**Q_NUMERATOR_BITS:
            raise ValueError(f"q = {q}: allowed a / 2^32 for an integer 0 <= a <= 2^32")
        self.n, self.threshold = n, int(threshold)
        self.generator = None if seed is None else np.random.Generator(np.random.PCG64(seed))

    def batch(self) -> NDArray[Any]:
        if self.generator is None:
            u = np.frombuffer(os.urandom(4 * self.n), dtype=np.uint32)
        else:
            u = self.generator.integers(0, 2**32, size=self.n, dtype=np.uint32)
        return np.flatnonzero(u.astype(np.uint64) < self.threshold)


def clipped_gradient_sum(w: NDArray[Any], x: NDArray[Any], y: NDArray[Any], clip: Optional[float]) -> NDArray[Any]:
    """Sum over the batch of the per-example cross-entropy gradients of the logistic regression
    w (CLASSES x (FEATURES + 1)), each scaled to L2 norm <= clip (clip None: not clipped)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    logits = xb @ w.T
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(y)), y] -= 1.0                      # d loss / d logits
    if clip is not None:                                # per-example gradient p_i x_i^T: norm |p_i| |x_i|
        norms = np.linalg.norm(p, axis=1) * np.linalg.norm(xb, axis=1)
        p *= np.minimum(1.0, clip / np.maximum(norms, 1e-300))[:, None]
    return p.T @ xb                                     # sum_i p_i x_i^T


def grid_release(total: NDArray[Any], noise: NDArray[Any], k: int) -> NDArray[Any]:
    """(round_half_even(total 2^k) + Z) 2^-k, given noise = Z 2^-k (add_noise of zeros on the
    grid 2^-k): every float operation below is exact while |n + Z| < 2^53 (checked)."""
    n = np.rint(np.ldexp(total, k))                     # scaling by 2^k is exact; rint ties to even
    z = np.ldexp(noise, k)
    released = n + z
    if not (np.all(np.abs(n) < 2.0**53) and np.all(np.abs(z) < 2.0**53) and np.all(np.abs(released) < 2.0**53)):
        raise ArithmeticError("grid_release: |round(sum / g) + Z| >= 2^53; use exactdp.add_noise(sum) directly")
    return np.ldexp(released, -k)


class GridNoise:
    """Exact grid noise of one run, drawn one step ahead on a worker thread when prefetching."""

    def __init__(self, config: Config):
        self.sigma = config.sigma * config.noise_factor
        self.granularity = exactdp.noise_granularity(sigma=self.sigma)
        self.k = self.granularity.denominator.bit_length() - 1 if self.granularity < 1 else \
            -(self.granularity.numerator.bit_length() - 1)
        self.rng = None if config.seed is None else exactdp.SeededBits(f"{config.seed:064x}")
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1) if config.prefetch else None
        self.pending: Optional[concurrent.futures.Future[NDArray[Any]]] = None

    def _draw(self) -> NDArray[Any]:
        return exactdp.add_noise(np.zeros(DIM), sigma=self.sigma, granularity=self.granularity, rng=self.rng)

    def prefetch(self) -> None:
        """Starts drawing the next step's noise (no-op without prefetching)."""
        if self.pool is not None and self.pending is None:
            self.pending = self.pool.submit(self._draw)

    def release(self, total: NDArray[Any], prefetch_next: bool) -> NDArray[Any]:
        """The noised sum: the prefetched draw placed on the grid (and the next step's draw
        started, when prefetch_next), or add_noise(total) directly without prefetching."""
        if self.pool is None:
            return exactdp.add_noise(total.reshape(-1), sigma=self.sigma, granularity=self.granularity,
                                     rng=self.rng).reshape(total.shape)
        self.prefetch()
        assert self.pending is not None  # prefetch() started it
        noise, self.pending = self.pending.result(), None
        if prefetch_next:
            self.prefetch()                             # drawn while the update and the next step compute
        return grid_release(total.reshape(-1), noise, self.k).reshape(total.shape)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)


def train(data: Data, config: Config) -> NDArray[Any]:
    """DP-SGD (or plain SGD for noise="none") from zero weights; returns the weights."""
    x_train, y_train = data[0], data[1]
    sampler = PoissonSampler(len(y_train), config.q, config.seed)
    float_rng = np.random.default_rng(None if config.seed is None else config.seed + 1)
    grid = GridNoise(config) if config.noise == "exactdp" else None
    expected_batch = float(config.q) * len(y_train)     # a public constant: the noisy sum / it
    w = np.zeros((CLASSES, FEATURES + 1))
    clip = None if config.noise == "none" else float(config.clip)
    try:
        if grid is not None:
            grid.prefetch()                             # the first step's draw
        for step in range(config.steps):
            batch = sampler.batch()
            total = clipped_gradient_sum(w, x_train[batch], y_train[batch], clip)
            if grid is not None:
                total = grid.release(total, prefetch_next=step + 1 < config.steps)
            elif config.noise == "float":
                total = total + float_rng.normal(0.0, float(config.sigma), size=total.shape)
            w -= config.learning_rate * total / expected_batch
    finally:
        if grid is not None:
            grid.close()
    return w


def accuracy(w: NDArray[Any], x: NDArray[Any], y: NDArray[Any]) -> float:
    xb = np.hstack([x, np.ones((len(x), 1))])
    return float(np.mean(np.argmax(xb @ w.T, axis=1) == y))


def certified_epsilon(config: Config) -> exactdp.Interval:
    """The certified epsilon of the grid noise drawn: `steps` Poisson-subsampled vector discrete
    Gaussian steps in the Opacus-shaped accountant (mechanism prv: the smoothed-pld route of
    docs/REAL_VALUED_ACCOUNTING.md for this law)."""
    g = exactdp.noise_granularity(sigma=config.sigma)
    accountant = exactdp.opacus.Accountant(mechanism="prv")
    for _ in range(config.steps):
        accountant.step(noise_multiplier=config.noise_multiplier, sample_rate=config.q, granularity=g, dim=DIM,
                        max_grad_norm=config.clip, sensitivity=config.sensitivity)
    return accountant.get_epsilon_interval(config.delta)


def continuous_epsilon(config: Config) -> exactdp.Interval:
    """For comparison: the certified epsilon of the CONTINUOUS sampled Gaussian at the same sigma
    (exactdp.opacus.Accountant, pld route); it is not a guarantee of any noise computed in floats."""
    accountant = exactdp.opacus.Accountant(mechanism="prv")
    for _ in range(config.steps):
        accountant.step(noise_multiplier=config.noise_multiplier, sample_rate=config.q)
    return accountant.get_epsilon_interval(config.delta)


def mean_accuracy(data: Data, config: Config, repeats: int) -> float:
    """Test accuracy averaged over `repeats` runs (seeds seed, seed + 10, ... when seeded)."""
    total = 0.0
    for r in range(repeats):
        seed = None if config.seed is None else config.seed + 10 * r
        total += accuracy(train(data, replace(config, seed=seed)), data[2], data[3])
    return total / repeats


@dataclass
class Result:
    noise_multiplier: Fraction
    epsilon: exactdp.Interval
    exact_accuracy: float
    float_accuracy: float
    seconds: float
    continuous: Optional[exactdp.Interval] = None


def run_point(data: Data, config: Config, repeats: int, compare_continuous: bool) -> Result:
    """Trains with exactdp noise and with float noise at one noise multiplier; accounts it."""
    start = time.perf_counter()
    exact = mean_accuracy(data, replace(config, noise="exactdp"), repeats)
    floats = mean_accuracy(data, replace(config, noise="float"), repeats)
    seconds = time.perf_counter() - start
    continuous = continuous_epsilon(config) if compare_continuous else None
    return Result(config.noise_multiplier, certified_epsilon(config), exact, floats, seconds, continuous)


def torch_accuracy(data: Data, config: Config) -> Optional[float]:
    """The exactdp run with torch CPU tensors (the same model, exactdp.add_noise on a tensor);
    None when torch does not import."""
    try:
        import torch
    except ImportError:
        return None
    x_train, y_train = torch.from_numpy(data[0]), torch.from_numpy(data[1])
    sampler = PoissonSampler(len(data[1]), config.q, config.seed)
    rng = None if config.seed is None else exactdp.SeededBits(f"{config.seed:064x}")
    g = exactdp.noise_granularity(sigma=config.sigma)
    w = torch.zeros((CLASSES, FEATURES + 1), dtype=torch.float64)
    for _ in range(config.steps):
        batch = torch.from_numpy(sampler.batch())
        xb = torch.cat([x_train[batch], torch.ones((len(batch), 1), dtype=torch.float64)], dim=1)
        p = torch.softmax(xb @ w.T, dim=1)
        p[torch.arange(len(batch)), y_train[batch]] -= 1.0
        norms = p.norm(dim=1) * xb.norm(dim=1)
        p = p * torch.clamp(float(config.clip) / norms.clamp_min(1e-300), max=1.0)[:, None]
        total = exactdp.add_noise((p.T @ xb).contiguous(), sigma=config.sigma, granularity=g, rng=rng)
        w -= config.learning_rate * total / (float(config.q) * len(data[1]))
    return accuracy(w.numpy(), data[2], data[3])


def svg_plot(results: Sequence[Result], baseline: float, title: str) -> str:
    """Accuracy against the certified epsilon's upper end (log scale), as SVG text."""
    width, height, left, right, top, bottom = 640, 400, 70, 170, 40, 60
    eps = [float(r.epsilon.upper) for r in results]
    lo, hi = math.log10(min(eps)) - 0.1, math.log10(max(eps)) + 0.1
    accs = [a for r in results for a in (r.exact_accuracy, r.float_accuracy)] + [baseline]
    a_lo, a_hi = math.floor(min(accs) * 20) / 20, 1.0

    def px(e: float) -> float:
        return left + (math.log10(e) - lo) / (hi - lo) * (width - left - right)

    def py(a: float) -> float:
        return top + (a_hi - a) / (a_hi - a_lo) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2:.0f}" y="22" text-anchor="middle" font-size="14">{title}</text>']
    x0, x1, y0, y1 = left, width - right, height - bottom, top
    out.append(f'<path d="M{x0},{y1} V{y0} H{x1}" fill="none" stroke="black"/>')
    for tick in [t for t in (0.5, 1, 2, 5, 10, 20, 50, 100) if lo <= math.log10(t) <= hi]:
        out.append(f'<line x1="{px(tick):.1f}" y1="{y0}" x2="{px(tick):.1f}" y2="{y0 + 5}" stroke="black"/>'
                   f'<text x="{px(tick):.1f}" y="{y0 + 18}" text-anchor="middle">{tick:g}</text>')
    steps = int(round((a_hi - a_lo) / 0.05))
    for i in range(steps + 1):
        a = a_lo + i * 0.05
        out.append(f'<line x1="{x0 - 5}" y1="{py(a):.1f}" x2="{x1}" y2="{py(a):.1f}" stroke="#ddd"/>'
                   f'<text x="{x0 - 8}" y="{py(a) + 4:.1f}" text-anchor="end">{a:.2f}</text>')
    out.append(f'<text x="{(x0 + x1) / 2:.0f}" y="{height - 18}" text-anchor="middle">'
               'certified epsilon (delta = 1e-5), log scale</text>')
    out.append(f'<text transform="translate(18,{(y0 + y1) / 2:.0f}) rotate(-90)" text-anchor="middle">'
               'test accuracy</text>')
    series = [("exactdp grid noise", "#1f77b4", [r.exact_accuracy for r in results], ""),
              ("numpy float noise", "#d62728", [r.float_accuracy for r in results], ' stroke-dasharray="2,3"')]
    for row, (name, colour, values, dash) in enumerate(series):
        points = " ".join(f"{px(e):.1f},{py(a):.1f}" for e, a in zip(eps, values))
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        out.extend(f'<circle cx="{px(e):.1f}" cy="{py(a):.1f}" r="3.5" fill="{colour}"/>' for e, a in zip(eps, values))
        out.append(f'<line x1="{x1 + 15}" y1="{y1 + 10 + 20 * row}" x2="{x1 + 35}" y2="{y1 + 10 + 20 * row}" '
                   f'stroke="{colour}" stroke-width="2"{dash}/><text x="{x1 + 40}" y="{y1 + 14 + 20 * row}">{name}</text>')
    out.append(f'<line x1="{x0}" y1="{py(baseline):.1f}" x2="{x1}" y2="{py(baseline):.1f}" stroke="gray" '
               f'stroke-dasharray="6,4"/><line x1="{x1 + 15}" y1="{y1 + 50}" x2="{x1 + 35}" y2="{y1 + 50}" '
               f'stroke="gray" stroke-dasharray="6,4"/><text x="{x1 + 40}" y="{y1 + 54}">no privacy</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


FULL_MULTIPLIERS = ("1", "3/2", "5/2", "4", "8")
QUICK_MULTIPLIERS = ("3/2",)


def run(quick: bool = False, seed: Optional[int] = None, noise_factor: int = 1,
        svg_path: Optional[str] = None, out: Optional[TextIO] = None) -> Dict[str, object]:
    """The example: returns {"results": [Result], "baseline": accuracy without privacy, "config", ...};
    prints to `out` (default sys.stdout). quick: one noise multiplier, 200 steps, 2 repeats, no
    continuous comparison, no plot."""
    out = sys.stdout if out is None else out
    data = load_digits_split()
    base = Config(steps=200 if quick else 600, learning_rate=2.0, seed=seed, noise_factor=noise_factor)
    repeats = 2 if quick else 3
    multipliers = QUICK_MULTIPLIERS if quick else FULL_MULTIPLIERS
    print(f"digits: {len(data[1])} train, {len(data[3])} test; logistic regression, d = {DIM}; q = {base.q}, "
          f"{base.steps} steps, clip C = {base.clip}, delta = {base.delta}; accuracies: mean of {repeats} runs",
          file=out)
    start, cpu_start = time.perf_counter(), time.process_time()
    baseline = mean_accuracy(data, replace(base, noise="none"), repeats)
    print(f"no privacy (no clipping, no noise): test accuracy {baseline:.4f}", file=out)
    results = []
    for z in multipliers:
        result = run_point(data, replace(base, noise_multiplier=Fraction(z)), repeats, compare_continuous=not quick)
        results.append(result)
        eps = result.epsilon
        line = (f"noise multiplier {z:>4}: certified epsilon [{eps.lower_float:.4f}, {eps.upper_float:.4f}] "
                f"(route {eps.details.get('route', '?')}); accuracy exactdp {result.exact_accuracy:.4f}, "
                f"float noise {result.float_accuracy:.4f}")
        if result.continuous is not None:
            line += f"; continuous Gaussian (pld) epsilon <= {result.continuous.upper_float:.4f}"
        print(line, file=out)
    torch_result = torch_accuracy(data, replace(base, noise_multiplier=Fraction(multipliers[0])))
    print("torch variant: " + ("skipped (torch does not import)" if torch_result is None else
                               f"noise multiplier {multipliers[0]}, accuracy {torch_result:.4f} (one run)"), file=out)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(f"total {seconds:.1f} s wall clock, {cpu:.1f} s CPU (all threads of this process)", file=out)
    if svg_path is not None:
        with open(svg_path, "w", encoding="utf-8") as f:
            f.write(svg_plot(results, baseline, f"DP-SGD on digits: logistic regression, q = {base.q}, "
                                                f"{base.steps} steps"))
        print(f"plot: {svg_path}", file=out)
    return {"results": results, "baseline": baseline, "config": base, "seconds": seconds, "cpu_seconds": cpu}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one noise multiplier, 200 steps (seconds)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seeded sampling and noise (reproducible; tests and audits only)")
    parser.add_argument("--svg", default=None, help="write the accuracy-vs-epsilon plot here (full run)")
    args = parser.parse_args(argv)
    run(quick=args.quick, seed=args.seed, svg_path=None if args.quick else args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
