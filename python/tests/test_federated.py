"""exactdp.federated: ClientEncoder / ServerDecoder of a federated round with secure aggregation.

The seeded end-to-end check states its tolerance from the noise's variance; the refusals name
their parameter and leave nothing behind.
"""

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import exactdp
from exactdp import events
from exactdp.events import Event
from exactdp.federated import ClientEncoder, ServerDecoder, new_rotation_seed

ROTATION = bytes(range(32))


def params(**changes):
    p = dict(clip=1, rotation_seed=ROTATION, bits=24, clients=40, sigma2="1/1000")
    p.update(changes)
    return p


def test_seeded_round_decodes_the_mean_within_the_noise():
    d, n = 50, 40
    enc, dec = ClientEncoder(d, **params()), ServerDecoder(d, **params())
    assert enc.padded_dimension == dec.padded_dimension == 64
    rng = exactdp.SeededBits("7b" * 32)
    gen = np.random.default_rng(1)
    updates = [gen.uniform(-0.1, 0.1, d) for _ in range(n)]  # norm < 1: no clipping
    total = dec.aggregate(enc.encode(u, rng=rng) for u in updates)
    mean = dec.decode(total) / n
    error = mean - np.mean(updates, axis=0)
    # Per coordinate: variance sigma2 / n = 2.5e-5 (plus the rounding, below 2^-22 / n). The mean
    # square over 50 coordinates lies within [1/3, 3] of it except with negligible probability
    # (its ratio is about chi^2_50 / 50: P(< 1/3) = 2.4e-6, P(> 3) = 6e-12, so a false alarm
    # below 3e-6 for a fresh seed; the seeds are fixed), and a decoder that lost the noise (or
    # the signal) fails.
    assert 2.5e-5 / 3 < float(np.mean(error ** 2)) < 3 * 2.5e-5
    assert enc.last_attempts >= 1


def test_float32_updates_and_float32_output():
    enc, dec = ClientEncoder(7, **params(clients=1)), ServerDecoder(7, **params(clients=1))
    x = np.full(7, 0.125, dtype=np.float32)
    out = dec.decode(enc.encode(x, rng=exactdp.SeededBits("11" * 32)), dtype=np.float32)
    assert out.dtype == np.float32 and np.all(np.abs(out - x) < 0.2)


def test_non_finite_update_is_refused_naming_the_index():
    enc = ClientEncoder(5, **params())
    x = np.zeros(5)
    x[3] = np.nan
    with pytest.raises(exactdp.ParameterError, match=r"x\[3\] is NaN") as e:
        enc.encode(x)
    assert e.value.parameter == "x"
    x[3] = -np.inf
    with pytest.raises(exactdp.ParameterError, match=r"x\[3\] is inf"):
        enc.encode(x)


@pytest.mark.parametrize("change, parameter", [
    (dict(bits=7), "bits"), (dict(bits=63), "bits"), (dict(clip=0), "c"), (dict(clip="-1"), "c"),
    (dict(clients=0), "clients"), (dict(dropout=1), "dropout"), (dict(dropout="-1/10"), "dropout"),
    (dict(sigma2=0), "sigma2"), (dict(beta="3/4"), "beta"), (dict(bits=12), "bits"),
])
def test_bad_parameters_are_refused_naming_them(change, parameter):
    with pytest.raises(exactdp.ParameterError) as e:
        ServerDecoder(10, **params(**change))
    assert e.value.parameter == parameter, str(e.value)


def test_modulus_too_small_states_the_wrap_probability():
    with pytest.raises(exactdp.ParameterError, match="wrap-around probability bound is") as e:
        ServerDecoder(10, **params(bits=12, sigma2=1, clip="1/16"))
    assert e.value.parameter == "bits"
    dec = ServerDecoder(10, **params(bits=14, sigma2=1, clip="1/16"))
    assert Decimal(dec.wrap_probability) <= Decimal("1e-6")  # Decimal: the exponent may be huge


def test_floats_are_refused_as_parameters():
    with pytest.raises(TypeError):
        ServerDecoder(10, **params(clip=0.5))


def test_the_round_event_composes_into_an_accountant():
    dec = ServerDecoder(100, **params(sigma2="1/100", clients=100, dropout="1/10"))
    event = dec.event()
    assert event.law == "distributed-discrete-gaussian"
    acc = dec.record(exactdp.Accountant(), rounds=10)
    eps = acc.get_epsilon("1e-5")
    assert 0 < eps.upper < 100


def sensitivity_of(dec):
    """sqrt(norm_bound) rounded up to 2^-10 (the report's L2 bound), computed here on integers."""
    root = math.isqrt(dec.norm_bound << 20)
    root += root * root != dec.norm_bound << 20
    return Fraction(root, 1024)


def test_the_round_event_is_the_law_class_at_the_rounds_values():
    dec = ServerDecoder(100, **params(sigma2="1/100", clients=100, dropout="1/10"))
    event = dec.event()
    assert isinstance(event, events.DistributedDiscreteGaussian)
    sigma2 = Fraction(1, 100) * 4 ** dec.granularity_exponent   # one share's variance on the lattice
    want = events.DistributedDiscreteGaussian(sigma2=sigma2, clients=100, dropout=Fraction(1, 10),
                                              sensitivity=sensitivity_of(dec), dim=dec.padded_dimension)
    assert event == want, (event.text, want.text)
    # the C face's text (exactdp_fl_report) states the same event
    law, _, rest = dec._plan.event.partition(":")
    assert Event.of_law(law, **dict(item.split("=", 1) for item in rest.split(","))) == event


def test_skellam_shares_have_the_skellam_laws_vector_event():
    dec = ServerDecoder(10, **{**params(), "sigma2": None, "mu": "1/1000", "clients": 40, "dropout": "1/8"})
    assert Decimal(dec.wrap_probability) < Decimal("1e-6")
    # m = 40 - floor(40 / 8) = 35 surviving shares of Sk(mu / g^2); L2: sqrt(norm_bound) rounded
    # up to 2^-10; dim: the padded dimension
    mu = Fraction(1, 1000) * 4 ** dec.granularity_exponent * 35
    law_event = Event.of_law("skellam", mu=mu, sensitivity=sensitivity_of(dec), dim=dec.padded_dimension)
    event = dec.event()
    assert isinstance(event, events.Skellam)
    assert event.text == law_event.text
    ours = dec.record(exactdp.Accountant(), rounds=10).get_epsilon("1e-5")
    theirs = exactdp.Accountant().compose(law_event, 10).get_epsilon("1e-5")
    assert (ours.lower, ours.upper) == (theirs.lower, theirs.upper)
    with pytest.raises(exactdp.ParameterError) as e:
        ServerDecoder(10, **{**params(), "sigma2": None, "mu": "1/1000", "hardened": True})
    assert e.value.parameter == "hardened"


def test_aggregate_refuses_a_residue_over_the_modulus():
    dec = ServerDecoder(3, **params())
    bad = np.zeros(dec.padded_dimension, dtype=np.uint64)
    bad[1] = 1 << 24
    with pytest.raises(exactdp.ParameterError):
        dec.aggregate([bad])
    with pytest.raises(exactdp.ParameterError, match=r"sum\[1\] = 16777216 is not below the modulus 2\^24"):
        dec.decode(bad)


def test_uint32_residues_aggregate_and_decode_as_uint64_ones():
    d, n = 20, 5
    enc, dec = ClientEncoder(d, **params(clients=n)), ServerDecoder(d, **params(clients=n))
    rng = exactdp.SeededBits("3c" * 32)
    wide = [enc.encode(np.linspace(-0.2, 0.2, d) * (i + 1), rng=rng) for i in range(n)]
    narrow = [w.astype(np.uint32) for w in wide]      # what the C clients' _u32 entry points write
    total = dec.aggregate(wide)
    assert np.array_equal(dec.aggregate(narrow), total)
    total32 = total.astype(np.uint32)
    kept = total32.copy()
    for dtype in (np.float64, np.float32):
        assert np.array_equal(dec.decode(total32, dtype=dtype), dec.decode(total, dtype=dtype))
    assert np.array_equal(total32, kept)                 # read, not used as the workspace
    assert np.any(total32 >= 1 << 23)                    # negative values: the centred representative
    bad = total32.copy()
    bad[2] = 1 << 24
    with pytest.raises(exactdp.ParameterError, match=r"^sum\[2\] = 16777216 is not below the modulus 2\^24$"):
        dec.decode(bad)
    wide_dec = ServerDecoder(d, **params(clients=n, bits=40))
    with pytest.raises(exactdp.ParameterError, match=r"bits = 40 does not fit uint32_t") as e:
        wide_dec.decode(np.zeros(wide_dec.padded_dimension, dtype=np.uint32))
    assert e.value.parameter == "bits"
    with pytest.raises(exactdp.ParameterError, match="uint64 array") as e:
        wide_dec.aggregate([np.zeros(wide_dec.padded_dimension, dtype=np.uint32)])
    assert e.value.parameter == "encodings"


def test_hardened_delta_charges_the_runs_tau():
    dec = ServerDecoder(100, **params(sigma2="1/100", clients=100))
    per_round = float(dec.hardened_tau)                  # n D tau, rounded up to 6 digits
    assert 0 < per_round < 1e-15
    for eps, rounds in ((1, 1), (10, 60), (30, 1000)):
        charged = dec.hardened_delta(eps, "1e-5", rounds)
        charge = (1 + math.exp(eps)) * rounds * per_round  # accounting/hardened_charge.h's theorem
        added = float(charged.upper - Fraction(1, 10**5))  # exact difference, then a float
        assert charged.lower <= charged.upper
        assert charge * (1 - 1e-5) <= added <= charge * (1 + 1e-9), (eps, rounds)
    # at epsilon 30 over 1000 rounds the charge dominates delta
    assert dec.hardened_delta(30, "1e-5", 1000).upper > Fraction(1, 10**4)
    plain = ServerDecoder(100, **params(sigma2="1/100", clients=100, hardened=False))
    assert plain.hardened_delta(30, "1e-5", 1000).upper - Fraction(1, 10**5) < Fraction(1, 10**30)
    for change, parameter in ((dict(epsilon=-1), "epsilon"), (dict(epsilon=10**7), "epsilon"),
                              (dict(delta=2), "delta"), (dict(rounds=0), "rounds")):
        given = dict(dict(epsilon=1, delta="1e-5", rounds=1), **change)
        with pytest.raises(exactdp.ParameterError) as e:
            dec.hardened_delta(**given)
        assert e.value.parameter == parameter, str(e.value)


def test_new_rotation_seed_is_32_bytes():
    assert len(new_rotation_seed()) == 32
    with pytest.raises(exactdp.ParameterError):
        ServerDecoder(3, **params(rotation_seed=b"short"))
