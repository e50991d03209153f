"""Altair charts of the dashboard (shared/DESIGN.md §8): rates with their 95 % Wilson
intervals, shares of wins, co-occurrence heat maps. Functions take the row dicts of
:mod:`analytics.queries` and return Altair charts; they compute nothing themselves."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd

__all__ = ["RATES", "rates_long", "rate_chart", "share_chart", "heatmap", "bar_chart", "scores_chart"]

#: The rates of ``Analytics.seat_stats`` shown, with their labels.
RATES = {"win_rate": "win", "self_draw_rate": "self-draw", "deal_in_rate": "deal-in"}


def rates_long(rows: list[dict[str, Any]], group: str) -> pd.DataFrame:
    """One row per (group, rate): ``group``, ``rate`` label, ``value``, ``low``, ``high``,
    ``n`` (the sample size: seat-hands)."""
    out = []
    for r in rows:
        for key, label in RATES.items():
            out.append({
                "group": str(r[group]) if group else "all",
                "rate": label,
                "value": r[key],
                "low": r[f"{key}_ci_low"],
                "high": r[f"{key}_ci_high"],
                "n": r["hands"],
            })
    return pd.DataFrame(out)


def rate_chart(df: pd.DataFrame, title: str) -> alt.Chart:
    """Dots at each rate with a line for its 95 % interval, one row per group, one colour
    per rate; tooltips give the sample size."""
    base = alt.Chart(df).encode(
        y=alt.Y("group:N", title=None, sort=None),
        yOffset=alt.YOffset("rate:N"),
        color=alt.Color("rate:N", title="rate"),
        tooltip=[
            alt.Tooltip("group:N"), alt.Tooltip("rate:N"),
            alt.Tooltip("value:Q", format=".1%"), alt.Tooltip("low:Q", format=".1%", title="95% low"),
            alt.Tooltip("high:Q", format=".1%", title="95% high"), alt.Tooltip("n:Q", title="sample (seat-hands)"),
        ],
    )
    rules = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title="rate (95 % Wilson interval)", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        x2="high:Q",
    )
    dots = base.mark_point(filled=True, size=70).encode(x="value:Q")
    return (rules + dots).properties(title=title, height=alt.Step(14))


def share_chart(df: pd.DataFrame, label: str, title: str) -> alt.Chart:
    """Horizontal bars of ``share`` with ``low``/``high`` interval lines, one per ``label``."""
    base = alt.Chart(df).encode(y=alt.Y(f"{label}:N", sort="-x", title=None, axis=alt.Axis(labelLimit=320)))
    bars = base.mark_bar(opacity=0.75).encode(
        x=alt.X("share:Q", title="share of wins (95 % Wilson interval)", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip(f"{label}:N"), alt.Tooltip("share:Q", format=".1%"),
                 alt.Tooltip("count:Q", title="wins with it"), alt.Tooltip("n:Q", title="wins")],
    )
    err = base.mark_rule(color="black").encode(x="low:Q", x2="high:Q")
    return (bars + err).properties(title=title)


def heatmap(df: pd.DataFrame, title: str, order: list[str]) -> alt.Chart:
    """Fan × fan heat map of ``both`` (wins holding both fans), with the count written in;
    both axes list the fans in ``order``."""
    base = alt.Chart(df).encode(
        # labelOverlap=False: Vega-Lite hides overlapping labels by default (one column in
        # eight was labelled); every row and column of the heat map is a fan and is named
        x=alt.X("fan_a:N", title=None, sort=order,
                axis=alt.Axis(labelLimit=220, labelAngle=-45, labelOverlap=False)),
        y=alt.Y("fan_b:N", title=None, sort=order, axis=alt.Axis(labelLimit=220, labelOverlap=False)),
    )
    rect = base.mark_rect().encode(
        color=alt.Color("both:Q", title="wins with both", scale=alt.Scale(scheme="oranges")),
        tooltip=["fan_a:N", "fan_b:N", alt.Tooltip("both:Q", title="wins with both"),
                 alt.Tooltip("share:Q", format=".1%", title="share of wins"), alt.Tooltip("lift:Q", format=".2f")],
    )
    text = base.mark_text(fontSize=10).encode(text="both:Q")
    return (rect + text).properties(title=title)


def bar_chart(df: pd.DataFrame, x: str, y: str, title: str, x_title: str, y_title: str) -> alt.Chart:
    """Plain bars of ``y`` over the ordinal ``x``."""
    return alt.Chart(df).mark_bar().encode(
        x=alt.X(f"{x}:O", title=x_title), y=alt.Y(f"{y}:Q", title=y_title, axis=alt.Axis(tickMinStep=1)),
        tooltip=[f"{x}:O", f"{y}:Q"],
    ).properties(title=title)


def scores_chart(df: pd.DataFrame, title: str, current: int | None = None) -> alt.Chart:
    """Each seat's score over the hands of a game: ``df`` rows ``step`` (0 = the start, k =
    after the k-th finished hand), ``label`` (the hand's name), ``seat`` (seat and player),
    ``score``; a red rule at step ``current`` (the hand being replayed)."""
    base = alt.Chart(df).encode(
        x=alt.X("step:Q", title="after hand (0 = start)", axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("score:Q", title="score"),
        color=alt.Color("seat:N", title=None),
        tooltip=[alt.Tooltip("label:N", title="after"), "seat:N", "score:Q"],
    )
    chart = base.mark_line(point=True)
    if current is not None:
        rule = alt.Chart(pd.DataFrame({"step": [current]})).mark_rule(color="#d33", strokeDash=[4, 3]).encode(x="step:Q")
        return (chart + rule).properties(title=title, height=220)
    return chart.properties(title=title, height=220)
