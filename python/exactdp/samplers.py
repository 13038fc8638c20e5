"""Exact samplers: discrete Gaussian, discrete Laplace, Bernoulli(exp(-gamma)).

Every draw is exact (no floating point anywhere): the same C++ samplers as ``exactdp sample``
(CKS20 Algorithms 1-3), reading the same bit stream, so ``rng=SeededBits(seed)`` gives exactly
the numbers of ``exactdp sample ... --seed HEX`` for the same seed.
"""

from __future__ import annotations

import numbers
from typing import Optional, Tuple, Union

import numpy as np

from . import _exactdp
from ._convert import exact_text
from ._errors import ParameterError

SeededBits = _exactdp.SeededBits
SeededBits.__doc__ = """SeededBits(seed) — a reproducible bit source: the ChaCha20 keystream under a 32-byte key.

seed: 32 bytes, or a str of 64 hex digits (the CLI's ``--seed HEX``). FOR TESTS, AUDITS AND
DEMOS ONLY: anyone who knows the seed knows the noise (SECURITY.md). Without ``rng`` the
samplers use the operating system's CSPRNG. A SeededBits may be shared between threads
(draws are serialized by its lock); for reproducible parallel draws give each thread its own.
"""

Size = Union[None, int, Tuple[int, ...]]


def _count(size: Size) -> Tuple[int, Optional[Tuple[int, ...]]]:
    if size is None:
        return 1, None
    shape = (size,) if isinstance(size, numbers.Integral) and not isinstance(size, bool) else size
    if not isinstance(shape, tuple) or not all(
        isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in shape
    ):
        raise TypeError("size must be None, an int or a tuple of ints")
    shape = tuple(int(d) for d in shape)
    n = 1
    for d in shape:
        if d < 0:
            raise ParameterError(f"size = {d} is out of range: allowed size >= 0", "size")
        n *= d
    if n > 10_000_000_000:
        raise ParameterError(f"size = {n} is out of range: allowed at most 10^10 samples", "size")
    return n, shape


def _draw(law: str, options: list, size: Size, rng: object):
    if rng is not None and not isinstance(rng, SeededBits):
        raise TypeError("rng must be None (the OS CSPRNG) or an exactdp.SeededBits")
    n, shape = _count(size)
    values, overflow = _exactdp._sample(law, options, n, rng)
    if overflow:
        values = values.astype(object)
        for index, hex_text in overflow:
            values[index] = int(hex_text, 16)
        if shape is None:
            return values[0]
    if shape is None:
        return int(values[0])
    return values.reshape(shape)


def _law_options(parameter: str, value: object, mean: object, hardened: bool, tau_bits: Optional[int]) -> list:
    options = [f"--{parameter}", exact_text(parameter, value)]
    if mean is not None:
        options += ["--mean", exact_text("mean", mean)]
    if not isinstance(hardened, bool):
        raise TypeError("hardened must be True or False")
    if hardened:
        options.append("--hardened")
    if tau_bits is not None:
        options += ["--tau-bits", exact_text("tau_bits", tau_bits)]
    return options


def discrete_gaussian(sigma2, size: Size = None, mean=0, rng=None, hardened: bool = False,
                      tau_bits: Optional[int] = None):
    """Exact discrete Gaussian samples: P[X = x] proportional to exp(-(x - mean)^2 / (2 sigma2)).

    sigma2: the variance parameter, an exact rational > 0 (int, Fraction, Decimal or str such
        as "9/4", "1e-5"; a float is refused with TypeError).
    size: None for one Python int; an int or a shape tuple for a numpy int64 array (an object
        array of Python ints if some value does not fit in int64, e.g. with a huge mean).
    mean: an integer of any size (int or integer text).
    rng: None (the OS CSPRNG, the default) or an exactdp.SeededBits (reproducible; tests only).
    hardened: the timing-hardened (isochronous) sampler, within a certified total-variation
        distance tau <= 2^-tau_bits of the exact law (docs/HARDENED.md); range
        1/100 <= sigma2 <= 10^12, |mean| <= 2^62 (ParameterError outside; never a fallback).
    tau_bits: with hardened=True, 40 <= tau_bits <= 128 (default 64).

    Raises ParameterError (a ValueError) naming the parameter when a value is out of range.
    The GIL is released while drawing. Not constant-time unless hardened (SECURITY.md).

    >>> exactdp.discrete_gaussian("9/4", size=5)        # doctest: +SKIP
    array([ 1, -2,  0,  3, -1])
    """
    return _draw("discrete-gaussian", _law_options("sigma2", sigma2, mean, hardened, tau_bits), size, rng)


def discrete_laplace(scale, size: Size = None, mean=0, rng=None, hardened: bool = False,
                     tau_bits: Optional[int] = None):
    """Exact discrete Laplace samples: P[X = x] proportional to exp(-|x - mean| / scale).

    scale: an exact rational > 0 (int, Fraction, Decimal or str; float refused).
    size, mean, rng, hardened, tau_bits: as for discrete_gaussian (hardened range
    1/100 <= scale <= 10^9).
    """
    return _draw("discrete-laplace", _law_options("scale", scale, mean, hardened, tau_bits), size, rng)


def bernoulli_exp(gamma, size: Size = None, rng=None):
    """Exact Bernoulli(exp(-gamma)) samples: 1 with probability exp(-gamma), else 0.

    gamma: an exact rational >= 0 (int, Fraction, Decimal or str; float refused).
    size, rng: as for discrete_gaussian.
    """
    return _draw("bernoulli-exp", ["--gamma", exact_text("gamma", gamma)], size, rng)
