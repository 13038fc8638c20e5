"""exactdp.estimators (docs/ESTIMATION.md): fixed seeds (data from numpy's PCG64, noise from
SeededBits), stated margins. Each accuracy check compares with a number the estimator could miss
(a dense private baseline, the true support, an explicit error bound), and the refusals name
their parameter."""

from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import estimators as E


def _rng(i):
    return exactdp.SeededBits(bytes([i] * 31 + [7]))


def test_sparse_mean_beats_the_dense_private_mean():
    # d = 1000, s = 5, n = 10^4, (epsilon, delta) = (1, 10^-6); R = 7 >= 2 + sqrt(2 log(n d)).
    n, d, s = 10_000, 1000, 5
    mu = np.zeros(d)
    support = [3, 100, 250, 600, 999]
    mu[support] = [1.0, -1.0, 1.5, 2.0, -1.2]
    x = mu + np.random.default_rng(7).standard_normal((n, d))
    est, g = E.sparse_mean(x, sparsity=s, radius=7, epsilon=1, delta="1e-6", rng=_rng(1))
    assert g.certified_epsilon.upper <= 1 and g.delta == Fraction(1, 10**6)
    assert [r["route"] for r in g.routes] == ["kov", "basic", "advanced"]
    assert g.routes[0]["epsilon_per_round"] >= g.routes[2]["epsilon_per_round"]
    assert sorted(g.support) == support
    # Dense baseline at the same (epsilon, delta): truncated mean + Gaussian noise calibrated for
    # the L2 sensitivity 2 R sqrt(d) / n (sqrt(1000) < 32), noised exactly on the grid.
    sigma = exactdp.calibrate("gaussian", epsilon=1, delta="1e-6", sensitivity=Fraction(2 * 7 * 32, n))
    dense = exactdp.add_noise(np.clip(x, -7, 7).mean(axis=0), sigma=sigma.upper, rng=_rng(2))
    sparse_error, dense_error = np.linalg.norm(est - mu), np.linalg.norm(dense - mu)
    # Measured 0.023 vs 6.2; the margin: sparse below 0.2 and at least 10 times better.
    assert sparse_error < 0.2
    assert sparse_error * 10 < dense_error


def test_dp_lasso_recovers_the_support_at_high_snr():
    n, d = 100_000, 40
    beta = np.zeros(d)
    beta[[2, 17, 31]] = [2.0, -2.0, 1.5]
    data = np.random.default_rng(11)
    x = data.standard_normal((n, d))
    y = x @ beta + 0.1 * data.standard_normal(n)
    est, g = E.dp_lasso(x, y, sparsity=3, coordinate_bound=3, response_bound=10, coefficient_bound=3,
                        iterations=8, epsilon=1, delta="1e-6", rng=_rng(3))
    assert sorted(g.support) == [2, 17, 31]
    assert np.count_nonzero(est) == 3
    assert g.certified_epsilon.upper <= 1
    assert g.composition.startswith("parallel over 8 disjoint parts of 12500 rows")
    # lambda = 2 eta c (R + s C c) / n0 = 2 (1/2) 3 (10 + 27) / 12500 (plus one grid unit).
    assert Fraction(111, 12500) < g.tuning["sensitivity"] <= Fraction(111, 12500) * (1 + Fraction(1, 2**19))
    # Measured error 0.24 (noise scale 0.08 on three coefficients).
    assert np.linalg.norm(est - beta) < 0.6


def test_noisy_ols_error_within_the_bound():
    n, p = 100_000, 3
    b = np.array([0.5, -1.0, 0.25])
    data = np.random.default_rng(5)
    x = data.uniform(-1, 1, (n, p))  # lambda_min(X^T X / n) ~ 1/3 > 1/4
    y = x @ b + 0.1 * data.standard_normal(n)
    est, g = E.noisy_ols(x, y, coordinate_bound=1, response_bound=4, eigen_bound=4, epsilon=1, delta="1e-6",
                         rng=_rng(4))
    ols = np.linalg.lstsq(x, y, rcond=None)[0]
    sigma = float(g.tuning["sigma2"]) ** 0.5
    # Delta = 2 L c' R (1 + L c'^2) / n, c'^2 = p c^2 = 3: the sensitivity reported bounds it.
    assert float(g.tuning["sensitivity"]) >= 2 * 4 * 3 ** 0.5 * 4 * 13 / n
    assert g.certified_epsilon.upper <= 1
    # The theorem's error: statistical (the OLS's) plus privacy (the noise, sqrt(p) sigma); the
    # Gaussian norm exceeds 4 sqrt(p) sigma with probability < 10^-9. Measured 0.079 <= 0.23.
    error = np.linalg.norm(est - b)
    assert error <= np.linalg.norm(ols - b) + 4 * (p ** 0.5) * sigma
    assert np.linalg.norm(est - ols) > 0  # the noise is there


def test_private_max_and_peeling_report_their_budget():
    v = np.array([0.5, -3.0, 1.0, 7.0])
    (index, value), g = E.private_max(v, epsilon=1, sensitivity="1/10", rng=_rng(5))
    assert 0 <= index < 4 and isinstance(value, Fraction)
    assert g.budget_split == {"argmax": Fraction(2, 3), "value": Fraction(1, 3)}
    (indices, values), g = E.peeling(v, sparsity=2, epsilon=1, delta="1e-6", route="advanced",
                                     sensitivity="1/10", rng=_rng(6))
    assert len(set(indices)) == 2 and len(values) == 2
    assert g.routes[0]["route"] == "advanced" and g.certified_epsilon.upper <= 1


def test_refusals_name_the_parameter():
    x = np.zeros((10, 4))
    with pytest.raises(TypeError):
        E.sparse_mean(x, sparsity=1, radius=1.5, epsilon=1)  # a float parameter
    with pytest.raises(exactdp.ParameterError) as e:
        E.sparse_mean(x, sparsity=5, radius=1, epsilon=1)
    assert e.value.parameter == "sparsity"
    with pytest.raises(exactdp.ParameterError) as e:
        E.sparse_mean(x, sparsity=1, radius=0, epsilon=1)
    assert e.value.parameter == "radius"
    bad = x.copy()
    bad[3, 2] = np.nan
    with pytest.raises(exactdp.ParameterError) as e:
        E.sparse_mean(bad, sparsity=1, radius=1, epsilon=1)
    assert e.value.parameter == "x" and "x[14] is NaN" in str(e.value)
    with pytest.raises(exactdp.ParameterError) as e:
        E.dp_lasso(x, np.zeros(9), sparsity=1, coordinate_bound=1, response_bound=1, coefficient_bound=1, epsilon=1)
    assert e.value.parameter == "y"
    with pytest.raises(exactdp.ParameterError) as e:
        E.peeling(np.zeros(3), sparsity=1, epsilon=1, sensitivity=1, route="kov")  # kov needs a delta
    assert e.value.parameter == "delta"
    with pytest.raises(exactdp.ParameterError) as e:
        E.noisy_ols(x, np.zeros(10), coordinate_bound=1, response_bound=1, eigen_bound=1, epsilon=1, delta="1e-6")
    assert e.value.parameter == "design"
    with pytest.raises(exactdp.ParameterError) as e:
        E.private_max(np.zeros(3), epsilon=0, sensitivity=1)
    assert e.value.parameter == "epsilon"


def test_dataframe_and_series_columns_give_the_array_answer():
    pd = pytest.importorskip("pandas")
    data = np.random.default_rng(9)
    x = data.uniform(-1, 1, (2000, 3))
    y = x @ np.array([0.5, -1.0, 0.25])
    frame = pd.DataFrame(x, columns=["a", "b", "c"])
    options = dict(coordinate_bound=1, response_bound=4, eigen_bound=4, epsilon=1, delta="1e-6")
    from_arrays = E.noisy_ols(x, y, **options, rng=_rng(8))
    from_frame = E.noisy_ols(frame, pd.Series(y), **options, rng=_rng(8))
    assert np.array_equal(from_frame[0], from_arrays[0]) and from_frame[1] == from_arrays[1]
    # int64 is read exactly as a column (test_estimators_columns.py has the other kinds)
    assert E.private_max(pd.Series([1, 2, 3]), epsilon=1, sensitivity=1, rng=_rng(9)) == \
        E.private_max(np.array([1.0, 2.0, 3.0]), epsilon=1, sensitivity=1, rng=_rng(9))


def test_sparse_mean_reads_dataframe_columns_as_the_array_path_does():
    # A DataFrame's columns go to the library without a float64 matrix (operations/estimate.h):
    # floats at their exact binary value give the array path's estimate and guarantee, bit for
    # bit with the same seed; so do the floats' exact decimal expansions as strings, and ints.
    pd = pytest.importorskip("pandas")
    from decimal import Decimal
    x = np.random.default_rng(11).uniform(-2, 2, (400, 5))
    x[:4, 0] = [2 ** -32, 3 * 2 ** -32, -(2 ** -32), 5 * 2 ** -32]  # ties of the grid 2^-31 (R = 3): half to even
    options = dict(sparsity=2, radius=3, epsilon=1, delta="1e-6")
    from_array = E.sparse_mean(x, **options, rng=_rng(12))
    frame = pd.DataFrame(x, columns=list("abcde"))
    from_frame = E.sparse_mean(frame, **options, rng=_rng(12))
    assert np.array_equal(from_frame[0], from_array[0]) and from_frame[1] == from_array[1]
    texts = pd.DataFrame({c: [format(Decimal(v), "f") for v in x[:, i]] for i, c in enumerate("abcde")})
    from_texts = E.sparse_mean(texts, **options, rng=_rng(12))
    assert from_texts[1] == from_array[1]
    ints = np.random.default_rng(13).integers(-5, 6, (300, 3))
    int_frame = pd.DataFrame(ints, columns=["p", "q", "r"])
    assert E.sparse_mean(int_frame, **options, rng=_rng(14))[1] == \
        E.sparse_mean(ints.astype(np.float64), **options, rng=_rng(14))[1]


def test_sparse_mean_of_decimal_strings_is_the_command_lines(tmp_path):
    # Decimals that are no float ("0.1") are read exactly, as `exactdp estimate sparse-mean`
    # reads its CSV: the same exact estimate with the same seed.
    pd = pytest.importorskip("pandas")
    import json
    import subprocess
    from conftest import _find_cli
    cli = _find_cli()
    if cli is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    cells = [["0.1", "-2.675", "1e-3"], ["3.3", "0.25", "-7"], ["1.0000000001", "2", "-.5"], ["9", "-9", "4.5e0"]]
    seed = "0b" * 32
    report = tmp_path / "g.json"
    csv_text = "a,b,c\n" + "".join(",".join(row) + "\n" for row in cells)
    run = subprocess.run([cli, "estimate", "sparse-mean", "--s", "2", "--bound", "10", "--epsilon", "1", "--seed", seed,
                          "--json", str(report)], input=csv_text, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    frame = pd.DataFrame(cells, columns=["a", "b", "c"])
    _, g = E.sparse_mean(frame, sparsity=2, radius=10, epsilon=1, rng=exactdp.SeededBits(bytes.fromhex(seed)))
    support = json.loads(report.read_text())["support"]
    assert [["a", "b", "c"][j] for j in g.support] == [s["coordinate"] for s in support]
    assert [str(g.exact_estimate[j]) for j in g.support] == \
        [str(Fraction(s["estimate_exact"])) for s in support]


def test_sparse_mean_columns_refuse_what_the_csv_refuses():
    pd = pytest.importorskip("pandas")
    with pytest.raises(exactdp.ParameterError) as e:
        E.sparse_mean(pd.DataFrame({"a": ["1", "x"]}), sparsity=1, radius=1, epsilon=1)
    assert e.value.parameter == "x" and "column 'a', row 1" in str(e.value)
    with pytest.raises(exactdp.ParameterError) as e:
        E.sparse_mean(pd.DataFrame({"a": [1.0, None]}), sparsity=1, radius=1, epsilon=1)
    assert e.value.parameter == "x"
    with pytest.raises(exactdp.ParameterError) as e:
        E.sparse_mean(pd.DataFrame({"a": [1.0], "b": [2.0]}), sparsity=3, radius=1, epsilon=1)
    assert e.value.parameter == "sparsity"


def test_sparse_mean_reads_fraction_texts_and_decimals_alike():
    # Plain decimal strings go to the library as they are; "p/q" texts and Fractions through
    # Python's exact conversion: the same values, the same estimate.
    pd = pytest.importorskip("pandas")
    from fractions import Fraction as F
    plain = pd.DataFrame({"a": ["0.5", "-1.25", "3"], "b": ["0.125", "2", "-0.75"]})
    other = pd.DataFrame({"a": ["1/2", F(-5, 4), "3"], "b": [F(1, 8), "2", "-3/4"]})
    options = dict(sparsity=2, radius=4, epsilon=1)
    assert E.sparse_mean(plain, **options, rng=_rng(15))[1] == E.sparse_mean(other, **options, rng=_rng(15))[1]
