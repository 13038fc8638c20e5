"""exactdp.add_noise / noise_granularity / from_float: exact grid noise on float arrays.

Deterministic checks use SeededBits; the one statistical check (the noise's variance) states its
false-alarm probability and is shown to catch a wrong scale.
"""

import decimal
import math
from fractions import Fraction

import numpy as np
import pytest

import exactdp

SEED = "5a" * 32


def rng():
    return exactdp.SeededBits(SEED)


def grid_index(value, k):
    """round_half_even(value * 2^k) of an exact Fraction (Python's round is half-even)."""
    return round(Fraction(value) * Fraction(2) ** k)


def test_from_float_is_exact():
    assert exactdp.from_float(0.1) == Fraction(3602879701896397, 36028797018963968)
    assert exactdp.from_float(-0.0) == 0
    assert exactdp.from_float(np.float32(0.1)) == Fraction(13421773, 134217728)
    assert exactdp.from_float(5e-324) == Fraction(1, 2**1074)
    with pytest.raises(exactdp.ParameterError):
        exactdp.from_float(float("nan"))
    with pytest.raises(exactdp.ParameterError):
        exactdp.from_float(float("inf"))
    with pytest.raises(TypeError):
        exactdp.from_float("0.1")


def test_from_float_keeps_every_bit_of_a_longdouble():
    third = np.longdouble(1) / np.longdouble(3)
    if np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("longdouble is double here")
    # Rounding through float would give the double nearest 1/3 instead.
    assert exactdp.from_float(third) == Fraction(*third.as_integer_ratio())
    assert exactdp.from_float(third) != Fraction(float(third))


def test_same_type_dtype_shape_and_noise_on_the_grid():
    for dtype in (np.float64, np.float32):
        x = (np.arange(24, dtype=dtype).reshape(2, 3, 4) - 11) / 8
        y = exactdp.add_noise(x, sigma=Fraction(1, 2), granularity=Fraction(1, 64), rng=rng())
        assert isinstance(y, np.ndarray) and y.dtype == dtype and y.shape == x.shape
        assert not np.shares_memory(x, y)
        scaled = y.astype(np.float64) * 64
        assert np.all(scaled == np.floor(scaled))  # on the grid 2^-6 (exact conversion here)
        assert np.any(y != x)


def test_seeded_output_is_independent_of_threads_and_in_place_matches():
    x = np.linspace(-3, 3, 3 * 65536 + 17)
    y1 = exactdp.add_noise(x, sigma="1/4", rng=rng(), threads=1)
    y2 = exactdp.add_noise(x, sigma="1/4", rng=rng(), threads=2)
    y3 = exactdp.add_noise(x, sigma="1/4", rng=rng(), threads=3)
    assert np.array_equal(y1, y2) and np.array_equal(y1, y3)
    inplace = x.copy()
    returned = exactdp.add_noise(inplace, sigma="1/4", rng=rng(), threads=3, out=inplace)
    assert returned is inplace and np.array_equal(inplace, y1)
    source = rng()
    first = exactdp.add_noise(x, sigma="1/4", rng=source)
    second = exactdp.add_noise(x, sigma="1/4", rng=source)
    assert np.array_equal(first, y1) and not np.array_equal(first, second)  # the source advances


def test_non_contiguous_input_and_output():
    base = np.arange(40, dtype=np.float64).reshape(5, 8)
    x = base[:, ::2]
    assert not x.flags.c_contiguous
    y = exactdp.add_noise(x, sigma=1, rng=rng())
    assert np.array_equal(y, exactdp.add_noise(np.ascontiguousarray(x), sigma=1, rng=rng()))
    out = np.zeros((4, 5)).T  # Fortran order
    exactdp.add_noise(x, sigma=1, rng=rng(), out=out)
    assert np.array_equal(out, y)


def test_exact_grid_mapping_and_extreme_values():
    k = 10
    x = np.array([0.3, -0.0, 5e-324, 2.0**1000, -1.7976931348623157e308, 1.5 / 2**k, 2.5 / 2**k])
    y = exactdp.add_noise(x, sigma=Fraction(1, 2**30), granularity=Fraction(1, 2**k), rng=rng())
    # sigma / g = 2^-20: the noise is 0 with overwhelming probability (P[Z != 0] < 2 exp(-2^39))
    expected = [Fraction(grid_index(exactdp.from_float(v), k), 2**k) for v in x]
    assert [Fraction(float(v)) for v in y] == expected  # ties 1.5 -> 2, 2.5 -> 2 (half-even)
    assert y[3] == 2.0**1000 and np.isfinite(y).all()


def test_refusals():
    x = np.ones(30)
    x[17] = np.nan
    with pytest.raises(exactdp.ParameterError, match=r"x\[17\] is NaN; allowed: finite values"):
        exactdp.add_noise(x, sigma=1)
    x[17] = -np.inf
    with pytest.raises(exactdp.ParameterError, match=r"x\[17\] is -inf"):
        exactdp.add_noise(x, sigma=1)
    ok = np.ones(3)
    with pytest.raises(TypeError, match="from_float"):
        exactdp.add_noise(ok, sigma=0.5)
    with pytest.raises(exactdp.ParameterError, match="power of two"):
        exactdp.add_noise(ok, sigma=1, granularity=Fraction(3, 8))
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.add_noise(ok, sigma=1, granularity=Fraction(1, 2**51), hardened=True)
    assert e.value.parameter == "granularity" and "2^-50 <= granularity <= 2^3" in str(e.value)
    with pytest.raises(exactdp.ParameterError):
        exactdp.add_noise(ok, law="staircase", sigma=1)
    with pytest.raises(exactdp.ParameterError):
        exactdp.add_noise(ok, sigma=1, scale=1)
    with pytest.raises(exactdp.ParameterError):
        exactdp.add_noise(ok, sigma=1, threads=0)
    with pytest.raises(TypeError):
        exactdp.add_noise(np.ones(3, dtype=np.int64), sigma=1)
    with pytest.raises(TypeError):
        exactdp.add_noise([1.0, 2.0], sigma=1)
    with pytest.raises(exactdp.ParameterError):
        exactdp.add_noise(ok, sigma=1, out=np.ones(4))


def test_granularity_choices():
    assert exactdp.noise_granularity(sigma=1) == Fraction(1, 2**18)
    assert exactdp.noise_granularity(sigma2=2) == Fraction(1, 2**18)
    assert exactdp.noise_granularity(law="discrete-laplace", scale=decimal.Decimal("1e6")) == 2
    assert exactdp.noise_granularity(sigma=1, granularity=4) == 4
    assert exactdp.noise_granularity(sigma=1, granularity="1/1024") == Fraction(1, 1024)


def variance_in_grid_units(sigma2_stated_grid, **noise):
    """z-score of the sample variance of (y - x) / g against the stated grid variance."""
    n = 200_000
    x = np.zeros(n)
    y = exactdp.add_noise(x, granularity=Fraction(1, 16), rng=rng(), threads=2, **noise)
    z = y * 16
    # var(Z) of the discrete Gaussian with sigma2 = 576 equals 576 to within 1e-300; its fourth
    # moment is 3 sigma^4 to the same precision, so the sample variance has sd sqrt(2/n) sigma^2.
    return (np.mean(z * z) - sigma2_stated_grid) / (math.sqrt(2 / n) * sigma2_stated_grid)


def test_noise_variance_and_a_wrong_scale_is_caught():
    # Two-sided |z| > 5: false alarm about 6e-7 per run (normal approximation, n = 200,000).
    assert abs(variance_in_grid_units(576, sigma="3/2")) < 5
    assert abs(variance_in_grid_units(576, sigma2=Fraction(9, 4) * Fraction(9, 10))) > 5  # 10 % low


def test_hardened_and_system_source():
    x = np.linspace(-1, 1, 1000, dtype=np.float32)
    a = exactdp.add_noise(x, sigma=1, hardened=True, rng=rng(), threads=2)
    b = exactdp.add_noise(x, sigma=1, hardened=True, rng=rng(), threads=1)
    assert np.array_equal(a, b)
    # The OS source: fresh noise every call, of the requested scale. The sample standard
    # deviation of 1000 draws is within 15 % of sigma = 1 except with probability about 2e-11
    # (6.7 standard errors of sqrt(1/2000)); two calls agreeing everywhere has probability ~0.
    c = exactdp.add_noise(x, sigma=1, threads=4)
    d = exactdp.add_noise(x, sigma=1, threads=4)
    assert c.dtype == np.float32 and not np.array_equal(c, d)
    assert 0.85 < float(np.std(c.astype(np.float64) - x)) < 1.15


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    for dtype in (torch.float64, torch.float32):
        t = torch.linspace(-1, 1, 100, dtype=dtype).reshape(10, 10)
        y = exactdp.add_noise(t, sigma=1, rng=rng())
        assert isinstance(y, torch.Tensor) and y.dtype == dtype and y.shape == t.shape
        assert np.array_equal(y.numpy(), exactdp.add_noise(t.numpy(), sigma=1, rng=rng()))
        exactdp.add_noise(t, sigma=1, rng=rng(), out=t)
        assert torch.equal(t, y)


def test_a_refused_request_charges_no_accountant():
    # The operation checks threads (1..256) and the rest of the request before the accountant is
    # charged; only then is noise drawn.
    acc = exactdp.Accountant()
    with pytest.raises(exactdp.ParameterError) as e:
        exactdp.add_noise(np.ones(3), sigma=1, threads=300, accountant=acc, sensitivity=1)
    assert e.value.parameter == "threads"
    assert str(e.value) == "threads = 300 is out of range: allowed 1 <= threads <= 256"
    assert acc._texts == []
    exactdp.add_noise(np.ones(3), sigma=1, accountant=acc, sensitivity=1)
    assert len(acc._texts) == 1
