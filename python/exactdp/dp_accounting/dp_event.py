"""dp_accounting.dp_event's layout: the event classes of exactdp.dp_events (re-exported; floats
are taken at their exact binary value, see exactdp.dp_accounting)."""

from ..dp_events import (
    ComposedDpEvent, DiscreteGaussianDpEvent, DiscreteLaplaceDpEvent, DpEvent, EpsilonDeltaDpEvent, GaussianDpEvent,
    LaplaceDpEvent, LawDpEvent, NoOpDpEvent, NonPrivateDpEvent, PoissonSampledDpEvent, SampledWithReplacementDpEvent,
    SampledWithoutReplacementDpEvent, SelfComposedDpEvent, StaircaseDpEvent, UnsupportedDpEvent, ZCDpEvent)

__all__ = [
    "ComposedDpEvent", "DiscreteGaussianDpEvent", "DiscreteLaplaceDpEvent", "DpEvent", "EpsilonDeltaDpEvent",
    "GaussianDpEvent", "LaplaceDpEvent", "LawDpEvent", "NoOpDpEvent", "NonPrivateDpEvent", "PoissonSampledDpEvent",
    "SampledWithReplacementDpEvent", "SampledWithoutReplacementDpEvent", "SelfComposedDpEvent", "StaircaseDpEvent",
    "UnsupportedDpEvent", "ZCDpEvent",
]
