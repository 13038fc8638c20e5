"""Exact samplers: any law of the registry (sample, laws), and the discrete Gaussian, discrete
Laplace and Bernoulli(exp(-gamma)) by name.

Every draw is exact (no floating point anywhere): the same C++ samplers as ``exactdp sample``
(CKS20 Algorithms 1-3), reading the same bit stream, so ``rng=SeededBits(seed)`` gives exactly
the numbers of ``exactdp sample ... --seed HEX`` for the same seed.
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, List, Optional, Tuple, Union, overload

import numpy as np

from . import _exactdp, _registry
from ._convert import Exact, exact_text, int_shown, law_keyword
from ._errors import LimitError, ParameterError

SeededBits = _exactdp.SeededBits
SeededBits.__doc__ = """SeededBits(seed) — a reproducible bit source: the ChaCha20 keystream under a 32-byte key.

seed: 32 bytes (bytes, bytearray or memoryview), or a str of 64 hex digits (the CLI's
``--seed HEX``). The all-zero seed is refused (ParameterError naming seed: a key everyone knows)
unless ``allow_weak=True`` (the CLI's ``--allow-weak-seed``). FOR TESTS, AUDITS AND
DEMOS ONLY: anyone who knows the seed knows the noise (SECURITY.md). Without ``rng`` the
samplers use the operating system's CSPRNG. A SeededBits may be shared between threads
(draws are serialized by its lock); for reproducible parallel draws give each thread its own.
"""

Size = Union[None, int, Tuple[int, ...]]
Shape = Union[int, Tuple[int, ...]]
# size=None draws one Python int; a size draws a numpy int64 array (object where a value does
# not fit): the overloads below say which.
Draws = Union[int, "np.ndarray[Any, Any]"]


# The samples come back as one array: 2^27 of them are 1 GiB as int64 (the command line, which
# streams its output, allows 10^10).
_MAX_SAMPLES = 2**27


def _size_shown(shape: Tuple[int, ...], scalar: bool) -> str:
    """size as repr() shows it, for a message (repr() itself refuses an int over 4,300 digits)."""
    if scalar:
        return int_shown(shape[0])
    return "(" + ", ".join(int_shown(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _count(size: Size) -> Tuple[int, Optional[Tuple[int, ...]]]:
    if size is None:
        return 1, None
    shape = (size,) if isinstance(size, numbers.Integral) and not isinstance(size, bool) else size
    if not isinstance(shape, tuple) or not all(
        isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in shape
    ):
        raise TypeError("size must be None, an int or a tuple of ints")
    scalar = not isinstance(size, tuple)
    shape = tuple(int(d) for d in shape)
    shown = _size_shown(shape, scalar)
    n = 1
    nonzero = 1  # numpy refuses a shape whose nonzero dimensions multiply past its index range
    for d in shape:
        if d < 0:
            raise ParameterError(f"size = {shown}: dimension {int_shown(d)} is out of range: allowed >= 0", "size")
        n *= d
        nonzero *= max(d, 1)
        if nonzero > _MAX_SAMPLES:
            break  # refused below; the product of the remaining dimensions is never built
    if n > _MAX_SAMPLES or nonzero > _MAX_SAMPLES:
        raise LimitError(
            f"size = {shown} is out of range: allowed at most 2^27 = 134,217,728 samples (1 GiB of "
            "int64 values), and the nonzero dimensions of a shape multiply to at most 2^27; the "
            "command line streams up to 10^10", "size")
    return n, shape


def _parameter_texts(parameters: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [(name, exact_text(name, value)) for name, value in parameters.items() if value is not None]


def laws() -> List[Dict[str, Any]]:
    """Every noise law of the library's registry (``exactdp laws``): a list of dicts with
    ``name`` (its one spelling, e.g. "discrete-gaussian"), ``summary``, ``parameters`` (each with
    name, kind "rational"/"integer", role "noise"/"sampling"/"privacy", required, default,
    range, help) and ``capabilities`` (e.g. ["sample", "hardened", "audit", "profile", ...])."""
    out = _exactdp._laws()
    for law in out:
        law["capabilities"] = [c for c in law["capabilities"].split(", ") if c]
    return out


@overload
def sample(law: str, size: None = None, rng: Optional[SeededBits] = None, hardened: bool = False,
           tau_bits: Optional[int] = None, **parameters: Optional[Exact]) -> int: ...


@overload
def sample(law: str, size: Shape, rng: Optional[SeededBits] = None, hardened: bool = False,
           tau_bits: Optional[int] = None, **parameters: Optional[Exact]) -> "np.ndarray[Any, Any]": ...


@law_keyword
def sample(law: str, size: Size = None, rng: Optional[SeededBits] = None, hardened: bool = False,
           tau_bits: Optional[int] = None, **parameters: Optional[Exact]) -> Draws:
    """Exact samples of any law of the registry (``exactdp.laws()``) with a sampler.

    ``exactdp.sample("staircase", gamma=1, sensitivity=3, size=10)``. law: its name as
    ``exactdp.laws()`` lists it; parameters: the law's noise and sampling parameters as keyword
    arguments, exact (int, Fraction, Decimal or str; float refused with TypeError naming it);
    an unknown or missing one raises ParameterError naming it. size, rng, hardened, tau_bits:
    as for discrete_gaussian (hardened where the law has a hardened sampler).
    """
    if not isinstance(law, str):
        raise TypeError("law must be a str (a name of exactdp.laws())")
    if not isinstance(hardened, bool):
        raise TypeError("hardened must be True or False")
    if tau_bits is not None and (isinstance(tau_bits, bool) or not isinstance(tau_bits, numbers.Integral)):
        raise TypeError("tau_bits must be an int")
    if rng is not None and not isinstance(rng, SeededBits):
        raise TypeError("rng must be None (the OS CSPRNG) or an exactdp.SeededBits")
    n, shape = _count(size)
    texts = _parameter_texts(parameters)
    tau: Optional[int] = None
    if tau_bits is not None:
        tau = max(0, min(int(tau_bits), 2**32 - 1))
    if tau_bits is not None and tau != tau_bits:
        raise ParameterError(f"tau_bits = {int_shown(int(tau_bits))} is out of range: allowed 40 <= tau_bits <= 128", "tau_bits")
    values, overflow = _exactdp._sample(law, texts, hardened, tau, n, rng)
    if overflow:
        values = values.astype(object)
        for index, hex_text in overflow:
            values[index] = int(hex_text, 16)
    if shape is None:
        return int(values[0])
    return values.reshape(shape)


@overload
def discrete_gaussian(sigma2: Exact, size: None = None, mean: Exact = 0, rng: Optional[SeededBits] = None,
                      hardened: bool = False, tau_bits: Optional[int] = None) -> int: ...


@overload
def discrete_gaussian(sigma2: Exact, size: Shape, mean: Exact = 0, rng: Optional[SeededBits] = None,
                      hardened: bool = False, tau_bits: Optional[int] = None) -> "np.ndarray[Any, Any]": ...


def discrete_gaussian(sigma2: Exact, size: Size = None, mean: Exact = 0, rng: Optional[SeededBits] = None,
                      hardened: bool = False, tau_bits: Optional[int] = None) -> Draws:
    """Exact discrete Gaussian samples: P[X = x] proportional to exp(-(x - mean)^2 / (2 sigma2)).

    sigma2: the variance parameter, an exact rational > 0 (int, Fraction, Decimal or str such
        as "9/4", "1e-5"; a float is refused with TypeError).
    size: None for one Python int; an int or a shape tuple for a numpy int64 array (an object
        array of Python ints if some value does not fit in int64, e.g. with a huge mean).
    mean: an integer of any size (int or integer text).
    rng: None (the OS CSPRNG, the default) or an exactdp.SeededBits (reproducible; tests only).
    hardened: the timing-hardened (isochronous) sampler, within a certified total-variation
        distance tau <= 2^-tau_bits of the exact law (docs/HARDENED.md); range
        1/100 <= sigma2 <= 2^100, |mean| <= 2^62 (ParameterError outside; never a fallback).
    tau_bits: with hardened=True, 40 <= tau_bits <= 128 (default 64).

    Raises ParameterError (a ValueError) naming the parameter when a value is out of range.
    The GIL is released while drawing. Not constant-time unless hardened (SECURITY.md).

    >>> exactdp.discrete_gaussian("9/4", size=5)        # doctest: +SKIP
    array([ 1, -2,  0,  3, -1])
    """
    return sample(_named_law(discrete_gaussian), size, rng, hardened, tau_bits, sigma2=sigma2, mean=mean)


@overload
def discrete_laplace(scale: Exact, size: None = None, mean: Exact = 0, rng: Optional[SeededBits] = None,
                     hardened: bool = False, tau_bits: Optional[int] = None) -> int: ...


@overload
def discrete_laplace(scale: Exact, size: Shape, mean: Exact = 0, rng: Optional[SeededBits] = None,
                     hardened: bool = False, tau_bits: Optional[int] = None) -> "np.ndarray[Any, Any]": ...


def discrete_laplace(scale: Exact, size: Size = None, mean: Exact = 0, rng: Optional[SeededBits] = None,
                     hardened: bool = False, tau_bits: Optional[int] = None) -> Draws:
    """Exact discrete Laplace samples: P[X = x] proportional to exp(-|x - mean| / scale).

    scale: an exact rational > 0 (int, Fraction, Decimal or str; float refused).
    size, mean, rng, hardened, tau_bits: as for discrete_gaussian (hardened range
    1/100 <= scale <= 2^50).
    """
    return sample(_named_law(discrete_laplace), size, rng, hardened, tau_bits, scale=scale, mean=mean)


@overload
def bernoulli_exp(gamma: Exact, size: None = None, rng: Optional[SeededBits] = None) -> int: ...


@overload
def bernoulli_exp(gamma: Exact, size: Shape, rng: Optional[SeededBits] = None) -> "np.ndarray[Any, Any]": ...


def bernoulli_exp(gamma: Exact, size: Size = None, rng: Optional[SeededBits] = None) -> Draws:
    """Exact Bernoulli(exp(-gamma)) samples: 1 with probability exp(-gamma), else 0.

    gamma: an exact rational >= 0 (int, Fraction, Decimal or str; float refused).
    size, rng: as for discrete_gaussian.
    """
    return sample(_named_law(bernoulli_exp), size, rng, gamma=gamma)


def _named_law(helper: Any) -> str:
    """The registry law a sampling helper is named after (discrete_gaussian: "discrete-gaussian")."""
    return _registry.law_of_class_name(helper.__name__)


for _helper in (discrete_gaussian, discrete_laplace, bernoulli_exp):  # each names a law with a sampler
    if not _registry.has(_named_law(_helper), "sample"):
        raise TypeError(f"{_helper.__name__}: the registry law {_named_law(_helper)} has no sampler")
