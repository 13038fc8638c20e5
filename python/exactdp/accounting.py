"""Certified privacy accounting: the CLI's accounting commands as functions, and an Accountant.

profile, calibrate, convert and compose call the accounting library directly (python/src:
profile.cc, calibrate.cc, convert.cc, compose.cc): parameters are keyword arguments named as the
library names them, exact (int, Fraction, Decimal, str; float refused with TypeError naming
it), and every interval is an :class:`Interval` whose ends are the exact dyadic ends of the
library's MPFR interval, so it contains the true value.

measure_gdp, compose_events and calibrate("dp-sgd") still run the C++ command of the same name
in-process (no subprocess, ``run``): their options are the keyword arguments (``eps_max=`` is
``--eps-max``; ``True`` is a flag; a tuple gives several values) and the result is read from the
command's JSON report, its outward-rounded decimals read exactly; ``digits`` (default 40, the
CLI's is 20) is how many significant digits those ends keep.
"""

from __future__ import annotations

import json
from fractions import Fraction
import numbers
from typing import Any, Dict, List, Tuple, Union

from . import _exactdp
from ._convert import exact_text
from ._errors import ParameterError, UsageError
from .samplers import laws
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


def _law_parameters(command: str, law: str, options: Dict[str, Any]) -> List[Tuple[str, str]]:
    """The law's parameters among options as (name, exact text); UsageError naming any other."""
    schema = {entry["name"]: entry for entry in laws()}
    if law not in schema:
        raise ParameterError(f"law = {law[:40]!r} is not a law of exactdp.laws(): allowed {', '.join(schema)}", "law")
    allowed = [p["name"] for p in schema[law]["parameters"]]
    for key in options:
        if key not in allowed:
            raise UsageError(f"{command}: {key} is not a parameter of {law} (allowed: {', '.join(allowed)})")
    return [(k, exact_text(k, v)) for k, v in options.items() if v is not None]


def _curve(curve: Any) -> List[Fraction]:
    if not isinstance(curve, (tuple, list)) or len(curve) != 3:
        raise TypeError("curve must be a tuple (MIN, MAX, POINTS)")
    lo, hi = (Fraction(exact_text(name, v)) for name, v in (("curve", curve[0]), ("curve", curve[1])))
    points = curve[2]
    if isinstance(points, bool) or not isinstance(points, numbers.Integral):
        raise TypeError("curve: POINTS must be an int")
    if not 0 <= lo < hi:
        raise ParameterError(f"curve = {curve!r}: allowed 0 <= MIN < MAX", "curve")
    if not 2 <= points <= 10_000:
        raise ParameterError(f"curve: POINTS = {points} is out of range: allowed 2 <= POINTS <= 10000", "curve")
    return [lo + (hi - lo) * i / (int(points) - 1) for i in range(int(points))]


def profile(mechanism: str, *, report: bool = False, epsilon: Any = None, curve: Any = None,
            hardened: bool = False, tau_bits: Any = None, tolerance: Any = None, digits: Any = None,
            **parameters: Any):
    """delta(epsilon), the smallest delta for which `mechanism` is (epsilon, delta)-DP, certified.

    ``profile("gaussian", sigma="1", epsilon="1")`` -> Interval containing delta (exact dyadic
    ends from the accounting library's MPFR interval). mechanism: a law of ``exactdp.laws()``
    with "profile" among its capabilities, with its parameters as keywords: gaussian (sigma,
    sensitivity), laplace (scale, sensitivity), discrete-gaussian (sigma2, sensitivity),
    discrete-laplace (scale, sensitivity), gdp (mu), pure-dp (epsilon... as ``eps``-free laws
    allow), staircase (gamma, sensitivity, r). epsilon >= 0, or curve=(MIN, MAX, POINTS) for a
    list of (epsilon, Interval) pairs at POINTS evenly spaced exact epsilons; hardened,
    tau_bits (the hardened sampler's noise: its tau charged); tolerance (relative width wanted,
    default 2^-100). ``digits`` is accepted and ignored (the ends are exact). report=True: a dict
    with "command", "law", "parameters", "epsilon", "delta", "tolerance_met", "tau_upper".
    """
    del digits
    if not isinstance(mechanism, str):
        raise TypeError("mechanism must be a str (a name of exactdp.laws())")
    if not isinstance(hardened, bool):
        raise TypeError("hardened must be True or False")
    given = _law_parameters("profile", mechanism, parameters)
    if (epsilon is None) == (curve is None):
        raise UsageError("profile: give epsilon= or curve=(MIN, MAX, POINTS), not both")
    epsilons = [exact_text("epsilon", epsilon)] if curve is None else [f"{e.numerator}/{e.denominator}" for e in _curve(curve)]
    tau = None
    if tau_bits is not None:
        if isinstance(tau_bits, bool) or not isinstance(tau_bits, numbers.Integral):
            raise TypeError("tau_bits must be an int")
        tau = max(0, min(int(tau_bits), 2**32 - 1))
    raw = _exactdp._profile(mechanism, given, epsilons, "" if tolerance is None else exact_text("tolerance", tolerance),
                            hardened, tau)
    common = {"law": raw["law"], "parameters": dict(raw["parameters"]),
              "tau_upper": None if raw["tau_upper"] is None else Fraction(raw["tau_upper"])}
    rows = []
    for row in raw["rows"]:
        details = dict(common, epsilon=Fraction(row["epsilon"]), tolerance_met=row["tolerance_met"],
                       precision=row["precision"])
        rows.append((Fraction(row["epsilon"]), Interval.from_text(row["delta"]["lower"], row["delta"]["upper"], details)))
    if curve is not None:
        return [{"epsilon": e, "delta": d} for e, d in rows] if report else rows
    delta = rows[0][1]
    if report:
        return dict(delta.details, command="profile", delta=delta)
    return delta


def _interval(d: Dict[str, str], details: Any = None) -> Interval:
    return Interval.from_text(d["lower"], d["upper"], details)


def calibrate(mechanism: str, *, report: bool = False, epsilon: Any = None, delta: Any = None,
              sensitivity: Any = 1, tolerance: Any = None, digits: Any = None, **options: Any):
    """Certified noise calibration: the noise that makes the mechanism (epsilon, delta)-DP.

    Returns an :class:`Interval` for both mechanisms; its ``upper`` end is the value to use:
    gaussian -> [sigma_lower, sigma], sigma_lower certified to miss the target and sigma (the
    upper end) certified to meet it; discrete-gaussian -> [sigma2, sigma2], the exact rational
    sigma2 to use (few significant digits, certified to meet the target). ``details`` holds the
    certified delta at the value (``delta_at_sigma`` / ``delta_at_sigma2``, Intervals) and
    ``tolerance_met``; for discrete-gaussian also ``sigma2_optimum`` (Interval bracketing the
    smallest sigma2) and ``significant_digits``. epsilon >= 0, 0 < delta < 1, sensitivity
    (a rational for gaussian, an integer for discrete-gaussian; default 1), tolerance (relative
    width of the bracket). ``digits`` is accepted and ignored (the ends are exact).
    report=True: the details as a dict with the value under "sigma" / "sigma2".
    ``calibrate("dp-sgd", ...)`` runs ``exactdp calibrate dp-sgd`` (its options as keywords).
    """
    del digits
    if mechanism == "dp-sgd":
        options.update(epsilon=epsilon, delta=delta, tolerance=tolerance)
        if sensitivity != 1:
            options["sensitivity"] = sensitivity
        r = run("calibrate", [mechanism], options)
        return r if report else _first_interval(r)
    if mechanism == "discrete_gaussian":
        from .audit import law_name
        mechanism = law_name(mechanism)
    if mechanism not in ("gaussian", "discrete-gaussian"):
        raise ParameterError(f"mechanism = {str(mechanism)[:40]!r}: allowed gaussian, discrete-gaussian, dp-sgd",
                             "mechanism")
    if options:
        raise UsageError(f"calibrate: {next(iter(options))} is not a parameter of {mechanism} "
                         "(allowed: epsilon, delta, sensitivity, tolerance)")
    for name, value in (("epsilon", epsilon), ("delta", delta)):
        if value is None:
            raise UsageError(f"calibrate: {name} is required")
    args = (exact_text("epsilon", epsilon), exact_text("delta", delta), exact_text("sensitivity", sensitivity),
            "" if tolerance is None else exact_text("tolerance", tolerance))
    if mechanism == "gaussian":
        raw = _exactdp._calibrate_gaussian(*args)
        details = {"mechanism": mechanism, "delta_at_sigma": _interval(raw["delta_at_sigma"]),
                   "delta_at_sigma_lower": _interval(raw["delta_at_sigma_lower"]),
                   "tolerance_met": raw["tolerance_met"]}
        value = Interval(Fraction(raw["sigma_lower"]), Fraction(raw["sigma"]), details)
        return dict(details, sigma=value) if report else value
    raw = _exactdp._calibrate_discrete_gaussian(*args)
    details = {"mechanism": mechanism, "delta_at_sigma2": _interval(raw["delta_at_sigma2"]),
               "sigma2_optimum": Interval(Fraction(raw["optimum_lower"]), Fraction(raw["optimum_upper"])),
               "significant_digits": raw["significant_digits"], "tolerance_met": raw["tolerance_met"]}
    sigma2 = Fraction(raw["sigma2"])
    value = Interval(sigma2, sigma2, details)
    return dict(details, sigma2=value) if report else value


def convert(source: str, *, report: bool = False, tolerance: Any = None, digits: Any = None, **values: Any):
    """zCDP / mu-GDP / pure DP conversions, certified, from the accounting library:
    ``convert("zcdp", rho="1/2", delta="1e-6")`` -> Interval containing epsilon (or
    ``epsilon=`` -> delta); ``convert("gdp", mu=1, delta="1e-5")`` -> epsilon,
    ``convert("gdp", epsilon=1, delta="1e-5")`` -> mu (use its lower end: mu-GDP with mu <=
    lower implies (epsilon, delta)-DP). ``convert("pure-dp", epsilon=1)`` has two results:
    a dict {"mu": Interval, "rho": Fraction (exact)}. ``details`` (and report=True, a dict)
    hold ``tolerance_met`` and, for zcdp, the Renyi order ``alpha`` used. ``digits`` is
    accepted and ignored (exact ends)."""
    del digits
    if not isinstance(source, str):
        raise TypeError("source must be a str: zcdp, gdp or pure-dp")
    given = [(k, exact_text(k, v)) for k, v in values.items() if v is not None]
    raw = _exactdp._convert(source, given, "" if tolerance is None else exact_text("tolerance", tolerance))
    details = {"tolerance_met": raw["tolerance_met"]}
    if raw["alpha"] is not None:
        details["alpha"] = Fraction(raw["alpha"])
    value = _interval(raw["value"], details)
    if source == "pure-dp":
        return dict(details, mu=value, rho=Fraction(raw["rho"]), command="convert", source=source)
    if report:
        return dict(details, command="convert", source=source, **{raw["result"]: value})
    return value


_COMPOSE_METHODS = ("basic", "advanced", "optimal", "gdp", "zcdp")


def compose(kind: str = "pure-dp", *, report: bool = False, epsilon: Any = None, k: Any = None,
            delta: Any = None, method: str = "optimal", tolerance: Any = None, digits: Any = None):
    """k-fold composition of epsilon-DP mechanisms, certified, from the accounting library:
    ``compose(epsilon="0.1", k=100, delta="1e-6")`` -> Interval containing the composed epsilon
    at delta (use its upper end). method: "optimal" (Kairouz-Oh-Viswanath, exact; default),
    "basic", "advanced", "gdp", "zcdp", or "all" for a dict {"methods": {method: {"epsilon":
    Interval, "route", "tolerance_met"}}}. 0 < epsilon <= 10^6, 1 <= k <= 10^6, 0 < delta < 1.
    ``digits`` is accepted and ignored (exact ends)."""
    del digits
    if kind != "pure-dp":
        raise ParameterError(f"kind = {str(kind)[:40]!r}: allowed pure-dp (compose_events for other events)", "kind")
    for name, value in (("epsilon", epsilon), ("k", k), ("delta", delta)):
        if value is None:
            raise UsageError(f"compose: {name} is required")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError("k must be an int")
    if not 1 <= int(k) <= 10**6:
        raise ParameterError(f"k = {k} is out of range: allowed 1 <= k <= 10^6", "k")
    methods = _COMPOSE_METHODS if method == "all" else (method,)
    args = (exact_text("epsilon", epsilon), int(k), exact_text("delta", delta))
    tol = "" if tolerance is None else exact_text("tolerance", tolerance)
    results = {}
    for m in methods:
        raw = _exactdp._compose_pure_dp(*args, m, tol)
        results[m] = {"epsilon": _interval(raw["epsilon"], {"method": m, "route": raw["route"],
                                                             "tolerance_met": raw["tolerance_met"]}),
                      "route": raw["route"], "tolerance_met": raw["tolerance_met"]}
    common = {"command": "compose", "mechanism": "pure-dp", "epsilon_per_mechanism": Fraction(args[0]),
              "k": int(k), "delta": Fraction(args[2])}
    if method == "all":
        return dict(common, methods=results)
    value = results[method]["epsilon"]
    return dict(common, method=method, epsilon=value, route=value.details["route"]) if report else value


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
