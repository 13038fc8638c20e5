"""The accountant of exactdp.opacus (one implementation; the package and its accountants
subpackage re-export it). The package docstring describes it."""

from __future__ import annotations

import numbers
from collections import OrderedDict
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import dp_accounting
from .._errors import ParameterError
from .._peer import CertifiedFloat, peer_number
from ..dp_events import GaussianDpEvent, PoissonSampledDpEvent
from ..interval import Interval

_ROUTES = {"prv": "pld", "pld": "pld", "rdp": "rdp", "auto": "auto"}


_value = peer_number  # a float at its exact binary value; any exact value as itself


def _entry(noise_multiplier: Any, sample_rate: Any, steps: Any) -> Tuple[Fraction, Fraction, int]:
    sigma = _value("noise_multiplier", noise_multiplier)
    q = _value("sample_rate", sample_rate)
    if sigma < 0:
        raise ParameterError(f"noise_multiplier = {sigma} is out of range: allowed >= 0", "noise_multiplier")
    if not 0 <= q <= 1:
        raise ParameterError(f"sample_rate = {q} is out of range: allowed 0 <= sample_rate <= 1", "sample_rate")
    if isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 1:
        raise ParameterError(f"steps = {steps!r}: allowed an int >= 1", "steps")
    return sigma, q, int(steps)


class Accountant:
    """Opacus' accountant interface (step, get_epsilon, __len__, mechanism, state_dict,
    load_state_dict, get_optimizer_hook_fn), certified. ``history`` is a list of
    (noise_multiplier, sample_rate, steps) with exact Fraction parameters."""

    def __init__(self, mechanism: str = "prv") -> None:
        if mechanism not in _ROUTES:
            raise ParameterError(f"mechanism = {str(mechanism)[:40]!r}: allowed prv (pld route), rdp, auto "
                                 "(Opacus' gdp is a central-limit approximation, not a certified bound)", "mechanism")
        self._mechanism = mechanism
        self.history: List[Tuple[Fraction, Fraction, int]] = []
        self._last: Optional[Tuple[Any, Interval]] = None  # (history and delta, answer)

    def mechanism(self) -> str:
        """The mechanism name given ("prv", "pld", "rdp" or "auto")."""
        return self._mechanism

    def step(self, *, noise_multiplier: Any, sample_rate: Any) -> None:
        """Records one DP-SGD step; floats are taken at their exact dyadic value."""
        sigma, q, _ = _entry(noise_multiplier, sample_rate, 1)
        if self.history and self.history[-1][:2] == (sigma, q):
            self.history[-1] = (sigma, q, self.history[-1][2] + 1)
        else:
            self.history.append((sigma, q, 1))

    def __len__(self) -> int:
        """The number of steps taken (Opacus' RDP accountant returns the number of history
        entries instead)."""
        return sum(steps for _, _, steps in self.history)

    def get_epsilon_interval(self, delta: Any) -> Interval:
        """The certified epsilon at `delta` (a float is taken at its exact dyadic value; pass
        "1e-5" for the decimal): an exactdp Interval whose ``.upper`` is the epsilon to use;
        ``details["route"]`` names the route. No steps: [0, 0]."""
        target = _value("delta", delta)
        key = (tuple(self.history), target)
        if self._last is None or self._last[0] != key:
            acc = dp_accounting.Accountant(route=_ROUTES[self._mechanism])
            for sigma, q, steps in self.history:
                acc.compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps)
            self._last = (key, acc.get_epsilon_interval(target))
        value = self._last[1]
        return Interval(value.lower, value.upper, value.details)

    def get_epsilon(self, delta: Any, **ignored: Any) -> CertifiedFloat:
        """The certified epsilon's upper end as a float rounded UP: a float certified to be >=
        the epsilon of the history at `delta`, with the Interval as ``.interval``. Opacus' tuning
        keywords (alphas, eps_error, delta_error) are accepted and ignored: the routes certify."""
        return CertifiedFloat(self.get_epsilon_interval(delta))

    def get_privacy_spent(self, *, delta: Any, **ignored: Any) -> Tuple[CertifiedFloat, Optional[str]]:
        """(epsilon rounded up, the route that answered), like Opacus' (epsilon, best alpha)."""
        epsilon = self.get_epsilon(delta)
        return epsilon, epsilon.details.get("route")

    def state_dict(self, destination: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """{"history": [(noise_multiplier, sample_rate, steps)], "mechanism": name}; the
        parameters as exact text ("p/q"), so the state round-trips exactly (and is JSON-safe)."""
        if destination is None:
            destination = OrderedDict()
        destination["history"] = [(str(s), str(q), n) for s, q, n in self.history]
        destination["mechanism"] = self._mechanism
        return destination

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        """Restores the history of state_dict() (or of an Opacus accountant: its float entries
        are taken at their exact dyadic values). The mechanism stays this accountant's."""
        if not state_dict:
            raise ValueError("state dict is either None or empty")
        if "history" not in state_dict:
            raise ValueError("state_dict does not have the key 'history'")
        history = []
        for item in state_dict["history"]:
            if not isinstance(item, (tuple, list)) or len(item) != 3:
                raise ParameterError(f"history entry {item!r}: expected (noise_multiplier, sample_rate, steps)",
                                     "history")
            history.append(_entry(*item))
        self.history = history

    def get_optimizer_hook_fn(self, sample_rate: Any) -> Callable[[Any], None]:
        """Opacus' optimizer step hook: one step at the optimizer's noise_multiplier and
        sample_rate x its accumulated_iterations (1 when absent)."""
        def hook_fn(optim: Any) -> None:
            iterations = getattr(optim, "accumulated_iterations", 1)
            rate = _value("sample_rate", sample_rate) * iterations
            self.step(noise_multiplier=optim.noise_multiplier, sample_rate=rate)
        return hook_fn


class RDPAccountant(Accountant):
    """Opacus' class name: Accountant(mechanism="rdp")."""

    def __init__(self) -> None:
        super().__init__("rdp")


class PRVAccountant(Accountant):
    """Opacus' class name: Accountant(mechanism="prv") (exactdp's certified pld route)."""

    def __init__(self) -> None:
        super().__init__("prv")
