"""Decision review page: the rules-based efficiency review of one seat in a game
(replayer/review.py) — not an AI's opinion.

For the chosen game, seat and hand: every discard of the seat with its shanten before and
after, the improving tiles it kept (with the copies unseen from that seat's view), the best
discards and whether it played one of them; a discard picked from the list shows the hand and
every possible discard. Above: the seat's summary and every seat's, for the whole game.
``?game=ID&seat=N&hand=K`` select. Read-only.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from dashboard import data as D
from dashboard.common import bad_param, game_links, need_games, read_game_log, start_page
from dashboard.tiles import tiles_html
from eventlog import tiles as T
from eventlog.describe import hand_ordinal
from replayer.review import LABEL, shanten_change_words, shanten_words

PAGE = "views/review.py"
ss = st.session_state

data = start_page("Decision review")
st.info("**" + LABEL + "**", icon="📐")
log_v, games = need_games(data)
ids = [g["game_id"] for g in games]

qp = st.query_params
link = qp.get("game")
if link is not None and link not in ids:
    st.error(f"There is no game `{link}` in `{D.log_name(data)}`. Pick one of these games:")
    game_links(games, PAGE)
    st.stop()
if link is not None and link != ss.get("rv_link"):
    ss.rv_link = link
    ss.rv_game = link
if ss.get("rv_game") not in ids:
    ss.rv_game = ids[0]


@st.cache_resource(show_spinner="Reviewing every discard of the game …", max_entries=16)
def _review(data: str, version, game_id: str):
    from replayer.review import review_game

    store = D._open(Path(data))
    try:
        events = list(store.read_game(game_id))
    finally:
        store.close()
    return review_game(events)


c1, c2, c3 = st.columns([3, 1, 1])
game_id = c1.selectbox("Game", ids, key="rv_game")
seat_q = qp.get("seat")
seat_ok = seat_q is None or seat_q in ("0", "1", "2", "3")
seat = c2.selectbox("Seat", [0, 1, 2, 3], index=int(seat_q) if seat_q is not None and seat_ok else 0)
r = read_game_log(game_id, _review, str(data), log_v, game_id, verb="reviewed")
if not seat_ok:
    bad_param(game_id, "seat", str(seat_q), "0..3", "seat 0")
hands = sorted({h.hand_number for h in r.hands if h.hand_number is not None})
hand_q = qp.get("hand")
hand_opts = ["all"] + hands
hand_ok = hand_q is None or (hand_q.isdigit() and int(hand_q) in hands)
hand_idx = hand_opts.index(int(hand_q)) if hand_q is not None and hand_ok else 0
if not hand_ok:  # ?hand= is the data's hand_number (0-based); people see it counted from 1
    bad_param(game_id, "hand", str(hand_q),
              f"{hands[0]}..{hands[-1]}, shown as hands {hand_ordinal(hands[0])}..{hand_ordinal(hands[-1])}"
              if hands else "none", "all hands")
hand = c3.selectbox("Hand", hand_opts, index=hand_idx,  # counted from 1 for people (data: hand_number)
                    format_func=lambda k: k if k == "all" else f"hand {hand_ordinal(k)}")
qp["game"] = game_id
qp["seat"] = str(seat)
if hand == "all":
    qp.pop("hand", None)
else:
    qp["hand"] = str(hand)
ss.rv_link = game_id

st.caption(f"Ruleset {r.ruleset}; winning shapes from {'; '.join(r.shape_sources) or 'the ruleset defaults'}.")

# ---- summaries: the seat, every seat, the game
st.subheader("Summary")
summary = next(s for s in r.seats if s.seat == seat)
m = st.columns(4)
m[0].metric("discards reviewed", summary.discards)
m[1].metric("kept the most improving tiles",
            "–" if summary.share_kept_best is None else f"{100 * summary.share_kept_best:.0f} %")
m[2].metric("hands ready (听牌)", f"{summary.ready_hands} of {summary.hands}")
m[3].metric("mean discard when ready", "–" if summary.mean_ready_turn is None else f"{summary.mean_ready_turn:.1f}")
st.dataframe(pd.DataFrame([
    {"seat": "all" if s.seat < 0 else str(s.seat), "discards": s.discards, "kept the maximum": s.kept_best,
     "share": "–" if s.share_kept_best is None else f"{100 * s.share_kept_best:.0f} %",
     "hands": s.hands, "ready in": s.ready_hands,
     "mean discard when ready": "–" if s.mean_ready_turn is None else f"{s.mean_ready_turn:.1f}"}
    for s in (*r.seats, r.total)
]), hide_index=True, width="stretch")


def _waits(waits) -> str:
    """The legal waits (replayer.actions.WinningTile), each saying when it wins one way only."""
    return " ".join(f"{T.to_unicode(w.tile)} {w.tile}" + (f" ({w.how})" if w.how else "") for w in waits)


# ---- the seat's discards
mine = [h for h in r.hands if h.seat == seat and (hand == "all" or h.hand_number == hand)]
st.subheader(f"Seat {seat}'s discards")
for h in mine:
    if not h.reviewable:
        st.warning(f"Hand {hand_ordinal(h.hand_number)}: not reviewable — {h.reason}")
        continue
    ready = (f"ready (听牌) after discard {h.ready_turn} (event {h.ready_seq})" if h.ready_turn
             else "never ready")
    st.markdown(f"**Hand {hand_ordinal(h.hand_number)}** — {len(h.discards)} discards, "
                f"{sum(d.kept_best for d in h.discards)} kept the most improving tiles; {ready}"
                + ("; **won**" if h.won else ""))
    if not h.discards:
        continue
    st.dataframe(pd.DataFrame([
        {"#": d.turn, "event": d.seq, "hand": "".join(T.to_unicode(t) for t in d.hand),
         "discard": f"{T.to_unicode(d.played)} {d.played}",
         "shanten": (shanten_change_words(d.shanten_before, d.shanten_after) if not d.no_win else
                     f"{shanten_words(d.shanten_before)} (complete, no legal win) → {shanten_words(d.shanten_after)}")
                    + (" (no wait wins legally)" if d.no_wait else ""),
         "waits (legal wins)": _waits(d.waits),
         "improving tiles kept": f"{d.improving_count} ({len(d.improving)} kinds)",
         "best": " ".join(f"{T.to_unicode(t)} {t}" for t in d.best) + f" ({d.best_count})",
         "kept the maximum": "✓" if d.kept_best else "✗"}
        for d in h.discards
    ]), hide_index=True, width="stretch")
    labels = {d.turn: f"#{d.turn} (event {d.seq}: {d.played})" for d in h.discards}
    pick = st.selectbox("Look at discard", list(labels), key=f"rv_pick_{game_id}_{seat}_{h.hand_number}",
                        format_func=labels.__getitem__)
    d = h.discards[int(pick or 1) - 1]
    cls = []
    marked = False
    for t in d.hand:
        if t == d.played and not marked:
            cls.append("last")
            marked = True
        else:
            cls.append("")
    st.markdown('<span class="pp-label">hand before the discard (played tile outlined)</span>'
                + tiles_html(list(d.hand), classes=cls)
                + (f'<span class="pp-label">declared sets: {" ".join("".join(m) for m in d.melds)}</span>' if d.melds else "")
                + (f'<span class="pp-label">jing (wild): {" ".join(d.wildcards)}</span>' if d.wildcards else ""),
                unsafe_allow_html=True)
    st.dataframe(pd.DataFrame([
        {"discard": f"{T.to_unicode(o.tile)} {o.tile}", "shanten after": shanten_words(o.shanten),
         "improving tiles (unseen)": o.count, "kinds": len(o.improving),
         "which": " ".join(f"{t}×{n}" for t, n in o.improving),
         "wins": _waits(o.waits) or ("no wait wins legally" if o.no_wait else ""),
         "played": "◀" if o.tile == d.played else "", "best": "✓" if o.tile in d.best else ""}
        for o in d.options
    ]), hide_index=True, width="stretch")
if not mine:
    st.info(f"Seat {seat} made no discard in this selection.")
st.page_link("views/replay.py", label="▶ replay this game", query_params={"game": game_id})
