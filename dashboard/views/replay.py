"""Replay page: step through a game event by event (shared/DESIGN.md §8), in the manner of
the Tenhou log viewer.

Pick a game and a hand; the table after the current event is drawn with Unicode tiles
(all four hands or one seat's view): discards as ponds of rows of six (a claimed tile marked
with the wind that took it), sets with the claimed tile sideways on the side it came from,
wild tiles (精) and flowers marked, a win laid out with its winning tile apart and its fans
or conditions beside it. Each event is said in words, English and Chinese (the describer
``paipu replay`` shares). Buttons, a slider and keys step through: ← → event, ↑ ↓ hand,
c next claim, k next kong, w next win, f next finding, Home the start. A timeline of the
hand marks claims, kongs, wins and findings; a chart shows the scores over the hands. The
URL carries ``?game=ID&seq=N`` (and ``seat``), so a copied link reopens the same game at
the same event. Findings of the audit replay are listed and marked at their events.
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from dashboard import data as D
from dashboard.charts import scores_chart
from dashboard.common import bad_param, game_links, need_games, read_game_log, start_page
from dashboard.keys import REPLAY_KEYS, bind_keys
from dashboard.table import event_html, table_html, timeline_html, win_html, words_html
from eventlog.describe import hand_ordinal
from eventlog.view import seat_view
from replayer.rules.base import score_unit_of
from replayer.view import seat_state_view

PAGE = "views/replay.py"
#: The view showing every seat's concealed tiles; "seat N" shows only seat N's.
ALL_HANDS = "all hands"
ss = st.session_state

#: Jump targets: button label → event types (a claim takes a discard: chow, pung, melded kong).
JUMPS = {
    "next claim": lambda e: e.type in ("chow", "pung") or (e.type == "kong" and e.payload.kind == "melded"),
    "next kong": lambda e: e.type == "kong",
    "next win": lambda e: e.type in ("win_declared", "exhaustive_draw"),
}

data = start_page("Replay", compact=True)
log_v, games = need_games(data)
ids = [g["game_id"] for g in games]

# ---- a link (?game=&seq=&seat=) opened or changed: it wins over the widgets' state
qp = st.query_params
link = (qp.get("game"), qp.get("seq"), qp.get("seat"))
if link != ss.get("rp_link"):
    ss.rp_link = link
    game_q, seq_q, seat_q = link
    if game_q is not None:
        if game_q not in ids:
            st.error(f"There is no game `{game_q}` in `{D.log_name(data)}`. Pick one of these games:")
            game_links(games, PAGE)
            st.stop()
        ss.rp_game = game_q
        ss.rp_seq_wanted = seq_q
        ss.rp_view = f"seat {seat_q}" if seat_q in ("0", "1", "2", "3") else ALL_HANDS
        if seat_q is not None and seat_q not in ("0", "1", "2", "3"):
            ss.rp_notice_seat = seat_q

if ss.get("rp_game") not in ids:
    ss.rp_game = ids[0]


def _game_changed() -> None:
    ss.rp_seq = 0


top = st.columns([5, 3, 6])
rulesets = {g["game_id"]: g["ruleset"] for g in games}
game_id = top[0].selectbox("Game", ids, key="rp_game", on_change=_game_changed,
                           format_func=lambda g: f"{g}  ({rulesets[g]})")
steps = read_game_log(game_id, D.game_steps, str(data), log_v, game_id)
last = len(steps) - 1
if "rp_notice_seat" in ss:
    bad_param(game_id, "seat", ss.pop("rp_notice_seat"), "0..3", "every seat's hand")

wanted = ss.pop("rp_seq_wanted", None)
if wanted is not None:
    try:
        seq = int(wanted)
    except ValueError:
        seq = -1
    if 0 <= seq <= last:
        ss.rp_seq = seq
    else:
        st.error(f"Game `{game_id}` has no event {wanted} (its events are 0..{last}); "
                 "showing its first event. Other games:")
        with st.expander("all games"):
            game_links(games, PAGE)
        ss.rp_seq = 0
if not isinstance(ss.get("rp_seq"), int) or not 0 <= ss.rp_seq <= last:
    ss.rp_seq = 0

# ---- hands and findings of the game
hand_starts = [s.event.seq for s in steps if s.event.type == "hand_started"]
finding_seqs = sorted({s.event.seq for s in steps if s.findings})


def _hand_of(seq: int) -> int:
    k = 0
    for i, h in enumerate(hand_starts):
        if h <= seq:
            k = i
    return k


def _go(seq: int) -> None:
    ss.rp_seq = max(0, min(last, seq))


def _jump(pred) -> None:
    nxt = next((s.event.seq for s in steps[ss.rp_seq + 1:] if pred(s.event)), None)
    if nxt is not None:
        ss.rp_seq = nxt
    else:
        ss.rp_notice = "no such event after this one"


def _hand_changed() -> None:
    ss.rp_seq = hand_starts[ss.rp_hand] if hand_starts else 0


def _hand_step(d: int) -> None:
    """To the start of the previous (``d`` = −1: of this hand when past its start) or next hand."""
    if not hand_starts:
        return
    k = _hand_of(ss.rp_seq)
    if d < 0 and ss.rp_seq > hand_starts[k]:
        ss.rp_seq = hand_starts[k]
    else:
        ss.rp_seq = hand_starts[max(0, min(len(hand_starts) - 1, k + d))]


if hand_starts:
    ss.rp_hand = _hand_of(ss.rp_seq)
with top[1]:
    if hand_starts:
        st.selectbox(
            "Hand", list(range(len(hand_starts))), key="rp_hand", on_change=_hand_changed,
            format_func=lambda k: f"hand {hand_ordinal(steps[hand_starts[k]].event.payload.hand_number)} "
                                  f"(event {hand_starts[k]})",
        )
with top[2]:
    view = st.radio("View", [ALL_HANDS, "seat 0", "seat 1", "seat 2", "seat 3"],
                    key="rp_view", horizontal=True)
seat = None if view == ALL_HANDS else int(view.split()[1])

b = st.columns(5)
b[0].button("⏮ start", on_click=_go, args=(0,), width="stretch", help="key Home")
b[1].button("▲ hand", on_click=_hand_step, args=(-1,), width="stretch", help="key ↑: start of this or the previous hand")
b[2].button("◀ back", on_click=lambda: _go(ss.rp_seq - 1), width="stretch", help="key ←")
b[3].button("forward ▶", on_click=lambda: _go(ss.rp_seq + 1), width="stretch", help="key →")
b[4].button("▼ hand", on_click=_hand_step, args=(1,), width="stretch", help="key ↓: start of the next hand")
j = st.columns(4)
for col, (label, pred), key in zip(j[:3], JUMPS.items(), ("c", "k", "w")):
    col.button(label + " ⏭", on_click=_jump, args=(pred,), width="stretch", help=f"key {key}")
j[3].button("next finding ⚠", on_click=_jump, args=(lambda e: e.seq in finding_seqs,),
            width="stretch", disabled=not finding_seqs, help="key f")
bind_keys(REPLAY_KEYS)  # keys press these buttons (dashboard/keys.py; in a browser, not in AppTest)
st.caption("Keys: ← → event · ↑ ↓ hand · c next claim · k next kong · w next win · f next finding · Home start")
if last > 0:
    st.slider("Event", 0, last, key="rp_seq")
else:  # a slider needs two ends: a game of one event has only event 0
    st.caption("This game has one event (event 0).")
if finding_seqs:
    st.caption("⚠ findings at events " + ", ".join(str(x) for x in finding_seqs))
if ss.get("rp_notice"):
    st.caption(ss.pop("rp_notice"))

seq = ss.rp_seq
step = steps[seq]

# ---- the URL follows the current event: copy it to come back here
params = {"game": game_id, "seq": str(seq)}
if seat is not None:
    params["seat"] = str(seat)
if dict(qp) != params:
    qp.clear()
    qp.update(params)
ss.rp_link = (params["game"], params["seq"], params.get("seat"))

hand_k = _hand_of(seq) if hand_starts else 0
hand_lo = hand_starts[hand_k] if hand_starts else 0
hand_hi = hand_starts[hand_k + 1] - 1 if hand_k + 1 < len(hand_starts) else last


def _link(s: int) -> str:
    return "?" + urlencode({**params, "seq": str(s)})


shown = seat_view(step.event, seat)  # a seat view: the event as that seat sees it, no other seat's tiles
seen_state = seat_state_view(step.state, seat)  # and the table as that seat sees it
st.markdown(f'<b>Event {seq} of {last}:</b>' + words_html(shown, seen_state), unsafe_allow_html=True)
st.markdown(f'<span class="pp-event">{event_html(shown)}</span>', unsafe_allow_html=True)
st.markdown(timeline_html([s.event for s in steps[hand_lo:hand_hi + 1]], set(finding_seqs), seq, _link),
            unsafe_allow_html=True)
for f in step.findings:
    st.error(f"Finding at event {f.seq}: [{f.rule_id}] {f.message} — rule source: {f.source}")
wild = D.wild_tiles(step.state)
st.markdown(table_html(seen_state, shown, seat=seat,
                       finding_seats=frozenset(f.seat for f in step.findings if f.seat is not None),
                       notes=D.seat_notes(step.state), wild=wild),
            unsafe_allow_html=True)
for entry in step.state.score_log:  # payments made at this event (e.g. a kong paid at once, 下雨)
    if entry.seq == seq:
        st.info(f"Score changes at this event ({entry.kind}: {entry.reason}): {list(entry.changes)}")

for w in step.state.wins:
    fans = w.score.lines() if w.score is not None else ()
    fan_txt = ", ".join(f"{f.name_en} {f.name_zh} {f.value}" + (f"×{f.count}" if f.count > 1 else "") + f.note
                        for f in fans)
    how = "self-drawn" if w.self_drawn else f"on a discard from seat {w.from_seat}"
    st.success(f"Win: seat {w.seat}, {how}, {'legal' if w.legal else 'NOT LEGAL'}; "
               f"{score_unit_of(step.state.ruleset_id).amount(w.points)}: {fan_txt}"
               + (f"; score changes {list(w.settlement.changes)}" if w.settlement else ""))
    st.markdown(win_html(step.state, w, wild=wild), unsafe_allow_html=True)

hand_start = max((h for h in hand_starts if h <= seq), default=None)
entries = [e for e in step.state.score_log if hand_start is not None and e.seq > hand_start]
if entries:
    # every score change of this hand so far, by kind: wins, kong money, and what a ruleset pays
    # on its own (Changsha: opening small wins at once, birds after the win and whom they hit)
    st.markdown("**Score changes this hand**  \n" + "  \n".join(
        f"event {e.seq} · {html.escape(e.kind)} · {list(e.changes)} · {html.escape(e.reason, quote=False)}"
        for e in entries),
        unsafe_allow_html=True)

st.page_link(PAGE, label=f"🔗 Link to this event (game {game_id}, event {seq})", query_params=params)

# ---- scores over the hands of the game (after each finished hand)
final = steps[-1].state
if final.hands:
    names = [f"seat {i} · {final.players[i]}" if i < len(final.players) else f"seat {i}" for i in range(4)]
    rows, running = [], list(final.initial_scores)
    for i in range(4):
        rows.append({"step": 0, "label": "start", "seat": names[i], "score": running[i]})
    for k, h in enumerate(final.hands, 1):
        running = [a + b for a, b in zip(running, h.changes)]
        label = f"hand {hand_ordinal(h.hand_number)}" + (" (draw)" if h.exhaustive_draw else "")
        rows += [{"step": k, "label": label, "seat": names[i], "score": running[i]} for i in range(4)]
    st.altair_chart(scores_chart(pd.DataFrame(rows), "Scores over the hands of this game",
                                 current=min(hand_k + 1, len(final.hands))), width="stretch")

all_findings = [f for s in steps for f in s.findings]
with st.expander(f"Findings in this game: {len(all_findings)}", expanded=bool(all_findings)):
    if not all_findings:
        st.write("None: every event follows the rules of the game's ruleset.")
    for f in all_findings:
        c1, c2 = st.columns([1, 6])
        c1.button(f"event {f.seq}", key=f"rp_f_{f.seq}_{f.rule_id}", on_click=_go, args=(f.seq,))
        c2.markdown(f"**{f.rule_id}** — {f.message} *(source: {f.source})*")
    st.page_link("views/dispute.py", label="Dispute review of this game", query_params={"game": game_id})
