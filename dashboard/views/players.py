"""Players page: one player's win, self-draw and deal-in rates against the whole field,
by seat and as dealer, claim rate, and results over time (shared/DESIGN.md §7-§8).
``?player=NAME`` selects the player. Every number comes from analytics.queries."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from dashboard.charts import rate_chart, rates_long
from dashboard.common import fmt_rate, need_export, start_page, stat

ss = st.session_state
data = start_page("Players")
v = need_export(data)

summary = stat(data, v, "summary")
rulesets = [r["ruleset"] for r in summary["rulesets"]]
choice = st.sidebar.selectbox("Ruleset", ["all"] + rulesets, key="pl_ruleset")
ruleset = None if choice == "all" else choice
everyone = stat(data, v, "seat_stats", "player", ruleset=ruleset)
players = [r["player"] for r in everyone]
if not players:
    st.info(f"The export in `{data}/parquet` holds no finished game yet.")
    st.stop()

wanted = st.query_params.get("player")
if wanted is not None and wanted != ss.get("pl_link"):
    ss.pl_link = wanted
    if wanted in players:
        ss.pl_player = wanted
    else:
        st.error(f"No player called `{wanted}` in the export{f' ({ruleset})' if ruleset else ''}.")
if ss.get("pl_player") not in players:
    ss.pl_player = players[0]
player = st.selectbox("Player", players, key="pl_player")
st.query_params["player"] = player
ss.pl_link = player

me = next(r for r in everyone if r["player"] == player)
field = stat(data, v, "seat_stats", (), ruleset=ruleset)[0]

m = st.columns(5)
m[0].metric("hands played", me["hands"])
m[1].metric("wins", me["wins"])
m[2].metric("win rate", f"{100 * me['win_rate']:.1f} %",
            delta=f"{100 * (me['win_rate'] - field['win_rate']):+.1f} pts vs field")
m[3].metric("deal-in rate", f"{100 * me['deal_in_rate']:.1f} %",
            delta=f"{100 * (me['deal_in_rate'] - field['deal_in_rate']):+.1f} pts vs field", delta_color="inverse")
m[4].metric("avg score change / hand", f"{me['avg_score_change']:+.1f}")

st.subheader("Against the field")
rows = [dict(me, who=player), dict(field, who="all players")]
st.altair_chart(rate_chart(rates_long(rows, "who"), f"{player} against all players (95 % intervals)"),
                width="stretch")


def _table(rows: list[dict], key: str, label: str) -> pd.DataFrame:
    return pd.DataFrame([
        {label: r[key], "hands (sample)": r["hands"], "wins": r["wins"],
         "win rate (95 % CI)": fmt_rate(r["win_rate"], r["win_rate_ci_low"], r["win_rate_ci_high"]),
         "self-draw rate": fmt_rate(r["self_draw_rate"], r["self_draw_rate_ci_low"], r["self_draw_rate_ci_high"]),
         "deal-in rate": fmt_rate(r["deal_in_rate"], r["deal_in_rate_ci_low"], r["deal_in_rate_ci_high"]),
         "avg score change": round(r["avg_score_change"], 1)}
        for r in rows
    ])


st.dataframe(_table(rows, "who", "who"), hide_index=True, width="stretch")

c1, c2 = st.columns(2)
with c1:
    st.subheader("By seat")
    st.dataframe(_table(stat(data, v, "seat_stats", "seat", ruleset=ruleset, player=player), "seat", "seat"),
                 hide_index=True, width="stretch")
with c2:
    st.subheader("As dealer")
    st.dataframe(_table(stat(data, v, "seat_stats", "dealer", ruleset=ruleset, player=player), "dealer", "dealer"),
                 hide_index=True, width="stretch")

st.subheader("Claims")
mine = [r for r in stat(data, v, "claim_rates", "player", ruleset=ruleset) if r["player"] == player]
field_claims = stat(data, v, "claim_rates", "ruleset", ruleset=ruleset)
claim_rows = [dict(r, who=player) for r in mine] + [dict(r, who=f"all players ({r['ruleset']})") for r in field_claims]
st.dataframe(pd.DataFrame([
    {"who": r["who"], "discards seen (sample)": r["discards_seen"], "chows": r["chows"], "pungs": r["pungs"],
     "melded kongs": r["melded_kongs"],
     "claim rate (95 % CI)": fmt_rate(r["claim_rate"], r["claim_rate_ci_low"], r["claim_rate_ci_high"])}
    for r in claim_rows
]), hide_index=True, width="stretch")

st.subheader("Results over time")
hist = pd.DataFrame(stat(data, v, "player_history", player, ruleset=ruleset))
if hist.empty:
    st.write("No finished game.")
else:
    hist["cumulative score"] = hist["score_change"].cumsum()
    hist.insert(0, "game number", range(1, len(hist) + 1))
    st.altair_chart(
        alt.Chart(hist).mark_line(point=True).encode(
            x=alt.X("game number:Q", axis=alt.Axis(tickMinStep=1)), y=alt.Y("cumulative score:Q"),
            tooltip=["game number:Q", "game_id:N", "date:N", "seat:Q", "wins:Q", "deal_ins:Q",
                     "score_change:Q", "cumulative score:Q"],
        ).properties(title=f"{player}: cumulative score change, game by game (log order)"),
        width="stretch",
    )
    st.dataframe(hist, hide_index=True, width="stretch")
