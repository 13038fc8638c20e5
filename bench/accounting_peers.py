#!/usr/bin/env python3
"""exactdp's certified accounting routes side by side with Google's dp_accounting
(BENCHMARKS.md, "Accounting side by side with dp_accounting").

DP-SGD workloads: a Poisson-subsampled Gaussian (rate q, noise multiplier sigma, sensitivity 1)
composed `steps` times, epsilon at delta, add/remove-one neighbouring. For each case:
  * exactdp `compose --route pld` (the certified bracket [lower, upper] of the TRUE epsilon) and
    `--route rdp` (a certified upper bound), each a separate process, wall time;
  * dp_accounting (if --dp-accounting is given): its PLD accountant, pessimistic (connect the
    dots, value_discretization_interval 1e-4, its defaults) and optimistic estimates (each timed
    alone), and its RDP accountant, in this process, wall time;
  * Opacus' RDP accountant (opacus.accountants.analysis.rdp), if it is importable.
Everything runs on one core (this process and the exactdp processes are pinned to CPU 0; BLAS
threads set to 1). Optional: never run by CI.

  bench/accounting_peers.py [--exactdp build/cli/exactdp] [--dp-accounting DIR]
                            [--sigmas 0.8,1.1,2] [--steps 1000,10000,100000] [--q 0.01]
                            [--delta 1e-5] [--routes pld,rdp]

DIR is the folder that contains the dp_accounting package (a checkout's python/dp_accounting);
it needs numpy, scipy, attrs, absl-py and mpmath.
"""
import argparse
import logging
import json
import os
import subprocess
import sys
import time

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"


def pin():
    try:
        os.sched_setaffinity(0, {0})
        return ["taskset", "-c", "0"]
    except (AttributeError, OSError):
        return []


def exactdp_eps(binary, prefix, sigma, q, steps, delta, route):
    cmd = prefix + [binary, "compose", "--event", f"poisson-gaussian:sigma={sigma},q={q}", "--count",
                    str(steps), "--delta", str(delta), "--route", route, "--json", "--digits", "8"]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        return None, t, r.stderr.strip().splitlines()[-1] if r.stderr else "failed"
    eps = json.loads(r.stdout)["epsilon"]
    return (float(eps["lower"]), float(eps["upper"])), t, ""


def dp_accounting_runner(folder):
    if not folder:
        return None
    sys.path.insert(0, folder)
    try:
        from dp_accounting import dp_event
        from dp_accounting.pld import privacy_loss_distribution as pld
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
    except ImportError as e:  # noqa: BLE001
        print(f"dp_accounting not importable from {folder}: {e}", file=sys.stderr)
        return None

    def run(sigma, q, steps, delta):
        out = {}
        for name, pessimistic in (("pld_pessimistic", True), ("pld_optimistic", False)):
            t0 = time.perf_counter()
            one = pld.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
                                              value_discretization_interval=1e-4)
            eps = one.self_compose(steps).get_epsilon_for_delta(delta)
            out[name] = (eps, time.perf_counter() - t0)
        t0 = time.perf_counter()
        acc = rdp.RdpAccountant()
        acc.compose(dp_event.SelfComposedDpEvent(
            dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps))
        out["rdp"] = (acc.get_epsilon(delta), time.perf_counter() - t0)
        return out

    return run


def opacus_runner():
    """Opacus' RDP accountant (its analysis.rdp module), if installed; None otherwise."""
    try:
        from opacus.accountants.analysis import rdp as opacus_rdp
    except ImportError:
        return None
    orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))

    def run(sigma, q, steps, delta):
        t0 = time.perf_counter()
        r = opacus_rdp.compute_rdp(q=q, noise_multiplier=sigma, steps=steps, orders=orders)
        eps, _ = opacus_rdp.get_privacy_spent(orders=orders, rdp=r, delta=delta)
        return float(eps), time.perf_counter() - t0

    return run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exactdp", default="build/cli/exactdp")
    ap.add_argument("--dp-accounting", default="")
    ap.add_argument("--sigmas", default="0.8,1.1,2")
    ap.add_argument("--steps", default="1000,10000,100000")
    ap.add_argument("--q", default="0.01")
    ap.add_argument("--delta", default="1e-5")
    ap.add_argument("--routes", default="pld,rdp")
    a = ap.parse_args()
    logging.getLogger().setLevel(logging.ERROR)  # dp_accounting warns that its optimistic estimate uses privacy buckets
    prefix = pin()
    peer = dp_accounting_runner(a.dp_accounting)
    opacus = opacus_runner()
    routes = a.routes.split(",")
    print("| sigma | steps | exactdp pld [lower, upper] | s | exactdp rdp upper | s "
          "| dp_acc PLD pessimistic | s | optimistic | s | dp_acc RDP | Opacus RDP "
          "| pld upper / dp_acc pess. - 1 | pld lower / dp_acc pess. - 1 | pld s / dp_acc pess. s |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for sigma in a.sigmas.split(","):
        for steps in a.steps.split(","):
            row = {}
            for route in routes:
                row[route] = exactdp_eps(a.exactdp, prefix, sigma, a.q, int(steps), a.delta, route)
            theirs = peer(float(sigma), float(a.q), int(steps), float(a.delta)) if peer else None

            def fmt_route(route, bracket):
                if route not in row:
                    return "-", "-"
                val, t, err = row[route]
                if val is None:
                    return f"n/a ({err[:40]})", f"{t:.2f}"
                return (f"[{val[0]:.4f}, {val[1]:.4f}]" if bracket else f"{val[1]:.4f}"), f"{t:.2f}"

            pld_txt, pld_t = fmt_route("pld", True)
            rdp_txt, rdp_t = fmt_route("rdp", False)
            op_txt = f"{opacus(float(sigma), float(a.q), int(steps), float(a.delta))[0]:.4f}" if opacus else "-"
            if theirs:
                (pess, t_pess), (opt, t_opt) = theirs["pld_pessimistic"], theirs["pld_optimistic"]
                peer_txt = f"{pess:.4f} | {t_pess:.2f} | {opt:.4f} | {t_opt:.2f} | {theirs['rdp'][0]:.4f}"
                ratios = "- | - | -"
                if "pld" in row and row["pld"][0] is not None:
                    lo, hi = row["pld"][0]
                    ratios = f"{hi / pess - 1:+.3%} | {lo / pess - 1:+.3%} | {row['pld'][1] / t_pess:.2f}"
            else:
                peer_txt, ratios = "- | - | - | - | -", "- | - | -"
            print(f"| {sigma} | {steps} | {pld_txt} | {pld_t} | {rdp_txt} | {rdp_t} | {peer_txt} | {op_txt} "
                  f"| {ratios} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
