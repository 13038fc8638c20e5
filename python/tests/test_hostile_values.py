"""Hostile values through the public calls: every refusal is a typed exactdp error naming the
parameter (or a TypeError for a wrong type), never Python's own ValueError / ZeroDivisionError
from a conversion, and never an unbounded conversion.

Python refuses str() of an int over 4,300 digits (sys.get_int_max_str_digits), so a message or a
text built with str() from a huge int raised "Exceeds the limit (4300 digits) for integer string
conversion" instead of the library's error; compose() read the user's epsilon and delta with
fractions.Fraction before the library's checks, so "1e-4000000000" built 10^4000000000."""

import subprocess
import sys
import textwrap
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import LimitError, ParameterError, federated

HUGE = 10**5000  # past Python's int-to-str limit, under the library's 10,000 digits
HUGER = 10**20000  # past the library's 10,000 digits


@pytest.mark.parametrize("size", [HUGE, (2, HUGER), (HUGE,), -HUGE], ids=["int", "pair", "tuple", "negative"])
def test_sample_size_huge_int_is_a_parameter_error(size):
    with pytest.raises(ParameterError, match=r"^size = .*an int of"):
        exactdp.discrete_gaussian(1, size=size)


def test_tau_bits_huge_int_is_a_parameter_error():
    with pytest.raises(ParameterError, match="tau_bits = an int of 5001 digits"):
        exactdp.discrete_gaussian(1, size=2, hardened=True, tau_bits=HUGE)


@pytest.mark.parametrize("call, name", [
    (lambda v: exactdp.compose(epsilon="0.1", k=v, delta="1e-6"), "k"),
    (lambda v: exactdp.profile("gaussian", sigma=1, curve=(0, 1, v)), "curve"),
    (lambda v: exactdp.calibrate("dp-sgd", q="0.01", steps=v, epsilon=2, delta="1e-5"), "steps"),
    (lambda v: exactdp.select([1, 2, 3], law="exponential", epsilon=1, sensitivity=1, top=v), "top"),
    (lambda v: exactdp.add_noise(np.zeros(3), sigma=1, threads=v), "threads"),
], ids=["compose-k", "profile-curve", "dp-sgd-steps", "select-top", "add-noise-threads"])
@pytest.mark.parametrize("value", [HUGE, HUGER], ids=["5001-digits", "20001-digits"])
def test_count_options_huge_int_name_the_option(call, name, value):
    with pytest.raises(ParameterError) as info:
        call(value)
    assert info.value.parameter == name, str(info.value)


@pytest.mark.parametrize("text, error", [("1/0", ParameterError), ("0/0", ParameterError), ("", ParameterError),
                                         ("nan", ParameterError), ("0x10", ParameterError), ("1e", ParameterError)])
@pytest.mark.parametrize("name", ["epsilon", "delta"])
def test_compose_bad_text_names_it(text, error, name):
    given = {"epsilon": "0.1", "delta": "1e-6", name: text}
    with pytest.raises(error) as info:
        exactdp.compose(k=10, **given)
    assert info.value.parameter == name


def test_compose_absurd_exponent_is_refused_before_it_is_expanded():
    # A fresh interpreter with a hang guard: before, Fraction("1e-4000000000") never came back.
    code = textwrap.dedent("""
        import exactdp
        for name in ("epsilon", "delta"):
            given = {"epsilon": "0.1", "delta": "1e-6", name: "1e-4000000000"}
            try:
                exactdp.compose(k=10, **given)
            except exactdp.LimitError as e:
                print(e.parameter)
    """)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("compose did not refuse epsilon = 1e-4000000000 within 120 s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["epsilon", "delta"]


def test_interval_with_a_huge_integer_end_has_a_repr():
    shown = repr(exactdp.Interval(Fraction(HUGE), Fraction(HUGE + 1)))
    assert shown == "Interval(~huge, ~huge)"
    assert repr(exactdp.Interval(Fraction(7), Fraction(8))) == "Interval(7, 8)"


@pytest.mark.parametrize("item", [b"gaussian:sigma=1", [1], {}, ("gaussian:sigma=1",), 3])
def test_compose_events_bad_item_is_a_type_error(item):
    with pytest.raises(TypeError, match="events: each item"):
        exactdp.compose_events([item], delta="1e-6")


def test_accountant_tolerance_has_the_cost_limit_of_compose_events():
    # 10^-300 took 12 s of CPU for ten Gaussians; compose_events refuses it, and so does Accountant.
    with pytest.raises(LimitError) as info:
        exactdp.Accountant("1e-300")
    assert info.value.parameter == "tolerance"
    with pytest.raises(LimitError):
        exactdp.compose_events(["gaussian:sigma=1"], delta="1e-6", tolerance="1e-300")
    exactdp.Accountant("1e-200")  # inside the limit (2^-700, about 10^-210)


def test_add_noise_over_the_draw_cost_is_refused_before_a_draw():
    # g = 2^-4096 makes sigma2 / g^2 a 2,485-digit number: about 16 us a draw, 4 s for 252,191 draws
    # (300,000 took 4.3 s of CPU); g = 2^4096 leaves scale / g 98,766 digits: about 9 ms a draw.
    y = np.full(300_000, 7.0)
    for given, count in (({"sigma": 10**9, "granularity": Fraction(1, 2**4096)}, "2\\^-4096 for 300000"),
                         ({"law": "discrete-laplace", "scale": "1e99999", "granularity": 2**4096}, "2\\^4096 for 300000")):
        with pytest.raises(LimitError, match=f"granularity {count} values") as info:
            exactdp.add_noise(np.zeros(300_000), out=y, **given)
        assert info.value.parameter == "granularity"
        assert (y == 7.0).all()
    exactdp.add_noise(np.zeros(2), sigma=10**9, granularity=Fraction(1, 2**4096))  # within the limit


@pytest.mark.parametrize("modular_sum", [np.full(16, 1.5), np.zeros((4, 4), dtype=np.uint64), np.array(Decimal("1e999999999")),
                                         np.array([-1] + [0] * 15)], ids=["float", "2-d", "huge-decimal", "negative"])
def test_server_decode_takes_integer_residues_only(modular_sum):
    # A float sum was truncated silently by the uint64 copy (1.5 -> 1); a huge Decimal never came back.
    decoder = federated.ServerDecoder(10, clip=1, rotation_seed=b"\1" * 32, sigma2="1/100", clients=10)
    with pytest.raises(ParameterError) as info:
        decoder.decode(modular_sum)
    assert info.value.parameter == "modular_sum"
    decoder.decode(np.zeros(16, dtype=np.uint64))
    decoder.decode([0] * 16)


@pytest.mark.parametrize("shape", [(10**12,), (10**6, 10**6), (10**8,)], ids=["1e12", "1e6x1e6", "1e8"])
def test_add_noise_refuses_a_huge_broadcast_view_before_copying_it(shape):
    # np.ascontiguousarray of 10^12 zeros broadcast from one asked numpy for 7.3 TiB (MemoryError,
    # or the machine's memory); 10^8 took 1.5 GB for the copy and the result.
    x = np.broadcast_to(np.zeros(1), shape)
    with pytest.raises(LimitError, match="elements overlap") as info:
        exactdp.add_noise(x, sigma=1)
    assert info.value.parameter == "x"
    assert exactdp.add_noise(np.broadcast_to(np.zeros(1), (1000,)), sigma=1).shape == (1000,)  # small: copied


def test_add_noise_refuses_an_out_whose_elements_share_memory():
    # Ten noisy values written into one cell kept the last: out read ten equal values.
    cell = np.zeros(1)
    out = np.lib.stride_tricks.as_strided(cell, shape=(10,), strides=(0,))
    with pytest.raises(ParameterError, match="share memory") as info:
        exactdp.add_noise(np.zeros(10), sigma=1, out=out)
    assert info.value.parameter == "out"
    assert cell[0] == 0.0
    strided = np.zeros(30)[::3]  # non-contiguous, distinct elements: accepted
    exactdp.add_noise(np.zeros(10), sigma=1, out=strided)


@pytest.mark.parametrize("call, name", [
    (lambda v: exactdp.dp_accounting.pld.PLDAccountant().compose(exactdp.dp_accounting.dp_event.GaussianDpEvent(1), v),
     "count"),
    (lambda v: exactdp.Accountant().compose(exactdp.events.Gaussian(sigma=1), count=v), "count"),
    (lambda v: exactdp.compose_events(["gaussian:sigma=1"], delta="1e-6", digits=v), "digits"),
    (lambda v: exactdp.noise_event(dim=8, sigma=1, sample_rate=Fraction(v, 3)), "q"),
    (lambda v: federated.ClientEncoder(v, clip=1, rotation_seed=b"\1" * 32, sigma2=1), "dimension"),
    (lambda v: federated.ClientEncoder(4, clip=1, rotation_seed=b"\1" * 32, sigma2=1, bits=v), "bits"),
    (lambda v: federated.ClientEncoder(4, clip=1, rotation_seed=b"\1" * 32, sigma2=1, clients=v), "clients"),
    (lambda v: federated.ClientEncoder(4, clip=1, rotation_seed=b"\1" * 32, sigma2=1, granularity=v), "granularity"),
    (lambda v: exactdp.compose(v, epsilon="0.1", k=10, delta="1e-6"), "kind"),
    (lambda v: exactdp.calibrate(v, epsilon=1, delta="1e-6"), "law"),
], ids=["pld-count", "accountant-count", "compose-events-digits", "noise-event-q", "fl-dimension", "fl-bits",
        "fl-clients", "fl-granularity", "compose-kind", "calibrate-law"])
def test_range_messages_show_a_huge_int_by_its_digits(call, name):
    with pytest.raises(ParameterError) as info:
        call(HUGE)
    assert info.value.parameter == name, str(info.value)
