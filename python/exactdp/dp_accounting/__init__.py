"""Certified accountants in dp_accounting's shape and layout (without importing dp_accounting).

    from exactdp.dp_accounting import dp_event, pld, rdp   # was: from dp_accounting import ...
    event = dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.1))
    accountant = pld.PLDAccountant()                       # or rdp.RdpAccountant()
    accountant.compose(event, 1000)
    eps = accountant.get_epsilon(1e-5)   # 1.5154: a float, the certified upper end rounded UP
    eps.interval                         # the certified exactdp Interval [1.51509..., 1.5154]

The layout is dp_accounting's: ``dp_event`` (the event classes; also ``events`` and this
package's top level), ``pld.PLDAccountant`` (also ``pld.pld_privacy_accountant``),
``rdp.RdpAccountant`` (also ``rdp.rdp_privacy_accountant``), ``privacy_accountant``
(NeighboringRelation, PrivacyAccountant, UnsupportedEventError); one implementation behind them.
Not provided: DpEventBuilder, mechanism_calibration. ``RdpAccountant(orders)`` certifies the
given orders (the minimum over them); without orders the rdp route searches real orders itself.
The events carry dp_accounting's names and fields with exact parameters (module
exactdp.dp_events).

Floats, as dp_accounting's users pass them: a float parameter (an event's noise_multiplier or
sampling_probability, target_delta, target_epsilon) is taken at its exact binary value — 1.1 is
2476979795053773/2251799813685248, as ``exactdp.from_float(1.1)`` — and that value is the one
accounted; int, Fraction, Decimal and str ("1.1") are exact decimals. (Only this adapter and
exactdp.opacus take floats; the rest of exactdp refuses them.)

``RdpAccountant``, ``PLDAccountant`` and ``Accountant(route="auto")`` have dp_accounting's
methods — compose(event, count=1) (returns self), supports(event), ledger, neighboring_relation,
get_epsilon(target_delta), get_delta(target_epsilon) — and answer as dp_accounting does, with a
float: a :class:`~exactdp._peer.CertifiedFloat`, the certified upper end rounded UP (toward
+inf) to a double, that formats and compares like any float; ``.interval`` is the certified
:class:`exactdp.Interval` (get_epsilon_interval / get_delta_interval return it directly) and
``.details`` its details. Each event of the ledger becomes the exactdp.events event it states
(``DpEvent.to_event()``), and an :class:`exactdp.Accountant` on this route answers through
the C++ routes (docs/ACCOUNTING.md): ``rdp``
(its upper end is the certified bound; its lower end is not a lower bound on the truth),
``pld`` (both ends are proven bounds on the true epsilon or delta) or ``auto`` (the smallest
certified upper end among the routes that apply). ``details`` names the route and holds every
route's Interval. A route that refuses a composition as too costly (LimitError, e.g. pld at 10^5
steps with a small noise multiplier and delta 1e-9) is not the end: the next certified route that
covers every event answers (pld -> rdp, rdp -> pld) and ``details["fallback"]`` says why. A
NonPrivateDpEvent (or noise_multiplier 0) makes epsilon inf ([inf, inf]) and delta 1 ([1, 1]);
NoOpDpEvent, sampling probability 0, epsilon 0 and rho 0 compose as nothing.
"""

from .. import dp_events as events
from ..dp_events import (  # dp_accounting exports its events at top level too
    ComposedDpEvent, DiscreteGaussianDpEvent, DiscreteLaplaceDpEvent, DistributedDiscreteGaussianDpEvent, DpEvent, EpsilonDeltaDpEvent, GaussianDpEvent,
    GdpDpEvent, LaplaceDpEvent, LawDpEvent, NoOpDpEvent, NonPrivateDpEvent, PoissonSampledDpEvent,
    SampledWithReplacementDpEvent, SampledWithoutReplacementDpEvent, SelfComposedDpEvent, SkellamDpEvent,
    StaircaseDpEvent, UnsupportedDpEvent, VectorDiscreteGaussianDpEvent, VectorDiscreteLaplaceDpEvent, ZCDpEvent)
from .._peer import CertifiedFloat
from .._errors import UnsupportedEventError
from ._accountant import Accountant, NeighboringRelation, PLDAccountant, PrivacyAccountant, RdpAccountant
from . import dp_event, pld, privacy_accountant, rdp

__all__ = [
    "Accountant", "CertifiedFloat", "NeighboringRelation", "PLDAccountant", "PrivacyAccountant", "RdpAccountant",
    "UnsupportedEventError", "dp_event", "events", "pld", "privacy_accountant", "rdp",
    "ComposedDpEvent", "DiscreteGaussianDpEvent", "DiscreteLaplaceDpEvent", "DistributedDiscreteGaussianDpEvent",
    "DpEvent", "EpsilonDeltaDpEvent",
    "GaussianDpEvent", "GdpDpEvent", "LaplaceDpEvent", "LawDpEvent", "NoOpDpEvent", "NonPrivateDpEvent",
    "PoissonSampledDpEvent", "SampledWithReplacementDpEvent", "SampledWithoutReplacementDpEvent",
    "SelfComposedDpEvent", "SkellamDpEvent", "StaircaseDpEvent", "UnsupportedDpEvent",
    "VectorDiscreteGaussianDpEvent", "VectorDiscreteLaplaceDpEvent", "ZCDpEvent",
]
