"""exactdp.estimators on columns (operations/estimate.h): a pandas Series / DataFrame, or an array of
another dtype than float64, is read exactly as columns. With the same seed it gives the float64
array's answer where the values are the same numbers, and a decimal string that is no binary float
is read as the decimal it is (its grid value is the exact one, not its float's)."""

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import estimators as E

pd = pytest.importorskip("pandas")


def _rng(i):
    return exactdp.SeededBits(bytes([i] * 31 + [9]))


def _texts(values):
    return [format(Decimal(float(v)), "f") for v in values]


def test_private_max_and_peeling_of_a_series_are_the_arrays():
    v = np.array([0.5, -3.0, 1.0, 7.0, 2.5])
    options = dict(epsilon=1, sensitivity="1/10")
    want = E.private_max(v, **options, rng=_rng(1))
    for same in (pd.Series(v), pd.Series(_texts(v)), v.astype(object)):
        assert E.private_max(same, **options, rng=_rng(1)) == want
    ints = np.array([3, -9, 4, 1])
    assert E.private_max(pd.Series(ints), **options, rng=_rng(2)) == \
        E.private_max(ints.astype(np.float64), **options, rng=_rng(2))
    assert E.private_max(ints, **options, rng=_rng(2)) == E.private_max(ints.astype(np.float64), **options, rng=_rng(2))
    options = dict(sparsity=2, epsilon=1, delta="1e-6", route="kov", sensitivity="1/10")
    want = E.peeling(v, **options, rng=_rng(3))
    assert E.peeling(pd.Series(v), **options, rng=_rng(3)) == want
    assert E.peeling(pd.Series(_texts(v)), **options, rng=_rng(3)) == want


def test_a_decimal_string_is_read_exactly():
    # On the grid 1/2 (granularity_exponent 1), 0.25 + 10^-20 is nearer 1/2 than 0: its grid value is
    # 1/2, the value of the exact decimal; its float, 0.25, is a tie that rounds to even, 0.
    text = "0.25000000000000000001"
    options = dict(sparsity=1, epsilon=1, sensitivity=1, granularity_exponent=1)
    exact = E.peeling(pd.Series([text]), **options, rng=_rng(4))
    assert exact == E.peeling(np.array([0.5]), **options, rng=_rng(4))
    as_float = E.peeling(np.array([float(text)]), **options, rng=_rng(4))
    assert exact[0][1][0] - as_float[0][1][0] == Fraction(1, 2)  # the same noise, the grid unit apart
    options = dict(epsilon=1, sensitivity=1, granularity_exponent=1)
    assert E.private_max(pd.Series([text, "-1/8"]), **options, rng=_rng(5)) == \
        E.private_max(np.array([0.5, 0.0]), **options, rng=_rng(5))


def _grid_data(seed, n, p):
    """x, y on the grid 1/4, and as decimals just above the tie below each value (10^-20 above: they
    round up to it exactly; as floats they are ties, half of which round down)."""
    data = np.random.default_rng(seed)
    x = data.integers(-4, 5, (n, p)) / 4
    y = np.clip(np.round(4 * (x @ np.array([0.5, -1.0, 0.25])[:p])) / 4 + data.integers(-1, 2, n) / 4, -2, 2)

    texts = pd.DataFrame({f"c{j}": [_decimal(Fraction(v) - Fraction(1, 8) + Fraction(1, 10**20)) for v in x[:, j]]
                          for j in range(p)})
    y_texts = pd.Series([_decimal(Fraction(v) - Fraction(1, 8) + Fraction(1, 10**20)) for v in y])
    return x, y, texts, y_texts


def _decimal(q):
    """The exact decimal of q (a denominator 2^a 10^b)."""
    return format(Decimal(q.numerator) / Decimal(q.denominator), "f")


def test_noisy_ols_and_dp_lasso_of_columns_are_the_arrays():
    x, y, texts, y_texts = _grid_data(6, 2000, 3)
    options = dict(coordinate_bound=1, response_bound=2, eigen_bound=4, epsilon=1, delta="1e-6", granularity_exponent=2)
    want = E.noisy_ols(x, y, **options, rng=_rng(6))
    frame = pd.DataFrame(x, columns=["a", "b", "c"])
    for xs, ys in ((frame, pd.Series(y)), (frame, y), (x, pd.Series(y)), (texts, y_texts)):
        got = E.noisy_ols(xs, ys, **options, rng=_rng(6))
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]
    options = dict(sparsity=2, coordinate_bound=1, response_bound=2, coefficient_bound=2, epsilon=1, delta="1e-6",
                   granularity_exponent=2)
    want = E.dp_lasso(x, y, **options, rng=_rng(7))
    for xs, ys in ((frame, pd.Series(y)), (texts, y_texts)):
        got = E.dp_lasso(xs, ys, **options, rng=_rng(7))
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]


def test_column_refusals_name_the_parameter():
    with pytest.raises(exactdp.ParameterError) as e:
        E.private_max(pd.Series(["1", "x"]), epsilon=1, sensitivity=1)
    assert e.value.parameter == "v"
    with pytest.raises(exactdp.ParameterError) as e:
        E.peeling(pd.Series(["1e2000"]), sparsity=1, epsilon=1, sensitivity=1)
    assert e.value.parameter == "v" and "2^1024" in str(e.value)
    with pytest.raises(exactdp.ParameterError) as e:
        E.peeling(pd.Series([1.0, 2.0]), sparsity=3, epsilon=1, sensitivity=1)
    assert e.value.parameter == "sparsity"
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    with pytest.raises(exactdp.ParameterError) as e:
        E.noisy_ols(frame, pd.Series([1.0, 2.0]), coordinate_bound=1, response_bound=1, eigen_bound=1, epsilon=1,
                    delta="1e-6")
    assert e.value.parameter == "x"
    with pytest.raises(exactdp.ParameterError) as e:
        E.dp_lasso(frame, pd.Series(["1", "2", "y"]), sparsity=1, coordinate_bound=1, response_bound=1,
                   coefficient_bound=1, epsilon=1)
    assert e.value.parameter == "y"
    with pytest.raises(exactdp.ParameterError) as e:
        E.dp_lasso(frame, pd.Series([1.0, 2.0, 3.0]), sparsity=1, coordinate_bound=0, response_bound=1,
                   coefficient_bound=1, epsilon=1)
    assert e.value.parameter == "coordinate_bound"
    with pytest.raises(exactdp.ParameterError) as e:
        E.peeling(frame, sparsity=1, epsilon=1, sensitivity=1)
    assert e.value.parameter == "v"
