"""exactdp — exact differential-privacy samplers and certified privacy accounting.

Samplers (exact, no floating point; OS CSPRNG by default, ``rng=SeededBits(seed)`` to
reproduce ``exactdp sample --seed HEX``):
    discrete_gaussian(sigma2, size=None, mean=0, rng=None, hardened=False)
    discrete_laplace(scale, size=None, mean=0, rng=None, hardened=False)
    bernoulli_exp(gamma, size=None, rng=None)
    sample(law, size=None, rng=None, hardened=False, tau_bits=None, **parameters): any law of
        laws() (the library's registry), e.g. sample("staircase", gamma=1, sensitivity=3, size=10)
Accounting (certified intervals with exact Fraction ends; the accounting library's calls):
    profile, calibrate, convert, compose, compose_events (DP-SGD: rdp and pld routes), measure_gdp,
    Interval,
    Accountant with events.Gaussian / DiscreteGaussian / Laplace / DiscreteLaplace / PureDP / ZCDP / GDP
Noise for float arrays (numpy float64/float32, CPU torch tensors), exact on a power-of-two grid:
    add_noise(x, law="discrete-gaussian", sigma=..., granularity=None, hardened=False, rng=None,
        threads=None, out=None), noise_granularity(...), from_float(x) -> exact Fraction
Drop-in accountants in the shapes and layouts DP code already calls (no import of those packages;
floats taken at their exact binary value; answers are floats rounded up, the Interval as .interval):
    exactdp.dp_accounting: dp_event (GaussianDpEvent, PoissonSampledDpEvent, ...), pld.PLDAccountant,
        rdp.RdpAccountant, Accountant(route="auto")
    exactdp.opacus: accountants.RDPAccountant / PRVAccountant (step / get_epsilon / state_dict),
        accountants.utils.get_noise_multiplier (certified dp-sgd calibration)
Releases from raw records (``exactdp aggregate``; docs/AGGREGATE.md):
    aggregate(df, privacy_unit=..., group_by=..., count=True, sum={col: (L, U)}, mean=..., epsilon=...,
        delta=None, max_groups=1, max_rows=1, mechanism="discrete-laplace", split=None, keys=None,
        rng=None) -> (table, guarantee); exactdp.dask.aggregate on a Dask dataframe
A table release (pandas DataFrame; the library behind ``exactdp release``, per-column
sensitivity and grid, certified guarantee): release(df, columns=[...], epsilon=..., delta=...,
    mechanism=..., sensitivity=1 | {col: s}, granularity=None | {col: G}, contributions=1, rng=None)
    -> (DataFrame, guarantee); exactdp.dask.release does the same on a Dask dataframe
Audit of anyone's samples: audit(samples, law="discrete-gaussian", sigma2="9/4")
Errors: ParameterError and LimitError (ValueError subclasses naming the parameter),
UsageError (an option that does not exist or apply), ComputationError (a RuntimeError: the
library could not finish a computation); TypeError for a float parameter.
Parameters are int, fractions.Fraction, decimal.Decimal or str ("9/4", "1e-5"), never float
(except in the two drop-in adapters above).
"""

from ._errors import ComputationError, LimitError, ParameterError, UnsupportedEventError, UsageError
from . import events
from . import estimators
from .accountant import Accountant
from ._aggregate import aggregate
from .accounting import calibrate, compose, compose_events, convert, measure_gdp, profile
from .audit import audit
from .grid_noise import add_noise, from_float, noise_event, noise_granularity
from .interval import Interval
from .release import release
from .samplers import SeededBits, bernoulli_exp, discrete_gaussian, discrete_laplace, laws, sample


def __getattr__(name):  # exactdp.dask (Dask is optional), dp_accounting, opacus: imported on first use
    if name in ("dask", "dp_accounting", "opacus"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(name)

__version__ = "0.1.0"

__all__ = [
    "Accountant", "ComputationError", "aggregate", "Interval", "LimitError", "ParameterError", "SeededBits", "UnsupportedEventError",
    "UsageError",
    "add_noise", "audit", "bernoulli_exp", "calibrate", "compose", "compose_events", "convert", "discrete_gaussian",
    "discrete_laplace", "events", "from_float", "laws", "measure_gdp", "noise_event", "noise_granularity", "profile", "release", "sample",
]
