"""Tournament page: standings per round (players and teams), each player's games with their
round, table, session, score and table points, and the penalties and rulings — from the
tournament file and the games in the event log (analytics/tournament.py). ``?tournament=NAME``
selects one; ``paipu tournament create`` makes one."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics.tournament import standings, table_points
from dashboard import data as D
from dashboard.common import read_game_log, start_page

ss = st.session_state
data = start_page("Tournament")
names = D.tournaments(data)
if not names:
    st.info(f"No tournament in `{data}/tournaments` yet. Create one and add games:")
    st.code(f"paipu tournament create NAME --data {data}\n"
            f"paipu tournament add-game NAME GAME_ID --round 1 --table A --data {data}", language="bash")
    st.stop()

wanted = st.query_params.get("tournament")
if wanted is not None and wanted not in names:
    st.error(f"No tournament called `{wanted}` in `{data}/tournaments`.")
elif wanted is not None:
    ss.tn_name = wanted
if ss.get("tn_name") not in names:
    ss.tn_name = names[0]
name = st.selectbox("Tournament", names, key="tn_name")
st.query_params["tournament"] = name

view = read_game_log(None, D.tournament_view, str(data), D.log_version(data), name, D.tournament_stamp(data, name))
t, results = view["tournament"], view["results"]
mcr = t.created.scoring == "mcr_table_points"
rounds = sorted({r.record.round for r in results})
st.caption(f"{t.created.title or name} — scoring `{t.created.scoring}`; {len(results)} games in "
           f"{len(rounds)} rounds")
if not results:
    st.info("No game in this tournament yet: `paipu tournament add-game`.")
    st.stop()
if any(r.provisional for r in results):
    st.warning("Provisional: some games were scored with pattern values a federation has not confirmed "
               "(competition.md §A6.2); the lines marked provisional may change.")

through = st.select_slider("Standings after round", options=rounds, value=rounds[-1], key="tn_round") \
    if len(rounds) > 1 else rounds[0]


def frame(lines) -> pd.DataFrame:
    return pd.DataFrame([{
        "rank": s.rank, "name": s.name, "team": s.team, "games": s.games,
        **({"table points": float(s.table_points)} if mcr else {"标准分": s.standard_points}),
        ("score" if mcr else "总局分"): s.score, "penalties": s.penalty_points,
        "provisional": s.provisional,
    } for s in lines])


st.subheader(f"Standings after round {through}")
st.dataframe(frame(standings(t, results, through_round=through)), hide_index=True, width="stretch")
if t.teams:
    st.subheader("Teams")
    st.dataframe(frame(standings(t, results, through_round=through, teams=True)).drop(columns=["team"]),
                 hide_index=True, width="stretch")

st.subheader("A player's games")
players = sorted({p for r in results for p in r.players})
player = st.selectbox("Player", players, key="tn_player")
rows = []
for r in results:
    if player in r.players:
        seat = r.players.index(player)
        rows.append({"round": r.record.round, "table": r.record.table, "session": r.record.session,
                     "game": r.record.game_id, "seat": seat, "score": r.scores[seat],
                     "table points": table_points(r.scores)[seat] / 12,
                     "finished": r.finished, "findings": r.findings, "provisional": r.provisional})
st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")

st.subheader("Penalties and rulings")
lines = [{"round": p.round, "where": "standings", "who": p.player, "points": p.points, "rule": p.rule,
          "what": p.reason, "referee": p.referee} for p in t.penalties]
lines += [{"round": r.record.round, "where": f"game {r.record.game_id}", "who": ", ".join(r.players),
           "points": None, "rule": "", "what": text, "referee": ""} for r in results for text in r.rulings]
if lines:
    st.dataframe(pd.DataFrame(lines), hide_index=True, width="stretch")
else:
    st.write("None.")
