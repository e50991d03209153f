"""The replayed table as HTML (the dashboard's counterpart of paipu/cli/render.py): every seat's
wind, player, score, concealed tiles (all four, or one seat's view with the others face
down), declared sets with the seat each claimed tile came from, flowers and discards in
order; the wall count, prevalent wind, dealer and the seat to act.

Pure functions of a :class:`replayer.state.TableState`; no logic of the rules here.
Relative seats follow shared/DESIGN.md §3: 上家 the previous seat (discards just before),
对家 opposite, 下家 the next seat.
"""

from __future__ import annotations

import html
import re
from typing import Any

from collections.abc import Mapping

from dashboard.tiles import WIND_EN, WIND_ZH, hidden_html, meld_html, pond_html, tile_html, tiles_html
from eventlog import tiles as T
from eventlog.describe import hand_ordinal
from replayer.rules.base import score_unit_of
from replayer.state import DeclaredMeld, TableState
from replayer.view import seat_state_view

__all__ = ["relative_seat", "meld_label", "seat_hand", "table_html", "event_html", "words_html", "win_html"]

_RELATIVE = {1: "上家 previous", 2: "对家 opposite", 3: "下家 next"}


def relative_seat(seat: int, other: int) -> str:
    """Where ``other`` sits seen from ``seat``: 上家 previous (1), 对家 opposite (2),
    下家 next (3) (DESIGN.md §3)."""
    return _RELATIVE[(seat - other) % 4]


def meld_label(seat: int, m: DeclaredMeld) -> str:
    """``pung ← seat 2 (对家 opposite)``; a concealed kong says so."""
    kind = m.kind if m.kind != "kong" else f"{m.kong_kind} kong"
    if m.from_seat is None:
        return kind
    return f"{kind} ← seat {m.from_seat} ({relative_seat(seat, m.from_seat)})"


def seat_hand(state: TableState, seat: int, drawn: str | None) -> tuple[list[str], str | None, int]:
    """The concealed tiles of ``seat`` to draw: (sorted tiles without the just-drawn one,
    the just-drawn tile or None, hidden count). Flowers not yet replaced stay in the hand."""
    st = state.seats[seat]
    tiles = list(st.tiles)
    if drawn is not None and drawn in tiles:
        tiles.remove(drawn)
    else:
        drawn = None
    return T.sort_tiles(tiles), drawn, st.hidden


def event_html(event: Any) -> str:
    """One line for an event (eventlog.describe.describe_event), HTML-escaped, with each tile
    glyph in the tile font (a monospace font has no mahjong glyphs)."""
    from eventlog.describe import describe_event

    text = describe_event(event)
    out: list[str] = []
    pos = 0
    for m in _URL.finditer(text):  # a link is written as a link, escaped once
        out.append(_glyphs(html.escape(text[pos:m.start()])))
        url = html.escape(m.group(0), quote=True)
        out.append(f'<a href="{url}" target="_blank" rel="noopener">{url}</a>')
        pos = m.end()
    out.append(_glyphs(html.escape(text[pos:])))
    return "".join(out)


_URL = re.compile(r"https?://[^\s<>\"']+")


def _glyphs(text: str) -> str:
    return "".join(f'<span class="pp-glyph">{ch}</span>' if 0x1F000 <= ord(ch) <= 0x1F02B else ch for ch in text)


def _drawn_tile(state: TableState, event: Any) -> tuple[int | None, str | None]:
    if event is None or getattr(event, "type", None) != "tile_drawn":
        return None, None
    p = event.payload
    return p.seat, p.tile


def words_html(event: Any, state: TableState) -> str:
    """The event in plain words, English over Chinese (eventlog.describe.describe_words, in
    the words of the game's ruleset: its units, its items' names), HTML-escaped, glyphs in the tile font."""
    from eventlog.describe import describe_words
    from replayer.rules.base import ruleset_words_of

    en, zh = describe_words(event, state, ruleset_words_of(state.ruleset_id))
    return (f'<div class="pp-words">{_glyphs(html.escape(en))}</div>'
            f'<div class="pp-words-zh">{_glyphs(html.escape(zh))}</div>')


def _item_value(line: Any) -> str:
    """A score line's value as the CLI shows it: ``×2`` for a factor, else the amount."""
    return f"×{line.factor}" if line.points is None and line.factor is not None else str(line.value)


def _wind_name(state: TableState, seat: int) -> str:
    w = state.seats[seat].wind or ""
    return f"{WIND_ZH[w]} {WIND_EN[w]}" if w in WIND_ZH else f"seat {seat}"


def win_html(state: TableState, win: Any, *, wild: Mapping[str, str] | None = None) -> str:
    """A win laid out: the winner's concealed tiles sorted, its declared sets, the winning tile
    set apart, and beside them the fans or conditions (``ExplainedScore.lines()``: name in
    English and Chinese, value, count), the total and the score changes."""
    st = state.seats[win.seat]
    tiles = list(st.tiles)
    if win.tile in tiles and (win.self_drawn or len(tiles) % 3 == 2):  # a drawn winning tile is in the hand
        tiles.remove(win.tile)
    melds = "".join(
        meld_html(m.tiles, meld_label(win.seat, m), claimed=m.claimed_tile,
                  side=None if m.from_seat is None else (win.seat - m.from_seat) % 4, wild=wild)
        for m in st.melds)
    if win.self_drawn:
        how = "self-drawn 自摸"
    elif win.robbing_kong:
        how = f"robbing the kong of {_wind_name(state, win.from_seat)} 抢杠"
    else:
        how = f"on the discard of {_wind_name(state, win.from_seat)} 点和"
    rows = []
    for f in (win.score.lines() if win.score is not None else ()):
        rows.append(f"<tr><td>{html.escape(f.name_en)}</td><td>{html.escape(f.name_zh)}</td>"
                    f"<td>{html.escape(_item_value(f))}</td><td>{'×' + str(f.count) if f.count > 1 else ''}</td></tr>")
    verdict = "legal" if win.legal else "NOT LEGAL"
    changes = f" · score changes {list(win.settlement.changes)}" if win.settlement else ""
    return (
        f'<div class="pp-win"><div><b>{_wind_name(state, win.seat)} (seat {win.seat}) wins</b> — {how}, '
        f'{verdict}, {html.escape(score_unit_of(state.ruleset_id).amount(win.points))}{changes}'
        f'<div class="pp-tiles">{tiles_html(T.sort_tiles(tiles), wild=wild)}'
        f'<span class="pp-tiles">{melds}</span>'
        f'<span class="apart">{tile_html(win.tile, css="win", title="winning tile", wild=wild)}</span></div></div>'
        + (f'<table><tr><td><b>fan / condition</b></td><td><b>番种</b></td><td><b>value</b></td><td></td></tr>'
           f'{"".join(rows)}</table>' if rows else "")
        + "</div>"
    )


def table_html(state: TableState, event: Any | None = None, *, seat: int | None = None,
               finding_seats: frozenset[int] = frozenset(), notes: tuple[str, ...] = (),
               wild: Mapping[str, str] | None = None) -> str:
    """The table after ``event`` as one HTML block. ``seat``: None shows all four hands,
    else only that seat's concealed tiles (the others face down). ``finding_seats``: seats
    named by a finding at this event (marked). ``notes``: a short ruleset note per seat (the
    ruleset's ``seat_notes``, e.g. a declared void suit). ``wild``: the hand's wild tiles
    (``Ruleset.wild_tiles``: code → 正精/副精), marked wherever they lie. Discards are a pond
    of rows of six, a claimed one marked with the wind of the seat that took it; a set's
    claimed tile lies sideways on the side it came from. A seat that has won and left a hand
    that goes on (血战) is marked with its winning tile. With ``seat``, the table is the one that
    seat sees (replayer.view.seat_state_view)."""
    state = seat_state_view(state, seat)
    drawn_seat, drawn = _drawn_tile(state, event)
    last_discard = state.pending.seq if state.pending is not None else None
    walls = (
        " · ".join(f"seat {i}: {n}" for i, n in enumerate(state.seat_walls))
        if state.seat_walls is not None else ""
    )
    head = (
        f"<b>hand {hand_ordinal(state.hand_number) if state.hand_number is not None else '–'}</b> · prevalent wind "
        f"{WIND_ZH.get(state.prevalent_wind or '', '–')} {WIND_EN.get(state.prevalent_wind or '', '')} · "
        f"dealer seat {state.dealer if state.dealer is not None else '–'} · "
        f"<b>wall {state.wall_remaining}</b> tiles left" + (f" ({walls})" if walls else "") +
        f" · phase {html.escape(state.phase)} · to act: seat {state.turn if state.turn is not None else '–'}"
    )
    if state.wildcard_indicator:
        head += f" · wildcard indicator {tile_html(state.wildcard_indicator)}"
    if wild:
        head += " · wild: " + " ".join(f"{tile_html(t, wild=wild)} {html.escape(n)}" for t, n in wild.items())
    parts = [f'<div class="pp-head">{head}</div><div class="pp-grid">']
    for i, st in enumerate(state.seats):
        name = state.players[i] if i < len(state.players) else ""
        wind = f"{WIND_ZH.get(st.wind or '', '')} {WIND_EN.get(st.wind or '', '')}".strip()
        badges = []
        if state.dealer == i:
            badges.append("dealer")
        if i in finding_seats:
            badges.append('<span class="pp-finding">finding</span>')
        if i < len(notes) and notes[i]:
            badges.append(html.escape(notes[i]))
        if st.dead_hand is not None:  # 相公: plays on, may not claim or win (SeatState.dead_hand)
            badges.append(f'<span class="pp-finding">相公 dead hand</span> (event {st.dead_hand})')
        won = [w for w in state.wins if w.seat == i and w.legal]
        if won:
            how = "self-drawn" if won[-1].self_drawn else f"from seat {won[-1].from_seat}"
            out = "" if state.in_hand[i] else ", out of the hand"
            badges.append(f'<b>won</b> on {tile_html(won[-1].tile)} ({how}, event {won[-1].seq}{out})')
        title = (
            f"Seat {i} · {html.escape(wind) or '–'} · {html.escape(name)} · score <b>{st.score}</b>"
            + (f" · {' · '.join(badges)}" if badges else "")
        )
        if seat is None or seat == i:
            tiles, d, hidden = seat_hand(state, i, drawn if drawn_seat == i else None)
            win_tile = [won[-1].tile] if won and not won[-1].self_drawn else []  # the discard it won on
            hand = tiles_html(
                [*tiles, *([None] * hidden), *([d] if d else []), *win_tile],
                classes=[""] * (len(tiles) + hidden) + (["last"] if d else []) + (["last"] if win_tile else []),
                empty="no tiles", wild=wild,
            )
        else:
            hand = hidden_html(st.concealed_size)
        melds = []
        for m in st.melds:
            if m.concealed and seat is not None and seat != i:
                melds.append(meld_html([], "concealed kong").replace(
                    '<span class="pp-meld">', '<span class="pp-meld">' + tile_html(None) * 4, 1))
            else:
                melds.append(meld_html(m.tiles, meld_label(i, m), claimed=m.claimed_tile, wild=wild,
                                       side=None if m.from_seat is None else (i - m.from_seat) % 4))
        river = pond_html(
            [dd.tile for dd in st.discards],
            classes=[
                "claimed" if dd.claimed_by is not None else ("last" if dd.seq == last_discard else "")
                for dd in st.discards
            ],
            marks=["→" + _short_wind(state, dd.claimed_by) if dd.claimed_by is not None else ""
                   for dd in st.discards],
            wild=wild,
        )
        turn = " turn" if state.turn == i and state.phase not in ("hand_over", "idle", "game_over") else ""
        parts.append(
            f'<div class="pp-seat{turn}"><h4>{title}</h4>'
            f'<span class="pp-label">hand</span>{hand}'
            + (f'<span class="pp-label">sets</span><div class="pp-tiles">{"".join(melds)}</div>' if melds else "")
            + (f'<span class="pp-label">flowers</span>{tiles_html(st.flowers)}' if st.flowers else "")
            + f'<span class="pp-label">discards (pond, rows of six; faded = claimed, →wind: taken by)</span>'
              f'{river}</div>'
        )
    return "".join(parts) + "</div>"


def _short_wind(state: TableState, seat: int) -> str:
    w = state.seats[seat].wind or ""
    return WIND_ZH.get(w, str(seat))


#: Timeline markers: (symbol, CSS colour, English name) per kind of moment.
MARKERS = {
    "claim": ("▲", "#1f6fb2", "claim"),
    "kong": ("◆", "#8a4bd1", "kong"),
    "win": ("★", "#1a7f37", "win"),
    "draw": ("■", "#777", "exhaustive draw"),
    "finding": ("⚠", "#c62828", "finding"),
}


def moment_kind(event: Any) -> str | None:
    """The timeline kind of an event: ``claim`` (chow, pung), ``kong`` (any kong; a melded kong
    is a claim too), ``win``, ``draw`` (exhaustive draw), else None."""
    t = event.type
    if t in ("chow", "pung"):
        return "claim"
    if t == "kong":
        return "kong"
    if t == "win_declared":
        return "win"
    if t == "exhaustive_draw":
        return "draw"
    return None


def timeline_html(events: list[Any], finding_seqs: set[int] | frozenset[int], current: int,
                  link: Any) -> str:
    """The hand as a line from its first to its last event, with a marker for each claim, kong,
    win, exhaustive draw and finding (a link to that event: ``link(seq)`` gives the URL) and ▼
    at the ``current`` event. ``events``: the events of the hand, in seq order."""
    if not events:
        return ""
    lo, hi = events[0].seq, events[-1].seq
    span = max(1, hi - lo)
    parts = []
    for e in events:
        kinds = [k for k in (moment_kind(e),) if k] + (["finding"] if e.seq in finding_seqs else [])
        for n, kind in enumerate(kinds):
            sym, colour, name = MARKERS[kind]
            left = 100 * (e.seq - lo) / span
            title = html.escape(f"event {e.seq}: {name}")
            parts.append(f'<a class="mk {kind}" href="{html.escape(link(e.seq))}" target="_self" title="{title}" '
                         f'style="left:{left:.2f}%;color:{colour};bottom:{-1 + 14 * n}px">{sym}</a>')
    now = 100 * (min(max(current, lo), hi) - lo) / span
    parts.append(f'<span class="now" style="left:{now:.2f}%" title="event {current}">▼</span>')
    legend = " · ".join(f'<span style="color:{c}">{s}</span> {n}' for s, c, n in MARKERS.values())
    return (f'<div class="pp-timeline" title="events {lo}..{hi}">{"".join(parts)}</div>'
            f'<div class="pp-label">hand timeline, events {lo}–{hi}: {legend} · ▼ this event</div>')
