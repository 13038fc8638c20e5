#!/usr/bin/python3
"""draw_cost_bench.py BINARY [REPEATS] — the CPU time of one draw of each law with a sampler,
against the digits of its noise parameter (10^1 .. 10^5), through the commands whose draws
operations/draw_cost.h limits: `audit --samples`, `audit-timing --calls`, `release` (its cells)
and `sample -n`. Each figure is (CPU(n2) - CPU(n1)) / (n2 - n1) of the child processes (user +
system), the median of REPEATS runs (default 3), so that the fixed cost of a run (parsing, the
audit's reference law, calibration) cancels. Not a test (no timing asserts): it prints one line a
case, `law digits command us_per_draw`, for the estimates of the laws' Law::draw_costs, and for the
laws whose audit reference law is costly a line `law digits reference-ms ms`."""
import os
import random
import resource
import statistics
import subprocess
import sys

SEED = "a" * 64


def cpu_of(argv, stdin_text=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, input=stdin_text, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode == 2 or p.returncode < 0:  # 2: refused; 1, 3: an audit's verdict
        raise RuntimeError(" ".join(argv[:8]) + ": " + p.stderr[:300])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def per_draw(make, n1, n2, repeats):
    """Median seconds a draw: make(n) gives (argv, stdin) for a run of n draws."""
    figures = []
    for _ in range(repeats):
        t1 = cpu_of(*make(n1))
        t2 = cpu_of(*make(n2))
        figures.append(max(t2 - t1, 0.0) / (n2 - n1))
    return statistics.median(figures)


def skellam_mu(whole, digits):
    """A Skellam rate just below `whole` whose exact text has about `digits` characters: a run of
    nines after the point (at most 10,000 digits of mantissa), or 10^-99999 at 100,000 digits."""
    if digits >= 100000:
        return "1e-99999"
    nines = max(min(digits // 2 - len(str(whole)), 9990), 1)
    return "%d.%s" % (whole - 1, "9" * nines)


def law_args(law, digits):
    big = "1e%d" % digits
    if law == "skellam":  # the table route (mu <= 10^7); audits take mu <= 10^6
        return ["--mu", skellam_mu(10**6, digits)]
    return {
        "discrete-gaussian": ["--sigma2", big],
        "discrete-laplace": ["--scale", big],
        "bernoulli-exp": ["--gamma", big],
        "staircase": ["--gamma", "1e-%d" % digits, "--sensitivity", "1"],
        "distributed-discrete-gaussian": ["--sigma2", big, "--clients", "10"],
    }[law]


def long_mantissa():
    """10,000 fixed pseudo-random decimal digits (random.Random(1)), led by a 7."""
    r = random.Random(1)
    return "7" + "".join(r.choice("0123456789") for _ in range(9999))


def commands(binary, law, digits):
    args = law_args(law, digits)
    out = {
        "sample": lambda n: ([binary, "sample", law, *args, "-n", str(n), "--seed", SEED], None),
        "audit": lambda n: ([binary, "audit", law, *args, "--samples", str(n), "--seed", SEED], None),
    }
    if law == "skellam" and digits < 100000:  # the envelope route (mu > 10^7): sample only
        mu = ["--mu", skellam_mu(10**12, digits)]
        out["sample-envelope"] = lambda n: ([binary, "sample", law, *mu, "-n", str(n), "--seed", SEED], None)
    if law in ("discrete-gaussian", "discrete-laplace", "staircase"):
        # calls + min(calls, 10^4) warm-up draws: 2 n draws for n <= 10^4
        out["audit-timing"] = lambda n: ([binary, "audit-timing", law, *args, "--calls", str(max(n // 2, 1000)),
                                          "--seed", SEED], None)
    if law in ("discrete-gaussian", "discrete-laplace") and digits == 100000:
        # a 10^4-digit mantissa times 10^90000: the slowest parameter form at 10^5 digits
        noise = "--sigma2" if law == "discrete-gaussian" else "--scale"
        mantissa = [noise, long_mantissa() + "e90000"]
        out["sample-mantissa"] = lambda n: ([binary, "sample", law, *mantissa, "-n", str(n), "--seed", SEED], None)
        out["audit-mantissa"] = lambda n: ([binary, "audit", law, *mantissa, "--samples", str(n), "--seed", SEED],
                                           None)
    if law in ("discrete-gaussian", "discrete-laplace"):
        # epsilon 10^-d: a scale of d digits; epsilon = delta = 10^-(d/2): a sigma2 of about d digits
        e = "1e-%d" % (digits if law == "discrete-laplace" else digits // 2)
        extra = ["--delta", e] if law == "discrete-gaussian" else []
        out["release"] = lambda n: ([binary, "release", "--mechanism", law, "--epsilon", e, *extra, "--column", "v",
                                     "--seed", SEED], "v\n" + "1\n" * n)
    return out


def counts(digits, command, per_sample):
    """n1, n2: about 0.5 s of draws at n2 on an idle core (per_sample draws a sample)."""
    n2 = {1: 200000, 2: 200000, 3: 40000, 4: 4000, 5: 200}[len(str(digits)) - 1]
    if command == "audit-timing":
        n2 = max(n2, 4000)
        return 2000, n2 * 2
    n2 = max(n2 // per_sample, 20)
    return n2 // 10, n2


def reference_seconds(binary, law, digits, repeats):
    """Median CPU seconds of the audit's reference law and report (operations/draw_cost.h,
    estimated_audit_reference_seconds): `audit --expect` of 10^6 samples at the centre, which
    makes the most cells, less the same run against Bernoulli(exp(-1)) (reading the samples)."""
    zeros = "0\n" * 1000000
    figures = []
    for _ in range(repeats):
        t = cpu_of([binary, "audit", "--expect", law, *law_args(law, digits), "-"], zeros)
        figures.append(t - cpu_of([binary, "audit", "--expect", "bernoulli-exp", "--gamma", "1", "-"], zeros))
    return statistics.median(figures)


def main():
    binary = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    laws = os.environ.get("LAWS", "discrete-gaussian discrete-laplace bernoulli-exp staircase "
                          "distributed-discrete-gaussian skellam").split()
    for law in laws:
        for digits in (10, 100, 1000, 10000, 100000):
            for command, make in commands(binary, law, digits).items():
                if command == "audit-timing" and digits > 10000:
                    continue  # 4,000 draws at 10^100000 digits are minutes
                per_sample = 10 if law == "distributed-discrete-gaussian" else 1  # its 10 clients
                n1, n2 = counts(digits, command, per_sample)
                if law == "skellam":  # tens of ns a draw at any digits (the envelope: ~1.5 us)
                    n2 = 400000 if command == "sample-envelope" else 5000000
                    n1 = n2 // 10
                try:
                    seconds = per_draw(make, n1, n2, repeats) / per_sample
                    print(f"{law} {digits} {command} {seconds * 1e6:.3f}", flush=True)
                except RuntimeError as e:
                    print(f"{law} {digits} {command} refused: {str(e).splitlines()[-1][:160]}", flush=True)
            if law in ("discrete-gaussian", "discrete-laplace", "skellam"):
                seconds = reference_seconds(binary, law, digits, repeats)
                print(f"{law} {digits} reference-ms {seconds * 1e3:.1f}", flush=True)


if __name__ == "__main__":
    main()
