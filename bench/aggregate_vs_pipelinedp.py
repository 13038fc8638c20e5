#!/usr/bin/env python3
"""bench/aggregate_vs_pipelinedp.py: `exactdp aggregate` and PipelineDP's LocalBackend side by side.

Both get the same synthetic records (one row per event: a unit, a group, an amount in [0, 100)
with two decimals; units and groups uniform, as in bench/aggregate_cli_bench.sh), the same
budget (epsilon, delta), the same contribution bounds (L0 groups per unit, Linf rows per unit and
group, amounts clamped to [0, 100]), Laplace noise and private partition selection, and release a
count and a sum per group. For each side it prints:
  released   the fraction of the groups with records that are released;
  rmse_count the root mean square error of the released counts against the true counts (all
             records, no bounding: the error a user sees, bounding bias included);
  rmse_sum   the same for the sums of the amounts;
  sd_count   the standard deviation of the noise added to each count, as the engine states it
             (exactdp: its --json guarantee; PipelineDP: its explain-computation report);
  sd_sum     the same for each sum, in the amount's units;
  cpu_s      the CPU time (user + system) of the run, the input generation excluded.
The accuracy figures are the mean over --runs runs (exactdp: a fresh seed each run), cpu_s
their median (the machine may be shared).

PipelineDP's side runs where `import pipeline_dp` works. PipelineDP draws its noise and its
partition selection through PyDP (the `python-dp` package, Google's C++ differential privacy
library), which has no Debian package. Where it is missing:
  --pipelinedp-path DIR  a PipelineDP checkout (default $PIPELINEDP_PATH, else
                         /tmp/peers/PipelineDP) is put on sys.path when pipeline_dp is not
                         installed;
  --pydp-standin         (or EXACTDP_BENCH_PYDP_STANDIN=1) when `import pydp` fails, use
                         bench/peers/pydp_standin: NOT PyDP, a minimal pure-Python stand-in for
                         the part of PyDP's API PipelineDP's count, sum and partition selection
                         call, with noise of the same law (numpy floating point, not hardened;
                         bench/peers/pydp_standin/README.md); PipelineDP's unconditional import
                         of Apache Beam is then served with inert placeholders (LocalBackend
                         never uses Beam). The table says which noise library ran.
Without either, the script prints exactdp's side and why the other is missing
(docs/AGGREGATE.md, "Side by side with PipelineDP").

Budget split: exactdp gives partition selection 1/3 of epsilon (the default --split) and the
count and the sum 1/3 each; PipelineDP's NaiveBudgetAccountant splits epsilon equally over its
three mechanisms (selection, count, sum), so both sides spend epsilon / 3 on each. With Laplace
noise all of delta goes to the selection on both sides. --gaussian adds a row per engine with
Gaussian noise (exactdp: --mechanism discrete-gaussian, the selection gets delta / 3 and the
count and sum, composed in zCDP, the other 2/3; PipelineDP: NoiseKind.GAUSSIAN, its accountant
gives each of the three mechanisms delta / 3).

usage: bench/aggregate_vs_pipelinedp.py [--exactdp build/cli/exactdp] [--records 200000]
       [--units 100000] [--groups 200] [--epsilon 1] [--delta 1e-6] [--max-groups 3]
       [--max-rows 2] [--runs 3] [--seed 1] [--gaussian] [--pydp-standin]
       [--pipelinedp-path DIR]
"""
import argparse
import csv
import importlib
import io
import json
import math
import os
import random
import re
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from statistics import median


def generate(records, units, groups, seed):
    """The records as (unit, group, amount in hundredths) tuples."""
    rng = random.Random(seed)
    return [(rng.randrange(units), rng.randrange(groups), rng.randrange(10000)) for _ in range(records)]


def true_totals(rows):
    """Per group: (count, sum of amounts), every record, no bounding."""
    totals = {}
    for _, g, cents in rows:
        c, s = totals.get(g, (0, 0))
        totals[g] = (c + 1, s + cents / 100)
    return totals


def score(released, truth):
    """(fraction released, rmse count, rmse sum) of {group: (count, sum)} against the truth."""
    if not released:
        return 0.0, float("nan"), float("nan")
    se_c = sum((c - truth[g][0]) ** 2 for g, (c, _) in released.items())
    se_s = sum((s - truth[g][1]) ** 2 for g, (_, s) in released.items())
    n = len(released)
    return n / len(truth), math.sqrt(se_c / n), math.sqrt(se_s / n)


def exactdp_noise_sd(quantity, grid):
    """The standard deviation of one quantity's noise from exactdp's --json "quantities" entry,
    in units of `grid` (the quantity's grid step): the discrete Laplace of scale t has variance
    2 e^(-1/t) / (1 - e^(-1/t))^2, the discrete Gaussian of parameter sigma2 variance sigma2
    (to within e^(-2 pi^2 sigma2), below 10^-8 relative here)."""
    if "scale" in quantity:
        p = math.exp(-1 / fraction(quantity["scale"]))
        return grid * math.sqrt(2 * p) / (1 - p)
    return grid * math.sqrt(fraction(quantity["sigma2"]))


def fraction(text):
    """A rational the --json writes ("18", "1/3") as a float."""
    num, _, den = text.partition("/")
    return int(num) / int(den or 1)


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_exactdp(exe, path, args, gaussian=False):
    """One `exactdp aggregate` run: ({group: (count, sum)}, (sd count, sd sum), CPU seconds)."""
    mechanism = "discrete-gaussian" if gaussian else "discrete-laplace"
    guarantee = os.path.join(os.path.dirname(path), "guarantee.json")
    cmd = [exe, "aggregate", "--privacy-unit", "user", "--group-by", "region", "--count",
           "--sum", "amount", "--bounds", "0,100.00", "--max-groups", str(args.max_groups),
           "--max-rows", str(args.max_rows), "--epsilon", str(args.epsilon),
           "--delta", str(args.delta), "--mechanism", mechanism, "--json", guarantee,
           "--seed", secrets.token_hex(32)]
    before = child_cpu()
    with open(path, "rb") as stdin:
        done = subprocess.run(cmd, stdin=stdin, capture_output=True, check=True)
    cpu = child_cpu() - before
    released = {}
    for row in csv.DictReader(io.StringIO(done.stdout.decode())):
        released[int(row["region"][1:])] = (float(row["count"]), float(row["sum_amount"]))
    with open(guarantee) as f:
        quantities = {q["quantity"]: q for q in json.load(f)["quantities"]}
    sds = (exactdp_noise_sd(quantities["count"], 1), exactdp_noise_sd(quantities["sum_amount"], 0.01))
    return released, sds, cpu


def run_pipelinedp(pipeline_dp, rows, args, gaussian=False):
    """One PipelineDP LocalBackend run: ({group: (count, sum)}, (sd count, sd sum), CPU
    seconds). Partition selection is PipelineDP's default (truncated geometric, the optimal
    selection)."""
    start = time.process_time()
    accountant = pipeline_dp.NaiveBudgetAccountant(total_epsilon=args.epsilon, total_delta=args.delta)
    engine = pipeline_dp.DPEngine(accountant, pipeline_dp.LocalBackend())
    params = pipeline_dp.AggregateParams(
        metrics=[pipeline_dp.Metrics.COUNT, pipeline_dp.Metrics.SUM],
        noise_kind=pipeline_dp.NoiseKind.GAUSSIAN if gaussian else pipeline_dp.NoiseKind.LAPLACE,
        max_partitions_contributed=args.max_groups,
        max_contributions_per_partition=args.max_rows,
        min_value=0.0, max_value=100.0)
    extractors = pipeline_dp.DataExtractors(privacy_id_extractor=lambda r: r[0],
                                            partition_extractor=lambda r: r[1],
                                            value_extractor=lambda r: r[2] / 100)
    report = importlib.import_module("pipeline_dp.report_generator").ExplainComputationReport()
    result = engine.aggregate(rows, params, extractors, out_explain_computation_report=report)
    accountant.compute_budgets()
    released = {g: (m.count, m.sum) for g, m in result}  # LocalBackend is lazy: this runs it
    cpu = time.process_time() - start
    return released, pipelinedp_noise_sds(report.text()), cpu


def pipelinedp_noise_sds(report):
    """(sd count, sd sum) from PipelineDP's explain-computation report, whose "parameter" is the
    Laplace scale b (standard deviation b sqrt 2) or the Gaussian's standard deviation."""
    sds = []
    for metric in ("count", "sum"):
        found = re.search(r"Computed DP " + metric + r" with\s+(Laplace|Gaussian) mechanism:\s+"
                          r"parameter=([0-9.e+-]+)", report)
        if not found:
            raise RuntimeError(f"PipelineDP's report states no {metric} noise:\n{report}")
        parameter = float(found.group(2))
        sds.append(parameter * math.sqrt(2) if found.group(1) == "Laplace" else parameter)
    return tuple(sds)


STANDIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "pydp_standin")


def importable(name):
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return False


def import_pipeline_dp(args):
    """(pipeline_dp module, what draws its noise); ImportError saying what is missing."""
    if not importable("pipeline_dp") and os.path.isdir(os.path.join(args.pipelinedp_path, "pipeline_dp")):
        sys.path.append(args.pipelinedp_path)  # a checkout: git clone .../OpenMined/PipelineDP
    noise = "PyDP"
    if not importable("pydp") and args.pydp_standin:
        sys.path.insert(0, STANDIN_DIR)
        noise = "PyDP stand-in"
    if not importable("apache_beam") and args.pydp_standin:
        sys.path.insert(0, STANDIN_DIR)  # PipelineDP's __init__ imports Beam unconditionally
        importlib.import_module("absent_modules").install(("apache_beam",))
    pipeline_dp = importlib.import_module("pipeline_dp")
    if getattr(importlib.import_module("pydp"), "IS_STANDIN", False) != (noise == "PyDP stand-in"):
        raise ImportError("pydp was not found where expected")
    return pipeline_dp, noise


def print_row(label, results):
    """results: one (released, rmse count, rmse sum, sd count, sd sum, cpu) per run."""
    means = [sum(r[i] for r in results) / len(results) for i in range(5)]
    print("{:<38} {:>9.3f} {:>11.2f} {:>10.1f} {:>9.2f} {:>9.1f} {:>7.2f}".format(
        label, *means, median([r[5] for r in results])))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--exactdp", default="build/cli/exactdp")
    p.add_argument("--records", type=int, default=200000)
    p.add_argument("--units", type=int, default=100000)
    p.add_argument("--groups", type=int, default=200)
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument("--delta", type=float, default=1e-6)
    p.add_argument("--max-groups", type=int, default=3)
    p.add_argument("--max-rows", type=int, default=2)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gaussian", action="store_true", help="also a Gaussian-noise row per engine")
    p.add_argument("--pydp-standin", action="store_true",
                   default=os.environ.get("EXACTDP_BENCH_PYDP_STANDIN") == "1",
                   help="use bench/peers/pydp_standin (NOT PyDP) when pydp is missing")
    p.add_argument("--pipelinedp-path", default=os.environ.get("PIPELINEDP_PATH", "/tmp/peers/PipelineDP"))
    args = p.parse_args()
    noises = [False, True] if args.gaussian else [False]

    rows = generate(args.records, args.units, args.groups, args.seed)
    truth = true_totals(rows)
    print(f"{args.records} records, {args.units} units, {len(truth)} groups with records; "
          f"epsilon {args.epsilon}, delta {args.delta}, L0 {args.max_groups}, Linf {args.max_rows}, "
          f"private partition selection; {args.runs} runs (CPU: median); load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{'engine (noise)':<38} {'released':>9} {'rmse_count':>11} {'rmse_sum':>10} "
          f"{'sd_count':>9} {'sd_sum':>9} {'cpu_s':>7}")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "records.csv")
        with open(path, "w", newline="") as f:
            f.write("user,region,amount\n")
            f.writelines(f"u{u},g{g},{c // 100}.{c % 100:02d}\n" for u, g, c in rows)
        for gaussian in noises:
            results = []
            for _ in range(args.runs):
                released, sds, cpu = run_exactdp(args.exactdp, path, args, gaussian)
                results.append(score(released, truth) + sds + (cpu,))
            print_row("exactdp aggregate (discrete " + ("Gaussian)" if gaussian else "Laplace)"), results)

    try:
        pipeline_dp, noise = import_pipeline_dp(args)
    except ImportError as e:
        print(f"{'PipelineDP LocalBackend':<38} not measured: {e} (it needs pipeline_dp and its "
              "noise library python-dp (PyDP), which Debian does not package; see "
              "--pipelinedp-path and --pydp-standin)")
        return 0
    for gaussian in noises:
        results = []
        for _ in range(args.runs):
            released, sds, cpu = run_pipelinedp(pipeline_dp, rows, args, gaussian)
            results.append(score(released, truth) + sds + (cpu,))
        print_row(f"PipelineDP ({noise}, " + ("Gaussian)" if gaussian else "Laplace)"), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
