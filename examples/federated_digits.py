"""Federated learning with distributed discrete Gaussian or Skellam noise and simulated secure aggregation.

    PYTHONPATH=build/python /usr/bin/python3 examples/federated_digits.py            # ten seconds or so
    PYTHONPATH=build/python /usr/bin/python3 examples/federated_digits.py --quick    # a few seconds

A multinomial logistic regression (64 pixels + a bias, 10 classes: d = 650 parameters) is trained
on sklearn.datasets.load_digits (bundled with scikit-learn, no download), its training set split
over 100 simulated clients. Each round every client computes its local gradient (FedSGD) and
sends exactdp.federated.ClientEncoder.encode(gradient): the gradient clipped to L2 norm c = 1 on
the lattice, rotated, rounded, plus its share of discrete Gaussian noise (hardened), modulo
2^bits. Secure aggregation is simulated as the modular sum (ServerDecoder.aggregate); the server
decodes the sum of the clipped gradients plus the noise and takes a gradient step. The noise of
the sum has standard deviation z c (z the noise multiplier): each client adds sigma2 = (z c)^2 / n.

The certified epsilon (delta = 10^-5) is the server's accountant over the rounds: the round's
event (distributed-discrete-gaussian of the clients' shares with the rounded vectors' L2
sensitivity) composed once per round. That event is the exact sampler's law; the hardened shares
are each within tau of it, so the run's delta is 10^-5 + (1 + e^epsilon) rounds n D tau
(ServerDecoder.hardened_delta; docs/HARDENED.md, "Charging tau"), printed with epsilon:
negligible at small epsilon, it dominates at large epsilon. Printed beside them: central DP-SGD on the same clipped
gradients, the server adding exact discrete Gaussian grid noise (exactdp.add_noise) to their sum,
its noise multiplier searched so that its certified epsilon over the same rounds is at most the
distributed one; the same rounds with Skellam shares at the same variance (each client adds
Sk(mu) with 2 mu = sigma2, plain draws), their certified epsilon from the skellam event of the
server's sum; and the model without privacy. A client's Skellam encode (D = 1024 draws, d = 650
padded, mu = 1/200) took about 23 us, measured with

    PYTHONPATH=build/python /usr/bin/python3 -m timeit -s 'import numpy as np, exactdp
    from exactdp.federated import ClientEncoder; x = np.linspace(-0.01, 0.01, 650)
    e = ClientEncoder(650, clip=1, rotation_seed=bytes(range(32)), bits=32, clients=100, mu="1/200")
    r = exactdp.SeededBits(bytes(range(1, 33)))' 'e.encode(x, rng=r)'

The full run sweeps z and writes an accuracy-vs-epsilon plot as a hand-written SVG (--svg PATH).
"""

from __future__ import annotations

import argparse
import decimal
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import List, NamedTuple, Optional, Sequence, TextIO, Tuple

import numpy as np
from numpy.typing import NDArray

import exactdp
from exactdp.federated import ClientEncoder, ServerDecoder

CLASSES, FEATURES = 10, 64
DIM = CLASSES * (FEATURES + 1)
DELTA = "1e-5"
Floats = NDArray[np.float64]
CURVES = (("distributed discrete Gaussian", "#1f77b4"), ("central DP-SGD, same epsilon", "#ff7f0e"),
          ("Skellam shares, same variance", "#2ca02c"))


class Row(NamedTuple):
    """One noise multiplier z: the certified epsilon (delta = DELTA) and test accuracy of each curve."""
    z: float
    epsilon: float
    accuracy: float
    central_z: float
    central_epsilon: float
    central_accuracy: float
    skellam_epsilon: float
    skellam_accuracy: float
    delta: float          # the distributed run's delta: DELTA plus the hardened shares' charge
    skellam_delta: float  # plain Skellam draws: DELTA (no charge)

    def curves(self) -> Tuple[Tuple[float, float], ...]:
        return ((self.epsilon, self.accuracy), (self.central_epsilon, self.central_accuracy),
                (self.skellam_epsilon, self.skellam_accuracy))


@dataclass(frozen=True)
class Config:
    clients: int = 100
    rounds: int = 60
    learning_rate: float = 2.0
    clip: int = 1
    bits: int = 32
    seed: Optional[int] = 7  # numpy's split and exactdp.SeededBits (reproducible runs); None: OS CSPRNG


def load(seed: int) -> Tuple[Floats, NDArray[np.int64], Floats, NDArray[np.int64]]:
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = np.hstack([digits.data / 16.0, np.ones((len(digits.data), 1))])
    order = np.random.default_rng(seed).permutation(len(x))
    cut = int(0.8 * len(x))
    y = digits.target.astype(np.int64)
    return x[order[:cut]], y[order[:cut]], x[order[cut:]], y[order[cut:]]


def gradient(w: Floats, x: Floats, y: NDArray[np.int64]) -> Floats:
    """The mean cross-entropy gradient of softmax regression on (x, y), flattened (d = 650)."""
    logits = x @ w.reshape(FEATURES + 1, CLASSES)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(y)), y] -= 1.0
    g: Floats = (x.T @ p / len(y)).reshape(-1)
    return g


def clipped(g: Floats, c: float) -> Floats:
    norm = float(np.linalg.norm(g))
    return g if norm <= c else g * (c / norm)


def accuracy(w: Floats, x: Floats, y: NDArray[np.int64]) -> float:
    return float(np.mean(np.argmax(x @ w.reshape(FEATURES + 1, CLASSES), axis=1) == y))


def rng_of(cfg: Config, salt: int) -> Optional[exactdp.SeededBits]:
    return None if cfg.seed is None else exactdp.SeededBits(bytes((cfg.seed + salt + i) % 256 for i in range(32)))


def distributed(cfg: Config, z: Fraction, data: Sequence[Tuple[Floats, NDArray[np.int64]]], test: Tuple[Floats, NDArray[np.int64]],
                skellam: bool = False) -> Tuple[float, Fraction, Fraction]:
    """FedSGD with the distributed pipeline: (test accuracy, certified epsilon upper end, the run's
    delta with the hardened shares' charge). Each client's share has variance sigma2 = (z c)^2 / n:
    discrete Gaussian (hardened), or Skellam Sk(sigma2 / 2) (plain: no charge)."""
    sigma2 = (z * cfg.clip) ** 2 / cfg.clients
    share, mu = (None, sigma2 / 2) if skellam else (sigma2, None)
    rotation = bytes(range(32)) if cfg.seed is not None else exactdp.federated.new_rotation_seed()
    encoder = ClientEncoder(DIM, clip=cfg.clip, rotation_seed=rotation, bits=cfg.bits, clients=cfg.clients, sigma2=share, mu=mu)
    decoder = ServerDecoder(DIM, clip=cfg.clip, rotation_seed=rotation, bits=cfg.bits, clients=cfg.clients, sigma2=share, mu=mu)
    rng = rng_of(cfg, 3 if skellam else 1)
    w: Floats = np.zeros(DIM)
    for _ in range(cfg.rounds):
        messages = [encoder.encode(gradient(w, x, y), rng=rng) for x, y in data]
        w = w - cfg.learning_rate * decoder.decode(decoder.aggregate(messages)) / cfg.clients
    epsilon = Fraction(decoder.record(exactdp.Accountant(), cfg.rounds).get_epsilon(DELTA).upper)
    # plain Skellam draws are the exact law: nothing to charge
    delta = Fraction(DELTA) if skellam else Fraction(decoder.hardened_delta(epsilon, DELTA, cfg.rounds).upper)
    return accuracy(w, *test), epsilon, delta


def delta_text(delta: Fraction) -> str:
    """DELTA plus the charge rounded up to 3 significant digits (a bound stays a bound), noting a
    delta above 1."""
    charge = delta - Fraction(DELTA)
    if charge <= 0:
        return DELTA
    up = decimal.Context(prec=3, rounding=decimal.ROUND_CEILING).divide(charge.numerator, charge.denominator)
    return f"{DELTA} + {up:.2e}" + (" (above 1: no guarantee)" if delta >= 1 else "")


def central_epsilon(cfg: Config, z: Fraction) -> Fraction:
    event = exactdp.noise_event(dim=DIM, sigma=z * cfg.clip, sensitivity=cfg.clip)
    return Fraction(exactdp.Accountant().compose(event, cfg.rounds).get_epsilon(DELTA).upper)


def central_multiplier(cfg: Config, epsilon: Fraction) -> Fraction:
    """The smallest noise multiplier (to 1/64) whose central epsilon is <= epsilon."""
    low, high = Fraction(1, 64), Fraction(64)
    while high - low > Fraction(1, 64):
        mid = (low + high) / 2
        low, high = (low, mid) if central_epsilon(cfg, mid) <= epsilon else (mid, high)
    return high


def central(cfg: Config, z: Fraction, data: Sequence[Tuple[Floats, NDArray[np.int64]]], test: Tuple[Floats, NDArray[np.int64]]
            ) -> float:
    """Central DP-SGD on the same clipped gradients: exact grid noise added by the server."""
    rng = rng_of(cfg, 2)
    w: Floats = np.zeros(DIM)
    for _ in range(cfg.rounds):
        total = np.sum([clipped(gradient(w, x, y), cfg.clip) for x, y in data], axis=0)
        w = w - cfg.learning_rate * exactdp.add_noise(total, sigma=z * cfg.clip, rng=rng) / cfg.clients
    return accuracy(w, *test)


def no_privacy(cfg: Config, data: Sequence[Tuple[Floats, NDArray[np.int64]]], test: Tuple[Floats, NDArray[np.int64]]) -> float:
    w: Floats = np.zeros(DIM)
    for _ in range(cfg.rounds):
        w = w - cfg.learning_rate * np.mean([gradient(w, x, y) for x, y in data], axis=0)
    return accuracy(w, *test)


def svg(rows: List[Row], path: str) -> None:
    """Accuracy vs epsilon, one polyline with dots per curve (CURVES' colours), as a hand-written SVG."""
    top = max(e for row in rows for e, _ in row.curves()) * 1.1
    def x_of(e: float) -> float:
        return 60 + 400 * e / top
    def y_of(a: float) -> float:
        return 260 - 220 * a
    def xy(e: float, a: float) -> str:
        return f"{x_of(e):.1f},{y_of(a):.1f}"
    parts = []
    for i, (label, colour) in enumerate(CURVES):
        points = sorted(row.curves()[i] for row in rows)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                     + " ".join(xy(e, a) for e, a in points) + '"/>')
        parts += [f'<circle cx="{x_of(e):.1f}" cy="{y_of(a):.1f}" r="3" fill="{colour}"/>' for e, a in points]
        parts.append(f'<text x="250" y="{190 + 20 * i}" fill="{colour}">{label}</text>')
    ticks = [f'<text x="{x_of(e) - 6:.1f}" y="275" font-size="11">{e}</text>' for e in range(0, int(top) + 1, 10)]
    ticks += [f'<text x="28" y="{264 - 220 * a:.1f}" font-size="11">{a:.1f}</text>' for a in (0.0, 0.5, 1.0)]
    with open(path, "w", encoding="ascii") as out:
        out.write('<svg xmlns="http://www.w3.org/2000/svg" width="500" height="300">'
                  '<line x1="60" y1="260" x2="470" y2="260" stroke="black"/>'
                  '<line x1="60" y1="260" x2="60" y2="30" stroke="black"/>'
                  f'<text x="240" y="292">epsilon (delta = {DELTA})</text><text x="5" y="25">test accuracy</text>'
                  + "".join(ticks + parts) + "</svg>\n")


def sweep(cfg: Config, zs: Sequence[Fraction], data: Sequence[Tuple[Floats, NDArray[np.int64]]],
          test: Tuple[Floats, NDArray[np.int64]], out: TextIO) -> List[Row]:
    """For each z: the distributed discrete Gaussian, central DP-SGD at an epsilon no larger, Skellam shares."""
    rows: List[Row] = []
    for z in zs:
        acc, eps, delta = distributed(cfg, z, data, test)
        zc = central_multiplier(cfg, eps)
        acc_c, eps_c = central(cfg, zc, data, test), central_epsilon(cfg, zc)
        acc_s, eps_s, delta_s = distributed(cfg, z, data, test, skellam=True)
        print(f"z = {float(z):4.2f}: distributed accuracy {acc:.3f}, certified epsilon <= {float(eps):.4f} "
              f"at delta <= {delta_text(delta)}; central DP-SGD (z = {float(zc):.3f}, epsilon <= {float(eps_c):.4f}) "
              f"accuracy {acc_c:.3f}; Skellam shares: accuracy {acc_s:.3f}, certified epsilon <= {float(eps_s):.4f} "
              f"at delta <= {delta_text(delta_s)}", file=out)
        rows.append(Row(float(z), float(eps), acc, float(zc), float(eps_c), acc_c, float(eps_s), acc_s,
                        delta=float(delta), skellam_delta=float(delta_s)))
    return rows


def main(argv: Optional[Sequence[str]] = None, out: TextIO = sys.stdout) -> List[Row]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one noise multiplier, 15 rounds")
    parser.add_argument("--svg", help="write the accuracy-vs-epsilon plot here (full run)")
    args = parser.parse_args(argv)
    cfg = Config(rounds=15) if args.quick else Config()
    x, y, xt, yt = load(cfg.seed or 0)
    data = [(x[i::cfg.clients], y[i::cfg.clients]) for i in range(cfg.clients)]
    test = (xt, yt)
    print(f"{cfg.clients} clients, {cfg.rounds} rounds, d = {DIM}, c = {cfg.clip}, bits = {cfg.bits}; "
          f"no privacy: accuracy {no_privacy(cfg, data, test):.3f}", file=out)
    zs = [Fraction(1)] if args.quick else [Fraction(1), Fraction(2), Fraction(4), Fraction(8)]
    rows = sweep(cfg, zs, data, test, out)
    if args.svg:
        svg(rows, args.svg)
    return rows


if __name__ == "__main__":
    main()
