"""Samplers: the CLI's draws for the same seed, return types, the exact law (chi-square with a
stated false-alarm probability, and a broken parameter that must fail), threads."""

import math
import threading
from fractions import Fraction

import numpy as np
import pytest

import exactdp

SEED_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


@pytest.mark.parametrize("law, option, value, extra, call", [
    ("discrete-gaussian", "--sigma2", "9/4", [], lambda rng: exactdp.discrete_gaussian("9/4", size=2000, rng=rng)),
    ("discrete-gaussian", "--sigma2", "1e6", ["--mean", "-7"],
     lambda rng: exactdp.discrete_gaussian("1e6", size=2000, mean=-7, rng=rng)),
    ("discrete-laplace", "--scale", "3/2", [], lambda rng: exactdp.discrete_laplace(Fraction(3, 2), size=2000, rng=rng)),
    ("bernoulli-exp", "--gamma", "1/3", [], lambda rng: exactdp.bernoulli_exp("1/3", size=2000, rng=rng)),
    ("discrete-gaussian", "--sigma2", "9/4", ["--hardened"],
     lambda rng: exactdp.discrete_gaussian("9/4", size=500, rng=rng, hardened=True)),
])
def test_seeded_draws_equal_the_cli(cli, law, option, value, extra, call):
    python_values = call(exactdp.SeededBits(bytes.fromhex(SEED_HEX))).tolist()
    cli_values = [int(line) for line in
                  cli("sample", law, option, value, *extra, "-n", len(python_values), "--seed", SEED_HEX).split()]
    assert python_values == cli_values


def test_hex_seed_and_bytes_seed_agree_and_streams_continue():
    a = exactdp.SeededBits(SEED_HEX)
    b = exactdp.SeededBits(bytes.fromhex(SEED_HEX))
    first = [exactdp.discrete_gaussian(2, rng=a) for _ in range(10)] + exactdp.discrete_gaussian(2, size=10, rng=a).tolist()
    assert first == exactdp.discrete_gaussian(2, size=20, rng=b).tolist()
    assert a.bits_consumed == b.bits_consumed > 0


def test_return_types():
    x = exactdp.discrete_gaussian("9/4")
    assert type(x) is int
    arr = exactdp.discrete_laplace(1, size=(2, 3))
    assert arr.dtype == np.int64 and arr.shape == (2, 3)
    assert exactdp.bernoulli_exp(0, size=5).tolist() == [1] * 5
    assert exactdp.discrete_gaussian(1, size=0).shape == (0,)
    # Values beyond int64: an object array of exact Python ints.
    big = 10**30
    values = exactdp.discrete_gaussian(1, size=4, mean=big, rng=exactdp.SeededBits(SEED_HEX))
    assert values.dtype == object and all(type(v) is int and abs(v - big) < 100 for v in values)
    assert type(exactdp.discrete_laplace(1, mean=-big)) is int


def discrete_gaussian_pmf(sigma2, support):
    weights = {x: math.exp(-x * x / (2 * sigma2)) for x in range(-support, support + 1)}
    total = sum(math.exp(-x * x / (2 * sigma2)) for x in range(-60, 61))
    return {x: w / total for x, w in weights.items()}


def chi_square_sf(statistic, df):
    """P[chi2_df >= statistic]: the regularized upper incomplete gamma Q(df/2, statistic/2)."""
    a, x = df / 2, statistic / 2
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1 / a
        k = a
        while term > total * 1e-17:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # continued fraction for Q (Lentz)
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / d if abs(d) > 1e-300 else 1e300
        c = b + an / c if abs(b + an / c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_p_value(samples, sigma2, support=6):
    pmf = discrete_gaussian_pmf(sigma2, support)
    n = len(samples)
    counts = {x: 0 for x in pmf}
    tail = 0
    for v in samples.tolist():
        if v in counts:
            counts[v] += 1
        else:
            tail += 1
    expected = {x: n * p for x, p in pmf.items()}
    expected_tail = n - sum(expected.values())
    stat = sum((counts[x] - e) ** 2 / e for x, e in expected.items()) + (tail - expected_tail) ** 2 / expected_tail
    return chi_square_sf(stat, len(pmf))  # len(pmf) + 1 cells, df = cells - 1


# False-alarm probability: a correct sampler fails this test with probability 1e-6 over the
# seed; with the fixed seed the outcome is deterministic.
ALPHA = 1e-6


def test_chi_square_against_the_exact_pmf():
    samples = exactdp.discrete_gaussian("9/4", size=50_000, rng=exactdp.SeededBits(SEED_HEX))
    assert chi_square_p_value(samples, 9 / 4) > ALPHA


def test_chi_square_catches_a_broken_parameter():
    # Samples of sigma2 = 3 tested against the pmf of sigma2 = 9/4 must be rejected.
    samples = exactdp.discrete_gaussian(3, size=50_000, rng=exactdp.SeededBits(SEED_HEX))
    assert chi_square_p_value(samples, 9 / 4) < ALPHA


def test_chi_square_sf_matches_known_values():
    assert chi_square_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(2.0, 2) == pytest.approx(math.exp(-1), rel=1e-12)


def test_threads_with_separate_bit_sources_draw_their_own_streams():
    seeds = [bytes([i + 1]) * 32 for i in range(4)]
    expected = [exactdp.discrete_gaussian("9/4", size=20_000, rng=exactdp.SeededBits(s)) for s in seeds]
    results = [None] * 4

    def work(i):
        rng = exactdp.SeededBits(seeds[i])
        results[i] = np.concatenate([exactdp.discrete_gaussian("9/4", size=5_000, rng=rng) for _ in range(4)])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        assert np.array_equal(got, want)


def test_threads_sharing_one_source_get_whole_blocks_of_its_stream():
    # A shared SeededBits is locked for a whole batch: each thread gets one contiguous block of
    # the stream (in some order); the OS-CSPRNG draws run beside them.
    shared = exactdp.SeededBits(SEED_HEX)
    got, lock = [], threading.Lock()

    def work():
        block = exactdp.discrete_laplace(2, size=10_000, rng=shared)
        other = exactdp.discrete_laplace(2, size=10_000)
        with lock:
            got.append(tuple(block.tolist()))
            assert other.shape == (10_000,)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    reference = exactdp.discrete_laplace(2, size=40_000, rng=exactdp.SeededBits(SEED_HEX)).tolist()
    blocks = {tuple(reference[i * 10_000:(i + 1) * 10_000]) for i in range(4)}
    assert set(got) == blocks


@pytest.mark.parametrize("size", [2**27 + 1, (2**14, 2**13 + 1), (0, 2**40), 10**10])
def test_more_than_one_gib_of_samples_is_refused_before_any_draw(size):
    # The result is one int64 array: 2^27 samples are 1 GiB. 2^31 used to ask numpy for 16 GiB.
    with pytest.raises(exactdp.LimitError) as refused:
        exactdp.discrete_gaussian(1, size=size)
    assert refused.value.parameter == "size" and "2^27" in str(refused.value)


def test_two_to_the_27_samples_is_the_largest_size_accepted():
    assert exactdp.discrete_gaussian(1, size=(0, 2**27)).shape == (0, 2**27)
