"""exactdp.dask.release on a LocalCluster with worker processes: the noise law across
partitions, other columns untouched, the guarantee equal to the single-machine one."""

from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp.interval import Interval

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

from test_samplers import chi_square_p_value  # noqa: E402  (the exact-pmf chi-square)

ALPHA = 1e-6  # false-alarm probability of the chi-square for a correct release


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def test_release_on_a_local_cluster(client):
    n = 40_000
    frame = pd.DataFrame({"c": np.zeros(n, dtype=np.int64), "other": np.arange(n), "label": ["x"] * n})
    ddf = dd.from_pandas(frame, npartitions=8)
    noised, guarantee = exactdp.dask.release(ddf, columns=["c"], mechanism="discrete-gaussian",
                                             epsilon="1", delta="1e-6", sensitivity=1)
    result = noised.compute()
    assert (result["other"].to_numpy() == frame["other"].to_numpy()).all()
    assert (result["label"] == "x").all()
    sigma2 = guarantee.per_cell
    assert sigma2 == exactdp.calibrate("discrete-gaussian", epsilon=1, delta="1e-6", sensitivity=1).upper
    # The noise law across all partitions (OS CSPRNG on the workers, so not a fixed seed here:
    # this check fails with probability ALPHA for a correct release).
    assert chi_square_p_value(result["c"].to_numpy(), float(sigma2), support=8) > ALPHA
    # One column, one contribution: the exact profile (CKS20 Thm 7) at the calibrated sigma2.
    assert guarantee.route == "exact-profile"
    single = exactdp.profile("discrete-gaussian", sigma2=sigma2, sensitivity=1, epsilon=1)
    assert isinstance(guarantee.delta, Interval)
    assert guarantee.delta.lower <= single.upper and single.lower <= guarantee.delta.upper
    assert guarantee.delta.upper <= Fraction(1, 10**6)


@pytest.mark.parametrize("mechanism,delta", [("discrete-gaussian", "1e-6"), ("discrete-laplace", None)])
def test_guarantee_is_the_cli_release_guarantee(tmp_path, mechanism, delta):
    """Several columns and contributions: the same route, parameter and certified guarantee as
    `exactdp release` with the same options (the calibration is the same C++ code)."""
    from conftest import _find_cli
    path = _find_cli()
    if path is None:
        pytest.skip("the exactdp program is not built (set EXACTDP_CLI)")
    import json
    import subprocess
    report = tmp_path / "guarantee.json"
    args = [path, "release", "--mechanism", mechanism, "--epsilon", "1", "--column", "a", "--column", "b",
            "--contributions", "2", "--sensitivity", "3", "--json", str(report)]
    if delta is not None:
        args += ["--delta", delta]
    subprocess.run(args, input="k,a,b\nx,1,2\n", capture_output=True, text=True, check=True)
    expected = json.loads(report.read_text())
    got = exactdp.dask.calibrate(mechanism, epsilon="1", delta=delta, sensitivity=3, contributions=2, columns=2)
    name = "sigma2" if mechanism == "discrete-gaussian" else "scale"
    assert got.route == expected["route"]
    assert got.parameter_name == name and got.per_cell == Fraction(expected["columns"][0][name])
    assert got.to_dict()[name] == got.per_cell  # the old dict's key
    for key in ("epsilon", "delta"):  # both certified: the CLI's decimals enclose ours or overlap
        assert getattr(got, key).lower <= Fraction(expected[key]["upper"]) and Fraction(expected[key]["lower"]) <= getattr(got, key).upper
    assert got.epsilon.upper <= 1
    if expected["rho_zcdp"] is not None:
        assert got.rho == Fraction(expected["rho_zcdp"])
    assert got.columns == 2 and got.contributions == 2


def test_seeded_release_is_reproducible_and_partitions_differ(client):
    frame = pd.DataFrame({"c": np.zeros(4_000, dtype=np.int64)})
    ddf = dd.from_pandas(frame, npartitions=4)
    a = exactdp.dask.release(ddf, ["c"], "discrete-laplace", epsilon="1/2", seed=bytes(range(32)))[0].compute()
    b = exactdp.dask.release(ddf, ["c"], "discrete-laplace", epsilon="1/2", seed=bytes(range(32)))[0].compute()
    assert (a["c"] == b["c"]).all()
    parts = np.split(a["c"].to_numpy(), 4)
    assert len({tuple(p[:50]) for p in parts}) == 4


def test_release_refuses_bad_input():
    ddf = dd.from_pandas(pd.DataFrame({"f": [0.5, 1.5]}), npartitions=1)
    with pytest.raises(TypeError):
        exactdp.dask.release(ddf, ["f"])
    with pytest.raises(ValueError):
        exactdp.dask.release(ddf, ["missing"])


def test_cells_near_the_int64_ends_are_refused_not_wrapped():
    from exactdp.dask import add_noise_exactly
    top = np.iinfo(np.int64).max
    values = np.array([0, top - 1, 5], dtype=np.int64)
    assert add_noise_exactly(values, np.array([3, 1, -2]), "c", pd.RangeIndex(3)).tolist() == [3, top, 3]
    with pytest.raises(exactdp.ParameterError, match="column 'c', row 11") as e:
        add_noise_exactly(values, np.array([0, 2, 0]), "c", pd.Index([10, 11, 12]))
    assert e.value.parameter == "c"
    bottom = np.iinfo(np.int64).min
    with pytest.raises(exactdp.ParameterError, match="row 0"):
        add_noise_exactly(np.array([bottom], dtype=np.int64), np.array([-1]), "c", pd.RangeIndex(1))
    with pytest.raises(exactdp.ParameterError, match="row 1"):  # noise beyond int64 (object)
        add_noise_exactly(values, np.array([0, 10**30, 0], dtype=object), "c", pd.RangeIndex(3))


def test_uint64_columns_are_exact():
    from exactdp.dask import add_noise_exactly
    big = 2**64 - 10
    values = np.array([big, 3], dtype=np.uint64)
    out = add_noise_exactly(values, np.array([5, -3]), "u", pd.RangeIndex(2))
    assert out.dtype == np.uint64 and out.tolist() == [big + 5, 0]  # not cast through int64
    with pytest.raises(exactdp.ParameterError, match="row 1"):
        add_noise_exactly(values, np.array([0, -4]), "u", pd.RangeIndex(2))
    with pytest.raises(exactdp.ParameterError, match="row 0"):
        add_noise_exactly(values, np.array([10, 0]), "u", pd.RangeIndex(2))


def test_release_of_a_uint64_column(client):
    frame = pd.DataFrame({"u": np.full(100, 2**63 + 7, dtype=np.uint64)})
    noised, _ = exactdp.dask.release(dd.from_pandas(frame, npartitions=2), columns=["u"],
                                     mechanism="discrete-laplace", epsilon="1/2", seed=bytes(range(32)))
    got = noised.compute()["u"]
    assert got.dtype == np.uint64
    assert all(abs(int(x) - (2**63 + 7)) < 1000 for x in got.tolist())


def test_all_zero_release_seed_is_refused():
    frame = pd.DataFrame({"c": np.zeros(4, dtype=np.int64)})
    with pytest.raises(exactdp.ParameterError, match="all-zero"):
        exactdp.dask.release(dd.from_pandas(frame, npartitions=1), ["c"], "discrete-laplace", epsilon=1,
                             seed=bytes(32))
