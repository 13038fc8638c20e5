"""The accountant of exactdp.opacus (one implementation; the package and its accountants
subpackage re-export it). The package docstring describes it."""

from __future__ import annotations

import numbers
from collections import OrderedDict
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import dp_accounting
from .._convert import shown
from .._errors import ParameterError
from .._peer import CertifiedFloat, peer_number
from ..dp_events import GaussianDpEvent, PoissonSampledDpEvent, VectorDiscreteGaussianDpEvent
from ..interval import Interval

_ROUTES = {"prv": "pld", "pld": "pld", "rdp": "rdp", "auto": "auto"}


_value = peer_number  # a float at its exact binary value; any exact value as itself


def _entry(noise_multiplier: Any, sample_rate: Any, steps: Any) -> Tuple[Fraction, Fraction, int]:
    sigma = _value("noise_multiplier", noise_multiplier)
    q = _value("sample_rate", sample_rate)
    if sigma < 0:
        raise ParameterError(f"noise_multiplier = {shown(sigma)} is out of range: allowed >= 0", "noise_multiplier")
    if not 0 <= q <= 1:
        raise ParameterError(f"sample_rate = {shown(q)} is out of range: allowed 0 <= sample_rate <= 1", "sample_rate")
    if isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 1:
        raise ParameterError(f"steps = {steps!r}: allowed an int >= 1", "steps")
    return sigma, q, int(steps)


# The grid of a step noised by exactdp.add_noise: (granularity, dim, max_grad_norm, sensitivity).
Grid = Tuple[Fraction, int, Fraction, Fraction]


def _grid(granularity: Any, dim: Any, max_grad_norm: Any, sensitivity: Any) -> Optional[Grid]:
    """The grid of a step (None: the continuous Gaussian); ParameterError naming a bad one."""
    if granularity is None and dim is None:
        if max_grad_norm is not None or sensitivity is not None:
            raise ParameterError("max_grad_norm / sensitivity apply to a grid step: give granularity and dim",
                                 "granularity")
        return None
    if granularity is None or dim is None:
        raise ParameterError("a grid step needs both granularity and dim", "granularity" if granularity is None else "dim")
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        raise ParameterError(f"dim = {dim!r}: allowed an int >= 1", "dim")
    clip = Fraction(1) if max_grad_norm is None else _value("max_grad_norm", max_grad_norm)
    if clip <= 0:
        raise ParameterError(f"max_grad_norm = {shown(clip)} is out of range: allowed > 0", "max_grad_norm")
    return (_value("granularity", granularity), int(dim), clip,
            clip if sensitivity is None else _value("sensitivity", sensitivity))


def _step_event(sigma: Any, q: Any, grid: Optional[Grid]) -> Any:
    """The event of one step: the sampled Gaussian, or the sampled vector discrete Gaussian on
    the grid (sigma = noise_multiplier x max_grad_norm in the gradient's units)."""
    if grid is None:
        return PoissonSampledDpEvent(q, GaussianDpEvent(sigma))
    granularity, dim, clip, sensitivity = grid
    law = VectorDiscreteGaussianDpEvent(sigma=_value("noise_multiplier", sigma) * clip, dim=dim,
                                        granularity=granularity, sensitivity=sensitivity)
    return PoissonSampledDpEvent(q, law)


class Accountant:
    """Opacus' accountant interface (step, get_epsilon, __len__, mechanism, state_dict,
    load_state_dict, get_optimizer_hook_fn), certified. ``history`` is a list of
    (noise_multiplier, sample_rate, steps) with exact Fraction parameters, and for a grid step
    (noise_multiplier, sample_rate, steps, (granularity, dim, max_grad_norm, sensitivity))."""

    def __init__(self, mechanism: str = "prv") -> None:
        if mechanism not in _ROUTES:
            raise ParameterError(f"mechanism = {shown(mechanism)[:40]!r}: allowed prv (pld route), rdp, auto "
                                 "(Opacus' gdp is a central-limit approximation, not a certified bound)", "mechanism")
        self._mechanism = mechanism
        # (noise_multiplier, sample_rate, steps[, grid]): Opacus' history entries, exact
        self.history: List[Tuple[Any, ...]] = []
        self._last: Optional[Tuple[Any, Interval]] = None  # (history and delta, answer)

    def mechanism(self) -> str:
        """The mechanism name given ("prv", "pld", "rdp" or "auto")."""
        return self._mechanism

    def step(self, *, noise_multiplier: Any, sample_rate: Any, granularity: Any = None, dim: Any = None,
             max_grad_norm: Any = None, sensitivity: Any = None) -> None:
        """Records one DP-SGD step; floats are taken at their exact dyadic value.

        Without granularity and dim the step is Opacus' continuous sampled Gaussian: that
        UNDER-REPORTS noise that ran on a grid (exactdp.add_noise: the rounding adds to the
        sensitivity, docs/REAL_VALUED_ACCOUNTING.md). With granularity (add_noise's g, a power
        of two, in the gradient's units; exactdp.noise_granularity says which) and dim (the
        number of coordinates noised) the step is the Poisson-sampled vector discrete Gaussian
        that ran: sigma = noise_multiplier x max_grad_norm (default 1), L2 sensitivity
        ``sensitivity`` (default max_grad_norm). The prv/pld mechanism accounts it by the
        smoothed-pld route, rdp by the rdp route."""
        sigma, q, _ = _entry(noise_multiplier, sample_rate, 1)
        grid = _grid(granularity, dim, max_grad_norm, sensitivity)
        if grid is not None and (not self.history or _key(self.history[-1]) != (sigma, q, grid)):
            _step_event(sigma, q, grid)  # the law checks the grid before it enters the history
        key = (sigma, q, grid)
        if self.history and _key(self.history[-1]) == key:
            self.history[-1] = _with_steps(self.history[-1], self.history[-1][2] + 1)
        else:
            self.history.append((sigma, q, 1) if grid is None else (sigma, q, 1, grid))

    def __len__(self) -> int:
        """The number of steps taken (Opacus' RDP accountant returns the number of history
        entries instead)."""
        return sum(entry[2] for entry in self.history)

    def get_epsilon_interval(self, delta: Any) -> Interval:
        """The certified epsilon at `delta` (a float is taken at its exact dyadic value; pass
        "1e-5" for the decimal): an exactdp Interval whose ``.upper`` is the epsilon to use;
        ``details["route"]`` names the route. No steps: [0, 0]."""
        target = _value("delta", delta)
        key = (tuple(self.history), target)
        if self._last is None or self._last[0] != key:
            acc = dp_accounting.Accountant(route=_ROUTES[self._mechanism])
            for entry in self.history:
                acc.compose(_step_event(entry[0], entry[1], _key(entry)[2]), entry[2])
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
        destination["history"] = [(str(e[0]), str(e[1]), e[2]) + (() if len(e) == 3 else
                                   ([str(e[3][0]), e[3][1], str(e[3][2]), str(e[3][3])],)) for e in self.history]
        destination["mechanism"] = self._mechanism
        return destination

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        """Restores the history of state_dict() (or of an Opacus accountant: its float entries
        are taken at their exact dyadic values). The mechanism stays this accountant's."""
        if not state_dict:
            raise ValueError("state dict is either None or empty")
        if "history" not in state_dict:
            raise ValueError("state_dict does not have the key 'history'")
        history: List[Tuple[Any, ...]] = []
        for item in state_dict["history"]:
            if not isinstance(item, (tuple, list)) or len(item) not in (3, 4):
                raise ParameterError(f"history entry {item!r}: expected (noise_multiplier, sample_rate, steps[, "
                                     "(granularity, dim, max_grad_norm, sensitivity)])", "history")
            entry: Tuple[Any, ...] = _entry(*item[:3])
            if len(item) == 4:
                if not isinstance(item[3], (tuple, list)) or len(item[3]) != 4:
                    raise ParameterError(f"history entry {item!r}: the grid is (granularity, dim, max_grad_norm, "
                                         "sensitivity)", "history")
                entry = entry + (_grid(*item[3]),)
            history.append(entry)
        self.history = history

    def get_optimizer_hook_fn(self, sample_rate: Any) -> Callable[[Any], None]:
        """Opacus' optimizer step hook: one step at the optimizer's noise_multiplier and
        sample_rate x its accumulated_iterations (1 when absent)."""
        def hook_fn(optim: Any) -> None:
            iterations = getattr(optim, "accumulated_iterations", 1)
            rate = _value("sample_rate", sample_rate) * iterations
            self.step(noise_multiplier=optim.noise_multiplier, sample_rate=rate)
        return hook_fn


def _key(entry: Tuple[Any, ...]) -> Tuple[Any, Any, Optional[Grid]]:
    """(noise_multiplier, sample_rate, grid or None) of a history entry."""
    return entry[0], entry[1], entry[3] if len(entry) == 4 else None


def _with_steps(entry: Tuple[Any, ...], steps: int) -> Tuple[Any, ...]:
    return entry[:2] + (steps,) + entry[3:]


class RDPAccountant(Accountant):
    """Opacus' class name: Accountant(mechanism="rdp")."""

    def __init__(self) -> None:
        super().__init__("rdp")


class PRVAccountant(Accountant):
    """Opacus' class name: Accountant(mechanism="prv") (exactdp's certified pld route)."""

    def __init__(self) -> None:
        super().__init__("prv")
