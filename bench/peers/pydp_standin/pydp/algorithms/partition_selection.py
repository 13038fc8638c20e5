"""pydp.algorithms.partition_selection stand-in (NOT PyDP): private partition selection.

create_partition_strategy(kind, epsilon, delta, max_partitions_contributed[, pre_threshold])
with kind "truncated_geometric", "laplace" or "gaussian", the call PipelineDP makes
(pipeline_dp/partition_selection.py). A unit contributes to at most k =
max_partitions_contributed partitions; each partition is decided at (epsilon / k, delta_k),
delta_k = 1 - (1 - delta)^(1/k), so that k decisions compose to (epsilon, delta). A
pre_threshold p drops partitions of fewer than p units and decides the others as if they held
n - (p - 1) units. Randomness is numpy floating point, not hardened: fine for an accuracy
comparison, not for a release.
"""
import functools
import math

from scipy import special

from pydp.algorithms import _noise


@functools.lru_cache(maxsize=64)
def _keep_probabilities(epsilon, delta):
    """pi(0..N) of the optimal (epsilon, delta) partition selection for one unit in one
    partition (Desfontaines, Voss, Gipson, Mandayam, "Differentially Private Partition
    Selection", PoPETs 2022): pi(0) = 0 and pi(n) is the largest value the two (epsilon, delta)
    constraints between n - 1 and n units allow,
        pi(n) = min(1, e^epsilon pi(n-1) + delta, 1 - e^-epsilon (1 - delta - pi(n-1))),
    up to the first n with pi(n) = 1 (every larger n is kept surely)."""
    grow, shrink = math.exp(epsilon), math.exp(-epsilon)
    table = [0.0]
    while table[-1] < 1.0:
        prev = table[-1]
        nxt = min(1.0, grow * prev + delta, 1.0 - shrink * (1.0 - delta - prev))
        if nxt <= prev:  # delta == 0 never leaves 0: nothing is ever kept
            break
        table.append(nxt)
    return tuple(table)


class _Strategy:
    def __init__(self, epsilon, delta, max_partitions_contributed, pre_threshold):
        _noise.check_positive("epsilon", epsilon)
        _noise.check_probability("delta", delta)
        if not (isinstance(max_partitions_contributed, int) and max_partitions_contributed > 0):
            raise ValueError("max_partitions_contributed must be an int > 0, got "
                             f"{max_partitions_contributed!r}")
        if pre_threshold is not None and not (isinstance(pre_threshold, int) and pre_threshold > 0):
            raise ValueError(f"pre_threshold must be an int > 0 or None, got {pre_threshold!r}")
        self.epsilon = float(epsilon)
        self.delta = float(delta)
        self.max_partitions_contributed = max_partitions_contributed
        self.pre_threshold = pre_threshold or 1

    def _shifted(self, num_users):
        """n - (pre_threshold - 1), or None when n is below pre_threshold."""
        if num_users < self.pre_threshold:
            return None
        return num_users - (self.pre_threshold - 1)


class TruncatedGeometricPartitionSelection(_Strategy):
    """The optimal selection: keep a partition of n units with probability pi(n)."""

    def __init__(self, epsilon, delta, max_partitions_contributed, pre_threshold=None):
        super().__init__(epsilon, delta, max_partitions_contributed, pre_threshold)
        k = max_partitions_contributed
        self._table = _keep_probabilities(self.epsilon / k, _noise.per_partition_delta(self.delta, k))

    def probability_of_keep(self, num_users):
        n = self._shifted(num_users)
        if n is None or n <= 0:
            return 0.0
        n = int(math.floor(n))  # a fractional count is decided as its floor: conservative
        return self._table[n] if n < len(self._table) else 1.0

    def should_keep(self, num_users):
        return bool(_noise.RNG.random() < self.probability_of_keep(num_users))


class _Thresholding(_Strategy):
    """Keep when n + noise >= threshold; subclasses set self._mechanism and self.threshold."""

    def noised_value_if_should_keep(self, num_users):
        n = self._shifted(num_users)
        if n is None:
            return None
        noised = self._mechanism.add_noise(n)
        return noised + (self.pre_threshold - 1) if noised >= self.threshold else None

    def should_keep(self, num_users):
        return self.noised_value_if_should_keep(num_users) is not None


class LaplacePartitionSelection(_Thresholding):
    """Laplace noise of scale k / epsilon (a unit moves k counts by 1); the threshold T has
    P(1 + Laplace >= T) = delta_k."""

    def __init__(self, epsilon, delta, max_partitions_contributed, pre_threshold=None):
        super().__init__(epsilon, delta, max_partitions_contributed, pre_threshold)
        from pydp.algorithms.numerical_mechanisms import LaplaceMechanism  # noqa: PLC0415
        k = max_partitions_contributed
        self._mechanism = LaplaceMechanism(self.epsilon, k)
        b, d = self._mechanism.diversity, _noise.per_partition_delta(self.delta, k)
        self.threshold = 1 - b * math.log(2 * d) if d <= 0.5 else 1 + b * math.log(2 * (1 - d))


class GaussianPartitionSelection(_Thresholding):
    """delta split in halves: the noise's (analytic Gaussian at (epsilon, delta/2), L2
    sensitivity sqrt(k)) and the threshold's (P(1 + N(0, sigma^2) >= T) = per-partition share
    of delta/2)."""

    def __init__(self, epsilon, delta, max_partitions_contributed, pre_threshold=None):
        super().__init__(epsilon, delta, max_partitions_contributed, pre_threshold)
        from pydp.algorithms.numerical_mechanisms import GaussianMechanism  # noqa: PLC0415
        k = max_partitions_contributed
        self.noise_delta = self.threshold_delta = self.delta / 2
        self._mechanism = GaussianMechanism(self.epsilon, self.noise_delta, math.sqrt(k))
        d = _noise.per_partition_delta(self.threshold_delta, k)
        self.threshold = 1 + self._mechanism.std * float(special.ndtri(1 - d))


_KINDS = {"truncated_geometric": TruncatedGeometricPartitionSelection,
          "laplace": LaplacePartitionSelection,
          "gaussian": GaussianPartitionSelection}


def create_partition_strategy(strategy, epsilon, delta, max_partitions_contributed,
                              pre_threshold=None):
    if strategy not in _KINDS:
        raise ValueError(f"strategy must be one of {sorted(_KINDS)}, got {strategy!r}")
    return _KINDS[strategy](epsilon, delta, max_partitions_contributed, pre_threshold)
