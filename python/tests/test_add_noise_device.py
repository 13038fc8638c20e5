"""add_noise on device (CUDA) tensors: staged through pinned host memory, noised on the CPU,
copied back; half-precision dtypes refused naming dtype. No GPU is needed: a device stand-in
(an object that reports a non-CPU device, as a CUDA tensor does) and the staging copies replaced
by host ones check the whole path; with torch, real CPU tensors check the dtype refusal too."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

import exactdp
from exactdp import grid_noise

SEED = "07" * 32


class DeviceStandIn:
    """A tensor on a device that is not the CPU, holding a numpy array (the device's memory)."""
    __module__ = "torch.standin"  # add_noise recognises torch tensors by their module

    def __init__(self, values, dtype="torch.float64", device="cuda:0"):
        self.values = values
        self.dtype = dtype
        self.shape = values.shape
        self.device = SimpleNamespace(type=device.split(":")[0], name=device)

    def numpy(self):  # a device tensor has no host view: staging must not call it
        raise AssertionError("a device tensor was read as host memory")

    def copy_(self, host):
        self.values[...] = host
        return self


@pytest.fixture
def transfers(monkeypatch):
    """The staging copies, recorded; the host buffer is a fresh numpy array (no torch needed)."""
    log = []

    def to_host(x):
        log.append(("to_host", x.device.name))
        return np.array(x.values, copy=True)

    def to_device(host, like):
        log.append(("to_device", like.device.name))
        return DeviceStandIn(host, like.dtype, like.device.name)

    monkeypatch.setattr(grid_noise, "_to_host", to_host)
    monkeypatch.setattr(grid_noise, "_to_device", to_device)
    return log


def test_a_device_tensor_is_staged_and_gets_the_host_noise(transfers):
    x = np.linspace(-2, 2, 101)
    y = exactdp.add_noise(DeviceStandIn(x.copy()), sigma="1/4", rng=exactdp.SeededBits(SEED))
    assert isinstance(y, DeviceStandIn) and y.device.name == "cuda:0"
    assert transfers == [("to_host", "cuda:0"), ("to_device", "cuda:0")]  # one copy each way
    same = exactdp.add_noise(x, sigma="1/4", rng=exactdp.SeededBits(SEED))
    assert np.array_equal(y.values, same)


def test_out_on_the_device_is_written_in_place(transfers):
    x = DeviceStandIn(np.ones(8))
    out = DeviceStandIn(np.zeros(8))
    assert exactdp.add_noise(x, sigma="1/4", out=out, rng=exactdp.SeededBits(SEED)) is out
    assert np.array_equal(out.values, exactdp.add_noise(np.ones(8), sigma="1/4", rng=exactdp.SeededBits(SEED)))
    with pytest.raises(exactdp.ParameterError, match="device") as e:
        exactdp.add_noise(x, sigma="1/4", out=DeviceStandIn(np.zeros(8), device="cuda:1"))
    assert e.value.parameter == "out"


@pytest.mark.parametrize("dtype", ["torch.bfloat16", "torch.float16"])
def test_half_precision_is_refused_naming_dtype_before_any_copy_or_charge(transfers, dtype):
    acc = exactdp.Accountant()
    with pytest.raises(exactdp.ParameterError, match=dtype.split(".")[1]) as e:
        exactdp.add_noise(DeviceStandIn(np.zeros(4), dtype=dtype), sigma=1, accountant=acc, sensitivity=1)
    assert e.value.parameter == "dtype" and transfers == []
    assert acc.get_epsilon("1e-5").upper == 0  # nothing was charged


def test_the_device_release_is_accounted_once(transfers):
    acc = exactdp.Accountant()
    exactdp.add_noise(DeviceStandIn(np.zeros(16)), sigma="1", accountant=acc, sensitivity=1)
    want = exactdp.Accountant().compose(exactdp.noise_event(dim=16, sigma="1", sensitivity=1))
    assert acc.get_epsilon("1e-5") == want.get_epsilon("1e-5")
    assert exactdp.noise_event(DeviceStandIn(np.zeros(16)), sigma="1").text == exactdp.noise_event(
        dim=16, sigma="1").text


def test_cpu_tensors_of_half_precision_are_refused_naming_dtype():
    torch = pytest.importorskip("torch")
    for dtype in (torch.bfloat16, torch.float16):
        with pytest.raises(exactdp.ParameterError, match="dtype") as e:
            exactdp.add_noise(torch.zeros(4, dtype=dtype), sigma=Fraction(1, 2))
        assert e.value.parameter == "dtype"
    y = exactdp.add_noise(torch.zeros(4, dtype=torch.float32), sigma=Fraction(1, 2), rng=exactdp.SeededBits(SEED))
    assert y.dtype == torch.float32 and y.device.type == "cpu"


def test_the_staging_copies_with_real_tensors():
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float64).reshape(2, 3)
    host = grid_noise._to_host(x)
    assert torch.equal(host, x) and host.data_ptr() != x.data_ptr() and host.device.type == "cpu"
    assert host.is_pinned() == torch.cuda.is_available()
    back = grid_noise._to_device(host, x)
    assert torch.equal(back, x) and back.device == x.device
