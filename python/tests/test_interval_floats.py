"""Interval.upper_float / lower_float: the certified ends as floats, rounded outward."""
import math
import sys
from fractions import Fraction

from hypothesis import given, strategies as st

from exactdp.interval import Interval


def test_a_third_rounds_outward_where_float_rounds_down():
    third = Fraction(1, 3)
    iv = Interval(third, third)
    assert Fraction(float(third)) < third  # nearest rounding lands below 1/3 ...
    assert Fraction(iv.upper_float) >= third  # ... the upper accessor does not
    assert Fraction(iv.lower_float) <= third
    assert iv.upper_float == math.nextafter(iv.lower_float, math.inf)


def test_representable_ends_are_exact():
    iv = Interval(Fraction(-3, 4), Fraction(5, 8))
    assert (iv.lower_float, iv.upper_float) == (-0.75, 0.625)


def test_ends_beyond_the_float_range():
    huge = Fraction(10**400)
    tiny = Fraction(1, 10**400)
    assert Interval(huge, huge).upper_float == math.inf
    assert Interval(huge, huge).lower_float == sys.float_info.max
    assert Interval(-huge, -huge).upper_float == -sys.float_info.max
    assert Interval(-huge, -huge).lower_float == -math.inf
    assert Interval(tiny, tiny).upper_float == 5e-324  # the smallest subnormal, not 0
    assert Interval(tiny, tiny).lower_float == 0.0
    assert Interval(-math.inf, math.inf).upper_float == math.inf


@given(st.fractions(max_denominator=10**30))
def test_outward_and_tight(x):
    iv = Interval(x, x)
    up, down = iv.upper_float, iv.lower_float
    assert Fraction(down) <= x <= Fraction(up)
    # Tight: the next float inward is on the wrong side (or the end is exact).
    assert up == down or (Fraction(math.nextafter(up, -math.inf)) < x < Fraction(math.nextafter(down, math.inf)))
