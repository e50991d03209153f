"""Terminal rendering of a replayed table (``paipu replay``): Rich renderables only, no logic.
The event in words is :func:`eventlog.describe.describe_words`, English and Chinese (the
dashboard uses it too), with the technical line :func:`~eventlog.describe.describe_event` below."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eventlog import tiles as T
from eventlog.describe import describe_event, describe_words, hand_ordinal
from eventlog.view import seat_view
from replayer.view import seat_state_view
from replayer.rules.base import ruleset_words_of, score_unit_of, seat_notes_of
from replayer.state import TableState

_WIND_ZH = {"F1": "东", "F2": "南", "F3": "西", "F4": "北"}


def tiles_text(codes: Any, *, hidden: int = 0) -> str:
    """Unicode tiles followed by their codes, e.g. ``🀇🀈 W1 W2``; hidden tiles as ``?``."""
    codes = list(codes)
    if not codes and not hidden:
        return "-"
    shown = T.to_unicode(codes) + ("🀫" * hidden)
    return f"{shown}  {' '.join(codes)}" + (f" +{hidden} hidden" if hidden else "")


def _shown(v: Any) -> str:
    """A value for people: "-" for none (never Python's ``None``)."""
    return "-" if v is None else str(v)


def table_view(state: TableState, event: Any | None = None, *, seat: int | None = None, findings=()) -> Group:
    """The table after an event: per seat its wind, score, the ruleset's note (e.g. a declared
    void suit, 定缺), whether it has won (tile, event; out of a hand that goes on, 血战),
    concealed tiles (hidden unless ``seat`` is None or that seat), melds with where the
    claimed tile came from, flowers and discards; the wall count; the event and its findings
    (with ``seat``: the table and the event as that seat sees them, replayer.view.seat_state_view
    and eventlog.view.seat_view)."""
    notes = seat_notes_of(state)  # public notes (a declared void suit), from the whole table
    state = seat_state_view(state, seat)
    head = (
        f"game {state.game_id}  ruleset {_shown(state.ruleset_id)}  "
        f"hand {'-' if state.hand_number is None else hand_ordinal(state.hand_number)}  "
        f"prevalent {_WIND_ZH.get(state.prevalent_wind or '', '-')}  dealer seat {_shown(state.dealer)}  "
        f"wall {state.wall_remaining}  phase {state.phase}  turn {_shown(state.turn)}"
    )
    grid = Table(show_header=True, header_style="bold", expand=True)
    for col in ("seat", "score", "hand", "melds", "discards"):
        grid.add_column(col)
    for i, st in enumerate(state.seats):
        name = state.players[i] if i < len(state.players) else ""
        wind = _WIND_ZH.get(st.wind or "", "")
        who = f"{i} {wind}{' (dealer)' if state.dealer == i else ''}\n{name}"
        if notes[i]:
            who += f"\n{notes[i]}"
        if st.dead_hand is not None:  # 相公: plays on, may not claim or win (SeatState.dead_hand)
            who += f"\n相公 dead hand (#{st.dead_hand})"
        won = [w for w in state.wins if w.seat == i and w.legal]
        if won:
            how = "self-drawn" if won[-1].self_drawn else f"from seat {won[-1].from_seat}"
            who += f"\nwon {won[-1].tile} ({how}, #{won[-1].seq})" + ("" if state.in_hand[i] else ", out")
        if seat is None or seat == i:
            hand = tiles_text(T.sort_tiles(t for t in st.tiles if not T.is_flower(t)), hidden=st.hidden)
        else:
            hand = "🀫" * st.concealed_size + f"  ({st.concealed_size} tiles)"
        if st.flowers:
            hand += f"\nflowers {tiles_text(st.flowers)}"
        melds = []
        for m in st.melds:
            src = "" if m.from_seat is None else f" from seat {m.from_seat}"
            kind = m.kind if m.kind != "kong" else f"{m.kong_kind} kong"
            face_down = m.concealed and seat is not None and seat != i
            melds.append(f"{kind} {'🀫' * 4 if face_down else T.to_unicode(m.tiles)}{src}")
        river = " ".join(
            T.to_unicode(d.tile) + (f"→{d.claimed_by}" if d.claimed_by is not None else "") for d in st.discards
        )
        grid.add_row(escape(who), str(st.score), escape(hand), escape("\n".join(melds) or "-"), river or "-")
    parts: list[Any] = [Text(head)]
    if state.wildcard_indicator:
        parts.append(Text(f"wildcard indicator {T.to_unicode(state.wildcard_indicator)} {state.wildcard_indicator}"))
    parts.append(grid)
    if event is not None:
        event = seat_view(event, seat)
        en, zh = describe_words(event, state, ruleset_words_of(state.ruleset_id))
        parts.append(Text(f"event {getattr(event, 'seq', '?')}: {en}", style="bold"))
        parts.append(Text(f"    {zh}"))
        parts.append(Text(describe_event(event), style="dim"))
    for f in findings:
        parts.append(Text(f"finding: {f}", style="red"))
    unit = score_unit_of(state.ruleset_id)  # what the ruleset's totals count (points, units, fan)
    for w in state.wins:
        fans = w.score.lines() if w.score is not None else ()
        fan_txt = ", ".join(f"{f.name_en} {f.name_zh} {f.value}" + (f"×{f.count}" if f.count > 1 else "") + f.note
                            for f in fans)
        parts.append(
            Text(
                f"win: seat {w.seat} {T.to_unicode(w.tile)}{w.tile} {'self-drawn' if w.self_drawn else f'from seat {w.from_seat}'}"
                f" {'legal' if w.legal else 'NOT LEGAL'}; {unit.amount(w.points)}: {fan_txt}"
                + (f"; changes {list(w.settlement.changes)}" if w.settlement else "")
            )
        )
    return Group(Panel(Group(*parts), title="paipu replay"))
