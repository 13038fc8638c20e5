"""Typed results: what the package's functions return, as frozen dataclasses.

Every function returns one type whatever its options: ``profile`` a :class:`Profile`,
``calibrate`` a :class:`Calibration` (``calibrate("dp-sgd")``: a :class:`DpSgdCalibration`),
``convert`` a :class:`Conversion`, ``compose`` a :class:`Composition`, ``compose_events`` an
:class:`EventComposition`, ``measure_gdp`` a :class:`GdpMeasurement`, ``audit`` an
:class:`AuditReport`; ``aggregate`` and ``release`` return ``(table, guarantee)`` with an
:class:`AggregateGuarantee` / :class:`ReleaseGuarantee`, the estimators ``(estimate,
guarantee)`` with an :class:`EstimatorGuarantee`.

The accounting answers are :class:`CertifiedAnswer` s: ``.interval`` is the certified quantity
asked for (delta, sigma, epsilon, mu) and its ends are the answer's own ``lower`` / ``upper`` /
``upper_float`` / ``lower_float``, so ``exactdp.profile(...).upper`` reads as before.

Every result has ``to_dict()``: exactly the dict the package returned before these classes
(``report=True`` for the accounting calls), for code written against the dicts; ``result[key]``
is ``result.to_dict()[key]`` with a DeprecationWarning, for one release.
"""

from __future__ import annotations

import dataclasses
import warnings
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Tuple, Type, TypeVar, Union

from .interval import End, Interval, IntervalEnds

__all__ = ["AggregateGuarantee", "AuditReport", "AuditTest", "Calibration", "CertifiedAnswer", "Composition",
           "Conversion", "DpSgdCalibration", "EstimatorGuarantee", "EventComposition", "GdpMeasurement", "Profile",
           "ReleaseGuarantee", "Result", "Selection"]

_R = TypeVar("_R", bound="Result")

# Field metadata: OPTIONAL fields are left out of to_dict() when None (the old dict had no key).
OPTIONAL: Mapping[str, bool] = {"optional": True}


def _plain(value: Any) -> Any:
    """A field's value as the old dicts held it: results as dicts, tuples of them as lists."""
    if isinstance(value, Result):
        return value.to_dict()
    if isinstance(value, tuple) and value and isinstance(value[0], Result):
        return [v.to_dict() for v in value]
    return value


@dataclasses.dataclass(frozen=True)
class Result:
    """Base of every result: ``to_dict()`` and, for migration, ``result[key]``."""

    def to_dict(self) -> Dict[str, Any]:
        """The dict the package returned before the typed results (same keys and values)."""
        out: Dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get("optional"):
                continue
            out[f.name] = _plain(value)
        return out

    @classmethod
    def from_dict(cls: Type[_R], d: Mapping[str, Any]) -> _R:
        """The result of an old-shaped dict (the inverse of to_dict for the plain classes)."""
        return cls(**{f.name: d.get(f.name) for f in dataclasses.fields(cls)})

    def __getitem__(self, key: str) -> Any:
        warnings.warn(f"{type(self).__name__}[{key!r}]: results are typed now; use the attribute, or "
                      "to_dict() for the old dict", DeprecationWarning, stacklevel=2)
        return self.to_dict()[key]


class CertifiedAnswer(IntervalEnds, Result):
    """A result whose answer is one certified Interval (``interval``); its ends are the result's
    ``lower`` / ``upper`` (exact Fractions, or +-inf) and ``upper_float`` (rounded up)."""

    @property
    def interval(self) -> Interval:
        raise NotImplementedError

    def __contains__(self, value: object) -> bool:
        return value in self.interval

    def contains(self, value: object) -> bool:
        return value in self.interval


@dataclasses.dataclass(frozen=True)
class Profile(CertifiedAnswer):
    """``profile``: delta(epsilon) of ``law`` with ``parameters`` (name -> exact text).

    delta: the certified Interval containing the smallest delta at ``epsilon``; tolerance_met,
    precision (MPFR bits used); tau_upper: the hardened sampler's charge, or None."""
    law: str
    parameters: Dict[str, str]
    tau_upper: Optional[Fraction]
    epsilon: Fraction
    tolerance_met: bool
    precision: int
    delta: Interval

    @property
    def interval(self) -> Interval:
        return self.delta

    def to_dict(self) -> Dict[str, Any]:
        return dict(super().to_dict(), command="profile")


@dataclasses.dataclass(frozen=True)
class Calibration(CertifiedAnswer):
    """``calibrate(law)``: the noise parameter ``parameter`` ("sigma", "sigma2" or "scale") whose
    ``value`` Interval's upper end is the value to use.

    delta_at: the certified delta at that value; delta_at_lower: at the lower end (gaussian's
    bracket, else None); optimum: an Interval bracketing the smallest sigma2 (discrete-gaussian,
    else None) with its significant_digits; tolerance_met."""
    law: str
    parameter: str
    value: Interval
    delta_at: Interval
    tolerance_met: bool
    delta_at_lower: Optional[Interval] = None
    optimum: Optional[Interval] = None
    significant_digits: Optional[int] = None

    @property
    def interval(self) -> Interval:
        return self.value

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"mechanism": self.law, f"delta_at_{self.parameter}": self.delta_at}
        if self.delta_at_lower is not None:
            out["delta_at_sigma_lower"] = self.delta_at_lower
        if self.optimum is not None:
            out.update(sigma2_optimum=self.optimum, significant_digits=self.significant_digits)
        out["tolerance_met"] = self.tolerance_met
        out[self.parameter] = self.value
        return out


@dataclasses.dataclass(frozen=True)
class DpSgdCalibration(CertifiedAnswer):
    """``calibrate("dp-sgd")``: ``sigma`` = [sigma_lower, sigma_upper], the upper end the noise
    multiplier to use (``sigma_to_use`` its text), certified by ``epsilon_at_sigma_upper`` <= the
    target; q, steps, epsilon, delta: the request (exact texts). On the pld route: resolution,
    rdp_sigma, pld_grid, pld_evaluations, optimal_within_resolution; on the rdp route: rdp_order."""
    q: str
    steps: int
    epsilon: str
    delta: str
    neighbouring: str
    route: str
    sigma: Interval
    sigma_to_use: str
    epsilon_at_sigma_upper: Interval
    epsilon_at_sigma_lower: Interval
    width_met: bool
    rdp_order: Any = dataclasses.field(default=None, metadata=OPTIONAL)
    resolution: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)
    rdp_sigma: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)
    pld_grid: Optional[int] = dataclasses.field(default=None, metadata=OPTIONAL)
    pld_evaluations: Optional[int] = dataclasses.field(default=None, metadata=OPTIONAL)
    optimal_within_resolution: Optional[bool] = dataclasses.field(default=None, metadata=OPTIONAL)

    @property
    def interval(self) -> Interval:
        return self.sigma

    def to_dict(self) -> Dict[str, Any]:
        return dict(command="calibrate", mechanism="dp-sgd", **super().to_dict())


@dataclasses.dataclass(frozen=True)
class Conversion(CertifiedAnswer):
    """``convert(source, ...)``: ``value``, the Interval of the quantity named ``result``
    ("epsilon", "delta" or "mu"); alpha: the Renyi order used (zcdp) or None; rho: the exact
    zCDP rho of pure DP (source "pure-dp", whose value is mu), else None."""
    source: str
    result: str
    value: Interval
    tolerance_met: bool
    alpha: Optional[Fraction] = None
    rho: Optional[Fraction] = None

    @property
    def interval(self) -> Interval:
        return self.value

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"tolerance_met": self.tolerance_met}
        if self.alpha is not None:
            out["alpha"] = self.alpha
        if self.source == "pure-dp":
            return dict(out, mu=self.value, rho=self.rho, command="convert", source=self.source)
        return dict(out, command="convert", source=self.source, **{self.result: self.value})


@dataclasses.dataclass(frozen=True)
class Composition(CertifiedAnswer):
    """``compose``: k-fold composition of epsilon_per_mechanism-DP at ``delta``: ``epsilon``
    (Interval) by ``method`` on ``route``; with method="all", ``methods`` holds each method's
    Composition and ``epsilon`` is the smallest upper end's."""
    epsilon_per_mechanism: Fraction
    k: int
    delta: Fraction
    method: str
    epsilon: Interval
    route: str
    tolerance_met: bool
    methods: Optional[Dict[str, "Composition"]] = None

    @property
    def interval(self) -> Interval:
        return self.epsilon

    def to_dict(self) -> Dict[str, Any]:
        common: Dict[str, Any] = {"command": "compose", "mechanism": "pure-dp",
                                  "epsilon_per_mechanism": self.epsilon_per_mechanism, "k": self.k,
                                  "delta": self.delta}
        if self.methods is not None:
            return dict(common, methods={m: {"epsilon": c.epsilon, "route": c.route, "tolerance_met": c.tolerance_met}
                                         for m, c in self.methods.items()})
        return dict(common, method=self.method, epsilon=self.epsilon, route=self.route)


@dataclasses.dataclass(frozen=True)
class EventComposition(CertifiedAnswer):
    """``compose_events``: ``value`` (the Interval of ``quantity``, "epsilon" or "delta") at
    ``target`` (the other one, exact text) on the best ``route``; ``upper_text`` its rounded-up
    text; ``routes`` every route's Interval; ``details_by_route`` the routes' own details
    (rdp_detail, pld_detail, smoothed_pld_detail, exact_detail, where given)."""
    events: List[str]
    neighbouring: str
    quantity: str
    target: str
    value: Interval
    upper_text: str
    route: str
    routes: Dict[str, Interval]
    tolerance_met: bool
    details_by_route: Dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def interval(self) -> Interval:
        return self.value

    def to_dict(self) -> Dict[str, Any]:
        target_name = "delta" if self.quantity == "epsilon" else "epsilon"
        out: Dict[str, Any] = {"command": "compose", "events": self.events, "neighbouring": self.neighbouring,
                               target_name: self.target, self.quantity: self.value,
                               self.quantity + "_upper": self.upper_text, "route": self.route}
        out.update(self.details_by_route)
        out.update(routes=self.routes, tolerance_met=self.tolerance_met)
        return out


@dataclasses.dataclass(frozen=True)
class GdpMeasurement(CertifiedAnswer):
    """``measure_gdp``: ``mu`` (Interval) of ``mechanism`` by the GDP transformation; mu_upper its
    rounded-up text; bounded / complete; the search's counts; ``tail`` the tail check."""
    mechanism: str
    eps_max: str
    tolerance: str
    mu: Interval
    mu_upper: str
    bounded: bool
    complete: bool
    grid_points: int
    binary_searches: int
    profile_evaluations: int
    gdp_evaluations: int
    algorithm: str
    tail: Dict[str, Any]

    @property
    def interval(self) -> Interval:
        return self.mu

    def to_dict(self) -> Dict[str, Any]:
        return dict(command="measure-gdp", **super().to_dict())


@dataclasses.dataclass(frozen=True)
class AuditTest(Result):
    """One test of an audit: its ``statistic`` and certified ``p_value`` (Intervals), its Holm
    ``threshold`` (Fraction), whether it was ``applicable``, ``asymptotic`` and ``rejected``."""
    name: str
    statistic_name: str
    statistic: Interval
    p_value: Interval
    threshold: Fraction
    applicable: bool
    asymptotic: bool
    rejected: bool
    detail: str


@dataclasses.dataclass(frozen=True)
class AuditReport(Result):
    """``audit``: n samples of ``law`` audited at level ``alpha``: ``passed`` (``verdict`` "pass"
    or "fail") and the ``tests``."""
    law: str
    n: int
    alpha: Fraction
    verdict: str
    passed: bool
    tests: Tuple[AuditTest, ...]


@dataclasses.dataclass(frozen=True)
class ReleaseGuarantee(Result):
    """``release`` (and ``exactdp.dask.release``): the certified ``epsilon`` / ``delta``
    Intervals of the release by ``route``; ``rho`` (zCDP, exact) and ``mu`` (GDP) where they hold.
    columns: per column its label, noise parameter (``parameter_name``: sigma2 or scale, exact,
    in grid steps, its unit the column's granularity), sensitivity, granularity, rounding and
    Delta in grid steps; contributions: records per person; l1 / l2 sensitivities in grid steps.
    ``exactdp.dask.release`` gives one parameter for every cell: ``per_cell``, with ``columns``
    the number of columns."""
    mechanism: str
    route: str
    route_detail: str
    contributions: int
    epsilon: Interval
    delta: Interval
    rho: Optional[Fraction]
    mu: Optional[Interval]
    parameter_name: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)
    hardened: Optional[bool] = dataclasses.field(default=None, metadata=OPTIONAL)
    columns: Any = dataclasses.field(default=None, metadata=OPTIONAL)
    cells: Optional[int] = dataclasses.field(default=None, metadata=OPTIONAL)
    l1_sensitivity: Optional[int] = dataclasses.field(default=None, metadata=OPTIONAL)
    l2_sensitivity_squared: Optional[int] = dataclasses.field(default=None, metadata=OPTIONAL)
    tau_upper_per_cell: Optional[Fraction] = dataclasses.field(default=None, metadata=OPTIONAL)
    hardened_charge: Optional[Interval] = dataclasses.field(default=None, metadata=OPTIONAL)
    # exactdp.dask.release (one parameter for every cell): per_cell, the noise parameter named
    # parameter_name (exact; ``parameter`` its text), and the request's sensitivity and columns
    per_cell: Optional[Fraction] = dataclasses.field(default=None, metadata=OPTIONAL)
    parameter: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)
    sensitivity: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ReleaseGuarantee":
        names = {f.name for f in dataclasses.fields(cls)}
        per_cell = d.get(d["parameter_name"]) if "parameter" in d else None
        return cls(**{k: v for k, v in d.items() if k in names}, per_cell=per_cell)

    def to_dict(self) -> Dict[str, Any]:
        out = super().to_dict()
        if self.per_cell is not None:
            out[str(self.parameter_name)] = out.pop("per_cell")
        return out


@dataclasses.dataclass(frozen=True)
class AggregateGuarantee(Result):
    """``aggregate`` (and ``exactdp.dask.aggregate``): the release's certified (epsilon, delta)
    (exact; ``epsilon_is_exact``) for adding or removing one privacy unit with all its records,
    by basic composition of the partition selection and the aggregates. bounding: the privacy
    unit and the contribution bounds max_groups / max_rows used (default 1 each; ``defaulted``
    lists those left at the default); partition_selection: its method and budget; quantities:
    per noised quantity its noise (``scale`` / ``sigma2``) in its ``unit`` (rows, privacy units,
    or a sum's grid steps of ``grid``, with ``scale_in_units`` / ``sigma2_in_units`` in the
    column's units) and its sensitivity; quantiles: per quantile its budget;
    aggregates_epsilon_certified: the aggregates' certified epsilon (Interval).
    The discrete Gaussian's joint calibration (``aggregates_route`` "product-profile (exact)" or
    "product-profile (smoothed)": the quantities' sigma2 lowered together to the certified
    privacy profile of their product, below the zCDP split): each quantity's ``sigma2`` is the
    one used and ``sigma2_zcdp_split`` the zCDP split's it replaced (Fraction; absent on other
    routes), and ``aggregates_delta_certified`` is the certified delta of the aggregates at
    ``aggregates_epsilon`` (Interval, upper end <= aggregates_delta; None on other routes)."""
    mechanism: str
    requested: Dict[str, Optional[Fraction]]
    epsilon: Fraction
    epsilon_is_exact: bool
    delta: Fraction
    neighbouring: str
    bounding: Dict[str, Any]
    split: Optional[Fraction]
    partition_selection: Dict[str, Any]
    aggregates_epsilon: Optional[Fraction]
    aggregates_delta: Optional[Fraction]
    aggregates_epsilon_certified: Interval
    aggregates_route: str
    composition: str
    quantities: List[Dict[str, Any]]
    quantiles: List[Dict[str, Any]]
    released_groups: int
    randomness: str
    aggregates_delta_certified: Optional[Interval] = dataclasses.field(default=None, metadata=OPTIONAL)


@dataclasses.dataclass(frozen=True)
class EstimatorGuarantee(Result):
    """An estimator's guarantee: the target ``epsilon`` / ``delta``, ``certified_epsilon`` (an
    Interval whose upper end is <= epsilon, proven), ``composition`` (words), ``routes`` (each
    route's per-round budget, noise scale and certified epsilon), ``budget_split`` and
    ``tuning`` (exact); ``exact_estimate`` (Fractions) and ``support`` where the estimate is a
    vector."""
    epsilon: Fraction
    delta: Optional[Fraction]
    certified_epsilon: Interval
    composition: str
    routes: List[Dict[str, Any]]
    budget_split: Dict[str, Fraction]
    tuning: Dict[str, Fraction]
    exact_estimate: Optional[List[Fraction]] = dataclasses.field(default=None, metadata=OPTIONAL)
    support: Optional[List[int]] = dataclasses.field(default=None, metadata=OPTIONAL)


@dataclasses.dataclass(frozen=True)
class Selection(Result):
    """``select``: ``n`` draws of ``top`` indices each (0-based, in the order selected) over
    ``candidates`` scores, as ``exactdp select``: ``selections`` is a read-only int64 array of
    shape (n, top). The guarantee of every draw together: ``rounds`` = n * top adaptively composed
    (epsilon, 0)-DP rounds, ``basic_epsilon`` their exact basic composition and, with ``delta``,
    ``optimal_epsilon`` (certified, Kairouz-Oh-Viswanath; else ``optimal_note`` says why not).
    report-noisy-max: ``noise``, and with Laplace noise its ``grid_denominator`` and ``noise_scale``."""
    law: str
    epsilon: Fraction
    sensitivity: Fraction
    monotonic: bool
    candidates: int
    top: int
    n: int
    selections: Any = dataclasses.field(compare=False)  # numpy int64 array (n, top): compared by identity
    rounds: int
    basic_epsilon: Fraction
    delta: Optional[Fraction] = dataclasses.field(default=None, metadata=OPTIONAL)
    optimal_epsilon: Optional[Interval] = dataclasses.field(default=None, metadata=OPTIONAL)
    optimal_tolerance_met: Optional[bool] = dataclasses.field(default=None, metadata=OPTIONAL)
    optimal_note: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)
    noise: Optional[str] = dataclasses.field(default=None, metadata=OPTIONAL)
    grid_denominator: Optional[int] = dataclasses.field(default=None, metadata=OPTIONAL)
    noise_scale: Optional[Fraction] = dataclasses.field(default=None, metadata=OPTIONAL)

    def to_dict(self) -> Dict[str, Any]:
        """Plain values; ``selections`` as in ``exactdp select --json``: a list of indices with
        top 1, else a list of lists."""
        out = super().to_dict()
        out["selections"] = self.selections[:, 0].tolist() if self.top == 1 else self.selections.tolist()
        return out


AnyCalibration = Union[Calibration, DpSgdCalibration]
