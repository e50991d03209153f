"""Fans page: how often each fan (scoring condition) appears in legal wins — share of wins
with its 95 % interval and count, its value in the ruleset's own unit (ScoreUnit: MCR points,
Sichuan fan, Changsha points per unit, Nanchang factors) —, the distribution of win totals, and which fans come
together (co-occurrence heat map); filtered by ruleset, player and date
(shared/DESIGN.md §7-§8). Every number comes from analytics.queries."""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from dashboard.charts import bar_chart, heatmap, share_chart
from dashboard.common import exported_summary, fmt_rate, need_export, start_page, stat
from replayer.rules.base import score_unit_of

data = start_page("Fans")
v = need_export(data)

summary, rulesets = exported_summary(data, v)
players = [r["player"] for r in stat(data, v, "seat_stats", "player")]
dates = [date.fromisoformat(d) for r in summary["rulesets"] for d in (r["date_from"], r["date_to"]) if d]

sb = st.sidebar
ruleset = sb.selectbox("Ruleset", rulesets, key="fa_ruleset")
unit = score_unit_of(ruleset)  # what this ruleset's totals and fan values count (its own declaration)
player_choice = sb.selectbox("Player (the winner)", ["all players"] + players, key="fa_player")
player = None if player_choice == "all players" else player_choice
filters: dict = {"ruleset": ruleset, "player": player}
if dates:
    lo, hi = min(dates), max(dates)
    picked = sb.date_input("Dates", value=(lo, hi), min_value=lo, max_value=hi, key="fa_dates")
    if isinstance(picked, (tuple, list)) and len(picked) == 2 and (picked[0], picked[1]) != (lo, hi):
        filters.update(date_from=picked[0].isoformat(), date_to=picked[1].isoformat())

freq = stat(data, v, "fan_frequency", **filters)
wins = freq[0]["wins"] if freq else 0
st.markdown(f"**{wins}** legal wins under these filters ({ruleset}"
            + (f", won by {player}" if player else "")
            + (f", {filters['date_from']} … {filters['date_to']}" if "date_from" in filters else "") + ").")
if not freq:
    st.info("No win matches these filters.")
    st.stop()

st.subheader("Fan frequency")
df = pd.DataFrame([
    {"fan": f"{r['name_en']} {r['name_zh']}", "share": r["share_of_wins"], "low": r["share_of_wins_ci_low"],
     "high": r["share_of_wins_ci_high"], "count": r["wins_with_fan"], "n": r["wins"]}
    for r in freq
])
st.altair_chart(share_chart(df, "fan", "Share of wins holding each fan"), width="stretch")
st.dataframe(
    pd.DataFrame([
        {"fan": r["name_en"], "中文": r["name_zh"], f"value ({unit.item})": unit.item_value(r["points"]),
         "wins with it": r["wins_with_fan"],
         "wins (sample)": r["wins"],
         "share of wins (95 % CI)": fmt_rate(r["share_of_wins"], r["share_of_wins_ci_low"], r["share_of_wins_ci_high"]),
         "times counted": r["times_counted"]}
        for r in freq
    ]),
    hide_index=True, width="stretch",
)

st.subheader(f"Distribution of win totals ({unit.total[1]})")
pts = stat(data, v, "points_distribution", **filters)
c1, c2 = st.columns([3, 2])
c1.altair_chart(bar_chart(pd.DataFrame(pts), "total", "wins", "Wins by computed total",
                          f"computed total of the win ({unit.total[1]})", "wins"), width="stretch")
c2.dataframe(
    pd.DataFrame([
        {f"total ({unit.total[1]})": r["total"], "wins": r["wins"], "wins (sample)": r["all_wins"],
         "share (95 % CI)": fmt_rate(r["share"], r["share_ci_low"], r["share_ci_high"])}
        for r in pts
    ]),
    hide_index=True, width="stretch",
)

st.subheader("Fans that come together")
co = stat(data, v, "fan_cooccurrence", limit=None, **filters)
if not co:
    st.write("No two fans share a win under these filters.")
else:
    cells = []
    for r in co:
        for a, b in ((r["fan_a"], r["fan_b"]), (r["fan_b"], r["fan_a"])):
            cells.append({"fan_a": a, "fan_b": b, "both": r["wins_with_both"],
                          "share": r["share_of_wins"], "lift": r["lift"]})
    order = [r["name_en"] for r in freq]  # most frequent first, on both axes
    st.altair_chart(heatmap(pd.DataFrame(cells), "Wins holding both fans (fans by frequency)", order),
                    width="stretch")
    st.dataframe(
        pd.DataFrame([
            {"fan A": r["fan_a"], "fan B": r["fan_b"], "wins with both": r["wins_with_both"],
             "wins (sample)": r["wins"],
             "P(B | A) (95 % CI)": fmt_rate(r["p_b_given_a"], r["p_b_given_a_ci_low"], r["p_b_given_a_ci_high"]),
             "lift": round(r["lift"], 2)}
            for r in co
        ]),
        hide_index=True, width="stretch",
    )
