"""Decision review (牌效复盘): a rules-based tile-efficiency review of a seat's discards.

**This is not an AI's opinion.** At each discard of the reviewed seat it measures, with the
rules alone, how far the hand is from a win (向听数, shanten) under the game's ruleset and
which discard keeps the most tiles that bring it closer. It knows nothing of defence,
scoring value, reading other players or strategy; a discard that is not "best" here may be
the right play.

What is measured, at each ``tile_discarded`` of the seat (the table just before it):

* the shapes that win for the seat — the ruleset's own, through
  :meth:`replayer.rules.base.Ruleset.winning_shapes` (wildcards 精, honor chows, 十三烂,
  七对, 全不靠, 2-5-8 pairs, Sichuan's void suit …), measured by the one shared engine
  (replayer/rules/shared/winning_shapes.py);
* ``shanten_before``: the shanten of the hand before the discard (its best discard's);
  ``shanten_after``: after the played discard. −1 ("win") only when the seat could declare
  a legal win there — the ruleset's own win test (:func:`replayer.actions.legal_actions`
  offers a self-drawn win: :meth:`~replayer.rules.base.Ruleset.score_win` legal, its minimum
  met, e.g. MCR's 8 fans, the chip format's 无番禁和牌, competition.md §A6.1). A complete
  shape that is no legal win (below the minimum, or right after a chow or pung) counts as its
  best discard's shanten, and ``no_win`` says so;
* shanten 0 ("ready", 听牌) likewise only when some wait wins legally: each tile that completes
  the shape is tried with the same win test (:func:`replayer.actions.winning_tiles`), drawn
  and on a discard; the **waits** are those that win, each saying when it wins only one way
  (e.g. MCR's 不求人 lifts a self-drawn win over 8 fans, competition.md Part B; a Sichuan hand
  still holding its 定缺 suit wins with none, sichuan.md §2). A discard that leaves a
  complete-shape wait with no legal win counts as shanten 1 (at least one more exchange) with
  no improving tiles counted (which draws would make it legally ready is a search the review
  does not make), and ``no_wait`` says so. Only hands a tile from the shape are asked;
* for every distinct tile it could discard: the shanten after it and its **improving tiles**
  (有效牌: the kinds whose draw lowers the shanten) with the copies still unseen from the
  seat's view — the ruleset's copies minus those in the seat's hand, in every river (a
  claimed discard is counted once, in its river), in every declared set it can see (another
  seat's concealed kong lies face down) and the face-up wildcard indicator;
* the **best discards**: the lowest shanten after, then the most unseen improving tiles;
  whether the played discard was one of them (``kept_best``).

Per hand: the reviewed discards, the first discard after which the seat was ready (听牌,
shanten 0) and whether it won. Per seat and game (:class:`SeatSummary`): discards reviewed,
the share that kept the maximum, hands reviewed, hands in which the seat became ready and
the mean turn of it. A hand whose tiles the log does not show (hidden tiles) is listed as
not reviewable with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from eventlog import tiles as _tiles
from replayer.actions import WinningTile, legal_actions, winning_tiles
from replayer.replay import replay
from replayer.rules.base import Ruleset, get_ruleset
from replayer.rules.shared.winning_shapes import UNREACHABLE, WinningShapes, shanten
from replayer.state import TableState
from replayer.view import visible_counts

__all__ = [
    "LABEL",
    "DiscardOption",
    "DiscardReview",
    "HandReview",
    "SeatSummary",
    "GameReview",
    "review_game",
    "review_position",
    "unseen_copies",
    "review_json",
    "shanten_words",
    "shanten_change_words",
]

#: How every view of the review introduces it.
LABEL = ("Rules-based efficiency review — not an AI's opinion: shanten (向听数) and improving tiles "
         "(有效牌) under the game's own winning shapes, counted from the rules alone; it ignores "
         "defence, hand value and strategy.")

def shanten_words(shanten: int) -> str:
    """A shanten (向听数) in the words every view of the review uses: ``"a winning hand"``
    (−1: a legal win could be declared), ``"ready (听牌)"`` (0), ``"1 from ready"``,
    ``"2 from ready"`` … (一向听, 二向听: the tiles still to exchange before the hand is
    ready), ``"no winning shape in reach"`` (:data:`UNREACHABLE`). Data (``--json``, the
    proto) keeps the number."""
    if shanten >= UNREACHABLE:
        return "no winning shape in reach"
    if shanten < 0:
        return "a winning hand"
    if shanten == 0:
        return "ready (听牌)"
    return f"{shanten} from ready"


def shanten_change_words(before: int, after: int, arrow: str = "→") -> str:
    """A discard's shanten before and after in words: ``"stays ready (听牌)"``, ``"stays 2 from
    ready"`` when it does not change, else ``"2 from ready → 1 from ready"`` (see
    :func:`shanten_words`; ``arrow`` as the view draws it)."""
    if before == after:
        return f"stays {shanten_words(after)}"
    return f"{shanten_words(before)} {arrow} {shanten_words(after)}"


#: :attr:`DiscardReview.no_win` of a complete shape that is no legal win.
NO_WIN = "a complete shape, but no legal win under the ruleset here (below its minimum, or not after a draw)"

#: :attr:`DiscardOption.no_wait` of a hand one tile from the shape whose waits win nothing.
NO_WAIT = "one tile from a complete shape, but no wait wins legally under the ruleset (below its minimum): not ready"

#: ``legal_waits(discard, shape_waits)``: the waits that win legally once ``discard`` is gone.
LegalWaits = Callable[[str, Sequence[str]], Sequence[WinningTile]]


@dataclass(frozen=True)
class DiscardOption:
    """One possible discard: ``tile``; ``shanten`` after it; ``improving``: (tile, unseen
    copies) of each improving kind, in tile order; ``count``: the unseen copies in all.
    At shanten 0 the improving kinds are the legal waits, and ``waits`` says how each wins
    (drawn, on a discard); ``no_wait``: set (:data:`NO_WAIT`) when the shape is one tile away
    but no wait wins legally — ``shanten`` is then 1 and no improving tile is counted."""

    tile: str
    shanten: int
    improving: tuple[tuple[str, int], ...]
    waits: tuple[WinningTile, ...] = ()
    no_wait: str = ""

    @property
    def count(self) -> int:
        return sum(n for _t, n in self.improving)


@dataclass(frozen=True)
class DiscardReview:
    """One discard of the reviewed seat. ``turn``: the seat's n-th discard of the hand (1…);
    ``hand``: its concealed tiles before the discard (sorted); ``melds``: its declared sets;
    ``wildcards``: the wild kinds at that moment; ``options``: every distinct discard, best
    first; ``best``: the best discards' tiles; ``kept_best``: the played one is among them;
    ``no_win``: set when the hand before the discard is a complete shape the seat could not
    declare as a legal win (it says why); its ``shanten_before`` is then its best discard's;
    ``waits``: after the played discard, the tiles that win legally and how (ready: some);
    ``no_wait``: the played discard leaves a shape one tile away that no wait wins legally."""

    seq: int
    hand_number: int | None
    seat: int
    turn: int
    hand: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    wildcards: tuple[str, ...]
    played: str
    shanten_before: int
    shanten_after: int
    improving: tuple[tuple[str, int], ...]
    options: tuple[DiscardOption, ...]
    best: tuple[str, ...]
    kept_best: bool
    no_win: str = ""
    waits: tuple[WinningTile, ...] = ()
    no_wait: str = ""

    @property
    def improving_count(self) -> int:
        return sum(n for _t, n in self.improving)

    @property
    def best_count(self) -> int:
        return self.options[0].count if self.options else 0


@dataclass(frozen=True)
class HandReview:
    """One seat in one hand: its reviewed ``discards``; ``ready_turn`` / ``ready_seq``: the first
    discard after which it was ready (听牌), None if never; ``won``: it won the hand;
    ``reviewable``: False (with ``reason``) when the log hides the seat's tiles."""

    hand_number: int | None
    seat: int
    discards: tuple[DiscardReview, ...]
    ready_turn: int | None
    ready_seq: int | None
    won: bool
    reviewable: bool = True
    reason: str = ""


@dataclass(frozen=True)
class SeatSummary:
    """A seat over the hands reviewed: ``discards``; ``kept_best`` of them; ``hands``
    reviewable; ``ready_hands``: hands in which it became ready; ``mean_ready_turn``."""

    seat: int
    discards: int
    kept_best: int
    hands: int
    ready_hands: int
    mean_ready_turn: float | None

    @property
    def share_kept_best(self) -> float | None:
        return self.kept_best / self.discards if self.discards else None


@dataclass(frozen=True)
class GameReview:
    """The review of a game: ``hands`` (one :class:`HandReview` per reviewed seat and hand, in
    hand then seat order), a :class:`SeatSummary` per reviewed seat and ``total`` over them;
    ``shape_sources``: where the ruleset's winning shapes are written."""

    game_id: str
    ruleset: str | None
    hands: tuple[HandReview, ...]
    seats: tuple[SeatSummary, ...]
    total: SeatSummary
    shape_sources: tuple[str, ...]
    label: str = LABEL


# ------------------------------------------------------------------------------- the measures


def unseen_copies(state: TableState, seat: int, ruleset: Ruleset) -> tuple[int, ...]:
    """Copies of each kind (34 entries) ``seat`` cannot see at ``state``: the ruleset's copies
    minus its own concealed tiles, every river tile (a claimed one once: in its river, not
    again in the set that took it), every declared set it can see (another seat's concealed
    kong is face down) and the face-up wildcard indicator."""
    seen = list(visible_counts(state, seat))  # the one count of what a seat sees (replayer/view.py)
    ind = state.wildcard_indicator
    if ind is not None and _tiles.is_valid(ind) and not ruleset.play.indicator_leaves_wall:
        seen[_tiles.index(ind)] += 1  # face up where it lies in the wall (nanchang.md §4.1): known, not to be hoped for
    return tuple(max(0, ruleset.play.tile_copies[i] - seen[i]) for i in range(34))


def _option(counts: list[int], melds: tuple[tuple[int, ...], ...], shapes: WinningShapes,
            unseen: tuple[int, ...], kinds: Sequence[int]) -> tuple[int, tuple[tuple[str, int], ...]]:
    base = shanten(tuple(counts), melds, shapes)
    improving = []
    if base < UNREACHABLE and base >= 0:
        for t in kinds:
            counts[t] += 1
            if shanten(tuple(counts), melds, shapes) < base:
                improving.append((_tiles.code(t), unseen[t]))
            counts[t] -= 1
    return base, tuple(improving)


def review_position(counts: Sequence[int], melds: Sequence[Sequence[int]], shapes: WinningShapes,
                    unseen: Sequence[int], *, playable: Sequence[int] | None = None,
                    legal_waits: LegalWaits | None = None) -> tuple[int, tuple[DiscardOption, ...]]:
    """The shanten of a hand about to discard (``counts``: 34-count vector of its concealed
    tiles, 3n + 2; ``melds``: dense indices of each declared set) and every distinct discard,
    best first (lowest shanten after, most unseen improving copies, tile order).
    ``unseen``: copies of each kind not seen (34 entries); ``playable``: the kinds that exist
    in the tile set (default: those with unseen copies or held); ``legal_waits``: the
    ruleset's win test for a discard that leaves the shape one tile away (module docstring;
    None: every shape wait counts). The shanten returned is the shape's, −1 for a complete
    one (:func:`review_game` asks the ruleset whether that wins). Raises ValueError for a
    vector that is not 34 long."""
    if len(counts) != 34 or len(unseen) != 34:
        raise ValueError("counts and unseen are 34-count vectors")
    c = list(counts)
    m = tuple(tuple(x) for x in melds)
    kinds = list(playable) if playable is not None else [t for t in range(34) if unseen[t] or c[t]]
    before = shanten(tuple(c), m, shapes)
    options = []
    for t in range(34):
        if not c[t]:
            continue
        c[t] -= 1
        sh, imp = _option(c, m, shapes, tuple(unseen), kinds)
        c[t] += 1
        options.append(_legal(DiscardOption(_tiles.code(t), sh, imp), legal_waits))
    options.sort(key=lambda o: (o.shanten, -o.count, -len(o.improving), _tiles.index(o.tile)))
    return before, tuple(options)


def _legal(o: DiscardOption, legal_waits: LegalWaits | None) -> DiscardOption:
    """``o`` with only the waits that win legally (shanten 0 only: the review stays cheap)."""
    if legal_waits is None or o.shanten != 0:
        return o
    wins = tuple(legal_waits(o.tile, [t for t, _n in o.improving]))
    if not wins:
        return DiscardOption(o.tile, 1, (), no_wait=NO_WAIT)
    won = {w.tile for w in wins}
    return DiscardOption(o.tile, 0, tuple(x for x in o.improving if x[0] in won), wins)


def _best(options: Sequence[DiscardOption]) -> tuple[str, ...]:
    if not options:
        return ()
    top = options[0]
    return tuple(o.tile for o in options if o.shanten == top.shanten and o.count == top.count)


# ------------------------------------------------------------------------------- the game


def review_game(events: Iterable[Any], *, seats: Sequence[int] = (0, 1, 2, 3),
                hand: int | None = None) -> GameReview:
    """Replay one game (``events`` in seq order, audit mode) and review every discard of
    ``seats`` (in the hand numbered ``hand`` only, when given). Raises ValueError for a seat
    outside 0..3; replay errors as :func:`replayer.replay.replay`."""
    seats = tuple(sorted(set(seats)))
    if any(not 0 <= s <= 3 for s in seats):
        raise ValueError(f"seats must be 0..3, got {list(seats)}")
    state = TableState()
    ruleset: Ruleset | None = None
    key: tuple[str | None, tuple] = (None, ())
    per: dict[int, list[DiscardReview]] = {}
    hidden: dict[int, str] = {}
    done: list[HandReview] = []
    sources: tuple[str, ...] = ()
    current: int | None = None

    def close(won: tuple[int, ...]) -> None:
        for s in seats:
            ds = tuple(per.get(s, ()))
            ready = next((d for d in ds if d.shanten_after <= 0), None)
            done.append(HandReview(
                current, s, ds, ready.turn if ready else None, ready.seq if ready else None, s in won,
                reviewable=s not in hidden, reason=hidden.get(s, ""),
            ))
        per.clear()
        hidden.clear()

    in_hand = False
    won: set[int] = set()
    for step in replay(events, mode="audit"):
        e = step.event
        before, state = state, step.state
        if e.type == "hand_started":
            if in_hand:
                close(tuple(sorted(won)))
            in_hand = hand is None or state.hand_number == hand
            current = state.hand_number
            won = set()
            continue
        if not in_hand:
            continue
        if e.type == "win_declared":
            won |= {w.seat for w in state.wins if w.seq == e.seq and w.legal}
        if e.type == "hand_ended":
            close(tuple(sorted(won)))
            in_hand = False
            continue
        if e.type != "tile_discarded" or e.payload.seat not in seats:
            continue
        seat = e.payload.seat
        if (state.ruleset_id, state.ruleset_options) != key:
            key = (state.ruleset_id, state.ruleset_options)
            ruleset = get_ruleset(state.ruleset_id or "", dict(state.ruleset_options))
        assert ruleset is not None
        st = before.seats[seat]
        if st.hidden:
            hidden.setdefault(seat, f"the log does not show seat {seat}'s tiles ({st.hidden} hidden)")
            continue
        shapes = ruleset.winning_shapes(before, seat)
        sources = sources or shapes.sources
        unseen = unseen_copies(before, seat, ruleset)
        playable = [t for t in range(34) if ruleset.play.tile_copies[t]]
        melds = tuple(tuple(_tiles.index(t) for t in m.tiles[:3]) for m in st.melds)
        def legal_waits(discard: str, waits: Sequence[str], at: TableState = before, st=st, seat: int = seat,
                        rs: Ruleset = ruleset) -> tuple[WinningTile, ...]:
            k = st.tiles.index(discard)
            return winning_tiles(at, rs, seat, st.tiles[:k] + st.tiles[k + 1:], waits, discarded=discard)

        sh_before, options = review_position(st.counts[:34], melds, shapes, unseen, playable=playable,
                                             legal_waits=legal_waits)
        no_win = ""
        if sh_before < 0 and not any(a.kind == "self_drawn_win" and a.seat == seat
                                     for a in legal_actions(before, ruleset)):
            no_win = NO_WIN
            sh_before = options[0].shanten if options else UNREACHABLE
        elif sh_before >= 0 and options:
            sh_before = max(sh_before, options[0].shanten)  # the best discard's, where no shape wait wins legally
        played = next(o for o in options if o.tile == e.payload.tile) if st.counts[_tiles.index(e.payload.tile)] else None
        best = _best(options)
        per.setdefault(seat, [])
        per[seat].append(DiscardReview(
            seq=e.seq, hand_number=state.hand_number, seat=seat, turn=len(per[seat]) + 1,
            hand=tuple(_tiles.sort_tiles(st.tiles)), melds=tuple(m.tiles for m in st.melds),
            wildcards=tuple(_tiles.code(t) for t in shapes.wildcards), played=e.payload.tile,
            shanten_before=sh_before, shanten_after=played.shanten if played else UNREACHABLE,
            improving=played.improving if played else (), options=options, best=best,
            kept_best=played is not None and played.tile in best, no_win=no_win,
            waits=played.waits if played else (), no_wait=played.no_wait if played else "",
        ))
    if in_hand:
        close(tuple(sorted(won)))
    summaries = tuple(_summary(s, [h for h in done if h.seat == s]) for s in seats)
    return GameReview(state.game_id or "", state.ruleset_id, tuple(done), summaries,
                      _summary(-1, done), sources)


def _summary(seat: int, hands: Sequence[HandReview]) -> SeatSummary:
    ds = [d for h in hands for d in h.discards]
    ready = [h.ready_turn for h in hands if h.ready_turn is not None]
    return SeatSummary(
        seat=seat, discards=len(ds), kept_best=sum(d.kept_best for d in ds),
        hands=sum(1 for h in hands if h.reviewable and h.discards), ready_hands=len(ready),
        mean_ready_turn=sum(ready) / len(ready) if ready else None,
    )


def review_json(r: GameReview) -> dict[str, Any]:
    """The review as plain JSON values (``paipu review --json``, the dashboard, gRPC)."""

    def summary(s: SeatSummary) -> dict[str, Any]:
        return {"seat": None if s.seat < 0 else s.seat, "discards": s.discards, "kept_best": s.kept_best,
                "share_kept_best": s.share_kept_best, "hands": s.hands, "ready_hands": s.ready_hands,
                "mean_ready_turn": s.mean_ready_turn}

    def option(o: DiscardOption) -> dict[str, Any]:
        return {"tile": o.tile, "shanten": o.shanten, "improving": [[t, n] for t, n in o.improving],
                "improving_count": o.count, "waits": [wait(w) for w in o.waits], "no_wait": o.no_wait}

    def wait(w: WinningTile) -> dict[str, Any]:
        return {"tile": w.tile, "self_drawn": w.self_drawn, "on_discard": w.on_discard}

    return {
        "label": r.label, "game_id": r.game_id, "ruleset": r.ruleset, "shape_sources": list(r.shape_sources),
        "hands": [{
            "hand_number": h.hand_number, "seat": h.seat, "won": h.won, "reviewable": h.reviewable,
            "reason": h.reason, "ready_turn": h.ready_turn, "ready_seq": h.ready_seq,
            "discards": [{
                "seq": d.seq, "turn": d.turn, "hand": list(d.hand), "melds": [list(m) for m in d.melds],
                "wildcards": list(d.wildcards), "played": d.played, "shanten_before": d.shanten_before,
                "shanten_after": d.shanten_after, "improving": [[t, n] for t, n in d.improving],
                "improving_count": d.improving_count, "best": list(d.best), "best_count": d.best_count,
                "kept_best": d.kept_best, "no_win": d.no_win, "waits": [wait(w) for w in d.waits],
                "no_wait": d.no_wait, "options": [option(o) for o in d.options],
            } for d in h.discards],
        } for h in r.hands],
        "seats": [summary(s) for s in r.seats],
        "total": summary(r.total),
    }
