"""Certified privacy accounting: the CLI's accounting commands as functions, and an Accountant.

Each function runs the C++ command of the same name in-process (no subprocess): its options are
the keyword arguments (``sigma="1"`` is ``--sigma 1``; underscores become dashes, so
``eps_max=`` is ``--eps-max``; ``True`` is a flag such as ``hardened=True``; a tuple gives
several values, ``curve=(0, 2, 5)`` is ``--curve 0 2 5``), values exact as everywhere
(int, Fraction, Decimal, str; float refused). The result is read from the command's JSON
report: every interval becomes an :class:`Interval` with exact Fraction ends (the CLI's
outward-rounded decimals, read exactly), so it contains the true value.

``digits`` (default 40, the CLI's is 20) is how many significant digits the outward-rounded
ends keep: more digits give a narrower interval, always certified. ``report=True`` returns the
whole report (a dict) instead of the main value.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Dict, List, Union

from . import _exactdp
from ._convert import exact_text
from ._errors import UsageError
from .interval import Interval

DEFAULT_DIGITS = 40


def _option_args(options: Dict[str, Any]) -> List[str]:
    args: List[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        option = "--" + key.replace("_", "-")
        if value is True:
            args.append(option)
        elif isinstance(value, (tuple, list)):
            args.append(option)
            args.extend(exact_text(key, v) for v in value)
        else:
            args += [option, exact_text(key, value)]
    return args


def _convert_report(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"lower", "upper"} and all(isinstance(v, str) for v in value.values()):
            return Interval.from_text(value["lower"], value["upper"])
        return {k: _convert_report(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_convert_report(v) for v in value]
    return value


def run(command: str, positionals: List[str], options: Dict[str, Any], stdin_text: str = "") -> Dict[str, Any]:
    """Runs an exactdp command in-process with --json and returns its report (intervals exact)."""
    digits = options.pop("digits", DEFAULT_DIGITS)
    args = list(positionals) + _option_args(options) + ["--json"]
    if digits is not None:
        args += ["--digits", exact_text("digits", digits)]
    status, out, err = _exactdp._run_command(command, args, stdin_text)
    if status not in (0, 3):
        raise UsageError(err.decode("utf-8", "replace").strip() or f"exactdp {command} failed (exit {status})")
    return _convert_report(json.loads(out.decode("utf-8")))


def _main(report: Dict[str, Any], key: str) -> Any:
    value = report[key]
    if isinstance(value, Interval):
        value.details.update({k: v for k, v in report.items() if k != key})
    return value


def _first_interval(report: Dict[str, Any]) -> Union[Interval, Dict[str, Any]]:
    for key, value in report.items():
        if isinstance(value, Interval):
            return _main(report, key)
    return report


def profile(mechanism: str, *, report: bool = False, **options: Any):
    """delta(epsilon), the smallest delta for which `mechanism` is (epsilon, delta)-DP, certified.

    ``profile("gaussian", sigma="1", epsilon="1")`` -> Interval containing delta. Mechanisms and
    options as ``exactdp profile --help``: gaussian (sigma, sensitivity), laplace (scale,
    sensitivity), discrete-gaussian (sigma2, sensitivity), discrete-laplace (scale,
    sensitivity), gdp (mu); epsilon, or curve=(MIN, MAX, POINTS) for a list of
    (epsilon, Interval) pairs; hardened, tau_bits, tolerance, digits.
    """
    r = run("profile", [mechanism], options)
    if report:
        return r
    if "delta" in r:
        return _main(r, "delta")
    rows = next(v for v in r.values() if isinstance(v, list)) if isinstance(r, dict) else r
    return [(Fraction(row["epsilon"]), row["delta"]) for row in rows]


def calibrate(mechanism: str, *, report: bool = False, **options: Any):
    """Certified noise calibration (``exactdp calibrate --help``).

    gaussian -> Interval containing the smallest sigma meeting (epsilon, delta) (use its
    upper end); discrete-gaussian -> the exact Fraction sigma2 to use (its delta is in the
    report). Options: epsilon, delta, sensitivity, tolerance, digits, ...
    """
    r = run("calibrate", [mechanism], options)
    if report:
        return r
    if "sigma2" in r:
        return Fraction(r["sigma2"])
    return _main(r, "sigma")


def convert(source: str, *, report: bool = False, **options: Any):
    """zCDP / mu-GDP / pure DP conversions (``exactdp convert --help``): the converted value as
    an Interval, e.g. ``convert("zcdp", rho="1/2", delta="1e-6")`` -> epsilon,
    ``convert("gdp", epsilon=1, delta="1e-5")`` -> mu. ``convert("pure-dp", epsilon=1)`` has
    two results: the report is returned."""
    r = run("convert", [source], options)
    return r if report else _first_interval(r)


def compose(kind: str = "pure-dp", *, report: bool = False, **options: Any):
    """Composition of pure-DP mechanisms (``exactdp compose --help``), e.g.
    ``compose(epsilon="0.1", k=100, delta="1e-6")``: the epsilon Interval (one method), or the
    report (method="all")."""
    r = run("compose", [kind], options)
    if report or "epsilon" not in r:
        return r
    return _main(r, "epsilon")


def compose_events(events: List[Any], *, report: bool = False, **options: Any):
    """Adaptive composition of events by the certified routes (``exactdp compose --event``).

    ``events`` is a list of ``(EVENT, count)`` pairs (or EVENT strings, count 1), EVENT as on the
    command line: ``"gaussian:sigma=2"``, ``"poisson-gaussian:sigma=1,q=0.01"``, ... Give
    ``delta=`` for epsilon or ``epsilon=`` for delta; ``route=`` forces a route ("rdp", "pld",
    "gdp", ...; default: the smallest certified upper end), ``pld_step="1/N"`` sets the pld
    grid, ``neighbouring="replace-one"`` the relation (default add-remove; subsampled events
    under replace-one take the pld route's group bound, docs/ACCOUNTING.md). E.g. ``compose_events([("poisson-gaussian:sigma=1,q=0.01", 1000)], delta="1e-5",
    route="pld")``: the epsilon Interval (on the pld route both of its ends are proven bounds).
    """
    args: List[str] = []
    for item in events:
        event, count = (item, 1) if isinstance(item, str) else item
        args += ["--event", exact_text("event", event), "--count", exact_text("count", count)]
    r = run("compose", args, options)
    if report:
        return r
    return _main(r, "epsilon" if "delta" in options else "delta")


def measure_gdp(mechanism: str, *, report: bool = False, **options: Any):
    """mu-GDP bracket of a mechanism by the GDP transformation (``exactdp measure-gdp --help``):
    an Interval containing mu."""
    r = run("measure-gdp", [mechanism], options)
    return r if report else _main(r, "mu")
