"""pydp.algorithms stand-in (NOT PyDP): numerical mechanisms, partition selection."""

from pydp.algorithms import numerical_mechanisms, partition_selection, quantile_tree  # noqa: F401
