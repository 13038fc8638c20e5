"""exactdp.select: exact private selection over rational scores, as ``exactdp select``.

    chosen = exactdp.select([3, 7, "9/2", "0.5"], law="exponential", epsilon=1, sensitivity=1)
    chosen.selections[0, 0]          # the chosen 0-based index
    exactdp.select(scores, law="report-noisy-max", epsilon="1/2", sensitivity=1, top=3, n=10)

The operation `select` of the C++ library (operations/select.h; docs/SELECTION.md) with the
command line's checks and limits: law is exponential, permute-and-flip or report-noisy-max
(noise "laplace" or "exponential" for the last), each selection (one round) is
(epsilon, 0)-DP when every score moves by at most ``sensitivity`` between neighbours
(``monotonic=True``: all in the same direction). ``top=K`` peels K distinct indices a draw,
``n`` draws are made; the result's guarantee covers all n * K rounds. The work of the draws is
refused up front (LimitError naming n, or top when peeling) over the command line's limit.
Scores, epsilon, sensitivity and delta are exact (int, Fraction, Decimal or str; never float).
With ``rng=SeededBits(seed)`` the draws are those of ``exactdp select --seed`` (tests only).
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, List, Optional, Sequence

from . import _exactdp
from ._convert import Exact, count_text, exact_text, fraction_from_text, int_from_text, law_keyword
from ._errors import ParameterError
from .interval import Interval
from .results import Selection
from .samplers import SeededBits

__all__ = ["select"]


def _count(name: str, value: Any) -> str:
    """An int option as text; the operation checks its range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int")
    return count_text(name, value)


def _scores(scores: Any) -> List[str]:
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) and not hasattr(scores, "tolist"):
        raise ParameterError("scores: give a sequence of exact numbers, one per candidate", "scores")
    values = scores.tolist() if hasattr(scores, "tolist") else list(scores)
    return [exact_text(f"scores[{i}]", v) for i, v in enumerate(values)]


def _result(raw: Dict[str, Any]) -> Selection:
    optimal = raw["optimal_epsilon"]
    selections = raw["selections"]
    selections.flags.writeable = False
    return Selection(
        law=raw["mechanism"], epsilon=fraction_from_text(raw["epsilon"]),
        sensitivity=fraction_from_text(raw["sensitivity"]), monotonic=raw["monotonic"],
        candidates=raw["candidates"], top=raw["top"], n=raw["n"], selections=selections,
        rounds=int_from_text(raw["rounds"]), basic_epsilon=fraction_from_text(raw["basic_epsilon"]),
        delta=None if raw["delta"] is None else fraction_from_text(raw["delta"]),
        optimal_epsilon=None if optimal is None else Interval.from_text(optimal["lower"], optimal["upper"]),
        optimal_tolerance_met=raw["tolerance_met"], optimal_note=raw["optimal_note"], noise=raw["noise"],
        grid_denominator=None if raw["grid_denominator"] is None else int_from_text(raw["grid_denominator"]),
        noise_scale=None if raw["noise_scale"] is None else fraction_from_text(raw["noise_scale"]))


@law_keyword
def select(scores: Sequence[Exact], *, law: str, epsilon: Exact, sensitivity: Exact, noise: Optional[str] = None,
           monotonic: bool = False, top: int = 1, n: int = 1, delta: Optional[Exact] = None,
           rng: Optional[SeededBits] = None) -> Selection:
    """Draws ``n`` private selections of ``top`` indices over ``scores`` (higher is better).

    law: "exponential", "permute-and-flip" or "report-noisy-max" (``mechanism=`` is accepted
    as its deprecated name); noise: report-noisy-max only, "laplace" (default) or "exponential".
    epsilon (0 < epsilon <= 10^6, per round), sensitivity (> 0), delta (0 < delta < 1: also the
    certified optimal composition): exact numbers. top: 1..len(scores); n: 1..10^7 draws.
    Returns a :class:`exactdp.results.Selection`. ParameterError / LimitError name the parameter,
    with the same message as ``exactdp select`` (scores: at most 10^6, 32 MiB of digits).
    """
    if not isinstance(law, str):
        raise TypeError("law must be a str: exponential, permute-and-flip or report-noisy-max")
    if noise is not None and not isinstance(noise, str):
        raise TypeError("noise must be None or a str: laplace or exponential")
    if rng is not None and not isinstance(rng, SeededBits):
        raise TypeError("rng must be None (the OS CSPRNG) or an exactdp.SeededBits")
    raw = _exactdp._select(law, noise, exact_text("epsilon", epsilon), exact_text("sensitivity", sensitivity),
                           bool(monotonic), _count("top", top), _count("n", n),
                           None if delta is None else exact_text("delta", delta), _scores(scores), rng)
    return _result(raw)
