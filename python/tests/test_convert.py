"""Argument conversion: every accepted type gives the same exact value; the rest is refused
with the right exception and nothing crashes (hypothesis fuzzing)."""

import decimal
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import exactdp
from exactdp._convert import exact_text

SEED = bytes(range(32))


def draws(sigma2, n=20):
    return exactdp.discrete_gaussian(sigma2, size=n, rng=exactdp.SeededBits(SEED)).tolist()


def test_every_accepted_type_gives_the_same_draws():
    reference = draws("9/4")
    for value in ("9/4", "2.25", "225e-2", Fraction(9, 4), decimal.Decimal("2.25"), decimal.Decimal("2.250")):
        assert draws(value) == reference, value
    assert draws(3) == draws("3") == draws(Fraction(3)) == draws(decimal.Decimal(3)) == draws(np.int64(3))


@given(st.fractions(min_value=Fraction(1, 10**6), max_value=10**6))
@settings(max_examples=60, deadline=None, derandomize=True)
def test_fraction_and_its_decimal_text_agree(q):
    # A Fraction and the Decimal with the same value (when it terminates) draw the same.
    assert draws(q, 3) == draws(f"{q.numerator}/{q.denominator}", 3)
    d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
    if Fraction(d) == q:
        assert draws(d, 3) == draws(q, 3)


@given(st.decimals(allow_nan=False, allow_infinity=False))
@settings(max_examples=200, deadline=None, derandomize=True)
def test_decimal_text_is_exact(d):
    assert Fraction(exact_text("x", d).replace("e", "e")) == Fraction(d)


def test_float_and_bool_refused_with_reason():
    with pytest.raises(TypeError, match="float is refused because it is not the number"):
        exactdp.discrete_gaussian(2.25)
    with pytest.raises(TypeError, match="float"):
        exactdp.discrete_laplace(np.float64(1.0))
    with pytest.raises(TypeError, match="bool"):
        exactdp.bernoulli_exp(True)
    with pytest.raises(TypeError):
        exactdp.discrete_gaussian([1])
    with pytest.raises(TypeError, match="float"):
        exactdp.profile("gaussian", sigma=1.0, epsilon="1")


@pytest.mark.parametrize("bad, error, parameter", [
    ("-1", exactdp.ParameterError, "sigma2"), ("0", exactdp.ParameterError, "sigma2"),
    ("abc", exactdp.ParameterError, "sigma2"), ("1/0", exactdp.ParameterError, "sigma2"),
    ("nan", exactdp.ParameterError, "sigma2"), (decimal.Decimal("NaN"), exactdp.ParameterError, "sigma2"),
    (decimal.Decimal("-Infinity"), exactdp.ParameterError, "sigma2"), ("9/4\x00", exactdp.ParameterError, "sigma2"),
    ("\u0665", exactdp.ParameterError, "sigma2"), ("1e999999999", exactdp.LimitError, "sigma2"),
    (decimal.Decimal("1e999999999"), exactdp.LimitError, "sigma2"),
])
def test_bad_values_raise_parameter_errors_naming_the_parameter(bad, error, parameter):
    with pytest.raises(error) as info:
        exactdp.discrete_gaussian(bad)
    assert isinstance(info.value, ValueError)
    assert info.value.parameter == parameter
    assert parameter in str(info.value)


def test_other_errors():
    with pytest.raises(exactdp.ParameterError, match="mean"):
        exactdp.discrete_gaussian(1, mean="1/2")
    with pytest.raises(exactdp.ParameterError, match="size"):
        exactdp.discrete_gaussian(1, size=-1)
    with pytest.raises(exactdp.ParameterError, match="seed"):
        exactdp.SeededBits(b"short")
    with pytest.raises(exactdp.ParameterError, match="seed"):
        exactdp.SeededBits("zz" * 32)
    with pytest.raises(TypeError):
        exactdp.discrete_gaussian(1, rng=42)
    with pytest.raises(exactdp.ParameterError, match="sigma2"):
        exactdp.discrete_gaussian(10**31, hardened=True)
    with pytest.raises(exactdp.LimitError):
        exactdp.discrete_gaussian(10**20000)
    with pytest.raises(exactdp.UsageError):
        exactdp.profile("gaussian", sigma=1, epsilon=1, no_such_option=1)
    with pytest.raises(exactdp.ParameterError, match="epsilon"):
        exactdp.profile("gaussian", sigma=1, epsilon=-1)


any_value = st.one_of(
    st.text(max_size=30), st.integers(), st.fractions(), st.decimals(), st.floats(), st.booleans(),
    st.none(), st.binary(max_size=8), st.lists(st.integers(), max_size=2),
)


@given(any_value, any_value)
@settings(max_examples=300, deadline=None, derandomize=True)
def test_fuzz_sampler_arguments_never_crash(value, mean):
    try:
        x = exactdp.discrete_gaussian(value, mean=mean, rng=exactdp.SeededBits(SEED))
        assert isinstance(x, int)
    except (TypeError, ValueError):
        pass  # ParameterError, LimitError and UsageError are ValueErrors


@given(any_value, any_value)
@settings(max_examples=150, deadline=None, derandomize=True)
def test_fuzz_accounting_arguments_never_crash(sigma, epsilon):
    try:
        d = exactdp.profile("gaussian", sigma=sigma, epsilon=epsilon, tolerance="1e-6")
        assert d.lower <= d.upper
    except (TypeError, ValueError):
        pass
    try:
        exactdp.events.DiscreteGaussian(sigma, sensitivity=epsilon)
    except (TypeError, ValueError):
        pass
