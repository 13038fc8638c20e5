"""Questions to the law registry (exactdp.laws()) that the event vocabularies and helpers ask
instead of listing law names: which law a class stands for, its parameters and their defaults.

A class names its law by its own name: the registry law whose name, without dashes, is the
class name in lower case, less a trailing "DpEvent" or "Event" (DiscreteGaussian and
DiscreteGaussianDpEvent are "discrete-gaussian", ZCDpEvent is "zcdp", PureDP "pure-dp"). A
class whose name resolves to no law of the registry fails when it is defined (at import), so a
renamed or removed law cannot leave a stale class behind.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

from . import _exactdp


@functools.lru_cache(maxsize=1)
def entries() -> Tuple[Dict[str, Any], ...]:
    """The registry's laws in its order (name, summary, parameters, capabilities as a list)."""
    out = _exactdp._laws()
    for law in out:
        law["capabilities"] = [c for c in law["capabilities"].split(", ") if c]
    return tuple(out)


@functools.lru_cache(maxsize=1)
def by_name() -> Dict[str, Dict[str, Any]]:
    return {entry["name"]: entry for entry in entries()}


def has(law: str, capability: str) -> bool:
    """Whether ``law`` is a registry law with ``capability`` (e.g. "event", "poisson")."""
    entry = by_name().get(law)
    return entry is not None and capability in entry["capabilities"]


def laws_with(capability: str) -> List[str]:
    """The registry's laws with ``capability``, in its order."""
    return [entry["name"] for entry in entries() if capability in entry["capabilities"]]


def _squeezed(name: str) -> str:
    return name.replace("-", "").replace("_", "").lower()


def law_of_class_name(class_name: str) -> str:
    """The registry law a class stands for, read from its name (module docstring); TypeError
    when no law of the registry has that name."""
    squeezed = _squeezed(class_name)
    candidates = [squeezed] + [squeezed[:-len(tail)] for tail in ("dpevent", "event") if squeezed.endswith(tail)]
    for law in entries():
        if _squeezed(law["name"]) in candidates:
            return str(law["name"])
    raise TypeError(f"{class_name}: no law of the registry (exactdp.laws()) has this name")


def law_with_parameters(names: FrozenSet[str]) -> str:
    """The one registry law whose parameters are exactly ``names`` (e.g. {"epsilon"}: pure DP)."""
    found = [law["name"] for law in entries() if frozenset(p["name"] for p in law["parameters"]) == names]
    if len(found) != 1:
        raise TypeError(f"parameters {sorted(names)}: {len(found)} laws of the registry have exactly these")
    return str(found[0])


def parameters(law: str, with_sampling: bool = False) -> List[Dict[str, Any]]:
    """The law's parameters in the registry's order; the privacy event's only (no "sampling"
    role, e.g. a sampler's mean) unless ``with_sampling``."""
    return [p for p in by_name()[law]["parameters"] if with_sampling or p["role"] != "sampling"]


def noise_parameter(law: str) -> str:
    """The name of the law's first noise parameter (sigma of gaussian, scale of laplace)."""
    return str(next(p["name"] for p in parameters(law) if p["role"] == "noise"))


def event_defaults(law: str) -> Dict[str, str]:
    """The registry's default (exact text) of each event parameter that has one (an empty
    default is one the law derives from the others, e.g. l1 from dim and sensitivity)."""
    return {p["name"]: p["default"] for p in parameters(law) if p["default"]}


def named_parameter(law: str, name: str) -> Optional[Dict[str, Any]]:
    return next((p for p in parameters(law, with_sampling=True) if p["name"] == name), None)
