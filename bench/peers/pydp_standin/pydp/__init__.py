"""pydp stand-in: NOT PyDP (Google's C++ differential privacy library via pybind).

A minimal pure-Python replacement for the part of PyDP's API that PipelineDP's count, sum and
private partition selection path calls, written from PyDP's documented semantics so that
bench/aggregate_vs_pipelinedp.py can run PipelineDP where PyDP cannot be installed. Its noise is
numpy floating-point sampling, not hardened against floating-point attacks: fine for an
accuracy comparison, not for a release. See bench/peers/pydp_standin/README.md.
"""

IS_STANDIN = True
__version__ = "0.0-standin"

from pydp import algorithms  # noqa: E402,F401
