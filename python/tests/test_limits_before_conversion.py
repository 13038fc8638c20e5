"""Every user value is checked against the library's limits BEFORE it is expanded or a noise is
drawn, and every refusal is a typed exactdp error naming the parameter: absurd exponents and
digit counts (Decimal, str, Fraction, int), Python's own int-to-str digit limit, a read-only
``out=``, frames that are not DataFrames or have duplicate labels, deeply nested events, and the
discrete Gaussian calibrations at tiny epsilon and delta (which must answer or refuse quickly).

The cases that used to hang run in a subprocess with a 300-second timeout (a hang guard, not a speed test: they answer in about a second), so a regression is a
clear test failure rather than a stuck job."""

import decimal
import fractions
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import exactdp
from exactdp import LimitError, ParameterError
from exactdp._convert import MAX_DIGITS, MAX_EXPONENT, exact_fraction
from exactdp.dp_events import MAX_EVENT_DEPTH, ComposedDpEvent, GaussianDpEvent, SelfComposedDpEvent

pd = pytest.importorskip("pandas")

SEED = "11" * 32


def run_quickly(code: str) -> str:
    """Runs `code` in a fresh interpreter with a 300 s hang guard; returns what it printed."""
    try:
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                              timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("the call did not come back within 20 seconds (an unbounded conversion or search)")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def refused_in_subprocess(call: str) -> str:
    """The exception type and parameter a call raises, from a fresh interpreter."""
    return run_quickly(f"""
        import decimal, fractions, numpy as np, pandas as pd, exactdp
        try:
            {call}
            print("answered")
        except Exception as e:
            print(type(e).__name__, getattr(e, "parameter", ""))
    """)


# ---- absurd exponents and digit counts, refused before expansion ----------------------------

def test_decimal_granularity_with_a_huge_exponent_is_refused_at_once():
    call = "exactdp.add_noise(np.zeros(3), sigma=1, granularity=decimal.Decimal('1e-999999999'))"
    assert refused_in_subprocess(call) == "LimitError granularity"


def test_text_quantile_with_a_huge_exponent_is_refused_at_once():
    call = ("exactdp.aggregate(pd.DataFrame({'u': [1, 2], 'g': ['a', 'b'], 'v': [1, 2]}), privacy_unit='u', "
            "group_by='g', quantile={'v': (0, 10, ['1e-999999999'])}, epsilon=1, keys=['a', 'b'])")
    assert refused_in_subprocess(call) == "LimitError quantile"


def test_exact_fraction_refuses_over_the_limits():
    out = run_quickly("""
        import decimal, fractions
        from exactdp import LimitError
        from exactdp._convert import exact_fraction
        for value in [decimal.Decimal("1e-999999999"), "1e999999999", 10**20000, fractions.Fraction(1, 10**20000),
                      "1" * 10001, decimal.Decimal("1e-100001")]:
            try:
                exact_fraction("epsilon", value)
                print("accepted")
            except LimitError as e:
                print(e.parameter)
    """)
    assert out.split() == ["epsilon"] * 6


def test_granularity_1e_5000_is_a_parameter_error_not_a_digit_limit_value_error():
    with pytest.raises(ParameterError) as e:
        exactdp.add_noise(np.zeros(3), sigma=1, granularity="1e-5000")
    assert e.value.parameter == "granularity"


def test_parameters_over_pythons_int_to_str_limit_are_accepted():
    # 5,000 digits: over sys.get_int_max_str_digits() (4,300) but within the library's 10,000.
    assert exactdp.calibrate("discrete-laplace", epsilon=fractions.Fraction(1, 10**5000)).upper > 0


def test_private_max_at_a_tiny_epsilon_answers_or_names_epsilon():
    out = refused_in_subprocess("exactdp.estimators.private_max(np.array([1.0, 5.0, 2.0]), epsilon='1e-100000', sensitivity=1)")
    assert out in ("answered", "LimitError epsilon", "ParameterError epsilon")


def test_sparse_mean_at_a_tiny_epsilon_answers_or_names_epsilon():
    out = refused_in_subprocess("exactdp.estimators.sparse_mean(np.ones((20, 4)), sparsity=1, radius=1, epsilon='1e-100000')")
    assert out in ("answered", "LimitError epsilon", "ParameterError epsilon")


def test_an_aggregate_value_of_20000_digits_is_refused_naming_its_column():
    df = pd.DataFrame({"u": [1, 2], "g": ["a", "b"], "v": pd.Series([10**20000, 1], dtype=object)})
    with pytest.raises(LimitError) as e:
        exactdp.aggregate(df, privacy_unit="u", group_by="g", sum={"v": (0, 10)}, epsilon=1, keys=["a", "b"])
    assert e.value.parameter == "v"


def test_a_release_value_of_20000_digits_is_refused_before_the_draw():
    df = pd.DataFrame({"v": pd.Series([10**20000, 1], dtype=object)})
    with pytest.raises(LimitError) as e:
        exactdp.release(df, columns=["v"], mechanism="discrete-laplace", epsilon=1)
    assert e.value.parameter == "values"


# ---- checks before the draw: out=, frames, events --------------------------------------------

def test_a_read_only_out_is_refused_before_the_noise_is_drawn():
    x = np.zeros(4)
    out = np.zeros(4)
    out.flags.writeable = False
    rng = exactdp.SeededBits(SEED)
    with pytest.raises(ParameterError) as e:
        exactdp.add_noise(x, sigma=1, out=out, rng=rng)
    assert e.value.parameter == "out"
    # nothing was drawn: the source gives what a fresh one gives
    fresh = exactdp.add_noise(x, sigma=1, rng=exactdp.SeededBits(SEED))
    assert np.array_equal(exactdp.add_noise(x, sigma=1, rng=rng), fresh)


@pytest.mark.parametrize("frame", [{"u": [1], "g": ["a"]}, [[1, "a"]]])
def test_an_aggregate_of_something_not_a_dataframe_names_df(frame):
    with pytest.raises(ParameterError) as e:
        exactdp.aggregate(frame, privacy_unit="u", group_by="g", count=True, epsilon=1, keys=["a"])
    assert e.value.parameter == "df"


def test_duplicate_column_labels_name_the_frame():
    df = pd.DataFrame([[1, "a", 3]], columns=["u", "g", "g"])
    with pytest.raises(ParameterError) as e:
        exactdp.aggregate(df, privacy_unit="u", group_by="g", count=True, epsilon=1, keys=["a"])
    assert e.value.parameter == "df"
    keys = pd.DataFrame([["a", "a"]], columns=["g", "g"])
    with pytest.raises(ParameterError) as e:
        exactdp.aggregate(pd.DataFrame({"u": [1], "g": ["a"]}), privacy_unit="u", group_by="g", count=True,
                          epsilon=1, keys=keys)
    assert e.value.parameter == "keys"


@pytest.mark.parametrize("frame", [{"v": [1, 2]}, [[1, 2]]])
def test_a_release_of_something_not_a_dataframe_names_df(frame):
    with pytest.raises(ParameterError) as e:
        exactdp.release(frame, columns=["v"], mechanism="discrete-laplace", epsilon=1)
    assert e.value.parameter == "df"


def test_events_nested_too_deep_are_refused_not_a_recursion_error():
    event = GaussianDpEvent(noise_multiplier=1)
    for _ in range(MAX_EVENT_DEPTH - 1):
        event = ComposedDpEvent([event])
    assert repr(event) and event == event  # the deepest allowed still walks
    with pytest.raises(ParameterError) as e:
        ComposedDpEvent([event])
    assert e.value.parameter == "events"
    with pytest.raises(ParameterError) as e:
        SelfComposedDpEvent(event, 2)
    assert e.value.parameter == "event"


def test_events_nested_5000_deep_are_refused_at_the_limit():
    event = GaussianDpEvent(noise_multiplier=1)
    with pytest.raises(ParameterError):
        for _ in range(5000):
            event = ComposedDpEvent([event])


# ---- the discrete Gaussian calibrations at tiny epsilon and delta -----------------------------

@pytest.mark.parametrize("epsilon,delta", [("1e-1000", "1e-1000"), ("1e-3000", "1e-3000"), ("1e-700", "1e-1000")])
def test_release_through_zcdp_refuses_tiny_targets_naming_epsilon(epsilon, delta):
    call = (f"exactdp.release(pd.DataFrame({{'v': [1, 2]}}), columns=['v'], epsilon='{epsilon}', delta='{delta}', "
            "contributions=2)")
    assert refused_in_subprocess(call) == "LimitError epsilon"


def test_aggregate_with_the_discrete_gaussian_refuses_tiny_targets_naming_epsilon():
    call = ("exactdp.aggregate(pd.DataFrame({'u': [1, 2], 'g': ['a', 'b']}), privacy_unit='u', group_by='g', "
            "count=True, epsilon='1e-1000', delta='1e-1000', mechanism='discrete-gaussian', keys=['a', 'b'])")
    assert refused_in_subprocess(call) == "LimitError epsilon"


@pytest.mark.parametrize("epsilon,delta", [("1e-500", "1e-500"), ("1e-500", "1e-1000"), ("1e-1000", "1e-6")])
def test_release_through_zcdp_serves_the_neighbours(epsilon, delta):
    call = (f"exactdp.release(pd.DataFrame({{'v': [1, 2]}}), columns=['v'], epsilon='{epsilon}', delta='{delta}', "
            "contributions=2, rng=exactdp.SeededBits('11' * 32))")
    assert refused_in_subprocess(call) == "answered"


@pytest.mark.parametrize("epsilon,delta", [("1e-1000", "1e-1000"), ("1e-500", "1e-1000"), ("1e-3000", "1e-3000"),
                                           ("1e-1000", "1e-6")])
def test_the_exact_profile_calibration_answers_tiny_targets(epsilon, delta):
    out = run_quickly(f"""
        import exactdp
        print(exactdp.calibrate("discrete-gaussian", epsilon="{epsilon}", delta="{delta}").upper > 0)
    """)
    assert out == "True"


# ---- random exponents and digit counts --------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(digits=st.integers(1, MAX_DIGITS + 50), exponent=st.integers(-10**12, 10**12) | st.integers(-MAX_EXPONENT - 5, MAX_EXPONENT + 5),
       form=st.sampled_from(["str", "decimal"]))
def test_exact_fraction_checks_limits_before_building(digits, exponent, form):
    text = "7" * min(digits, 3) + "0" * (digits - min(digits, 3)) + f"e{exponent}"
    value = text if form == "str" else decimal.Decimal(text)
    if digits > MAX_DIGITS or abs(exponent) > MAX_EXPONENT:
        with pytest.raises(LimitError):
            exact_fraction("x", value)
    else:
        q = exact_fraction("x", value)
        mantissa = int("7" * min(digits, 3)) * 10 ** (digits - min(digits, 3))
        assert q == (mantissa * fractions.Fraction(10) ** exponent)
