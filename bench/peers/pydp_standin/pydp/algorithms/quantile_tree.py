"""pydp.algorithms.quantile_tree stand-in (NOT PyDP): importable, not implemented.

PipelineDP imports this module at start-up for its percentile metrics; the comparison does not
use percentiles, so constructing a tree says so instead of computing something unfaithful.
"""


class QuantileTree:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("the PyDP stand-in does not implement quantile trees "
                                  "(percentiles); install the real python-dp for them")
