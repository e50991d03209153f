"""Players page: find a player (search by part of a name or of an alias), then the player's
placements (1st–4th, average placement, with the number of games), win, self-draw and
deal-in rates against the whole field, by seat and as dealer, the deal-in rate by turn of
the hand, claim rate, and points per game over time (shared/DESIGN.md §7-§8). Player
aliases (``paipu players alias``) count as one player everywhere. ``?player=NAME`` selects the
player (an alias selects its player). Every number comes from analytics.queries."""

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

aliases = {r["alias"]: r["player"] for r in stat(data, v, "player_aliases")}
wanted = st.query_params.get("player")
if wanted is not None and wanted != ss.get("pl_link"):
    ss.pl_link = wanted
    wanted = aliases.get(wanted, wanted)
    if wanted in players:
        ss.pl_player = wanted
        ss.pl_search = ""
    else:
        st.error(f"No player called `{wanted}` in the export{f' ({ruleset})' if ruleset else ''}.")
search = st.text_input("Search players", key="pl_search", placeholder="part of a name or of an alias")
shown = players
if search.strip():
    q = search.strip().casefold()
    hits = {p for p in players if q in p.casefold()} | {p for a, p in aliases.items() if q in a.casefold()}
    shown = [p for p in players if p in hits]
    st.caption(f"{len(shown)} of {len(players)} players match “{search.strip()}”")
    if not shown:
        st.info("No player matches; clear the search to see every player.")
        st.stop()
if ss.get("pl_player") not in shown:
    ss.pl_player = shown[0]
player = st.selectbox("Player", shown, key="pl_player")
st.query_params["player"] = player
ss.pl_link = player
mine_aliases = sorted(a for a, p in aliases.items() if p == player)
if mine_aliases:
    st.caption("Also known as: " + ", ".join(mine_aliases) + " (`paipu players alias`; counted as one player)")

me = next(r for r in everyone if r["player"] == player)
field = stat(data, v, "seat_stats", (), ruleset=ruleset)[0]

m = st.columns(5)
m[0].metric("hands played", me["hands"])
m[1].metric("wins", me["wins"])
m[2].metric("win rate", f"{100 * me['win_rate']:.1f} %",
            delta=f"{100 * (me['win_rate'] - field['win_rate']):+.1f} pts vs field")
m[3].metric("deal-in rate", f"{100 * me['deal_in_rate']:.1f} %",
            delta=f"{100 * (me['deal_in_rate'] - field['deal_in_rate']):+.1f} pts vs field", delta_color="inverse")
m[4].metric("avg score change / hand", "—" if me["avg_score_change"] is None else f"{me['avg_score_change']:+.1f}",
            help=None if me["avg_score_change"] is not None else
            f"{len(me['rulesets'])} rulesets: their scores are in different units — choose one")

st.subheader("Placements")
places = stat(data, v, "placements", ruleset=ruleset)
mine_p = next((r for r in places if r["player"] == player), None)
if mine_p is None:
    st.write("No finished game.")
else:
    n_games = sum(r["games"] for r in places)
    field_avg = sum(r["avg_placement"] * r["games"] for r in places) / n_games
    st.dataframe(pd.DataFrame([
        {"placements of": who, "games (sample)": r["games"], "1st": r["first"], "2nd": r["second"], "3rd": r["third"],
         "4th": r["fourth"], "average placement": round(r["avg_placement"], 2),
         "1st rate (95 % CI)": fmt_rate(r["first_rate"], r["first_rate_ci_low"], r["first_rate_ci_high"]),
         "points per game": (round(r["points_per_game"], 1) if r["points_per_game"] is not None
                             else f"— ({len(r['rulesets'])} rulesets: choose one)")}
        for who, r in ((player, mine_p),)
    ] + [{"placements of": "all players", "games (sample)": n_games, "average placement": round(field_avg, 2)}]),
        hide_index=True, width="stretch")
    st.caption("Place 1–4 by final score in each game; tied seats share the better place (1-2-2-4).")
    st.altair_chart(
        alt.Chart(pd.DataFrame([{"place": k, "games": mine_p[key]} for k, key in
                                (("1st", "first"), ("2nd", "second"), ("3rd", "third"), ("4th", "fourth"))]))
        .mark_bar().encode(x=alt.X("place:O", sort=None), y=alt.Y("games:Q", axis=alt.Axis(tickMinStep=1)),
                           tooltip=["place:O", "games:Q"])
        .properties(title=f"{player}: games by place ({mine_p['games']} games)", height=180),
        width="stretch")

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
         "avg score change": None if r["avg_score_change"] is None else round(r["avg_score_change"], 1)}
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

st.subheader("Deal-in rate by turn of the hand")
turn_rows = ([dict(r, who=player) for r in stat(data, v, "deal_in_by_turn", ruleset=ruleset, player=player)]
             + [dict(r, who="all players") for r in stat(data, v, "deal_in_by_turn", ruleset=ruleset)])
if turn_rows:
    tdf = pd.DataFrame(turn_rows)
    base = alt.Chart(tdf).encode(
        x=alt.X("turn:O", title="turn (the seat's k-th discard of the hand; 18 = 18th and later)"),
        color=alt.Color("who:N", title=None), xOffset="who:N",
        tooltip=["who:N", "turn:O", alt.Tooltip("discards:Q", title="discards (sample)"), "deal_ins:Q",
                 alt.Tooltip("deal_in_rate:Q", format=".1%")])
    st.altair_chart(
        (base.mark_point(filled=True).encode(y=alt.Y("deal_in_rate:Q", axis=alt.Axis(format="%"),
                                                       title="deal-in rate (95 % interval)"))
         + base.mark_rule().encode(y="deal_in_rate_ci_low:Q", y2="deal_in_rate_ci_high:Q"))
        .properties(title="Deal-ins per discard, by turn", height=220),
        width="stretch")

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

st.subheader("Points per game over time")
games_df = pd.DataFrame(stat(data, v, "player_games", ruleset=ruleset, player=player))
if not games_df.empty:
    games_df.insert(0, "game number", range(1, len(games_df) + 1))
    games_df["average of the last 10"] = games_df["points"].rolling(10, min_periods=1).mean()
    long = games_df.melt(id_vars=["game number", "game_id", "date", "placement"],
                         value_vars=["points", "average of the last 10"], var_name="series", value_name="value")
    st.altair_chart(
        alt.Chart(long).mark_line(point=True).encode(
            x=alt.X("game number:Q", axis=alt.Axis(tickMinStep=1), title="game (log order)"),
            y=alt.Y("value:Q", title="points (final − initial score)"), color=alt.Color("series:N", title=None),
            tooltip=["game number:Q", "game_id:N", "date:N", "placement:Q", "series:N",
                     alt.Tooltip("value:Q", format=".1f")],
        ).properties(title=f"{player}: points per game ({len(games_df)} games)", height=240),
        width="stretch")

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
