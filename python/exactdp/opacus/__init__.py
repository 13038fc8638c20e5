"""A certified DP-SGD accountant in Opacus' shape and layout (without importing Opacus).

    from exactdp.opacus.accountants import RDPAccountant   # was: from opacus.accountants import ...
    acc = RDPAccountant()                                   # or PRVAccountant(): the pld route
    for _ in range(1000):
        acc.step(noise_multiplier=1.1, sample_rate=0.01)
    eps = acc.get_epsilon(delta=1e-5)   # 1.7117: a float, the certified upper end rounded UP
    eps.interval                        # the certified exactdp Interval (also get_epsilon_interval)

    from exactdp.opacus.accountants.utils import get_noise_multiplier
    sigma = get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01,
                                 steps=1000, accountant="rdp")   # 1.02226...: certified to meet it

The layout is Opacus': ``accountants`` (RDPAccountant, PRVAccountant, IAccountant,
create_accountant; modules ``accountants.rdp`` and ``accountants.prv``) and
``accountants.utils.get_noise_multiplier``; ``Accountant(mechanism=...)`` here is the one
implementation behind them.

Every step is a Poisson-subsampled Gaussian (noise_multiplier = sigma / clip norm, rate
sample_rate), add-or-remove-one neighbours, as in Opacus. mechanism "prv" (default; also
"pld"; PRVAccountant) accounts the history by exactdp's certified pld route — privacy loss
distributions like Opacus' PRV accountant, but both ends of the answer are proven bounds; "rdp"
(RDPAccountant) by the certified rdp route (its upper end is the bound); "auto" by the smaller
of the two. Opacus' "gdp" (a central-limit approximation, not a bound) is refused. When the pld
route refuses a history as too costly (e.g. 10^5 steps at noise_multiplier 0.6 and delta 1e-9),
the rdp route answers instead and ``details["fallback"]`` of the interval says why.

get_epsilon returns what Opacus returns, a float: a :class:`~exactdp._peer.CertifiedFloat`, the
certified upper end rounded UP (toward +inf) to a double, that formats and compares like any
float, with the certified Interval as ``.interval`` and its details as ``.details``.

Floats, as Opacus passes them: a float noise_multiplier, sample_rate, delta (or a target of
get_noise_multiplier) is taken at its exact binary value — 1.1 is
2476979795053773/2251799813685248, as ``exactdp.from_float(1.1)`` — and that value is the one
accounted. Exact values (int, Fraction, Decimal, str "1.1") are accepted too. (Only this adapter
and exactdp.dp_accounting take floats; the rest of exactdp refuses them.) Consecutive steps
with the same parameters are one history entry (noise_multiplier, sample_rate, steps), as in
Opacus; ``state_dict()`` stores them as exact text, so ``load_state_dict`` restores the same
epsilon. Not thread-safe.
"""

from .._peer import CertifiedFloat
from ._accountant import Accountant, PRVAccountant, RDPAccountant
from . import accountants

__all__ = ["Accountant", "CertifiedFloat", "PRVAccountant", "RDPAccountant", "accountants"]
