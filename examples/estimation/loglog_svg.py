"""Hand-written log-log SVG charts with error bars (no plotting library), for rates_study.py.

The style mirrors cli/svg_plot.cc (the `exactdp ... --svg` charts): white background, a title at
the top left, a framed plot area with light grid lines, the legend to the right of the frame, the
same palette; solid lines with markers for measured series (error bars: mean +- one standard
error), dashed lines without markers for reference curves (a fitted rate). Both axes are log10,
ticked at the powers of ten (and at 2 and 5 times them when the range is under two decades).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import List, Optional, Sequence
from xml.sax.saxutils import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


@dataclass
class Series:
    """One line: points (x, y) with y > 0, optional standard errors (same length as xs)."""
    name: str
    xs: Sequence[float]
    ys: Sequence[float]
    errors: Optional[Sequence[float]] = None
    dashed: bool = False
    color: str = ""


@dataclass
class Chart:
    title: str
    x_label: str
    y_label: str
    series: List[Series] = field(default_factory=list)
    width: int = 900
    height: int = 440


@dataclass
class _Frame:
    x_lo: float
    x_hi: float
    y_lo: float
    y_hi: float
    left: float = 80.0
    right: float = 390.0
    top: float = 44.0
    bottom: float = 56.0
    width: float = 900.0
    height: float = 440.0

    def px(self, x: float) -> float:
        pw = self.width - self.left - self.right
        return self.left + (math.log10(x) - self.x_lo) / (self.x_hi - self.x_lo) * pw

    def py(self, y: float) -> float:
        ph = self.height - self.top - self.bottom
        return self.top + ph - (math.log10(y) - self.y_lo) / (self.y_hi - self.y_lo) * ph


def _frame(chart: Chart) -> _Frame:
    xs = [x for s in chart.series for x in s.xs if x > 0]
    ys = []
    for s in chart.series:
        errs = s.errors or [0.0] * len(s.ys)
        ys += [y + e for y, e in zip(s.ys, errs) if y > 0]
        ys += [y - e if y - e > 0 else y for y, e in zip(s.ys, errs) if y > 0]
    x_lo, x_hi = math.log10(min(xs)), math.log10(max(xs))
    y_lo, y_hi = math.log10(min(ys)), math.log10(max(ys))
    x_pad, y_pad = max(0.05 * (x_hi - x_lo), 0.05), max(0.05 * (y_hi - y_lo), 0.05)
    return _Frame(x_lo - x_pad, x_hi + x_pad, y_lo - y_pad, y_hi + y_pad, width=chart.width, height=chart.height)


def _ticks(lo: float, hi: float) -> List[float]:
    """Tick values (not logs) inside [10^lo, 10^hi]."""
    mantissas = (1, 2, 5) if hi - lo < 2.2 else (1,)
    if hi - lo < 0.8:
        mantissas = (1, 1.5, 2, 3, 4, 5, 6, 8)
    out = []
    for k in range(math.floor(lo) - 1, math.ceil(hi) + 1):
        out += [m * 10.0 ** k for m in mantissas if lo <= math.log10(m * 10.0 ** k) <= hi]
    return out


def _label(v: float) -> str:
    k = round(math.log10(v))
    if abs(v - 10.0 ** k) < 1e-9 * v and (k < -2 or k > 4):
        return f"1e{k}"
    return f"{v:g}"


def _grid(chart: Chart, f: _Frame) -> List[str]:
    out = []
    top, bottom, left, right = f.top, f.height - f.bottom, f.left, f.width - f.right
    for x in _ticks(f.x_lo, f.x_hi):
        out.append(f'<line x1="{f.px(x):.2f}" y1="{top:.2f}" x2="{f.px(x):.2f}" y2="{bottom:.2f}" stroke="#e6e6e6"/>')
        out.append(f'<text x="{f.px(x):.2f}" y="{bottom + 18:.2f}" text-anchor="middle">{_label(x)}</text>')
    for y in _ticks(f.y_lo, f.y_hi):
        out.append(f'<line x1="{left:.2f}" y1="{f.py(y):.2f}" x2="{right:.2f}" y2="{f.py(y):.2f}" stroke="#e6e6e6"/>')
        out.append(f'<text x="{left - 6:.2f}" y="{f.py(y) + 4:.2f}" text-anchor="end">{_label(y)}</text>')
    out.append(f'<rect x="{left:.2f}" y="{top:.2f}" width="{right - left:.2f}" height="{bottom - top:.2f}" '
               'fill="none" stroke="black"/>')
    out.append(f'<text x="{(left + right) / 2:.2f}" y="{f.height - 14:.2f}" text-anchor="middle">'
               f'{escape(chart.x_label)} (log scale)</text>')
    mid = (top + bottom) / 2
    out.append(f'<text x="18" y="{mid:.2f}" transform="rotate(-90 18 {mid:.2f})" text-anchor="middle">'
               f'{escape(chart.y_label)} (log scale)</text>')
    return out


def _series(s: Series, k: int, color: str, f: _Frame) -> List[str]:
    dash = ' stroke-dasharray="6 4"' if s.dashed else ""
    pts = [(x, y) for x, y in zip(s.xs, s.ys) if x > 0 and y > 0]
    line = " ".join(f"{f.px(x):.2f},{f.py(y):.2f}" for x, y in pts)
    out = [f'<polyline fill="none" stroke="{color}" stroke-width="1.6"{dash} points="{line}"/>']
    if not s.dashed:
        for i, (x, y) in enumerate(zip(s.xs, s.ys)):
            if x <= 0 or y <= 0:
                continue
            e = s.errors[i] if s.errors else 0.0
            if e > 0:
                lo = f.py(max(y - e, 10.0 ** f.y_lo))
                out.append(f'<line x1="{f.px(x):.2f}" y1="{lo:.2f}" x2="{f.px(x):.2f}" y2="{f.py(y + e):.2f}" '
                           f'stroke="{color}"/>')
            out.append(f'<circle cx="{f.px(x):.2f}" cy="{f.py(y):.2f}" r="3" fill="{color}"/>')
    lx, ly = f.width - f.right + 12, f.top + 14 + 20.0 * k
    out.append(f'<line x1="{lx:.2f}" y1="{ly:.2f}" x2="{lx + 22:.2f}" y2="{ly:.2f}" stroke="{color}" '
               f'stroke-width="2"{dash}/>')
    out.append(f'<text x="{lx + 28:.2f}" y="{ly + 4:.2f}">{escape(s.name)}</text>')
    return out


def render(chart: Chart) -> str:
    """The chart as SVG text (deterministic: the same chart gives the same bytes)."""
    f = _frame(chart)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{chart.width}" height="{chart.height}" '
           'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{f.left:.1f}" y="24" font-size="15">{escape(chart.title)}</text>']
    out += _grid(chart, f)
    k_color = 0
    for k, s in enumerate(chart.series):
        color = s.color or PALETTE[k_color % len(PALETTE)]
        k_color += 0 if s.color else 1
        out += _series(s, k, color, f)
    out.append("</svg>")
    return "\n".join(out) + "\n"
