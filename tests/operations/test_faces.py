"""One over-limit request through both faces of an operation (operations/compose.h): the
command line (`exactdp compose pure-dp`) and Python (`exactdp.compose`) refuse it with the same
error, naming the same parameter, from the same check. compose pure-dp is not in the C interface.

Run by ctest (operations_faces) with PYTHONPATH holding the built package and EXACTDP_CLI the
built command."""
import importlib
import os
import subprocess

import pytest

from faces_cli import cli_error

CLI = os.environ.get("EXACTDP_CLI")
# Under ctest (EXACTDP_CLI set) a package that does not import fails the run instead of skipping
# every case (a run whose cases all skip passes); run by hand without the build, the file skips.
exactdp = importlib.import_module("exactdp") if CLI else pytest.importorskip("exactdp")
pytestmark = pytest.mark.skipif(not CLI, reason="EXACTDP_CLI (the built exactdp) not set")


def python_error(error, **kwargs):
    with pytest.raises(error) as info:
        exactdp.compose(**kwargs)
    return info.value


def test_zcdp_limit_is_the_same_error_in_both_faces():
    text = cli_error("compose", "pure-dp", "--epsilon", "1000", "--k", "10000", "--delta", "1e-6",
                     "--method", "zcdp")
    error = python_error(exactdp.ParameterError, epsilon=1000, k=10000, delta="1e-6", method="zcdp")
    assert error.parameter == "epsilon"
    assert text.startswith("epsilon = 1000 is out of range")
    # One check, one sentence: only the spelling of the option differs (--method / method).
    assert str(error) == text.replace("--method", "method")
    assert "10^9" in str(error) and "rho = 5000000000" in str(error)


def test_tolerance_cost_limit_is_the_same_error_in_both_faces():
    text = cli_error("compose", "pure-dp", "--epsilon", "1", "--k", "2", "--delta", "1e-5",
                     "--method", "gdp", "--tolerance", "1e-200")
    error = python_error(exactdp.LimitError, epsilon=1, k=2, delta="1e-5", method="gdp", tolerance="1e-200")
    assert error.parameter == "tolerance"
    assert str(error) == text
    assert "2^-600" in text


def sample_error(error, **kwargs):
    with pytest.raises(error) as info:
        exactdp.sample("discrete-gaussian", **kwargs)
    return info.value


def test_sample_checks_are_the_same_error_in_both_faces():
    # operations/sample.h: the hardened range (never a fallback) and tau_bits' range.
    text = cli_error("sample", "discrete-gaussian", "--sigma2", "1/1000", "-n", "1", "--hardened")
    error = sample_error(exactdp.ParameterError, sigma2="1/1000", hardened=True)
    assert error.parameter == "sigma2"
    assert str(error) == text
    text = cli_error("sample", "discrete-gaussian", "--sigma2", "1", "-n", "1", "--hardened", "--tau-bits", "200")
    error = sample_error(exactdp.ParameterError, sigma2=1, hardened=True, tau_bits=200)
    assert error.parameter == "tau_bits"
    assert str(error) == text.replace("tau-bits", "tau_bits")
    assert "40 <= tau_bits <= 128" in str(error)


def test_sample_count_limit_is_the_same_check_in_both_faces():
    # The binding under exactdp.sample is given the count as is; the operation refuses it.
    text = cli_error("sample", "discrete-gaussian", "--sigma2", "1", "-n", "10000000001")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp._exactdp._sample("discrete-gaussian", [("sigma2", "1")], False, None, 10**10 + 1, None)
    assert info.value.parameter == "size"
    assert text == "n = 10000000001 is out of range: allowed 0 <= n <= 10000000000"
    assert str(info.value) == "size = 10000000001 is out of range: allowed 0 <= size <= 10000000000"


def test_sample_draw_cost_of_many_survivors_is_the_same_check_in_both_faces():
    # A distributed discrete Gaussian sample is one discrete Gaussian per surviving client: the
    # count is charged count * survivors draws (operations/draw_cost.h), before a bit is drawn.
    law = ("distributed-discrete-gaussian", "--sigma2", "1/4", "--clients", "10000")
    text = cli_error("sample", *law, "-n", "11429")
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.sample("distributed-discrete-gaussian", size=11429, sigma2="1/4", clients=10000)
    assert info.value.parameter == "size"
    assert text.startswith("n = 11429 is over the cost limit of distributed-discrete-gaussian: "
                           "a sample is 10000 draws")
    assert "allowed at most 11428 samples" in text
    assert str(info.value) == "size" + text[1:]
    text = cli_error("audit", *law[:-1], "1000", "--samples", "1000000")  # the audit's m sigma2 <= 250
    assert text.startswith("samples = 1000000 is over the cost limit of distributed-discrete-gaussian")


def test_measure_gdp_scale_limit_is_the_same_error_in_both_faces():
    # The staircase's sensitivity enters the natural mu sensitivity/gamma <= 30 from both faces.
    text = cli_error("measure-gdp", "staircase", "--gamma", "1/10", "--sensitivity", "4")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.measure_gdp("staircase", gamma="1/10", sensitivity=4)
    assert info.value.parameter == "gamma"
    assert str(info.value) == text


def test_calibrate_tolerance_limit_is_the_same_error_in_both_faces():
    # operations/calibrate.h: the analytic Gaussian's tolerance below 2^-2000 (about 1e-602).
    text = cli_error("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--tolerance", "1e-700")
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.calibrate("gaussian", epsilon=1, delta="1e-5", tolerance="1e-700")
    assert info.value.parameter == "tolerance"
    assert str(info.value) == text
    assert "2^-2000" in text


def test_dp_sgd_steps_limit_is_the_same_error_in_both_faces():
    text = cli_error("calibrate", "dp-sgd", "--q", "1/100", "--steps", "1000000001", "--epsilon", "1",
                     "--delta", "1e-5")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.calibrate("dp-sgd", q="1/100", steps=10**9 + 1, epsilon=1, delta="1e-5")
    assert info.value.parameter == "steps"
    assert str(info.value) == text == "steps = 1000000001 is out of range: allowed 1 <= steps <= 1000000000"


def profile_error(error, **kwargs):
    with pytest.raises(error) as info:
        exactdp.profile(**kwargs)
    return info.value


def test_profile_tolerance_cost_limit_is_the_same_error_in_both_faces():
    # operations/profile.h: below 2^-2000 (about 1e-602) the tolerance is refused from both faces.
    text = cli_error("profile", "gaussian", "--sigma", "1", "--epsilon", "1", "--tolerance", "1e-700")
    error = profile_error(exactdp.LimitError, law="gaussian", sigma=1, epsilon=1, tolerance="1e-700")
    assert error.parameter == "tolerance"
    assert str(error) == text
    assert "2^-2000" in text


def test_profile_curve_point_limit_is_the_same_error_in_both_faces():
    # A 332,000-bit sigma2 shrinks the most points of a curve below 10,000, for both faces.
    text = cli_error("profile", "discrete-gaussian", "--sigma2", "1e100000", "--curve", "0", "1", "10000")
    error = profile_error(exactdp.ParameterError, law="discrete-gaussian", sigma2="1e100000", curve=(0, 1, 10000))
    assert error.parameter == "points"
    assert str(error) == text
    assert "for parameters of this size" in text


def test_profile_hardened_checks_are_the_same_error_in_both_faces():
    text = cli_error("profile", "discrete-gaussian", "--sigma2", "4", "--epsilon", "1", "--hardened",
                     "--tau-bits", "200")
    error = profile_error(exactdp.ParameterError, law="discrete-gaussian", sigma2=4, epsilon=1, hardened=True,
                          tau_bits=200)
    assert error.parameter == "tau_bits"
    assert str(error) == text.replace("tau-bits", "tau_bits")
    text = cli_error("profile", "discrete-gaussian", "--sigma2", "1/1000", "--epsilon", "1", "--hardened")
    error = profile_error(exactdp.ParameterError, law="discrete-gaussian", sigma2="1/1000", epsilon=1, hardened=True)
    assert error.parameter == "sigma2"
    assert str(error) == text


def test_measure_gdp_composition_checks_are_the_same_in_both_faces():
    # operations/mechanisms.h: one check of pure-dp-composition's k and of a missing parameter,
    # worded in each face's spelling.
    text = cli_error("measure-gdp", "pure-dp-composition", "--epsilon", "1/10", "--k", "1001")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.measure_gdp("pure-dp-composition", epsilon="1/10", k=1001)
    assert info.value.parameter == "k"
    assert str(info.value) == text == "k = 1001 is out of range: allowed 1 <= k <= 1000"
    text = cli_error("measure-gdp", "pure-dp-composition", "--k", "3")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.measure_gdp("pure-dp-composition", k=3)
    assert info.value.parameter == "epsilon"
    assert text == "missing required option --epsilon (see --help)"
    assert str(info.value) == "missing required argument epsilon"


def test_measure_gdp_foreign_parameter_is_the_same_error_in_both_faces():
    text = cli_error("measure-gdp", "gaussian", "--sigma", "1", "--scale", "2")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.measure_gdp("gaussian", sigma=1, scale=2)
    assert info.value.parameter == "scale"
    assert str(info.value) == text.replace("--scale", "scale") == "measure-gdp gaussian does not take scale"


def test_release_contributions_limit_is_the_same_error_in_both_faces():
    # operations/release.h: one check of contributions (1..10^6) for the CSV release of the
    # command line and the in-memory release of exactdp.release, before any value is read.
    pd = pytest.importorskip("pandas")
    p = subprocess.run([CLI, "release", "--mechanism", "discrete-laplace", "--epsilon", "1", "--column", "count",
                        "--contributions", "1000001"], input="key,count\na,3\n", capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.release(pd.DataFrame({"key": ["a"], "count": [3]}), columns=["count"], law="discrete-laplace",
                        epsilon=1, contributions=1000001)
    assert info.value.parameter == "contributions"
    assert p.stderr == "exactdp: " + str(info.value) + "\n"
    assert str(info.value) == "contributions = 1000001 is out of range: allowed 1 <= contributions <= 1000000"


def test_aggregate_quantile_grid_limit_is_the_same_error_in_both_faces():
    # operations/aggregate.h: a quantile's grid over 100,000 points is refused before any record
    # is read, by the same check from the command line and from exactdp.aggregate.
    pd = pytest.importorskip("pandas")
    p = subprocess.run([CLI, "aggregate", "--privacy-unit", "user", "--group-by", "region", "--quantile", "amount",
                        "--bounds", "0,100000", "--q", "1/2", "--epsilon", "1", "--delta", "1e-6"],
                       input="user,region,amount\nu,a,3\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.aggregate(pd.DataFrame({"user": ["u"], "region": ["a"], "amount": [3]}), privacy_unit="user",
                          group_by="region", quantile={"amount": (0, 100000, ["1/2"])}, epsilon=1, delta="1e-6")
    assert info.value.parameter == "bounds"
    assert p.stderr == "exactdp: " + str(info.value) + "\n"
    assert "100001 grid points: allowed at most 100000" in str(info.value)


def test_aggregate_bounding_limit_is_the_same_check_in_both_faces():
    pd = pytest.importorskip("pandas")
    text = cli_error("aggregate", "--privacy-unit", "user", "--group-by", "region", "--count", "--max-rows",
                     "1000001", "--epsilon", "1", "--delta", "1e-6")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.aggregate(pd.DataFrame({"user": ["u"], "region": ["a"]}), privacy_unit="user", group_by="region",
                          count=True, max_rows=1000001, epsilon=1, delta="1e-6")
    assert info.value.parameter == "max_rows"
    assert str(info.value) == text.replace("max-rows", "max_rows")
    assert text == "max-rows = 1000001 is out of range: allowed 1 <= max-rows <= 1000000"


def test_estimate_peeling_work_limit_is_the_same_error_in_both_faces():
    # operations/estimate.h: s = 100 coordinates of d = 100,000 is over the peeling's work limit
    # once d is known, before any row is read (the command line's header, Python's columns).
    pd = pytest.importorskip("pandas")
    names = [f"c{j}" for j in range(100_000)]
    p = subprocess.run([CLI, "estimate", "sparse-mean", "--s", "100", "--bound", "1", "--epsilon", "1"],
                       input=",".join(names) + "\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    frame = pd.DataFrame({name: [0.0] for name in names})
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.estimators.sparse_mean(frame, sparsity=100, radius=1, epsilon=1)
    assert info.value.parameter == "sparsity"
    assert p.stderr == "exactdp: " + str(info.value).replace("sparsity", "s") + "\n"


def test_audit_checks_are_the_same_error_in_both_faces():
    # operations/audit.h: alpha and the law's parameters, checked before any sample is drawn or
    # read. Python audits given samples only: the draws' cost limit (samples) is the command
    # line's alone, and audit-timing has no Python face (tests/operations/operations_audit_test.cc).
    text = cli_error("audit", "discrete-gaussian", "--sigma2", "1", "--samples", "10", "--alpha", "2")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.audit([1, 2], law="discrete-gaussian", sigma2=1, alpha=2)
    assert info.value.parameter == "alpha"
    assert str(info.value) == text == "alpha = 2 is out of range: allowed 0 < alpha < 1"
    text = cli_error("audit", "--expect", "discrete-laplace", "--scale", "-1", "-")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.audit([1, 2], law="discrete-laplace", scale=-1)
    assert info.value.parameter == "scale"
    assert str(info.value) == text
    text = cli_error("audit", "discrete-gaussian", "--sigma2", "1e100000", "--samples", "100000")
    assert text.startswith("samples = 100000 is over the cost limit")
    # From 20,000 digits the reference law is charged with the draws: 468 samples at 10^99999
    # (6.2 ms each, after about 1.1 s for the reference law) are refused.
    text = cli_error("audit", "discrete-gaussian", "--sigma2", "1e99999", "--samples", "468")
    assert text.endswith("allowed at most 467 draws (each takes about 6200 us, after about 1.1 s for the audit's "
                         "reference law)"), text


def test_release_draw_cost_limit_is_the_same_error_in_both_faces():
    # operations/release.h (check_release_cost): 16,667 cells of a noise with 10,000 digits are
    # over 4 s of draws, refused once calibrated and before any noise is drawn.
    pd = pytest.importorskip("pandas")
    p = subprocess.run([CLI, "release", "--mechanism", "discrete-laplace", "--epsilon", "1e-9999", "--column", "v"],
                       input="v\n" + "1\n" * 16667, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.release(pd.DataFrame({"v": [1] * 16667}), columns=["v"], law="discrete-laplace", epsilon="1e-9999")
    assert info.value.parameter == "epsilon"
    assert p.stderr == "exactdp: " + str(info.value) + "\n"
    assert str(info.value).startswith("cells = 16667 (rows x noised columns) is over the cost limit")


def test_dask_release_draw_cost_limit_is_the_same_error():
    # exactdp.dask.release draws on the workers, but its cells are held to the same limit on the
    # client before any partition draws (the rows of every partition together).
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    import exactdp.dask
    frame = pd.DataFrame({"v": [1] * 16667})
    with pytest.raises(exactdp.LimitError) as single:
        exactdp.release(frame, columns=["v"], law="discrete-laplace", epsilon="1e-9999")
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.dask.release(dd.from_pandas(frame, npartitions=4), columns=["v"], law="discrete-laplace",
                             epsilon="1e-9999")
    assert info.value.parameter == "epsilon"
    assert str(info.value) == str(single.value)
    # fewer cells pass (the noise leaves int64 when drawn: refused then, naming the column)
    out, g = exactdp.dask.release(dd.from_pandas(frame[:100], npartitions=2), columns=["v"],
                                  law="discrete-laplace", epsilon="1e-9999")
    assert len(g.parameter) == 10000
    with pytest.raises(exactdp.ParameterError) as info:
        out.compute()
    assert info.value.parameter == "v" and "is outside the range of the column's type int64" in str(info.value)
    out, _ = exactdp.dask.release(dd.from_pandas(frame, npartitions=4), columns=["v"], law="discrete-laplace",
                                  epsilon=1)
    assert len(out.compute()) == 16667
