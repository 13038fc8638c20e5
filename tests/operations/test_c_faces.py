"""The same refused request through the three faces of an operation: the command line, Python and
the C interface (libexactdp.so, called through ctypes). Each refuses with the same parameter named
and the same allowed range, from the same check (operations/sample.h, operations/draw_cost.h,
operations/calibrate.h, operations/law_delta.h through operations/profile.h); only
the spelling of a parameter differs (operations/spelling.h: --tau-bits, tau_bits).

Run by ctest (operations_faces) with PYTHONPATH holding the built package, EXACTDP_CLI the built
command and EXACTDP_C_LIBRARY the built shared library."""
import ctypes
import importlib
import os
import subprocess

import pytest

CLI = os.environ.get("EXACTDP_CLI")
# Under ctest (EXACTDP_CLI set) a package that does not import fails the run instead of skipping
# every case (a run whose cases all skip passes); run by hand without the build, the file skips.
exactdp = importlib.import_module("exactdp") if CLI else pytest.importorskip("exactdp")
C_LIBRARY = os.environ.get("EXACTDP_C_LIBRARY")
if CLI and not C_LIBRARY:
    raise RuntimeError("EXACTDP_C_LIBRARY (the built libexactdp.so) must be set with EXACTDP_CLI")
pytestmark = pytest.mark.skipif(not CLI or not C_LIBRARY,
                                reason="EXACTDP_CLI and EXACTDP_C_LIBRARY (the built exactdp) not set")

EXACTDP_E_PARAM = -1
EXACTDP_E_LIMIT = -5
EXACTDP_HARDENED = 1


class SamplerOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("flags", ctypes.c_int), ("mean", ctypes.c_char_p),
                ("tau_bits", ctypes.c_uint)]


@pytest.fixture(scope="module")
def lib():
    c = ctypes.CDLL(C_LIBRARY)
    c.exactdp_last_error.restype = ctypes.c_char_p
    c.exactdp_sampler_new.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                                      ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_void_p)]
    c.exactdp_discrete_gaussian_new_ex.argtypes = [ctypes.c_char_p, ctypes.POINTER(SamplerOptions),
                                                   ctypes.POINTER(ctypes.c_void_p)]
    c.exactdp_sampler_options_init.argtypes = [ctypes.POINTER(SamplerOptions)]
    c.exactdp_law_calibrate.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                                        ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p,
                                        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    delta_call = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                  ctypes.c_char_p, ctypes.c_size_t]
    c.exactdp_discrete_gaussian_delta.argtypes = delta_call
    c.exactdp_discrete_laplace_delta.argtypes = delta_call
    c.exactdp_law_delta.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p),
                                    ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                    ctypes.c_char_p, ctypes.c_size_t]
    c.exactdp_calibrate_discrete_gaussian.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                                      ctypes.c_char_p, ctypes.c_size_t]
    return c


def cli_error(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    prefix = "exactdp: "
    assert p.stderr.startswith(prefix) and p.stderr.endswith("\n"), p.stderr
    return p.stderr[len(prefix):-1]


def c_error(lib, code, expected_code):
    assert code == expected_code, lib.exactdp_last_error()
    return lib.exactdp_last_error().decode()


def texts(*strings):
    return (ctypes.c_char_p * len(strings))(*[s.encode() for s in strings])


def c_sampler_new(lib, law, names, values, flags, out=None):
    """exactdp_sampler_new's code; the sampler goes to out (a ctypes.c_void_p) when given."""
    out = ctypes.c_void_p() if out is None else out
    return lib.exactdp_sampler_new(law.encode(), texts(*names), texts(*values), len(names), flags,
                                   ctypes.byref(out))


def test_tau_bits_range_is_the_same_error_in_three_faces(lib):
    text = cli_error("sample", "discrete-gaussian", "--sigma2", "1", "-n", "1", "--hardened", "--tau-bits", "200")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.sample("discrete-gaussian", sigma2=1, hardened=True, tau_bits=200)
    options = SamplerOptions()
    lib.exactdp_sampler_options_init(ctypes.byref(options))
    options.flags = EXACTDP_HARDENED
    options.tau_bits = 200
    out = ctypes.c_void_p()
    c_text = c_error(lib, lib.exactdp_discrete_gaussian_new_ex(b"1", ctypes.byref(options), ctypes.byref(out)),
                     EXACTDP_E_PARAM)
    assert info.value.parameter == "tau_bits"
    assert c_text == str(info.value) == text.replace("tau-bits", "tau_bits")
    assert c_text == "tau_bits = 200 is out of range: allowed 40 <= tau_bits <= 128"


def test_hardened_range_is_the_same_error_in_three_faces(lib):
    # The hardened sampler's sigma2 range: refused, never a fallback to the plain sampler.
    text = cli_error("sample", "discrete-gaussian", "--sigma2", "1/1000", "-n", "1", "--hardened")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.sample("discrete-gaussian", sigma2="1/1000", hardened=True)
    c_text = c_error(lib, c_sampler_new(lib, "discrete-gaussian", ["sigma2"], ["1/1000"], EXACTDP_HARDENED),
                     EXACTDP_E_PARAM)
    assert info.value.parameter == "sigma2"
    assert c_text == str(info.value) == text
    assert c_text.startswith("sigma2 = 1/1000 is out of range")


def test_sample_parameter_checks_are_the_same_error_in_three_faces(lib):
    # A parameter that does not apply, and one left out: the same check, each face's spelling.
    text = cli_error("sample", "discrete-laplace", "--scale", "2", "--sigma2", "1", "-n", "1")
    assert text == "option --sigma2 does not apply to discrete-laplace"
    c_text = c_error(lib, c_sampler_new(lib, "discrete-laplace", ["scale", "sigma2"], ["2", "1"], 0), EXACTDP_E_PARAM)
    assert c_text == "parameter sigma2 does not apply to discrete-laplace"
    text = cli_error("sample", "discrete-gaussian", "-n", "1")
    c_text = c_error(lib, c_sampler_new(lib, "discrete-gaussian", [], [], 0), EXACTDP_E_PARAM)
    assert text == "missing required option --sigma2 (see --help)"
    assert c_text == "missing required parameter sigma2"


def test_calibrate_range_is_the_same_error_in_three_faces(lib):
    # operations/calibrate.h's target check; the C interface has no tolerance, so its cost limit
    # is reached from the command line and Python only (test_faces.py).
    text = cli_error("calibrate", "gaussian", "--epsilon", "1", "--delta", "1")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.calibrate("gaussian", epsilon=1, delta=1)
    parameter = ctypes.create_string_buffer(64)
    value = ctypes.create_string_buffer(64)
    c_text = c_error(lib, lib.exactdp_law_calibrate(b"gaussian", None, None, 0, b"1", b"1", parameter, value, 64),
                     EXACTDP_E_PARAM)
    assert info.value.parameter == "delta"
    assert c_text == str(info.value) == text


def c_law_delta(lib, law, names, values, epsilon):
    lower, upper = ctypes.create_string_buffer(64), ctypes.create_string_buffer(64)
    return lib.exactdp_law_delta(law.encode(), texts(*names), texts(*values), len(names), epsilon.encode(), None,
                                 lower, upper, 64)


def c_per_law_delta(call, epsilon, noise, sensitivity=None):
    lower, upper = ctypes.create_string_buffer(64), ctypes.create_string_buffer(64)
    return call(epsilon.encode(), noise.encode(), sensitivity and sensitivity.encode(), None, lower, upper, 64)


def test_profile_parameter_range_is_the_same_error_in_three_faces(lib):
    # operations/law_delta.h checks a law's parameters through operations/profile.h.
    text = cli_error("profile", "discrete-gaussian", "--sigma2", "0", "--epsilon", "1")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.profile("discrete-gaussian", sigma2=0, epsilon=1)
    generic = c_error(lib, c_law_delta(lib, "discrete-gaussian", ["sigma2"], ["0"], "1"), EXACTDP_E_PARAM)
    per_law = c_error(lib, c_per_law_delta(lib.exactdp_discrete_gaussian_delta, "1", "0"), EXACTDP_E_PARAM)
    assert info.value.parameter == "sigma2"
    assert generic == per_law == str(info.value) == text == "sigma2 = 0 is out of range: allowed sigma2 > 0"
    text = cli_error("profile", "discrete-laplace", "--scale", "1", "--sensitivity", "3/2", "--epsilon", "1")
    per_law = c_error(lib, c_per_law_delta(lib.exactdp_discrete_laplace_delta, "1", "1", "3/2"), EXACTDP_E_PARAM)
    assert per_law == text == "sensitivity = 3/2 is not an integer: allowed whole numbers only"


def test_profile_epsilon_is_the_same_error_in_three_faces(lib):
    text = cli_error("profile", "gaussian", "--sigma", "1", "--epsilon", "-1")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.profile("gaussian", sigma=1, epsilon=-1)
    generic = c_error(lib, c_law_delta(lib, "gaussian", ["sigma"], ["1"], "-1"), EXACTDP_E_PARAM)
    per_law = c_error(lib, c_per_law_delta(lib.exactdp_discrete_laplace_delta, "-1", "1"), EXACTDP_E_PARAM)
    assert generic == per_law == str(info.value) == text == "epsilon = -1 is out of range: allowed epsilon >= 0"


def test_profile_size_limit_is_the_same_error_in_three_faces(lib):
    # A parameter's decimal exponent is limited before any work (SECURITY.md, "Limits").
    text = cli_error("profile", "discrete-gaussian", "--sigma2", "1e100000000", "--epsilon", "1")
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.profile("discrete-gaussian", sigma2="1e100000000", epsilon=1)
    generic = c_error(lib, c_law_delta(lib, "discrete-gaussian", ["sigma2"], ["1e100000000"], "1"), EXACTDP_E_LIMIT)
    assert generic == str(info.value) == text
    assert "over the limit" in text


def test_profile_law_without_one_is_the_same_error_in_python_and_c(lib):
    # The command line names its command's mechanisms instead (test_faces.py).
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.profile("bernoulli-exp", gamma=1, epsilon=1)
    generic = c_error(lib, c_law_delta(lib, "bernoulli-exp", ["gamma"], ["1"], "1"), EXACTDP_E_PARAM)
    assert info.value.parameter == "law"
    assert generic == str(info.value)
    assert generic.startswith("law = bernoulli-exp has no certified profile: allowed ")


def test_calibrate_epsilon_is_the_same_error_in_three_faces(lib):
    text = cli_error("calibrate", "discrete-gaussian", "--epsilon", "-1", "--delta", "1e-5")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.calibrate("discrete-gaussian", epsilon=-1, delta="1e-5")
    sigma2 = ctypes.create_string_buffer(64)
    per_law = c_error(lib, lib.exactdp_calibrate_discrete_gaussian(b"-1", b"1e-5", None, sigma2, 64), EXACTDP_E_PARAM)
    assert per_law == str(info.value) == text == "epsilon = -1 is out of range: allowed epsilon >= 0"


def test_select_peeling_limit_is_the_same_check_in_three_faces(lib):
    # operations/select.h: peeling whose estimated work is over 3000000 candidate steps is refused
    # before a bit is drawn, by `exactdp select --top K`, exactdp.select(top=K) and
    # exactdp_select_top alike. Scores 100 apart cost about one step per candidate in play per round.
    scores = [str(100 * i) for i in range(3000)]
    p = subprocess.run([CLI, "select", "--mechanism", "permute-and-flip", "--epsilon", "1", "--sensitivity", "1",
                        "--top", "2000"], input="\n".join(scores) + "\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    text = p.stderr[len("exactdp: "):-1]
    lib.exactdp_selection_new.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                          ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_void_p)]
    lib.exactdp_select_top.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                       ctypes.POINTER(ctypes.c_size_t)]
    lib.exactdp_bits_seeded.argtypes = [ctypes.POINTER(ctypes.c_ubyte), ctypes.POINTER(ctypes.c_void_p)]
    lib.exactdp_selection_free.argtypes = [ctypes.c_void_p]
    lib.exactdp_bits_free.argtypes = [ctypes.c_void_p]
    selection, bits = ctypes.c_void_p(), ctypes.c_void_p()
    assert lib.exactdp_selection_new(b"permute-and-flip", None, b"1", b"1", 0, texts(*scores), len(scores),
                                     ctypes.byref(selection)) == 0, lib.exactdp_last_error()
    seed = (ctypes.c_ubyte * 32)(*range(1, 33))
    assert lib.exactdp_bits_seeded(seed, ctypes.byref(bits)) == 0, lib.exactdp_last_error()
    out = (ctypes.c_size_t * 2000)()
    try:
        c_text = c_error(lib, lib.exactdp_select_top(selection, bits, 2000, out), EXACTDP_E_LIMIT)
    finally:
        lib.exactdp_selection_free(selection)
        lib.exactdp_bits_free(bits)
    assert text.startswith("top = 2000 over 3000 candidates (x 1 draws) would take about ")
    assert text.endswith("; lower --top or -n")
    assert c_text == text[:-len(" or -n")].replace("--top", "top")
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.select(scores, law="permute-and-flip", epsilon=1, sensitivity=1, top=2000)
    assert info.value.parameter == "top"
    assert str(info.value) == c_text


def test_calibrate_sensitivity_is_the_same_error_in_three_faces(lib):
    # An integer sensitivity by the call's type (the command line's --sensitivity INT and
    # exactdp_calibrate_discrete_gaussian) is refused by parse_integer; a rational one (Python, and
    # exactdp_law_calibrate's parameters by name) by operations::plan_calibration, in its words.
    text = cli_error("calibrate", "discrete-gaussian", "--epsilon", "1", "--delta", "1e-5", "--sensitivity", "3/2")
    sigma2 = ctypes.create_string_buffer(64)
    per_law = c_error(lib, lib.exactdp_calibrate_discrete_gaussian(b"1", b"1e-5", b"3/2", sigma2, 64), EXACTDP_E_PARAM)
    assert per_law == text == "sensitivity = 3/2 is not an integer: allowed whole numbers only"
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.calibrate("discrete-gaussian", epsilon=1, delta="1e-5", sensitivity="3/2")
    parameter, value = ctypes.create_string_buffer(64), ctypes.create_string_buffer(64)
    generic = c_error(lib, lib.exactdp_law_calibrate(b"discrete-gaussian", texts("sensitivity"), texts("3/2"), 1, b"1",
                                                     b"1e-5", parameter, value, 64), EXACTDP_E_PARAM)
    assert info.value.parameter == "sensitivity"
    assert generic == str(info.value) == per_law


def test_add_noise_threads_limit_is_the_same_error_in_two_faces(lib):
    # operations/add_noise.h: threads 1..256, checked by the operation for exactdp.add_noise and
    # exactdp_add_noise_f64 alike (add-noise has no command).
    np = pytest.importorskip("numpy")
    with pytest.raises(exactdp.ParameterError) as info:
        exactdp.add_noise(np.ones(3), sigma=1, threads=300)
    lib.exactdp_add_noise_f64.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                          ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_void_p,
                                          ctypes.c_uint, ctypes.POINTER(ctypes.c_double),
                                          ctypes.POINTER(ctypes.c_double), ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_int)]
    values = (ctypes.c_double * 3)(1, 1, 1)
    c_text = c_error(lib, lib.exactdp_add_noise_f64(b"discrete-gaussian", b"sigma", b"1", None, 0, None, 300,
                                                    values, values, 3, None), EXACTDP_E_PARAM)
    assert info.value.parameter == "threads"
    assert c_text == str(info.value) == "threads = 300 is out of range: allowed 1 <= threads <= 256"


def test_sample_count_of_many_draw_samples_is_the_same_limit_in_three_faces(lib):
    # A distributed discrete Gaussian sample is one discrete Gaussian per surviving client: `sample
    # -n`, exactdp.sample's size and exactdp_sample_int64's buffer of n values are charged n
    # samples of 10^4 draws by one check (operations/draw_cost.h), before a bit is drawn.
    text = cli_error("sample", "distributed-discrete-gaussian", "--sigma2", "1/4", "--clients", "10000",
                     "-n", "11429")
    with pytest.raises(exactdp.LimitError) as info:
        exactdp.sample("distributed-discrete-gaussian", size=11429, sigma2="1/4", clients=10000)
    sampler = ctypes.c_void_p()
    assert c_sampler_new(lib, "distributed-discrete-gaussian", ["sigma2", "clients"], ["1/4", "10000"], 0,
                         sampler) == 0, lib.exactdp_last_error()
    bits = ctypes.c_void_p()
    lib.exactdp_bits_seeded_hex.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    assert lib.exactdp_bits_seeded_hex(b"ab" * 32, ctypes.byref(bits)) == 0, lib.exactdp_last_error()
    lib.exactdp_sample_int64.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64),
                                         ctypes.c_size_t]
    lib.exactdp_bits_consumed.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]
    lib.exactdp_sampler_free.argtypes = [ctypes.c_void_p]
    lib.exactdp_bits_free.argtypes = [ctypes.c_void_p]
    try:
        out = (ctypes.c_int64 * 11429)()
        c_text = c_error(lib, lib.exactdp_sample_int64(sampler, bits, out, 11429), EXACTDP_E_LIMIT)
        consumed = ctypes.c_uint64(1)
        assert lib.exactdp_bits_consumed(bits, ctypes.byref(consumed)) == 0
        assert consumed.value == 0
        assert lib.exactdp_sample_int64(sampler, bits, out, 2) == 0, lib.exactdp_last_error()
    finally:
        lib.exactdp_bits_free(bits)
        lib.exactdp_sampler_free(sampler)
    assert info.value.parameter == "size"
    assert c_text == text == "n" + str(info.value)[len("size"):]
    assert c_text.startswith("n = 11429 is over the cost limit of distributed-discrete-gaussian: a sample is 10000 "
                             "draws")
    assert "allowed at most 11428 samples" in c_text
