"""Certified privacy accounting: the CLI's accounting commands as functions, and an Accountant.

profile, calibrate, convert and compose call the accounting library directly (python/src:
profile.cc, calibrate.cc, convert.cc, compose.cc): parameters are keyword arguments named as the
library names them, exact (int, Fraction, Decimal, str; float refused with TypeError naming
it), and every interval is an :class:`Interval` whose ends are the exact dyadic ends of the
library's MPFR interval, so it contains the true value.

measure_gdp, compose_events and calibrate("dp-sgd") call the library functions the CLI commands
of the same name call (python/src: measure_gdp.cc, compose_events.cc, calibrate_dp_sgd.cc; never
the CLI itself): their options are keyword arguments named like the command's options
(``eps_max=`` is ``--eps-max``), the result a typed result (exactdp.results) whose to_dict() is
shaped like the command's JSON report, its intervals exact; ``digits`` (default 40) is how many significant digits the rounded-up text
answers ("epsilon_upper", "mu_upper", "sigma_to_use") keep.
"""

from __future__ import annotations

import json
from fractions import Fraction
import numbers
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, overload

from . import _exactdp, _registry
from . import results
from ._convert import (Exact, count_text, exact_fraction, exact_text, fraction_from_text, fraction_text, int_shown,
                       law_keyword, shown)
from ._errors import ParameterError, UsageError
from .samplers import laws
from .interval import Interval

DEFAULT_DIGITS = 40


def _digits(options: Dict[str, Any]) -> int:
    digits = options.pop("digits", DEFAULT_DIGITS)
    if digits is None:
        return 20
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral):
        raise TypeError("digits must be an int")
    if not 1 <= int(digits) <= 10_000:
        raise ParameterError(f"digits = {shown(digits)} is out of range: allowed 1 <= digits <= 10000", "digits")
    return int(digits)


def _check_options(command: str, options: Dict[str, Any], allowed: Tuple[str, ...]) -> None:
    for key in options:
        if key not in allowed:
            raise UsageError(f"{command}: unknown option {key} (allowed: {', '.join(allowed)})")


def _optional_text(name: str, value: Any) -> str:
    return "" if value is None else exact_text(name, value)


def _fraction_text(name: str, value: Any) -> str:
    """The exact value as the CLI prints a rational: "p/q", or "n" for an integer."""
    return fraction_text(exact_fraction(name, value))


def _main(report: Dict[str, Any], key: str) -> Interval:
    """The report's Interval under ``key``, the rest of the report in its details."""
    value = report[key]
    assert isinstance(value, Interval)
    value.details.update({k: v for k, v in report.items() if k != key})
    return value


def _report_flag(function: str, report: object) -> None:
    """report= is a deprecated no-op: every call returns its typed result (to_dict() is the old dict)."""
    if report is not None:
        warnings.warn(f"{function}: report= is deprecated and ignored; the result is always the typed "
                      "result (exactdp.results), and .to_dict() gives the old report dict",
                      DeprecationWarning, stacklevel=3)


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
    lo, hi = (exact_fraction(name, v) for name, v in (("curve", curve[0]), ("curve", curve[1])))
    points = curve[2]
    if isinstance(points, bool) or not isinstance(points, numbers.Integral):
        raise TypeError("curve: POINTS must be an int")
    if not 0 <= lo < hi:
        raise ParameterError(f"curve = {curve!r}: allowed 0 <= MIN < MAX", "curve")
    if not 2 <= int(points) <= 10_000:
        raise ParameterError(f"curve: POINTS = {int_shown(int(points))} is out of range: allowed 2 <= POINTS <= 10000", "curve")
    return [lo + (hi - lo) * i / (int(points) - 1) for i in range(int(points))]


@overload
def profile(law: str, *, report: Optional[bool] = None, epsilon: Exact, curve: None = None,
            hardened: bool = False, tau_bits: Optional[int] = None, tolerance: Optional[Exact] = None,
            digits: Optional[int] = None, **parameters: Exact) -> results.Profile: ...


@overload
def profile(law: str, *, report: Optional[bool] = None, epsilon: None = None,
            curve: Tuple[Exact, Exact, int], hardened: bool = False, tau_bits: Optional[int] = None,
            tolerance: Optional[Exact] = None, digits: Optional[int] = None,
            **parameters: Exact) -> List[results.Profile]: ...


@law_keyword
def profile(law: str, *, report: Optional[bool] = None, epsilon: Optional[Exact] = None,
            curve: Optional[Tuple[Exact, Exact, int]] = None, hardened: bool = False,
            tau_bits: Optional[int] = None, tolerance: Optional[Exact] = None, digits: Optional[int] = None,
            **parameters: Exact) -> Union[results.Profile, List[results.Profile]]:
    """delta(epsilon), the smallest delta for which the law `law` is (epsilon, delta)-DP, certified.

    ``profile("gaussian", sigma="1", epsilon="1")`` -> a :class:`exactdp.results.Profile` whose
    ``delta`` (also its ``lower`` / ``upper``) is the Interval containing delta (exact dyadic
    ends from the accounting library's MPFR interval). law: a law of ``exactdp.laws()``
    with "profile" among its capabilities, with its parameters as keywords: gaussian (sigma,
    sensitivity), laplace (scale, sensitivity), discrete-gaussian (sigma2, sensitivity),
    discrete-laplace (scale, sensitivity), gdp (mu), pure-dp (epsilon... as ``eps``-free laws
    allow), staircase (gamma, sensitivity, r). epsilon >= 0, or curve=(MIN, MAX, POINTS) for a
    list of Profiles at POINTS evenly spaced exact epsilons; hardened,
    tau_bits (the hardened sampler's noise: its tau charged); tolerance (relative width wanted,
    default 2^-100). ``digits`` is accepted and ignored (the ends are exact); so is ``report``
    (deprecated: ``to_dict()`` is the old report dict).
    """
    del digits
    _report_flag("profile", report)
    if not isinstance(law, str):
        raise TypeError("law must be a str (a name of exactdp.laws())")
    if not isinstance(hardened, bool):
        raise TypeError("hardened must be True or False")
    given = _law_parameters("profile", law, parameters)
    if (epsilon is None) == (curve is None):
        raise UsageError("profile: give epsilon= or curve=(MIN, MAX, POINTS), not both")
    epsilons = [exact_text("epsilon", epsilon)] if curve is None else [fraction_text(e) for e in _curve(curve)]
    tau = None
    if tau_bits is not None:
        if isinstance(tau_bits, bool) or not isinstance(tau_bits, numbers.Integral):
            raise TypeError("tau_bits must be an int")
        tau = max(0, min(int(tau_bits), 2**32 - 1))
    raw = _exactdp._profile(law, given, epsilons, "" if tolerance is None else exact_text("tolerance", tolerance),
                            hardened, tau)
    common = {"law": raw["law"], "parameters": dict(raw["parameters"]),
              "tau_upper": None if raw["tau_upper"] is None else fraction_from_text(raw["tau_upper"])}
    rows = []
    for row in raw["rows"]:
        details = dict(common, epsilon=fraction_from_text(row["epsilon"]), tolerance_met=row["tolerance_met"],
                       precision=row["precision"])
        delta = Interval.from_text(row["delta"]["lower"], row["delta"]["upper"], details)
        rows.append(results.Profile(delta=delta, **details))
    return rows if curve is not None else rows[0]


def _interval(d: Dict[str, str], details: Any = None) -> Interval:
    return Interval.from_text(d["lower"], d["upper"], details)


@law_keyword
def calibrate(law: str, *, report: Optional[bool] = None, epsilon: Optional[Exact] = None,
              delta: Optional[Exact] = None, sensitivity: Exact = 1, tolerance: Optional[Exact] = None,
              digits: Optional[int] = None, q: Optional[Exact] = None, steps: Optional[int] = None,
              route: Optional[str] = None, rounds: Optional[int] = None, clients: Optional[int] = None,
              **options: Any) -> results.AnyCalibration:
    """Certified noise calibration: the noise that makes the law (epsilon, delta)-DP.

    ``law`` is any law of the registry with a calibration map (``exactdp.laws()``:
    gaussian, discrete-gaussian, laplace, discrete-laplace) or dp-sgd. Returns an
    :class:`Interval` whose ``upper`` end is the value to use: gaussian -> [sigma_lower, sigma],
    sigma_lower certified to miss the target and sigma (the upper end) certified to meet it;
    discrete-gaussian -> [sigma2, sigma2], the exact rational sigma2 to use (few significant
    digits, certified to meet the target); laplace, discrete-laplace -> [scale, scale], scale =
    sensitivity / epsilon (pure epsilon-DP: delta may be omitted; ``delta_at_scale`` is 0). ``details`` holds the
    certified delta at the value (``delta_at``, an Interval) and ``tolerance_met``; for
    discrete-gaussian also ``optimum`` (Interval bracketing the smallest sigma2) and
    ``significant_digits``. The result is a :class:`exactdp.results.Calibration`: ``value`` is
    that Interval (and the result's ``lower`` / ``upper``). epsilon >= 0, 0 < delta < 1, sensitivity
    (a rational for gaussian, an integer for discrete-gaussian; default 1), tolerance (relative
    width of the bracket). ``digits`` is accepted and ignored (the ends are exact); so is
    ``report`` (deprecated: ``to_dict()`` is the old report dict).
    ``calibrate("dp-sgd", q=, steps=, epsilon=, delta=[, route="rdp"])`` is ``exactdp calibrate
    dp-sgd``: a :class:`exactdp.results.DpSgdCalibration` whose ``sigma``, the Interval
    [sigma_lower, sigma_upper], has the sigma to use as its upper end (pld route, default: a
    four-digit decimal, its certified epsilon <= target and sigma_lower = sigma - resolution
    missing it; rdp route: the rdp bracket). q, steps and route apply to dp-sgd only.
    ``calibrate("skellam" | "distributed-discrete-gaussian", epsilon=, delta=, rounds=[, q=,
    clients=, sensitivity=, law parameters])`` is ``exactdp calibrate LAW --rounds``: the noise
    parameter (mu, sigma2 per client) whose certified epsilon over ``rounds`` Poisson-subsampled
    rounds is at most epsilon: a :class:`exactdp.results.Calibration` whose ``value`` is
    [value_below, value] (value_below misses the target, value meets it), ``delta_at`` the
    target delta and ``value.details`` the certified ``epsilon_at``, ``order``, ``event`` and
    ``per_client`` (skellam with clients).
    """
    del digits
    _report_flag("calibrate", report)
    dp_sgd = {k: v for k, v in (("q", q), ("steps", steps), ("route", route)) if v is not None}
    if law == "dp-sgd":
        if sensitivity != 1 or tolerance is not None:
            raise UsageError("calibrate dp-sgd: sensitivity and tolerance do not apply (sensitivity is 1: the clip norm)")
        r = _calibrate_dp_sgd_report(epsilon, delta, dict(options, **dp_sgd))
        _main(r, "sigma")
        del r["command"], r["mechanism"]
        return results.DpSgdCalibration(**r)
    if rounds is not None or clients is not None:
        return _calibrate_run(law, epsilon, delta, sensitivity, rounds, clients, dict(options, **dp_sgd))
    options.update(dp_sgd)
    if law == "discrete_gaussian":
        from .audit import law_name
        law = law_name(law)
    if not isinstance(law, str):
        raise ParameterError(f"law = {shown(law)[:40]!r}: a law name or dp-sgd", "law")
    if options:
        raise UsageError(f"calibrate: {next(iter(options))} is not a parameter of {law} "
                         "(allowed: epsilon, delta, sensitivity, tolerance)")
    if epsilon is None:
        raise UsageError("calibrate: epsilon is required")
    try:  # delta may be omitted where the law's calibration is pure DP (its delta is then 0)
        raw = _exactdp._calibrate_law(law, exact_text("epsilon", epsilon),
                                      "0" if delta is None else exact_text("delta", delta),
                                      exact_text("sensitivity", sensitivity),
                                      "" if tolerance is None else exact_text("tolerance", tolerance))
    except ParameterError as refusal:
        if delta is None and refusal.parameter == "delta":
            raise UsageError(f"calibrate: delta is required for {law}") from None
        raise
    return _calibration_result(law, raw)


def _calibrate_run(law: str, epsilon: Optional[Exact], delta: Optional[Exact], sensitivity: Exact,
                   rounds: Optional[int], clients: Optional[int], options: Dict[str, Any]) -> results.Calibration:
    """A training run's calibration (operations::calibrate_run): the law's other parameters in options."""
    if epsilon is None or delta is None:
        raise UsageError("calibrate: epsilon and delta are required for a training run")
    q = options.pop("q", 1)
    parameters = [(k, exact_text(k, v)) for k, v in options.items() if v is not None]
    parameters.append(("sensitivity", exact_text("sensitivity", sensitivity)))
    raw = _exactdp._calibrate_run(law, exact_text("epsilon", epsilon), exact_text("delta", delta),
                                  exact_text("rounds", 1 if rounds is None else rounds), exact_text("q", q),
                                  "" if clients is None else exact_text("clients", clients), parameters)
    value = fraction_from_text(raw["value"])
    below = fraction_from_text(raw["value_below"])
    details: Dict[str, Any] = {"mechanism": law, "epsilon_at": _interval(raw["epsilon_at"]),
                               "order": fraction_from_text(raw["order"]), "event": raw["event"],
                               "per_client": None if raw["per_client"] is None else fraction_from_text(raw["per_client"])}
    target = exact_fraction("delta", delta)
    return results.Calibration(law=law, parameter=raw["parameter"], value=Interval(below if below > 0 else value, value, details),
                               delta_at=Interval(target, target), tolerance_met=True)


def _calibration_result(mechanism: str, raw: Dict[str, Any]) -> results.Calibration:
    """The typed calibration of a law, by its certificate's kind."""
    name = raw["parameter"]
    value = fraction_from_text(raw["value"])
    details: Dict[str, Any] = {"mechanism": mechanism, f"delta_at_{name}": _interval(raw["delta_at"])}
    lower = value
    if "sigma_lower" in raw:  # the analytic Gaussian's bracket [sigma_lower, sigma]
        lower = fraction_from_text(raw["sigma_lower"])
        details["delta_at_sigma_lower"] = _interval(raw["delta_at_sigma_lower"])
    if "optimum_lower" in raw:  # the discrete Gaussian's bracket of the smallest sigma2
        details["sigma2_optimum"] = Interval(fraction_from_text(raw["optimum_lower"]), fraction_from_text(raw["optimum_upper"]))
        details["significant_digits"] = raw["significant_digits"]
    details["tolerance_met"] = raw["tolerance_met"]
    result = Interval(lower, value, details)
    return results.Calibration(law=mechanism, parameter=name, value=result, delta_at=details[f"delta_at_{name}"],
                               tolerance_met=raw["tolerance_met"], delta_at_lower=details.get("delta_at_sigma_lower"),
                               optimum=details.get("sigma2_optimum"), significant_digits=details.get("significant_digits"))


def convert(source: str, *, report: Optional[bool] = None, tolerance: Optional[Exact] = None,
            digits: Optional[int] = None, **values: Optional[Exact]) -> results.Conversion:
    """zCDP / mu-GDP / pure DP conversions, certified, from the accounting library:
    ``convert("zcdp", rho="1/2", delta="1e-6")`` -> Interval containing epsilon (or
    ``epsilon=`` -> delta); ``convert("gdp", mu=1, delta="1e-5")`` -> epsilon,
    ``convert("gdp", epsilon=1, delta="1e-5")`` -> mu (use its lower end: mu-GDP with mu <=
    lower implies (epsilon, delta)-DP). ``convert("pure-dp", epsilon=1)`` has two results:
    ``value`` is mu (an Interval) and ``rho`` the exact zCDP rho. The result is a
    :class:`exactdp.results.Conversion` (``value``, the Interval of the quantity named
    ``result``, is also its ``lower`` / ``upper``) with ``tolerance_met`` and, for zcdp, the
    Renyi order ``alpha`` used. ``digits`` and ``report`` (deprecated) are accepted and ignored."""
    del digits
    _report_flag("convert", report)
    if not isinstance(source, str):
        raise TypeError("source must be a str: zcdp, gdp or pure-dp")
    given = [(k, exact_text(k, v)) for k, v in values.items() if v is not None]
    raw = _exactdp._convert(source, given, "" if tolerance is None else exact_text("tolerance", tolerance))
    details = {"tolerance_met": raw["tolerance_met"]}
    if raw["alpha"] is not None:
        details["alpha"] = fraction_from_text(raw["alpha"])
    value = _interval(raw["value"], details)
    rho = None if raw["rho"] is None else fraction_from_text(raw["rho"])  # pure DP's second result
    return results.Conversion(source=source, result=raw["result"], value=value,
                              tolerance_met=raw["tolerance_met"], alpha=details.get("alpha"), rho=rho)


_COMPOSE_METHODS = ("basic", "advanced", "optimal", "gdp", "zcdp")
_PURE_DP = _registry.law_with_parameters(frozenset({"epsilon"}))  # the law compose composes


def compose(kind: str = _PURE_DP, *, report: Optional[bool] = None, epsilon: Optional[Exact] = None,
            k: Optional[int] = None, delta: Optional[Exact] = None, method: str = "optimal",
            tolerance: Optional[Exact] = None, digits: Optional[int] = None) -> results.Composition:
    """k-fold composition of epsilon-DP mechanisms, certified, from the accounting library:
    ``compose(epsilon="0.1", k=100, delta="1e-6")`` -> Interval containing the composed epsilon
    at delta (use its upper end), as a :class:`exactdp.results.Composition` (``epsilon``, also
    its ``lower`` / ``upper``; ``route``). method: "optimal" (Kairouz-Oh-Viswanath, exact;
    default), "basic", "advanced", "gdp", "zcdp", or "all": every method's Composition under
    ``methods``, the smallest upper end answering. 0 < epsilon <= 10^6, 1 <= k <= 10^6,
    0 < delta < 1. ``digits`` and ``report`` (deprecated) are accepted and ignored."""
    del digits
    _report_flag("compose", report)
    if kind != _PURE_DP:
        raise ParameterError(f"kind = {shown(kind)[:40]!r}: allowed {_PURE_DP} (compose_events for other events)",
                             "kind")
    for name, value in (("epsilon", epsilon), ("k", k), ("delta", delta)):
        if value is None:
            raise UsageError(f"compose: {name} is required")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError("k must be an int")
    if not 1 <= int(k) <= 10**6:
        raise ParameterError(f"k = {int_shown(int(k))} is out of range: allowed 1 <= k <= 10^6", "k")
    methods = _COMPOSE_METHODS if method == "all" else (method,)
    args = (exact_text("epsilon", epsilon), int(k), exact_text("delta", delta))
    tol = "" if tolerance is None else exact_text("tolerance", tolerance)
    # The user's own texts: parsed with the library's syntax and limits (ParameterError / LimitError naming them).
    common = {"epsilon_per_mechanism": exact_fraction("epsilon", epsilon), "k": int(k), "delta": exact_fraction("delta", delta)}
    found: Dict[str, results.Composition] = {}
    for m in methods:
        raw = _exactdp._compose_pure_dp(*args, m, tol)
        found[m] = results.Composition(method=m, epsilon=_interval(raw["epsilon"], {
            "method": m, "route": raw["route"], "tolerance_met": raw["tolerance_met"]}), route=raw["route"],
            tolerance_met=raw["tolerance_met"], **common)
    if method == "all":
        best = min(found.values(), key=lambda c: c.epsilon.upper)
        return results.Composition(method="all", epsilon=best.epsilon, route=best.route,
                                   tolerance_met=best.tolerance_met, methods=found, **common)
    return found[method]


def _calibrate_dp_sgd_report(epsilon: Any, delta: Any, options: Dict[str, Any]) -> Dict[str, Any]:
    """The report of ``exactdp calibrate dp-sgd --json`` (sigma, epsilon_at_sigma_* Intervals)."""
    _check_options("calibrate dp-sgd", options, ("q", "steps", "route"))
    given = dict(options, epsilon=epsilon, delta=delta)
    for name in ("q", "steps", "epsilon", "delta"):
        if given.get(name) is None:
            raise UsageError(f"calibrate dp-sgd: {name} is required")
    if isinstance(given["steps"], bool) or not isinstance(given["steps"], numbers.Integral):
        raise TypeError("steps must be an int")
    route = given.get("route") or "pld"
    if not isinstance(route, str):
        raise TypeError("route must be a str: pld or rdp")
    raw = _exactdp._calibrate_dp_sgd(exact_text("q", given["q"]), count_text("steps", given["steps"]),
                                     exact_text("epsilon", epsilon), exact_text("delta", delta), route,
                                     DEFAULT_DIGITS)
    r = {"command": "calibrate", "mechanism": "dp-sgd", "q": _fraction_text("q", given["q"]),
         "steps": int(given["steps"]), "epsilon": _fraction_text("epsilon", epsilon),
         "delta": _fraction_text("delta", delta), "neighbouring": raw["neighbouring"], "route": raw["route"],
         "sigma": Interval(fraction_from_text(raw["sigma_lower"]), fraction_from_text(raw["sigma_upper"])),
         "sigma_to_use": raw["sigma_to_use"],
         "epsilon_at_sigma_upper": _interval(raw["epsilon_at_sigma_upper"]),
         "epsilon_at_sigma_lower": _interval(raw["epsilon_at_sigma_lower"])}
    if raw["pld"] is None:
        r["rdp_order"] = json.loads(raw["rdp_order"])
    else:
        pld = raw["pld"]
        r.update(resolution=pld["resolution"], rdp_sigma=pld["rdp_sigma"], pld_grid=pld["pld_grid"],
                 pld_evaluations=pld["pld_evaluations"], optimal_within_resolution=pld["optimal_within_resolution"])
    r["width_met"] = raw["width_met"]
    return r


def compose_events(events: Sequence[Union[str, Tuple[str, int]]], *, report: Optional[bool] = None,
                   delta: Optional[Exact] = None, epsilon: Optional[Exact] = None, route: Optional[str] = None,
                   pld_step: Optional[Exact] = None, neighbouring: Optional[str] = None,
                   tolerance: Optional[Exact] = None, digits: Optional[int] = DEFAULT_DIGITS) -> results.EventComposition:
    """Adaptive composition of events by the certified routes (``exactdp compose --event``).

    ``events`` is a list of ``(EVENT, count)`` pairs (or EVENT strings, count 1), EVENT as on the
    command line: ``"gaussian:sigma=2"``, ``"poisson-gaussian:sigma=1,q=0.01"``, ... Give
    ``delta=`` for epsilon or ``epsilon=`` for delta; ``route=`` forces a route ("rdp", "pld",
    "smoothed-pld", "gdp", ...; default: the smallest certified upper end), ``pld_step="1/N"`` sets the pld
    grid, ``neighbouring="replace-one"`` the relation (default add-remove; subsampled events
    under replace-one use the +Delta/-Delta pair, proven to dominate for poisson-gaussian (the
    pld route, and up to 32 steps the "exact" route with wide masses), and the group bound for
    the other laws; docs/ACCOUNTING.md). E.g. ``compose_events([("poisson-gaussian:sigma=1,q=0.01", 1000)], delta="1e-5",
    route="pld")``: an :class:`exactdp.results.EventComposition` whose ``value`` (also its
    ``lower`` / ``upper``) is the epsilon Interval (on the pld route both of its ends are proven
    bounds); every route's Interval under ``routes``. ``report`` (deprecated) is ignored.
    """
    _report_flag("compose_events", report)
    options = {"delta": delta, "epsilon": epsilon, "route": route, "pld_step": pld_step,
               "neighbouring": neighbouring, "tolerance": tolerance, "digits": digits}
    digits = _digits(options)
    given = {k: v for k, v in options.items() if v is not None}
    if ("delta" in given) == ("epsilon" in given):
        raise UsageError("compose: give exactly one of --delta R (for epsilon) or --epsilon R (for delta)")
    want_epsilon = "delta" in given
    target_name = "delta" if want_epsilon else "epsilon"
    pairs: List[Tuple[str, str]] = []
    for item in events:
        if not isinstance(item, (str, tuple, list)) or (not isinstance(item, str) and len(item) != 2):
            raise TypeError(f"events: each item must be an event str or a pair (event str, count), "
                            f"not {type(item).__name__}")
        event, count = (item, 1) if isinstance(item, str) else item  # type: Any, Any
        pairs.append((exact_text("event", event), exact_text("count", count)))
    raw = _exactdp._compose_events(pairs, want_epsilon, exact_text(target_name, given[target_name]),
                                   str(given.get("route", "auto")), str(given.get("neighbouring", "add-remove")),
                                   _optional_text("pld_step", given.get("pld_step")),
                                   _optional_text("tolerance", given.get("tolerance")), digits)
    quantity = "epsilon" if want_epsilon else "delta"
    best = raw["routes"][raw["best"]]
    by_route = {d: raw[d] for d in ("rdp_detail", "pld_detail", "smoothed_pld_detail", "exact_detail") if raw[d]}
    result = results.EventComposition(
        events=raw["events"], neighbouring=raw["neighbouring"], quantity=quantity,
        target=_fraction_text(target_name, given[target_name]), value=_interval(best["value"]),
        upper_text=raw["upper_text"], route=best["route"],
        routes={one["route"]: _interval(one["value"]) for one in raw["routes"]},
        tolerance_met=best["tolerance_met"], details_by_route=by_route)
    _main(result.to_dict(), quantity)  # the Interval's details: the rest of the report, as before
    return result


_MEASURE_GDP_OPTIONS = ("eps_max", "tolerance", "mu_max", "seed", "naive")


@law_keyword
def measure_gdp(law: str, *, report: Optional[bool] = None, **options: Any) -> results.GdpMeasurement:
    """mu-GDP bracket of a mechanism by the GDP transformation (``exactdp measure-gdp --help``):
    an Interval containing mu. law: a law of ``exactdp.laws()`` with a profile (its
    parameters as keywords, e.g. ``sigma=2``), "pure-dp" (epsilon=) or "pure-dp-composition"
    (epsilon=, k=); options eps_max, tolerance (absolute width, default 10^-3), mu_max, seed,
    naive. Returns a :class:`exactdp.results.GdpMeasurement` (``mu``, also its ``lower`` /
    ``upper``); ``report`` (deprecated) is ignored. The plot (--svg) is the CLI's."""
    _report_flag("measure_gdp", report)
    if not isinstance(law, str):
        raise TypeError("law must be a str")
    digits = _digits(options)
    settings = {k: options.pop(k) for k in _MEASURE_GDP_OPTIONS if k in options}
    for key in ("svg", "points"):
        if key in options:
            raise UsageError(f"measure_gdp: {key} draws a plot: use the command exactdp measure-gdp --svg")
    parameters = [(k, exact_text(k, v)) for k, v in options.items() if v is not None]
    naive = settings.get("naive") or False
    seed = settings.get("seed")
    if not isinstance(naive, bool):
        raise TypeError("naive must be True or False")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)):
        raise TypeError("seed must be an int")
    if seed is not None and not 0 <= int(seed) < 2**64:
        raise ParameterError(f"seed = {shown(seed)} is out of range: allowed 0 <= seed < 2^64", "seed")
    raw = _exactdp._measure_gdp(law, parameters, _optional_text("eps_max", settings.get("eps_max")),
                                _optional_text("tolerance", settings.get("tolerance")),
                                _optional_text("mu_max", settings.get("mu_max")),
                                None if seed is None else int(seed), naive, digits)
    tail = dict(raw["tail"])
    tail["ratios"] = [{"epsilon": one["epsilon"], "ratio": _interval(one["ratio"])} for one in tail["ratios"]]
    r = {"mechanism": raw["mechanism"], "eps_max": raw["eps_max"],
         "tolerance": raw["tolerance"], "mu": _interval(raw["mu"]), "mu_upper": raw["mu_upper"],
         "bounded": raw["bounded"], "complete": raw["complete"], "grid_points": raw["grid_points"],
         "binary_searches": raw["binary_searches"], "profile_evaluations": raw["profile_evaluations"],
         "gdp_evaluations": raw["gdp_evaluations"],
         "algorithm": "naive (Algorithm 3)" if raw["naive"] else "shuffled (Algorithm 1)", "tail": tail}
    _main(dict(r, command="measure-gdp"), "mu")
    return results.GdpMeasurement(**r)
