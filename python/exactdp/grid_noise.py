"""Exact noise for float arrays: add_noise, noise_granularity, from_float.

``add_noise(x, sigma="1/2")`` adds exact discrete Gaussian (or discrete Laplace) noise to a
numpy float64 / float32 array or a torch tensor (a CUDA one staged through pinned host memory)
on the grid g Z, g = 2^-k
(docs/REAL_VALUED.md): every x_i is mapped exactly to n_i = round_half_even(x_i / g) (from its
bit pattern, no floating-point arithmetic), an exact integer Z_i with variance parameter
sigma^2 / g^2 (or scale / g) is added, and y_i is the float nearest (n_i + Z_i) g, ties to even:
exact whenever representable; past the largest finite float, +-the largest finite float.

Accounting what ran: ``noise_event(dim=..., sigma=..., sensitivity=..., sample_rate=...)`` is
the privacy event of such a release (the registry's grid law "vector-<law>", Poisson-sampled
when a sampling rate is stated: docs/REAL_VALUED_ACCOUNTING.md), and ``add_noise(...,
accountant=acc, sensitivity=C[, sample_rate=q])`` records that event into ``acc`` (an
exactdp.Accountant, an exactdp.dp_accounting accountant or an exactdp.opacus accountant) before
it draws the noise.
"""

from __future__ import annotations

import decimal
import fractions
import math
import numbers
from typing import Any, Callable, Dict, Optional, Tuple, Union

import numpy as np

from . import _exactdp
from ._convert import Exact, count_text, exact_fraction, exact_text, float_refusal, law_keyword
from ._errors import LimitError, ParameterError
from .accountant import Accountant
from .events import Event, PoissonSampled
from .samplers import SeededBits

# A numpy float array or a torch tensor (torch ships no type information: Any to a type checker).
ArrayOrTensor = Any
# The accountants add_noise records into: exactdp.Accountant, exactdp.dp_accounting's, exactdp.opacus'.
AnyAccountant = Any

_LAWS = {"discrete-gaussian": ("sigma", "sigma2"), "discrete-laplace": ("scale",)}
_GRID_LAW = "vector-{}"  # the registry's accounting law of grid noise of a law: vector-discrete-gaussian, ...


def from_float(x: Union[float, "np.floating[Any]", int]) -> fractions.Fraction:
    """The exact value of a float (Python float or numpy floating scalar, longdouble included) as a Fraction
    (use it only if the float's binary value is really what you mean; for the decimal you typed pass a str):
    every finite binary float is a dyadic rational, e.g. from_float(0.1) ==
    Fraction(3602879701896397, 36028797018963968). NaN and +-inf raise ParameterError naming x."""
    if isinstance(x, bool) or not isinstance(x, (float, np.floating, numbers.Integral)):
        raise TypeError(f"x: expected a float (or numpy floating scalar), not {type(x).__name__}")
    if isinstance(x, numbers.Integral):
        return fractions.Fraction(int(x))
    if not np.isfinite(x):
        raise ParameterError(f"x = {x} is not finite: allowed finite values", "x")
    # as_integer_ratio is exact for every width, np.longdouble included (float() would round it).
    return fractions.Fraction(*x.as_integer_ratio())


def _exact(name: str, value: Any) -> str:
    if isinstance(value, (float, np.floating)):
        raise float_refusal(name, value)
    return exact_text(name, value)


def _noise_parameter(law: str, sigma: Optional[Exact], scale: Optional[Exact],
                     sigma2: Optional[Exact]) -> Tuple[str, str]:
    if not isinstance(law, str):
        raise TypeError("law must be a str: 'discrete-gaussian' or 'discrete-laplace'")
    given = [(n, v) for n, v in (("sigma", sigma), ("sigma2", sigma2), ("scale", scale)) if v is not None]
    allowed = _LAWS.get(law)
    if allowed is None:
        raise ParameterError(f"law = {law!r} has no grid noise: allowed discrete-gaussian, discrete-laplace", "law")
    if len(given) != 1 or given[0][0] not in allowed:
        names = " or ".join(allowed)
        raise ParameterError(f"{law} takes exactly one noise parameter: {names}", allowed[0])
    name, value = given[0]
    return name, _exact(name, value)


def _granularity_exponent(granularity: Optional[Exact]) -> Optional[int]:
    """k with granularity == 2^-k exactly; None for automatic."""
    if granularity is None:
        return None
    text = _exact("granularity", granularity)
    q = exact_fraction("granularity", granularity)  # the library's limits checked before expansion
    num, den = q.numerator, q.denominator
    if q <= 0 or (num & (num - 1)) != 0 or (den & (den - 1)) != 0:
        raise ParameterError(f"granularity = {text[:40]} is not a power of two: allowed 2^j for an integer j, "
                             "e.g. Fraction(1, 2**20)", "granularity")
    return den.bit_length() - 1 if num == 1 else -(num.bit_length() - 1)


def _address(a: "np.ndarray[Any, Any]") -> int:
    return int(a.__array_interface__["data"][0])


_MAX_VIEW_COPY_BYTES = 1 << 30  # SECURITY.md, "Limits": a call's memory


def _may_overlap(a: "np.ndarray[Any, Any]") -> bool:
    """Whether two elements of `a` may share memory (a broadcast or a stride trick): sufficient for
    "no": each axis, taken by increasing |stride|, steps past the extent of the ones before."""
    extent = a.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n > 1):
        if stride < extent:
            return True
        extent = stride * size
    return False


def _check_views(array: "np.ndarray[Any, Any]", out: Optional["np.ndarray[Any, Any]"]) -> None:
    """A view whose elements overlap (np.broadcast_to, as_strided) is copied to a contiguous array of
    its full logical size: that copy and the result over 1 GiB are refused naming x before the copy
    (10^12 zeros broadcast from one made numpy allocate 7.3 TiB). An out whose elements overlap would keep one noisy value of
    several: refused naming out."""
    needed = array.nbytes * (2 if out is None else 1)  # the copy, and the result unless out is given
    if _may_overlap(array) and needed > _MAX_VIEW_COPY_BYTES:
        raise LimitError(f"x is a view of {array.size} values whose elements overlap (a broadcast or stride "
                         f"trick): its contiguous copy{' and the result' if out is None else ''} need {needed} bytes, "
                         f"over the limit of {_MAX_VIEW_COPY_BYTES} bytes for a view; pass np.ascontiguousarray(x) "
                         "if that is really meant", "x")
    if out is not None and _may_overlap(out):
        raise ParameterError("out has elements that share memory (a broadcast or stride trick): allowed an array "
                             "whose elements are distinct", "out")


def _is_torch(x: object) -> bool:
    return type(x).__module__.startswith("torch") and hasattr(x, "numpy") and hasattr(x, "device")


_TENSOR_DTYPES = ("torch.float64", "torch.float32")


def _check_tensor_dtype(x: Any, name: str) -> None:
    """A tensor of float64 or float32; a half-precision one (float16, bfloat16) is refused naming
    dtype, before anything is copied or charged."""
    if str(x.dtype) not in _TENSOR_DTYPES:
        raise ParameterError(f"{name}: dtype {x.dtype} is not supported: allowed float64, float32 (convert a "
                             "half-precision tensor with .float() first)", "dtype")


def _on_device(x: Any) -> bool:
    """A torch tensor that is not in host memory (CUDA, or any other device)."""
    return _is_torch(x) and x.device.type != "cpu"


def _to_host(x: Any) -> Any:
    """Device -> host: one copy of the tensor into page-locked (pinned) host memory, where the
    noise is drawn in place (pinned when CUDA is there: the copy then runs at full bus speed)."""
    import torch
    host = torch.empty(tuple(x.shape), dtype=x.dtype, pin_memory=bool(torch.cuda.is_available()))
    host.copy_(x.detach())
    return host


def _to_device(host: Any, like: Any) -> Any:
    """Host -> device: the noised staging buffer copied to ``like``'s device."""
    return host.to(like.device)


def _add_noise_on_device(x: Any, out: Optional[Any], noise: Callable[[Any], Any]) -> Any:
    """add_noise of a device tensor: staged through pinned host memory (one copy each way),
    noised there in place by ``noise`` (add_noise on the host tensor), copied back."""
    _check_tensor_dtype(x, "x")
    if out is not None and (not _on_device(out) or out.device != x.device or str(out.dtype) != str(x.dtype)
                            or tuple(out.shape) != tuple(x.shape)):
        raise ParameterError("out must have x's type, device, dtype and shape", "out")
    host = _to_host(x)
    noise(host)
    if out is None:
        return _to_device(host, x)
    out.copy_(host)
    return out


def _as_array(x: ArrayOrTensor, name: str) -> Tuple["np.ndarray[Any, Any]", bool]:
    """(numpy view or array, was_torch): torch CPU tensors through .numpy() (zero-copy)."""
    if _is_torch(x):
        if x.device.type != "cpu":
            raise TypeError(f"{name}: a device tensor is noised through host memory by add_noise itself")
        _check_tensor_dtype(x, name)
        return x.detach().numpy(), True
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{name} must be a numpy array or a torch tensor, not {type(x).__name__}")
    return x, False


@law_keyword
def noise_granularity(*, law: str = "discrete-gaussian", sigma: Optional[Exact] = None,
                      scale: Optional[Exact] = None, sigma2: Optional[Exact] = None,
                      granularity: Optional[Exact] = None) -> fractions.Fraction:
    """The granularity g (a Fraction, a power of two) add_noise uses with these arguments: the
    given one, or the automatic choice, the largest g = 2^-k with g <= sigma 2^-18 (sigma the
    Gaussian's sigma = sqrt(sigma2), or the Laplace scale)."""
    name, text = _noise_parameter(law, sigma, scale, sigma2)
    k = _exactdp._noise_granularity(law, name, text, _granularity_exponent(granularity))
    return fractions.Fraction(1, 2**k) if k >= 0 else fractions.Fraction(2**-k)


def _exact_sigma(name: str, text: str) -> fractions.Fraction:
    """sigma of the grid law: sigma itself, or sqrt(sigma2) when that is an exact rational."""
    value = exact_fraction(name, text)
    if name != "sigma2":
        return value
    root = fractions.Fraction(math.isqrt(value.numerator), math.isqrt(value.denominator))
    if root * root != value:
        raise ParameterError(f"sigma2 = {text[:40]} is not the square of a rational: the grid law's event takes "
                             "sigma; pass sigma= to account the noise", "sigma2")
    return root


@law_keyword
def noise_event(x: Optional[ArrayOrTensor] = None, *, dim: Optional[int] = None, law: str = "discrete-gaussian",
                sigma: Optional[Exact] = None, scale: Optional[Exact] = None, sigma2: Optional[Exact] = None,
                granularity: Optional[Exact] = None, sensitivity: Exact = 1,
                sample_rate: Optional[Exact] = None) -> Event:
    """The privacy event (an exactdp.events.Event) of add_noise(x, law=..., sigma=...,
    granularity=...) releasing a query of L2 (Gaussian; L1 for Laplace) sensitivity
    ``sensitivity`` (the clipping norm, in x's units): the registry's grid law
    vector-discrete-gaussian(sigma, dim, granularity, sensitivity) (or vector-discrete-laplace
    with scale), with granularity the one add_noise uses (the automatic one when None), and,
    when ``sample_rate`` q is stated (the record's inclusion probability of a Poisson sample),
    its Poisson-sampled form (q= in the event). dim: x's size, or stated without an array
    (e.g. dim=10**6); both given, dim >= x.size (a larger dim is accounted, never a smaller).
    ``event.text`` is the event as exactdp.compose_events takes it."""
    parameters = _grid_parameters(x, dim, law, sigma, scale, sigma2, granularity, sensitivity)
    return _grid_event(law, parameters, sample_rate)


def _grid_parameters(x: Optional[ArrayOrTensor], dim: Optional[int], law: str, sigma: Optional[Exact],
                     scale: Optional[Exact], sigma2: Optional[Exact], granularity: Optional[Exact],
                     sensitivity: Exact) -> Dict[str, Any]:
    """The parameters of noise_event's grid law (checked by the law when the event is built)."""
    name, text = _noise_parameter(law, sigma, scale, sigma2)
    g = noise_granularity(law=law, granularity=granularity, sigma=text if name == "sigma" else None,
                          sigma2=text if name == "sigma2" else None, scale=text if name == "scale" else None)
    if x is not None:
        size = int(np.prod(tuple(x.shape))) if _on_device(x) else _as_array(x, "x")[0].size
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, numbers.Integral) or dim < size):
            raise ParameterError(f"dim = {dim!r} is below x's size {size}: allowed an int >= x.size", "dim")
        dim = size if dim is None else dim
    if dim is None:
        raise ParameterError("noise_event: give x or dim (the number of coordinates noised)", "dim")
    noise = {"sigma": _exact_sigma(name, text)} if name != "scale" else {"scale": exact_fraction(name, text)}
    return dict(noise, dim=dim, granularity=g, sensitivity=sensitivity)


def _grid_event(law: str, parameters: Dict[str, Any], sample_rate: Optional[Exact]) -> Event:
    """The grid law's event of `law` at `parameters` (_grid_parameters), Poisson-sampled at
    `sample_rate` when one is stated."""
    event = Event.of_law(_GRID_LAW.format(law), **parameters)
    return event if sample_rate is None else PoissonSampled(event, sample_rate)


def _account(accountant: AnyAccountant, event: Event, law: str, parameters: Dict[str, Any],
             sample_rate: Optional[Exact]) -> None:
    """Records `event` (_grid_event(law, parameters, sample_rate)) into an exactdp,
    dp_accounting- or Opacus-shaped accountant."""
    from . import dp_accounting, dp_events, opacus
    if isinstance(accountant, Accountant):
        accountant.compose(event)
    elif isinstance(accountant, dp_accounting.Accountant):
        inner = dp_events.event_class(_GRID_LAW.format(law))(**parameters)
        accountant.compose(inner if sample_rate is None else dp_events.PoissonSampledDpEvent(sample_rate, inner))
    elif isinstance(accountant, opacus.Accountant):
        if sample_rate is None or "sigma" not in parameters:
            raise ParameterError("an exactdp.opacus accountant accounts Poisson-sampled Gaussian steps: give "
                                 "sample_rate= and law discrete-gaussian", "accountant")
        clip = exact_fraction("sensitivity", parameters["sensitivity"])
        accountant.step(noise_multiplier=parameters["sigma"] / clip, sample_rate=sample_rate,
                        granularity=parameters["granularity"], dim=parameters["dim"], max_grad_norm=clip)
    else:
        raise TypeError("accountant must be an exactdp.Accountant, an exactdp.dp_accounting or an "
                        f"exactdp.opacus accountant, not {type(accountant).__name__}")


@law_keyword
def add_noise(x: ArrayOrTensor, *, law: str = "discrete-gaussian", sigma: Optional[Exact] = None,
              scale: Optional[Exact] = None, sigma2: Optional[Exact] = None, granularity: Optional[Exact] = None,
              hardened: bool = False, rng: Optional[SeededBits] = None, threads: Optional[int] = None,
              out: Optional[ArrayOrTensor] = None, accountant: Optional[AnyAccountant] = None,
              sensitivity: Optional[Exact] = None, sample_rate: Optional[Exact] = None,
              dim: Optional[int] = None) -> ArrayOrTensor:
    """x + exact discrete noise on the grid g Z, same type, dtype and shape as x.

    x: a numpy float64 / float32 array of any shape (C-contiguous arrays are read in place,
        others copied) or a torch tensor of those dtypes (ParameterError naming dtype for
        float16 / bfloat16): a CPU tensor is read through .numpy() (zero-copy); a CUDA (or other
        device) tensor is staged through pinned host memory: one device-to-host copy, the noise
        drawn on the CPU in place, one host-to-device copy (2 x 8 bytes per float64 coordinate
        over the bus, next to the exact sampling's CPU time, which dominates). The result is a
        tensor on x's device. Every value must be finite (ParameterError naming the first
        bad flat index in C order: "x[17] is NaN; allowed: finite values").
    law: "discrete-gaussian" (give sigma, or sigma2 = sigma^2) or "discrete-laplace" (give
        scale), in data units; exact values: int, Fraction, Decimal or str (a float is refused:
        use exactdp.from_float to pass a float's exact value).
    granularity: None (automatic: noise_granularity() says which) or an exact power of two; a
        fine one that makes sigma2 / g^2 (scale / g) so long that x's draws are estimated over
        the cost limit (about 4 s) is refused up front: LimitError naming granularity.
    hardened: the isochronous sampler (range 1/100 <= sigma2 / g^2 <= 2^100, scale / g <= 2^50;
        outside, ParameterError naming granularity; the automatic granularity is always inside).
        The discrete Gaussian at 2^10 <= sigma2 / g^2 < 2^56 uses the rejection method: each
        proposal runs the same instructions, their number is independent of the noise, tau
        about 2^-72 per coordinate (docs/HARDENED.md, "The rejection method").
    rng: None (the OS CSPRNG, one source per thread) or an exactdp.SeededBits: 256 bits of it key
        the chunked substreams, so the result is the same for every thread count, and the next
        call with the same source gives fresh noise (tests and audits only).
    threads: None (1) or 1..256.
    out: None, or an array / tensor of x's type, dtype and shape to write into (out may be x:
        in place). Returns out (or the new array).
    accountant: None, or an exactdp.Accountant, exactdp.dp_accounting accountant or
        exactdp.opacus accountant into which the release is recorded, BEFORE any noise is
        drawn (a call refused later, e.g. for a NaN in x, has been charged: over-reporting,
        never under-): noise_event(x, dim=dim, law=..., sigma=..., granularity=...,
        sensitivity=sensitivity, sample_rate=sample_rate). sensitivity (the clipping norm in
        x's units) is then required; sample_rate (Poisson sampling rate, required by an Opacus
        accountant) and dim (>= x.size) are optional. Not with hardened=True (its tau is
        charged to delta, which the grid law's event does not carry).

    The noise is exact and the output conversion is post-processing (docs/REAL_VALUED.md states
    what an accountant must charge: the rounding adds g sqrt(d) to the L2 sensitivity). The GIL
    is released while noising.
    """
    if _on_device(x):
        return _add_noise_on_device(x, out, lambda host: add_noise(
            host, law=law, sigma=sigma, scale=scale, sigma2=sigma2, granularity=granularity, hardened=hardened,
            rng=rng, threads=threads, out=host, accountant=accountant, sensitivity=sensitivity,
            sample_rate=sample_rate, dim=dim))
    name, text = _noise_parameter(law, sigma, scale, sigma2)
    k = _granularity_exponent(granularity)
    if not isinstance(hardened, bool):
        raise TypeError("hardened must be True or False")
    if rng is not None and not isinstance(rng, SeededBits):
        raise TypeError("rng must be None (the OS CSPRNG) or an exactdp.SeededBits")
    if threads is None:
        threads = 1
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError("threads must be None or an int")  # its range: the operation's (1..256)
    array, was_torch = _as_array(x, "x")
    if accountant is not None:
        if sensitivity is None:
            raise ParameterError("add_noise: accountant= needs sensitivity= (the clipping norm, in x's units)",
                                 "sensitivity")
        if hardened:
            raise ParameterError("add_noise: accountant= with hardened=True: the hardened sampler's tau is charged "
                                 "to delta (docs/REAL_VALUED.md), which the grid law's event does not carry", "hardened")
        parameters = _grid_parameters(array, dim, law, sigma, scale, sigma2, granularity, sensitivity)
        event = _grid_event(law, parameters, sample_rate)
    elif sensitivity is not None or sample_rate is not None or dim is not None:
        raise ParameterError("add_noise: sensitivity, sample_rate and dim describe the release for accountant=; "
                             "give accountant= too", "accountant")
    if array.dtype not in (np.float64, np.float32):
        raise TypeError(f"x: dtype {array.dtype} is not supported: allowed float64, float32")
    _check_views(array, None if out is None else _as_array(out, "out")[0])
    source = np.ascontiguousarray(array)
    if out is None:
        result = np.empty(array.shape, dtype=array.dtype)
        target = result
    else:
        result, out_torch = _as_array(out, "out")
        if out_torch != was_torch or result.dtype != array.dtype or result.shape != array.shape:
            raise ParameterError("out must have x's type, dtype and shape", "out")
        if not result.flags.writeable:  # checked before any noise is drawn
            raise ParameterError("out is read-only: allowed a writable array or tensor", "out")
        direct = result.flags.c_contiguous and result.flags.writeable
        target = result if direct else np.empty(result.shape, dtype=result.dtype)
        in_place = _address(source) == _address(target)
        if not in_place and np.may_share_memory(source, target):
            source = source.copy()  # overlapping without being the same array: read a copy
    # The accountant is charged by the operation after its checks (threads, the hardened range)
    # and before any noise is drawn.
    charge = None if accountant is None else (lambda: _account(accountant, event, law, parameters, sample_rate))
    _exactdp._add_noise(source.reshape(-1), target.reshape(-1), law, name, text, k, hardened, rng, count_text("threads", threads),
                        charge)
    if out is not None and target is not result:
        result[...] = target
    if out is not None:
        return out
    if was_torch:
        import torch
        return torch.from_numpy(result)
    return result
