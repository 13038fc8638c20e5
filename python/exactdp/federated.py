"""Distributed-noise federated learning with secure aggregation: ClientEncoder, ServerDecoder.

One round of Kairouz, Liu and Steinke's distributed discrete Gaussian pipeline (ICML 2021,
Algorithms 1 and 2), exact (docs/FEDERATED.md, "The client pipeline"). Each client's
``ClientEncoder.encode(update)`` maps its float update exactly to the lattice g Z^d (g = 2^-k),
clips it to L2 norm ``clip`` with integer arithmetic, pads it to D = 4^h coordinates, rotates it
by the public randomized Hadamard matrix (signs from ``rotation_seed``), rounds it to integers
(conditional randomized rounding: exact Bernoulli draws, redrawn while the norm check fails),
adds its noise share (discrete Gaussian N_Z(0, sigma2 / g^2), hardened by default, or Skellam
Sk(mu / g^2)) and returns it modulo 2^bits as a uint64 array. The server adds the encodings
modulo 2^bits (``ServerDecoder.aggregate``: what secure aggregation computes) and
``ServerDecoder.decode`` returns the sum of the clipped updates plus the noise in data units.

Client and server are built from the same public parameters. Every number is exact (int,
Fraction, Decimal or str, never float). ``ServerDecoder.wrap_probability`` is a certified upper
bound on any coordinate of the sum wrapping around the modulus (a modulus too small for the noise
is refused naming ``bits``); ``ServerDecoder.event()`` is the round's accounting event (the
registry's law of the surviving clients' shares, with the rounded vectors' L2 sensitivity and
the padded dimension: distributed-discrete-gaussian, or skellam with mu = m mu / g^2 for m
surviving clients), to compose into an exactdp.Accountant once per round; with hardened shares
``ServerDecoder.hardened_delta`` gives the run's delta with their tau charged.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional

import numpy as np

from . import _exactdp, events
from ._convert import Exact, count_text, exact_text, shown
from ._errors import ParameterError
from .accountant import Accountant
from .events import Event
from .interval import Interval
from .samplers import SeededBits

__all__ = ["ClientEncoder", "ServerDecoder", "new_rotation_seed"]


def new_rotation_seed() -> bytes:
    """32 fresh random bytes for a round's public rotation (share them with every client)."""
    return os.urandom(32)


class _Round:
    """The validated plan of one round (shared by ClientEncoder and ServerDecoder)."""

    __slots__ = ("_plan", "_dimension")

    def __init__(self, dimension: int, *, clip: Exact, rotation_seed: bytes, bits: int = 32, clients: int = 1,
                 sigma2: Optional[Exact] = None, mu: Optional[Exact] = None, granularity: Optional[int] = None,
                 dropout: Exact = 0, beta: Exact = "1/2", max_wrap: Exact = "1e-6", hardened: Optional[bool] = None) -> None:
        for name, count in (("dimension", dimension), ("bits", bits), ("clients", clients)):
            if isinstance(count, bool) or not isinstance(count, int):
                raise TypeError(f"{name} must be an int")
        if granularity is not None and (isinstance(granularity, bool) or not isinstance(granularity, int)):
            raise TypeError("granularity must be an int exponent k (g = 2^-k) or None")
        if not isinstance(rotation_seed, (bytes, bytearray)):
            raise TypeError("rotation_seed must be 32 bytes (new_rotation_seed())")
        if (sigma2 is None) == (mu is None):
            raise ParameterError("give exactly one of sigma2 (discrete Gaussian shares) or mu (Skellam shares)",
                                 "sigma2" if sigma2 is None else "mu")
        noise = "discrete-gaussian" if sigma2 is not None else "skellam"
        noise_value = exact_text("sigma2", sigma2) if sigma2 is not None else exact_text("mu", mu)
        if not 0 <= dimension < 2**63:  # the rest of the range is the plan's (a size_t)
            raise ParameterError(f"dimension = {shown(dimension)} is out of range: allowed 1 <= dimension <= 2^24", "dimension")
        self._dimension = dimension
        self._plan = _exactdp._FlPlan(
            dimension, exact_text("clip", clip), None if granularity is None else count_text("granularity", granularity),
            count_text("bits", bits), count_text("clients", clients), exact_text("dropout", dropout), noise, noise_value, exact_text("beta", beta),
            exact_text("max_wrap", max_wrap), bytes(rotation_seed), noise == "discrete-gaussian" if hardened is None else hardened)

    @property
    def dimension(self) -> int:
        """d, the length of an update."""
        return self._dimension

    @property
    def padded_dimension(self) -> int:
        """D = 4^h >= d, the length of an encoding and of the modular sum."""
        return int(self._plan.padded_dimension)

    @property
    def granularity_exponent(self) -> int:
        """k of the lattice granularity g = 2^-k."""
        return int(self._plan.granularity_exponent)

    @property
    def norm_bound(self) -> int:
        """The bound on a rounded vector's squared L2 norm (lattice units)."""
        return int(self._plan.norm_bound)

    @property
    def retry_probability(self) -> str:
        """Certified upper bound (decimal text) on one rounding attempt failing the norm check."""
        return str(self._plan.retry_probability)

    @property
    def wrap_probability(self) -> str:
        """Certified upper bound (decimal text) on any coordinate of the modular sum wrapping around."""
        return str(self._plan.wrap_probability)


class ClientEncoder(_Round):
    """A client's side of a round: ``encode(update)`` -> uint64 array of D residues mod 2^bits."""

    __slots__ = ("_last_attempts",)

    @property
    def last_attempts(self) -> int:
        """Rounding attempts of the last encode (0: none yet, or all 64 failed and the noise alone was sent)."""
        return int(getattr(self, "_last_attempts", 0))

    def encode(self, update: Any, *, rng: Optional[SeededBits] = None) -> "np.ndarray[Any, np.dtype[np.uint64]]":
        """The client's message for ``update`` (a float64 or float32 array of length d; NaN or inf refused
        naming its index). rng: None for the OS CSPRNG, or a SeededBits (tests and demos only)."""
        x = np.ascontiguousarray(update)
        if x.dtype not in (np.float64, np.float32):
            raise TypeError(f"update must be a float64 or float32 array, not {x.dtype}")
        if x.ndim != 1:
            raise ParameterError(f"update has shape {x.shape}: allowed a 1-d array of length {self.dimension}", "update")
        out = np.empty(self.padded_dimension, dtype=np.uint64)
        attempts, zeroed, _ = self._plan.encode(x, out, rng)
        self._last_attempts = 0 if zeroed else int(attempts)
        return out


class ServerDecoder(_Round):
    """The server's side of a round: ``aggregate`` (the modular sum) and ``decode``."""

    __slots__ = ()

    def aggregate(self, encodings: Iterable[Any]) -> "np.ndarray[Any, np.dtype[np.uint64]]":
        """The sum of the clients' encodings modulo 2^bits (what secure aggregation reveals): uint64
        arrays, or uint32 ones (the C clients' exactdp_fl_client_encode_*_u32) when bits <= 32."""
        bits = int(self._plan.modulus_bits)
        mask = np.uint64((1 << bits) - 1)
        kinds = (np.uint64, np.uint32) if bits <= 32 else (np.uint64,)
        total = np.zeros(self.padded_dimension, dtype=np.uint64)
        for i, e in enumerate(encodings):
            v = np.asarray(e)
            if v.dtype not in kinds or v.shape != (self.padded_dimension,):
                raise ParameterError(f"encodings[{i}]: allowed a {' or '.join(np.dtype(k).name for k in kinds)} array "
                                     f"of length {self.padded_dimension}", "encodings")
            if np.any(v > mask):
                raise ParameterError(f"encodings[{i}] has an entry not below the modulus 2^{self._plan.modulus_bits}",
                                     "encodings")
            total = (total + v) & mask
        return total

    def decode(self, modular_sum: Any, *, dtype: Any = np.float64) -> "np.ndarray[Any, Any]":
        """The sum of the clipped updates plus the noise sum, in data units (length d). A uint32
        array (bits <= 32, else ParameterError naming bits) is read as it is: the decoder widens it
        into its own workspace; anything else is copied to uint64 first (the workspace)."""
        given = np.asarray(modular_sum)
        # Residues are integers: a float array would be truncated silently by the uint64 copy (1.5 -> 1),
        # and an object array of huge numbers (Decimal('1e999999999')) expanded before any check.
        if given.dtype.kind not in "ui" or given.ndim != 1:
            raise ParameterError(f"modular_sum: allowed a 1-d uint64 or uint32 array of length {self.padded_dimension} "
                                 f"(the encodings summed modulo 2^bits), not {given.dtype} of shape {given.shape}",
                                 "modular_sum")
        if given.dtype.kind == "i" and given.size and int(given.min()) < 0:
            raise ParameterError(f"modular_sum has a negative entry {int(given.min())}: allowed residues "
                                 f"0 <= r < 2^{self._plan.modulus_bits}", "modular_sum")
        if given.dtype == np.uint32:
            work = np.ascontiguousarray(given)
        else:
            work = np.array(modular_sum, dtype=np.uint64, copy=True)
        out = np.empty(self.dimension, dtype=dtype)
        self._plan.decode(work, out)
        return out

    def event(self) -> Event:
        """The round's accounting event: the law of the surviving shares' sum, with the rounded
        vectors' L2 sensitivity and ``dim`` the padded dimension. Discrete Gaussian shares:
        distributed-discrete-gaussian (the exact sampler's law: with hardened shares the run's
        delta is ``hardened_delta``'s); Skellam shares: skellam with mu = m mu / g^2, m = ceil(clients
        (1 - dropout)), and the L1 bound the law derives from dim."""
        plan = self._plan
        if plan.event_law is None:
            raise ParameterError(f"no accounting event for this round: {plan.no_event_reason}", "noise")
        cls = events.event_class(plan.event_law)
        if cls is events.Skellam:
            return events.Skellam(mu=plan.event_noise, sensitivity=plan.sensitivity, dim=plan.padded_dimension)
        if cls is events.DistributedDiscreteGaussian:
            return events.DistributedDiscreteGaussian(sigma2=plan.event_noise, clients=plan.clients, dropout=plan.dropout,
                                                      sensitivity=plan.sensitivity, dim=plan.padded_dimension)
        raise ParameterError(f"no accounting event for this round: {plan.event_law} has no round event", "noise")

    @property
    def hardened_tau(self) -> str:
        """Upper bound (decimal text) on the total variation the hardened shares add to a round (n D tau)."""
        return str(self._plan.hardened_tau)

    def hardened_delta(self, epsilon: Exact, delta: Exact, rounds: int = 1) -> Interval:
        """The delta of ``rounds`` rounds to which the accountant gives (epsilon, delta) (``record``:
        the exact shares' law), with the hardened shares charged as docs/HARDENED.md ("Charging
        tau") states: delta + (1 + e^epsilon) rounds n D tau, an Interval whose upper end is the
        guarantee; delta itself with plain or Skellam shares. ParameterError naming epsilon (0..10^6),
        delta ([0, 1]) or rounds (1..10^9)."""
        if isinstance(rounds, bool) or not isinstance(rounds, int):
            raise TypeError("rounds must be an int")
        raw = self._plan.hardened_run_delta(exact_text("epsilon", epsilon), exact_text("delta", delta), str(rounds))
        return Interval.from_text(raw["lower"], raw["upper"])

    def record(self, accountant: Accountant, rounds: int = 1) -> Accountant:
        """Composes ``rounds`` uses of ``event()`` into ``accountant``; returns it."""
        return accountant.compose(self.event(), rounds)
