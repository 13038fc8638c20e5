"""exactdp.aggregate from a pandas DataFrame: the typed-column path against the CSV text it
replaced, the same seeded release on both (BENCHMARKS.md, "aggregate"). CPU seconds of the
calling process, one run each (the machine's load moves wall time, not this much).

  PYTHONPATH=build/python /usr/bin/python3 bench/aggregate_columns_bench.py [--rows 1000000]

The frame: 2 x 10^5 int units, 50 int groups, a float `mean` column and an int `sum` column;
L0 = 2, Linf = 3, epsilon 1, delta 1e-6, discrete Laplace. Both paths must give the same table (checked).
"""
import argparse
import time

import numpy as np
import pandas as pd

import exactdp
from exactdp import _aggregate as agg
from exactdp import _exactdp


def frame_of(rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame({"unit": rng.integers(0, 200_000, rows), "group": rng.integers(0, 50, rows),
                         "x": rng.random(rows) * 100, "n": rng.integers(0, 10, rows)})


def cpu(call):
    start = time.process_time()
    out = call()
    return out, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    a = ap.parse_args()
    frame = frame_of(a.rows)
    spec = agg.build_spec(mechanism="discrete-laplace", split=None, public_keys=False, max_groups=2, max_rows=3,
                          privacy_unit="unit", group_by=["group"], epsilon=1, delta="1e-6",
                          sum={"n": ("0", "9")}, mean={"x": ("0", "100.00")})
    seed = bytes(range(32))

    def by_columns():
        records, _ = agg.records_columns(frame, spec)
        return _exactdp._aggregate_records(spec, records, None, exactdp.SeededBits(seed))

    def by_csv():
        records, _ = agg.records_csv(frame, spec)
        return _exactdp._aggregate_records(spec, records, None, exactdp.SeededBits(seed))

    columns, t_columns = cpu(by_columns)
    text, t_csv = cpu(by_csv)
    assert columns["rows"] == text["rows"], "the two paths gave different tables"
    print(f"rows {a.rows}: typed columns {t_columns:.2f} s CPU, CSV text {t_csv:.2f} s CPU "
          f"({t_csv / t_columns:.2f}x), the same table")


if __name__ == "__main__":
    main()
