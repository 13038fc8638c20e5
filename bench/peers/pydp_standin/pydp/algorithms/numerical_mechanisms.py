"""pydp.algorithms.numerical_mechanisms stand-in (NOT PyDP): Laplace and Gaussian mechanisms.

The names, constructor arguments and attributes are the ones PipelineDP uses
(pipeline_dp/dp_computations.py): LaplaceMechanism(epsilon, sensitivity) with .epsilon,
.sensitivity, .diversity and .add_noise; GaussianMechanism(epsilon, delta, sensitivity) with
.epsilon, .delta, .l2_sensitivity, .std and .add_noise, and
GaussianMechanism.create_from_standard_deviation(std). Noise is numpy floating-point sampling,
not hardened against floating-point attacks: fine for an accuracy comparison, not for a release.
"""
from pydp.algorithms import _noise


class LaplaceMechanism:
    """Adds Laplace noise of scale b = sensitivity / epsilon (its "diversity")."""

    def __init__(self, epsilon, sensitivity=1.0):
        _noise.check_positive("epsilon", epsilon)
        _noise.check_positive("sensitivity", sensitivity)
        self.epsilon = float(epsilon)
        self.sensitivity = float(sensitivity)
        self.diversity = self.sensitivity / self.epsilon

    def add_noise(self, value):
        return float(value) + float(_noise.RNG.laplace(0.0, self.diversity))

    def noised_value_above_threshold(self, value, threshold):
        return self.add_noise(value) >= threshold


class GaussianMechanism:
    """Adds N(0, std^2) noise, std the analytic Gaussian calibration of (epsilon, delta) for the
    L2 sensitivity (Balle and Wang 2018; see _noise.analytic_gaussian_std)."""

    def __init__(self, epsilon, delta, sensitivity=1.0):
        self.epsilon = float(epsilon)
        self.delta = float(delta)
        self.l2_sensitivity = float(sensitivity)
        self.std = _noise.analytic_gaussian_std(self.epsilon, self.delta, self.l2_sensitivity)

    @classmethod
    def create_from_standard_deviation(cls, std):
        """A mechanism of this std, not tied to an (epsilon, delta): both read 0."""
        _noise.check_positive("std", std)
        mechanism = cls.__new__(cls)
        mechanism.epsilon = mechanism.delta = 0.0
        mechanism.l2_sensitivity = float("nan")
        mechanism.std = float(std)
        return mechanism

    def add_noise(self, value):
        return float(value) + float(_noise.RNG.normal(0.0, self.std))

    def noised_value_above_threshold(self, value, threshold):
        return self.add_noise(value) >= threshold
