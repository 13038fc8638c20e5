"""audit: goodness-of-fit audit of anyone's samples against an exact law (verification/ layer).

Calls the library's audit (verification/audit.h) on the given samples against the law's exact
reference law (the law registry, ``exactdp.laws()``): Pearson chi-square, G-test, KS (DKW
bound), exact binomial tail and parity tests, mean and variance z-tests, with certified p-values
and Holm-Bonferroni at overall level ``alpha`` (default 1e-6: the probability that a correct
sampler fails the audit is at most alpha). docs/AUDIT.md.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any, Dict, Iterable, Optional

import numpy as np

from . import _exactdp
from ._convert import Exact, exact_text, fraction_from_text, law_keyword
from .interval import Interval
from .results import AuditReport, AuditTest
from .samplers import laws

def law_name(law: Any) -> str:
    """The law's one spelling; the underscore spelling the package documented before each law had
    one name ("discrete_gaussian" for a law of the registry named "discrete-gaussian") gives a
    DeprecationWarning."""
    if not isinstance(law, str):
        raise TypeError("law must be a str (a name of exactdp.laws())")
    hyphenated = law.replace("_", "-")
    if hyphenated != law and hyphenated in {entry["name"] for entry in laws()}:
        warnings.warn(f"law {law!r} is spelled {hyphenated!r}; the underscore spelling will be removed",
                      DeprecationWarning, stacklevel=3)
        return hyphenated
    return law


def _samples(samples: Any) -> Any:
    if isinstance(samples, np.ndarray):
        if samples.dtype.kind == "i":
            return np.ascontiguousarray(samples.ravel(), dtype=np.int64)
        if samples.dtype.kind == "u":
            if samples.size and int(samples.max()) >= 2**63:
                return [int(s) for s in samples.ravel().tolist()]
            return np.ascontiguousarray(samples.ravel(), dtype=np.int64)
        if samples.dtype.kind != "O":
            raise TypeError("samples must hold integers (an integer or object numpy array, or a list of ints)")
        samples = samples.ravel().tolist()
    out = []
    for s in samples:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"samples must be integers, not {type(s).__name__}")
        out.append(int(s))
    return out


def _report(raw: Dict[str, Any]) -> AuditReport:
    tests = []
    for t in raw["tests"]:
        t = dict(t)
        t["statistic"] = Interval.from_text(t["statistic"]["lower"], t["statistic"]["upper"])
        t["p_value"] = Interval.from_text(t["p_value"]["lower"], t["p_value"]["upper"])
        t["threshold"] = fraction_from_text(t["threshold"])
        tests.append(AuditTest(**t))
    return AuditReport(law=raw["law"], n=int(raw["n"]), alpha=fraction_from_text(raw["alpha"]),
                       verdict=raw["verdict"], passed=bool(raw["passed"]), tests=tuple(tests))


@law_keyword
def audit(samples: Iterable[Any], law: str = "discrete-gaussian", *, alpha: Optional[Exact] = None,
          digits: Optional[int] = None, **parameters: Optional[Exact]) -> AuditReport:
    """Audits `samples` (a numpy integer array or a list of ints) against `law`.

    law: a law of ``exactdp.laws()`` with "audit" among its capabilities: "discrete-gaussian"
        (sigma2=..., mean=0), "discrete-laplace" (scale=..., mean=0), "bernoulli-exp"
        (gamma=...), "staircase" (gamma=..., sensitivity=..., r=...). The underscore spellings
        ("discrete_gaussian") still work, with a DeprecationWarning.
    parameters: the law's parameters, exact (int, Fraction, Decimal, str; float refused with
        TypeError naming it; a bad value or unknown name: ParameterError naming it).
    alpha: the overall false-alarm probability (0 < alpha < 1, default 1e-6).
    digits: ignored (kept for old calls): the report's intervals have exact ends.

    Returns the audit report, an :class:`exactdp.results.AuditReport`: ``law``, ``n`` (int),
    ``alpha`` (Fraction), ``verdict`` ("pass"/"fail"), ``passed`` (bool) and ``tests``
    (:class:`exactdp.results.AuditTest`), each with its ``statistic`` and certified ``p_value``
    (``Interval`` with exact ends), its Holm ``threshold`` (Fraction), ``applicable``,
    ``asymptotic``, ``rejected`` and ``detail``; ``to_dict()`` is the old dict.
    """
    del digits
    name = law_name(law)
    texts = [(k, exact_text(k, v)) for k, v in parameters.items() if v is not None]
    alpha_text = "1/1000000" if alpha is None else exact_text("alpha", alpha)
    return _report(_exactdp._audit(name, texts, _samples(samples), alpha_text))
