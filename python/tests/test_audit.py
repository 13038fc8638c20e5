"""audit(): the verification layer's goodness-of-fit audit on anyone's samples."""

import numpy as np
import pytest

import exactdp

SEED = bytes(range(32))


def test_audit_passes_exact_samples_and_fails_wrong_ones():
    # alpha = 1e-6 is the audit's false-alarm probability for a correct sampler (fixed seed:
    # deterministic outcome).
    samples = exactdp.discrete_gaussian("9/4", size=20_000, rng=exactdp.SeededBits(SEED))
    report = exactdp.audit(samples, law="discrete-gaussian", sigma2="9/4")
    assert report.passed is True, report
    assert isinstance(report.verdict, str)
    # Broken variant: the samples of sigma2 = 3 are not discrete Gaussian with sigma2 = 9/4.
    wrong = exactdp.discrete_gaussian(3, size=20_000, rng=exactdp.SeededBits(SEED))
    assert exactdp.audit(wrong, law="discrete-gaussian", sigma2="9/4").passed is False


def test_audit_accepts_lists_and_object_arrays_and_other_laws():
    # Fixed seeds; each audit's false-alarm probability for a correct sampler is its alpha
    # (default 1e-6, 1e-3 where given), so together below 1.003e-3 for fresh seeds.
    samples = exactdp.discrete_laplace(2, size=5_000, rng=exactdp.SeededBits(SEED))
    assert exactdp.audit(samples.tolist(), law="discrete-laplace", scale=2).passed
    assert exactdp.audit(samples.astype(object), law="discrete-laplace", scale=2, alpha="1e-3").passed
    bits = exactdp.bernoulli_exp("1/2", size=5_000, rng=exactdp.SeededBits(SEED))
    assert exactdp.audit(bits, law="bernoulli-exp", gamma="1/2").passed


def test_audit_bad_input():
    with pytest.raises(TypeError):
        exactdp.audit([1.5, 2], law="discrete-gaussian", sigma2=1)
    with pytest.raises(TypeError):
        exactdp.audit(np.array([1.5]), law="discrete-gaussian", sigma2=1)
    with pytest.raises(ValueError):
        exactdp.audit([1, 2], law="poisson", lam=1)
    with pytest.raises(exactdp.ParameterError, match="sigma2"):
        exactdp.audit([1, 2], law="discrete-gaussian", sigma2=-1)
