"""exactdp — exact differential privacy: samplers without floating point, certified accounting.

Every noise draw is exact (rational parameters, no float on the sampling path; the OS CSPRNG
by default) and every privacy answer is a certified Interval with exact Fraction ends.
Parameters are int, Fraction, Decimal or str ("9/4", "1e-5"), never float (use from_float
only if a float's binary value is really what you mean). The noise law is always ``law=``.

The five things most users call:
  add_noise(x, law="discrete-gaussian", sigma=...)   noise a float array / tensor, exact on a grid
  discrete_gaussian, discrete_laplace, sample(law)    the exact samplers (laws() lists every law)
  Accountant(); dp_accounting / opacus submodules     certified accounting; drop-in peer accountants
  aggregate(df, ...), release(df, columns=...)        DP tables from pandas (exactdp.dask: Dask)
  estimators.private_max / noisy_ols / dp_lasso ...   private estimators on an exact grid

Also: profile, calibrate, convert, compose, compose_events, measure_gdp (the accounting
library's calls), select (exact private selection), audit (test anyone's samples),
noise_event / noise_granularity, Interval,
SeededBits (reproducible draws for tests), events (Gaussian, DiscreteGaussian, Laplace, ...),
results (the typed results every call returns: frozen dataclasses with .to_dict()).

Submodules (imported on first use, so ``import exactdp`` pulls in neither Dask nor torch):
  exactdp.dp_accounting   Google dp_accounting's shapes: dp_event, pld.PLDAccountant,
                          rdp.RdpAccountant (floats taken at their exact binary value)
  exactdp.opacus          Opacus' accountants: RDPAccountant / PRVAccountant,
                          accountants.utils.get_noise_multiplier (certified calibration)
  exactdp.dask            release and aggregate on a Dask dataframe, one guarantee
  exactdp.federated       ClientEncoder / ServerDecoder: distributed noise with secure aggregation
  exactdp.estimators, exactdp.events

Errors: ParameterError / LimitError (ValueError subclasses naming the parameter), UsageError,
ComputationError; TypeError for a float parameter.

Read more: python/README.md (every call with examples), docs/ (AGGREGATE.md, RELEASE.md, ...),
and help() on any function.
"""

from typing import Any, List

from ._errors import ComputationError, LimitError, ParameterError, UnsupportedEventError, UsageError
from . import events
from . import estimators
from . import results
from .accountant import Accountant
from ._aggregate import aggregate
from .accounting import calibrate, compose, compose_events, convert, measure_gdp, profile
from .audit import audit
from .grid_noise import add_noise, from_float, noise_event, noise_granularity
from .interval import Interval
from .release import release
from .samplers import SeededBits, bernoulli_exp, discrete_gaussian, discrete_laplace, laws, sample
from .selection import select


_LAZY_SUBMODULES = ("dask", "dp_accounting", "federated", "opacus")


def __getattr__(name: str) -> Any:  # exactdp.dask (Dask is optional), dp_accounting, opacus: imported on first use
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'exactdp' has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))

__version__ = "0.1.0"

__all__ = [
    "Accountant", "ComputationError", "aggregate", "Interval", "LimitError", "ParameterError", "SeededBits", "UnsupportedEventError",
    "UsageError",
    "add_noise", "audit", "bernoulli_exp", "calibrate", "compose", "compose_events", "convert", "discrete_gaussian",
    "dask", "discrete_laplace", "dp_accounting", "estimators", "events", "federated", "results", "from_float", "opacus", "laws", "measure_gdp", "noise_event", "noise_granularity", "profile", "release", "sample", "select",
]
