"""The public surface in one shape: the noise law is ``law=`` everywhere (``mechanism=`` a
deprecated alias), submodules visible and lazy, a one-screen overview, a float refusal that
says what to do."""

import inspect
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from fractions import Fraction

import exactdp
import exactdp.dask
from exactdp.dp_events import exact_number

# Every public function whose noise law was once ``mechanism=``: (function, call that works).
LAW_CALLS = [
    (exactdp.profile, dict(sigma="1", epsilon="1"), "gaussian"),
    (exactdp.calibrate, dict(epsilon="1/2", sensitivity=3), "discrete-laplace"),
    (exactdp.measure_gdp, dict(epsilon="1"), "pure-dp"),
    (exactdp.dask.calibrate, dict(epsilon="1", delta=None, sensitivity=1), "discrete-laplace"),
]
# Functions that take a DataFrame: checked by signature and by the both-given refusal.
FRAME_FUNCTIONS = [exactdp.release, exactdp.aggregate, exactdp.dask.release, exactdp.dask.aggregate]


@pytest.mark.parametrize("function", [f for f, _, _ in LAW_CALLS] + FRAME_FUNCTIONS)
def test_law_is_the_keyword_in_the_signature(function):
    parameters = inspect.signature(function).parameters
    assert "law" in parameters and "mechanism" not in parameters
    assert re.search(r"\blaw\b", function.__doc__ or ""), f"{function.__qualname__}'s docstring names law"


@pytest.mark.parametrize("function, options, law", LAW_CALLS)
def test_mechanism_is_a_deprecated_alias_of_law(function, options, law):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = function(law=law, **options)
    with pytest.warns(DeprecationWarning, match="law="):
        old = function(mechanism=law, **options)
    assert old == expected


@pytest.mark.parametrize("function", [f for f, _, _ in LAW_CALLS] + FRAME_FUNCTIONS)
def test_law_and_mechanism_together_are_refused_naming_law(function):
    args = (None,) if function in FRAME_FUNCTIONS else ()
    with pytest.raises(exactdp.ParameterError, match="law") as e:
        function(*args, law="discrete-laplace", mechanism="discrete-laplace")
    assert e.value.parameter == "law"


def _public_functions_with_a_law():
    import importlib
    import pkgutil
    modules = [exactdp] + [importlib.import_module(m.name) for m in pkgutil.walk_packages(exactdp.__path__, "exactdp.")
                           if not m.name.rsplit(".", 1)[-1].startswith("_")]
    found = {}
    for module in modules:
        for name in dir(module):
            f = getattr(module, name)
            if not name.startswith("_") and inspect.isfunction(f) and "law" in inspect.signature(f).parameters:
                found[f"{getattr(f, '__module__', '')}.{f.__qualname__}"] = f
    return found


def test_every_public_function_with_a_law_takes_mechanism_as_its_deprecated_alias():
    lookups = {"exactdp.events.event_class", "exactdp.dp_events.event_class", "exactdp.audit.law_name"}
    functions = _public_functions_with_a_law()
    assert {"exactdp.samplers.sample", "exactdp.grid_noise.add_noise", "exactdp.audit.audit"} <= set(functions)
    unwrapped = [name for name, f in functions.items() if name not in lookups and not hasattr(f, "__wrapped__")]
    assert unwrapped == []   # each decorated with law_keyword (mechanism= warns, both given refused)


def test_mechanism_warns_in_the_sampling_and_noise_functions():
    seed = bytes(range(32))
    calls = [
        (exactdp.sample, dict(sigma2=2, size=5)),
        (exactdp.noise_granularity, dict(sigma="1.1")),
        (exactdp.noise_event, dict(dim=4, sigma="1.1", sensitivity=1)),
        (exactdp.add_noise, dict(x=np.zeros(4), sigma="1.1")),
    ]
    for function, options in calls:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            new = function(law="discrete-gaussian", rng=exactdp.SeededBits(seed), **options) \
                if function in (exactdp.sample, exactdp.add_noise) else function(law="discrete-gaussian", **options)
        with pytest.warns(DeprecationWarning, match="law="):
            old = function(mechanism="discrete-gaussian", rng=exactdp.SeededBits(seed), **options) \
                if function in (exactdp.sample, exactdp.add_noise) else function(mechanism="discrete-gaussian", **options)
        assert np.array_equal(old, new) if isinstance(new, np.ndarray) else old == new, function.__name__


def test_law_given_positionally_and_mechanism_by_name_are_refused():
    with pytest.raises(exactdp.ParameterError, match="law"):
        exactdp.profile("gaussian", mechanism="gaussian", sigma="1", epsilon="1")


def test_dir_lists_the_public_submodules():
    listed = dir(exactdp)
    for name in ("dask", "dp_accounting", "opacus", "estimators", "events"):
        assert name in listed and name in exactdp.__all__
    assert all(hasattr(exactdp, name) for name in exactdp.__all__)


def test_the_overview_fits_one_screen_and_names_the_main_calls():
    first = "\n".join(exactdp.__doc__.splitlines()[:40])
    for name in ("add_noise", "Accountant", "estimators", "dp_accounting", "opacus", "aggregate", "release",
                 "discrete_gaussian", "README"):
        assert name in first, name


def test_import_exactdp_pulls_in_neither_dask_nor_torch():
    code = "import sys, exactdp; print(sorted(m for m in ('dask', 'torch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("value, typed, exact", [
    (0.1, "0.1", "3602879701896397/2^55"),
    (1e-5, "1e-05", "5902958103587057/2^69"),
    (np.float32(0.1), "0.1", "13421773/2^27"),
])
@pytest.mark.parametrize("call", [
    lambda v: exactdp.discrete_gaussian(v),                    # _convert.exact_text
    lambda v: exactdp.add_noise(np.zeros(2), sigma=v),         # grid_noise
    lambda v: exactdp.profile("gaussian", sigma=v, epsilon="1"),  # accounting
    lambda v: exact_number("sigma", v),                            # dp_events
])
def test_the_float_refusal_echoes_the_value_and_names_the_ways_out(call, value, typed, exact):
    with pytest.raises(TypeError) as e:
        call(value)
    message = str(e.value)
    assert f"= {typed}:" in message and f"'{typed}'" in message
    assert "not the number that was typed" in message and f"exact binary value is {exact}" in message
    assert "decimal.Decimal" in message and "fractions.Fraction" in message
    assert f"exactdp.from_float({typed})" in message
    assert exactdp.from_float(value) == Fraction(*value.as_integer_ratio())


def test_a_non_finite_float_is_refused_without_a_misleading_way_out():
    with pytest.raises(TypeError, match="inf is not a finite number") as e:
        exactdp.discrete_gaussian(float("inf"))
    assert "from_float" not in str(e.value)
