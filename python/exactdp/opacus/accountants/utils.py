"""opacus.accountants.utils' layout: get_noise_multiplier, by exactdp's certified DP-SGD
calibration (``exactdp.calibrate("dp-sgd", ...)``)."""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any, Optional

from ..._convert import shown
from ..._errors import ParameterError
from ..._peer import CertifiedFloat, is_float, peer_number
from ...accounting import calibrate
from ...interval import Interval

# Opacus' accountant names -> the calibration's routes (Opacus' "gdp" has no certified route).
_ROUTES = {"rdp": "rdp", "prv": "pld", "pld": "pld"}


def get_noise_multiplier(*, target_epsilon: Any, target_delta: Any, sample_rate: Any,
                         epochs: Optional[Any] = None, steps: Optional[int] = None, accountant: str = "rdp",
                         epsilon_tolerance: Any = 0.01, **kwargs: Any) -> CertifiedFloat:
    """The noise multiplier that makes `steps` DP-SGD steps (or `epochs` epochs: Opacus'
    steps = int(epochs / sample_rate)) at `sample_rate` (target_epsilon, target_delta)-DP, as
    Opacus' get_noise_multiplier, but certified: a :class:`~exactdp._peer.CertifiedFloat`, the
    calibration's upper sigma (its certified epsilon is <= target_epsilon) rounded UP to a
    double, so using it (a larger sigma only adds noise) meets the target. ``.interval`` is the
    calibration's [sigma_lower, sigma_upper] (sigma_lower is certified to miss the target on the
    pld route; the rdp bracket on the rdp route); ``.details`` is its report, the certificate
    ``details["epsilon_at_sigma_upper"]`` (an Interval) included. accountant "rdp" (Opacus'
    default) calibrates on the certified rdp route, "prv" (or "pld") on the pld route (a smaller
    sigma: a four-digit decimal, e.g. 0.96 at q 0.01, 1000 steps, (2, 1e-5)); "gdp" is refused.
    Floats are taken at their exact binary values. epsilon_tolerance and Opacus' keywords for the
    accountant are accepted and ignored: the calibration's own resolution applies."""
    del epsilon_tolerance, kwargs
    if (steps is None) == (epochs is None):
        raise ValueError("get_noise_multiplier takes as input EITHER a number of steps or a number of epochs")
    route = _ROUTES.get(accountant) if isinstance(accountant, str) else None
    if route is None:
        raise ParameterError(f"accountant = {shown(accountant)[:40]!r}: allowed rdp, prv (pld route) "
                             "(Opacus' gdp is a central-limit approximation, not a certified bound)", "accountant")
    q = peer_number("sample_rate", sample_rate)
    if steps is None:
        steps = _steps_of_epochs(epochs, sample_rate, q)
    report = calibrate("dp-sgd", q=q, steps=steps, epsilon=peer_number("target_epsilon", target_epsilon),
                       delta=peer_number("target_delta", target_delta), route=route).to_dict()
    sigma = report.pop("sigma")
    return CertifiedFloat(Interval(sigma.lower, sigma.upper, report))


def _steps_of_epochs(epochs: Any, sample_rate: Any, q: Fraction) -> int:
    """Opacus' int(epochs / sample_rate): computed as Opacus computes it (in floating point) when
    a float is given, so a float call gives Opacus' step count (10 epochs at 0.01: 1000, where
    the exact value of the float 0.01 would give 999); exactly otherwise."""
    if isinstance(epochs, bool) or not isinstance(epochs, numbers.Real) or not peer_number("epochs", epochs) > 0:
        raise ParameterError(f"epochs = {epochs!r}: allowed a number > 0", "epochs")
    if not q > 0:
        raise ParameterError(f"sample_rate = {shown(q)}: allowed 0 < sample_rate <= 1 with epochs", "sample_rate")
    exact = peer_number("epochs", epochs) / q
    if exact > 10**12:  # far past the calibration's limit (10^9 steps), which then names steps
        return 10**12
    return int(float(epochs) / float(q)) if is_float(epochs) or is_float(sample_rate) else int(exact)


__all__ = ["get_noise_multiplier"]
