"""dp_accounting.dp_event's layout: the event classes of exactdp.dp_events (re-exported; floats
are taken at their exact binary value, see exactdp.dp_accounting), one for every law of the
registry with an accounting event (``event_class(law)``)."""

from ..dp_events import (
    ComposedDpEvent, DiscreteGaussianDpEvent, DiscreteLaplaceDpEvent, DistributedDiscreteGaussianDpEvent, DpEvent, EpsilonDeltaDpEvent, GaussianDpEvent,
    GdpDpEvent, LaplaceDpEvent, LawBackedDpEvent, LawDpEvent, NoOpDpEvent, NonPrivateDpEvent, PoissonSampledDpEvent,
    SampledWithReplacementDpEvent, SampledWithoutReplacementDpEvent, SelfComposedDpEvent, SkellamDpEvent,
    StaircaseDpEvent, UnsupportedDpEvent, VectorDiscreteGaussianDpEvent, VectorDiscreteLaplaceDpEvent, ZCDpEvent,
    event_class)

__all__ = [
    "ComposedDpEvent", "DiscreteGaussianDpEvent", "DiscreteLaplaceDpEvent", "DistributedDiscreteGaussianDpEvent",
    "DpEvent", "EpsilonDeltaDpEvent",
    "GaussianDpEvent", "GdpDpEvent", "LaplaceDpEvent", "LawBackedDpEvent", "LawDpEvent", "NoOpDpEvent",
    "NonPrivateDpEvent", "PoissonSampledDpEvent", "SampledWithReplacementDpEvent", "SampledWithoutReplacementDpEvent",
    "SelfComposedDpEvent", "SkellamDpEvent", "StaircaseDpEvent", "UnsupportedDpEvent",
    "VectorDiscreteGaussianDpEvent", "VectorDiscreteLaplaceDpEvent", "ZCDpEvent", "event_class",
]
