"""exactdp.dask.aggregate on a LocalCluster with worker processes: the shuffle keeps every unit in
one partition (the bounded totals equal the single-machine ones), the guarantee is the pandas
path's, seeded runs reproduce, errors are all or nothing."""


import numpy as np
import pytest

import exactdp
from exactdp import _aggregate, _exactdp

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

SEED = bytes(range(1, 33))


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def spread_records(units=60):
    """Every unit has 2 rows in group "a" and 1 in group "b" (so L0 = 2, Linf = 2 draw nothing),
    its rows far apart in the frame: a partition of the unshuffled frame holds part of a unit."""
    rows = []
    for rep in range(3):
        for u in range(units):
            group = "a" if rep < 2 else "b"
            rows.append({"user": u, "g": group, "v": u % 7 + rep})
    return pd.DataFrame(rows)


def single_machine_totals(frame, spec):
    records, _ = _aggregate.records_csv(frame, spec)
    return sorted(_exactdp._aggregate_bound_partition(spec, records, None, None))


SPEC = dict(privacy_unit="user", group_by="g", epsilon=1, delta="1e-6", max_groups=2, max_rows=2,
            mechanism="discrete-laplace", split=None, public_keys=False, count=True, count_units=True,
            sum={"v": (0, 10)})


def test_shuffle_keeps_each_unit_in_one_partition(client):
    frame = spread_records()
    spec = _aggregate.build_spec(**SPEC)
    ddf = dd.from_pandas(frame, npartitions=3)
    expected = single_machine_totals(frame, spec)
    assert expected == [("a", 120, 60, [2 * sum(u % 7 for u in range(60)) + 60], []),
                        ("b", 60, 60, [sum(u % 7 + 2 for u in range(60))], [])]
    totals, _ = exactdp.dask.bounded_totals(ddf, spec, None, None)
    assert sorted(totals) == expected
    # Without the shuffle a unit's rows of "a" sit in two partitions: counted as two units.
    unshuffled, _ = exactdp.dask.bounded_totals(ddf, spec, None, None, shuffle=False)
    assert sorted(unshuffled) != expected


def test_guarantee_and_table_shape_are_the_pandas_ones(client):
    frame = spread_records()
    options = dict(privacy_unit="user", group_by="g", count=True, mean={"v": (0, 10)}, epsilon="1/2",
                   delta="1e-6", max_groups=2, max_rows=2, mechanism="discrete-gaussian")
    table, g = exactdp.dask.aggregate(dd.from_pandas(frame, npartitions=3), **options)
    local, local_g = exactdp.aggregate(frame, **options)
    for key in ("epsilon", "delta", "split", "aggregates_epsilon", "aggregates_delta", "aggregates_route",
                "quantities", "bounding", "requested", "mechanism", "epsilon_is_exact"):
        assert getattr(g, key) == getattr(local_g, key), key
    for key in ("selection", "table_entries", "table_bits", "delta_per_group", "saturation_units"):
        assert g.partition_selection[key] == local_g.partition_selection[key], key
    assert g.randomness == "OS CSPRNG"
    assert list(table.columns) == list(local.columns) == ["g", "count", "mean_v"]
    assert table["count"].dtype == np.int64


def test_seeded_runs_with_public_keys_reproduce_and_keep_key_order(client):
    frame = spread_records()
    ddf = dd.from_pandas(frame, npartitions=3)
    keys = [("b",), ("zz",), ("a",)]
    options = dict(privacy_unit="user", group_by="g", count=True, sum={"v": ("0", "10.0")}, epsilon=1,
                   max_groups=2, max_rows=2, keys=keys, seed=SEED)
    a, g = exactdp.dask.aggregate(ddf, **options)
    b, _ = exactdp.dask.aggregate(ddf, **options)
    assert a.equals(b)
    assert list(a["g"]) == ["b", "zz", "a"]
    assert g.partition_selection["keys"] == 3 and "NOT private" in g.randomness
    # Noise of scale 2 * L1 / epsilon around the exact totals (a loose, deterministic check).
    exact = {"a": 120, "b": 60, "zz": 0}
    scale = g.quantities[0]["scale"]
    assert all(abs(c - exact[k]) < 40 * scale for k, c in zip(a["g"], a["count"]))
    assert a["sum_v"].iloc[1].as_tuple().exponent == -1
    c, _ = exactdp.dask.aggregate(ddf, **{**options, "seed": bytes(range(2, 34))})
    assert not a.equals(c)


def test_errors_are_all_or_nothing(client):
    frame = spread_records().astype({"v": object})
    frame.loc[100, "v"] = float("nan")
    ddf = dd.from_pandas(frame, npartitions=3)
    with pytest.raises(exactdp.ParameterError, match="'v'"):
        exactdp.dask.aggregate(ddf, privacy_unit="user", group_by="g", sum={"v": (0, 10)}, epsilon=1, delta="1e-6")
    with pytest.raises(exactdp.ParameterError) as e:  # refused on the client, before any task
        exactdp.dask.aggregate(ddf, privacy_unit="user", group_by="g", count=True, epsilon=1)
    assert e.value.parameter == "delta"
    with pytest.raises(exactdp.ParameterError, match="all-zero"):
        exactdp.dask.aggregate(ddf, privacy_unit="user", group_by="g", count=True, epsilon=1, delta="1e-6",
                               seed=bytes(32))


QUANTILES = {"v": (0, 10, ["1/2", "9/10"])}


def normalized(totals):
    """Totals with every group's kept values sorted: compared as multisets."""
    return sorted((k, r, u, s, [sorted(v) for v in kept]) for k, r, u, s, kept in totals)


def test_quantile_kept_values_merge_to_the_single_machine_ones(client):
    frame = spread_records()
    ddf = dd.from_pandas(frame, npartitions=3)
    spec = _aggregate.build_spec(**{**SPEC, "quantile": QUANTILES})
    expected = normalized(single_machine_totals(frame, spec))
    values_a = sorted(u % 7 + rep for rep in (0, 1) for u in range(60))
    assert expected[0][4] == [values_a, values_a]  # one list per quantile, one value per kept row
    totals, _ = exactdp.dask.bounded_totals(ddf, spec, None, None)
    assert normalized(totals) == expected
    # The client's step on the merged totals is aggregate_records' on the whole frame, bit for bit
    # (the bounding draws nothing here, so both consume the same seeded stream from its start).
    for keys in (None, b"g\nb\nzz\na\n"):
        spec_k = _aggregate.build_spec(**{**SPEC, "quantile": QUANTILES, "public_keys": keys is not None,
                                          "epsilon": 8})  # 60 units pass the selection
        records, _ = _aggregate.records_csv(frame, spec_k)
        whole = _exactdp._aggregate_records(spec_k, records, keys, exactdp.SeededBits(SEED))
        merged, _ = exactdp.dask.bounded_totals(ddf, spec_k, keys, None)
        release = _exactdp._aggregate_from_totals(spec_k, merged, keys, exactdp.SeededBits(SEED))
        assert release["header"] == whole["header"] == "g,count,count_units,sum_v,quantile_v_0.5,quantile_v_0.9"
        assert release["rows"] == whole["rows"] and len(whole["rows"]) >= 2
    # A group's kept values dropped on the way: refused, naming totals.
    broken = [(k, r, u, s, [v[1:], v]) for k, r, u, s, v in merged]
    with pytest.raises(exactdp.ParameterError) as e:
        _exactdp._aggregate_from_totals(spec_k, broken, keys, None)
    assert e.value.parameter == "totals"


def test_quantile_release_and_guarantee_are_the_pandas_ones(client):
    frame = spread_records()
    ddf = dd.from_pandas(frame, npartitions=3)
    options = dict(privacy_unit="user", group_by="g", count=True, quantile={"v": ("0", "10.0", ["1/2"])},
                   epsilon=1, max_groups=2, max_rows=2, keys=[("b",), ("a",)])
    table, g = exactdp.dask.aggregate(ddf, seed=SEED, **options)
    local, local_g = exactdp.aggregate(frame, rng=exactdp.SeededBits(SEED), **options)
    assert g == local_g and len(g.quantiles) == 1
    assert list(table.columns) == list(local.columns) == ["g", "count", "quantile_v_0.5"]
    assert all(v.as_tuple().exponent == -1 and 0 <= v <= 10 for v in table["quantile_v_0.5"])
    again, _ = exactdp.dask.aggregate(ddf, seed=SEED, **options)
    assert again.equals(table)
    with pytest.raises(exactdp.ParameterError) as e:  # refused on the client, before any task
        exactdp.dask.aggregate(ddf, **{**options, "quantile": {"v": ("0", "10.0", ["2"])}})
    assert e.value.parameter == "quantile"
