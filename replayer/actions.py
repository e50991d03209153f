"""Legal actions at a table state, for any ruleset (shared/DESIGN.md §6: "legal claims and
their priority" belong to the ruleset; the mechanics are shared).

:func:`legal_actions` lists what each seat that may act can choose now, from the
replayer's :class:`~replayer.state.TableState`, the ruleset's :class:`PlayRules` data and
two ruleset hooks (``could_win``: a cheap shape filter; ``score_win``: the verdict on a
win). :func:`resolve_claims` picks among several claims on one discard (or one kong) by
``PlayRules.claim_priority`` and ``PlayRules.winners_per_discard``. An :class:`Action`
becomes the payload of the event it produces (:meth:`Action.to_payload`).

What is a choice and what is not: draws from the wall, kong and flower replacement draws,
deals and the exhaustive draw follow from the state and are not actions (the simulator,
replayer/simulate/engine.py, writes them). Choices by phase (replayer/state.py):

* ``discard`` (the seat in turn, 14 tiles): a held flower must be set aside first
  (补花, seed 001) — then only flower actions (unless the wall has no replacement left);
  otherwise discard any held tile, and,
  right after a draw of its own (not after a chow or pung): a concealed kong (four held),
  an added kong (a held tile matching its pung), a self-drawn win (only when
  ``score_win`` says legal). No kong when the seat's wall cannot give the replacement.
* ``dealing`` (all seats dealt, no replacement due): flower actions of the first seat
  from the dealer holding a flower, else the dealer's first turn as above.
* ``claims`` (a discard open): for each other seat, pass, chow (``PlayRules.chow`` =
  "previous_seat": the discarder's next seat only; honor chows with
  ``PlayRules.honor_chows``), pung (two held), melded kong (three held and a replacement
  available), win (``score_win`` legal); a seat with none of these is not listed.

Every action is also offered to the ruleset's optional ``check_event`` hook (the one the
replayer calls before applying an event, replayer/replay.py ``apply``); an action it would refuse
(e.g. Nanchang 弃碰, a claim other than a win once the wall is empty) is not legal.
* ``robbing`` (an added kong open, kinds in ``PlayRules.robbable_kongs``): for each other
  seat whose hand wins on the kong tile, rob (抢杠) or pass.
* With ``PlayRules.must_win_wall`` tiles or fewer left in the wall, a seat that may win is
  offered only its win (Sichuan 后4张必胡).
* A seat whose hand is dead (相公, ``SeatState.dead_hand``) is offered no claim and no win.
* A ruleset's own choices (:meth:`Ruleset.ruleset_actions`, kind ``ruleset``: e.g. Sichuan's
  定缺 after the deal) come before all others, one seat at a time, best first.

The :class:`~replayer.rules.base.WinContext` built here for a possible win is the one
the replayer builds when the win is declared (replayer/handlers/wins.py ``win_declared``); the
simulator's tests check that both score every simulated win alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from eventlog import events as ev
from eventlog import tiles as _tiles
from eventlog.seats import distance, next_seat, seats_after
from replayer.accounting import wall_empty_for
from replayer.rules.base import ClaimKind, PlayRules, Ruleset, WinContext, WinScore
from replayer.state import SeatState, TableState

__all__ = ["Action", "ActionKind", "WinningTile", "legal_actions", "resolve_claims", "wall_empty_for", "winning_tiles"]

ActionKind = Literal[
    "discard", "flower", "concealed_kong", "added_kong", "self_drawn_win",
    "pass", "chow", "pung", "melded_kong", "win", "rob_kong", "ruleset",
]

_CLAIM_OF: dict[str, ClaimKind] = {
    "chow": "chow", "pung": "pung", "melded_kong": "kong", "win": "win", "rob_kong": "win",
}
WIN_KINDS = ("self_drawn_win", "win", "rob_kong")
KONG_KINDS = ("concealed_kong", "added_kong", "melded_kong")


@dataclass(frozen=True)
class Action:
    """One choice of one seat.

    ``tile``: the tile discarded / set aside / konged / ponged / won on (the claimed tile of
    a chow); ``tiles``: the run of a chow (sorted); ``discard_seq``: the discard claimed,
    or the kong event robbed; ``from_seat``: the discarder / robbed konger. For a win,
    ``score`` is the ruleset's verdict and ``context`` the win as scored (not compared).
    ``payload``: for kind ``ruleset``, the ruleset's own event this choice writes
    (:meth:`Ruleset.ruleset_actions`, e.g. Sichuan's 定缺)."""

    seat: int
    kind: ActionKind
    tile: str | None = None
    tiles: tuple[str, ...] = ()
    discard_seq: int | None = None
    from_seat: int | None = None
    score: WinScore | None = field(default=None, compare=False, repr=False)
    context: WinContext | None = field(default=None, compare=False, repr=False)
    payload: ev.Payload | None = None

    @property
    def claim(self) -> ClaimKind | None:
        """The claim kind for priority (win, kong, pung, chow); None for other actions."""
        return _CLAIM_OF.get(self.kind)

    @property
    def is_win(self) -> bool:
        return self.kind in WIN_KINDS

    def to_payload(self) -> ev.Payload:
        """The payload of the event this action produces (eventlog.events). Raises
        ValueError for an action without what its event needs (a tile, the claimed discard)."""
        s = self.seat
        if self.kind == "ruleset":
            if self.payload is None:
                raise ValueError("a ruleset action carries its event payload")
            return self.payload
        if self.kind == "pass":
            return ev.Pass(seat=s, discard_seq=self.discard_seq)
        if self.tile is None:
            raise ValueError(f"a {self.kind} action names its tile")
        t = self.tile
        if self.kind == "discard":
            return ev.TileDiscarded(seat=s, tile=t)
        if self.kind == "flower":
            return ev.FlowerReplaced(seat=s, flower=t)
        if self.kind == "concealed_kong":
            return ev.Kong(seat=s, kind="concealed", tile=t)
        if self.kind == "added_kong":
            return ev.Kong(seat=s, kind="added", tile=t)
        if self.kind == "melded_kong":
            return ev.Kong(seat=s, kind="melded", tile=t, discard_seq=self.discard_seq)
        if self.kind == "self_drawn_win":
            return ev.WinDeclared(seat=s, tile=t, self_drawn=True)
        if self.kind in ("win", "rob_kong"):
            return ev.WinDeclared(seat=s, tile=t, self_drawn=False, from_seat=self.from_seat,
                                  discard_seq=self.discard_seq, robbing_kong=self.kind == "rob_kong")
        if self.kind in ("pung", "chow"):
            if self.discard_seq is None:
                raise ValueError(f"a {self.kind} action names the discard it claims")
            if self.kind == "pung":
                return ev.Pung(seat=s, tile=t, discard_seq=self.discard_seq)
            return ev.Chow(seat=s, tiles=list(self.tiles), claimed_tile=t, discard_seq=self.discard_seq)
        raise ValueError(f"unknown action kind {self.kind!r}")  # pragma: no cover - Literal

    def lost_claim(self) -> ev.Pass:
        """The ``pass`` event of this claim when it lost on priority (DESIGN.md §4: a pass
        records a claim that lost)."""
        claim = self.claim
        if claim is None:
            raise ValueError(f"a {self.kind} is not a claim")
        return ev.Pass(seat=self.seat, discard_seq=self.discard_seq, claim=claim, tiles=list(self.tiles))


def legal_actions(state: TableState, ruleset: Ruleset) -> list[Action]:
    """Every choice open at ``state``, grouped by seat in turn order from the seat in turn
    (claims: from the discarder's next seat). Empty when nothing is a choice (a draw, a
    deal, a replacement or the end of the hand comes next). See the module docstring."""
    acts = _legal_actions(state, ruleset)
    dead = {s for s, st in enumerate(state.seats) if st.dead_hand is not None}
    if dead:  # 相公 (SeatState.dead_hand): neither claims nor wins; a pass only with another choice
        acts = [a for a in acts if a.seat not in dead or not (a.is_win or a.claim is not None)]
        chosen = {a.seat for a in acts if a.kind != "pass"}
        acts = [a for a in acts if a.kind != "pass" or a.seat in chosen]
    must = ruleset.play.must_win_wall
    if must is not None and state.wall_remaining <= must and any(a.is_win for a in acts):
        winners = {a.seat for a in acts if a.is_win}  # 后4张必胡: such a seat may only win
        acts = [a for a in acts if a.seat not in winners or a.is_win]
    return acts


def _legal_actions(state: TableState, ruleset: Ruleset) -> list[Action]:
    own = ruleset.ruleset_actions(state)
    if own:  # the ruleset's own choices come first (e.g. Sichuan 定缺 before the first discard)
        return list(own)
    ph = state.phase
    if ph == "dealing":
        if not all(st.dealt for st in state.seats) or any(st.replacements_due for st in state.seats):
            return []
        dealer = state.dealer or 0
        for seat in (dealer, *seats_after(dealer, state.in_hand)):
            fl = _flower_actions(state, ruleset.play, seat)
            if fl:
                return fl
        return _turn_actions(state, ruleset, dealer, drew=True)
    if ph == "discard" and state.turn is not None:
        seat = state.turn
        if state.seats[seat].replacements_due:
            return []
        fl = _flower_actions(state, ruleset.play, seat)
        if fl:
            return fl
        ld = state.last_draw
        return _turn_actions(state, ruleset, seat, drew=ld is not None and ld.seat == seat)
    if ph == "claims" and state.pending is not None and not _won(state, state.pending.seq):
        return _claim_actions(state, ruleset)
    if ph == "robbing" and state.pending_kong is not None:
        return _robbing_actions(state, ruleset)
    return []


@dataclass(frozen=True)
class WinningTile:
    """A tile with which a seat's 13-tile hand wins legally (听牌 wait): ``self_drawn``
    drawn from the wall, ``on_discard`` claimed off another seat's discard (at least one)."""

    tile: str
    self_drawn: bool
    on_discard: bool

    @property
    def how(self) -> str:
        """"" when both ways win, else "self-drawn only" / "on a discard only"."""
        return "" if self.self_drawn == self.on_discard else "self-drawn only" if self.self_drawn else "on a discard only"


def winning_tiles(state: TableState, ruleset: Ruleset, seat: int, concealed: Sequence[str],
                  candidates: Iterable[str], *, discarded: str | None = None) -> tuple[WinningTile, ...]:
    """Which of ``candidates`` (tile codes, e.g. the waits that complete the shape) win legally
    for ``seat`` holding ``concealed`` (13 − 3 per declared set, flowers aside) and its
    declared sets at ``state`` — the ruleset's own win test, as :func:`legal_actions` asks it:
    :meth:`~replayer.rules.base.Ruleset.could_win`, then
    :meth:`~replayer.rules.base.Ruleset.score_win` legal (its minimum met: MCR's 8 fans, the
    chip format's 无番禁和牌 competition.md §A6.1, Sichuan's void suit sichuan.md §2 …). Each
    tile is tried drawn from the wall and on a discard of each other seat still in the hand,
    nearest first, until one is legal. ``discarded``: a tile the seat is about to discard (it
    then lies face up: one more visible copy). A dead hand (相公) wins nothing. The table's
    moment-only conditions (a kong replacement, the last tile) are taken as not met; the
    ruleset's ``check_event`` hook is not asked (it judges an event at its moment, not a
    hand). In ``candidates`` order, each tile once."""
    st = state.seats[seat]
    if st.dead_hand is not None:
        return ()
    held = [t for t in concealed if not ruleset.play.is_flower(t)]
    base = [0] * 34
    for t in held:
        base[_tiles.index(t)] += 1
    others = seats_after(seat, state.in_hand)
    out: list[WinningTile] = []
    for tile in dict.fromkeys(candidates):
        i = _tiles.index(tile)
        if i >= 34:
            continue
        base[i] += 1
        shape = ruleset.could_win(tuple(base), len(st.melds))
        base[i] -= 1
        if not shape:
            continue
        visible = state.visible_count(tile) + (discarded == tile)
        drawn = _wins_with(state, ruleset, seat, tile, held, None, visible)
        claimed = any(_wins_with(state, ruleset, seat, tile, held, s, visible) for s in others)
        if drawn or claimed:
            out.append(WinningTile(tile, drawn, claimed))
    return tuple(out)


def _wins_with(state: TableState, ruleset: Ruleset, seat: int, tile: str, held: Sequence[str],
               from_seat: int | None, visible: int) -> bool:
    """``seat`` holding ``held`` wins legally with ``tile``: self-drawn (``from_seat`` None) or
    on ``from_seat``'s discard."""
    ctx = _context(state, ruleset, seat, tile, held, self_drawn=from_seat is None, from_seat=from_seat,
                   robbing=False, kong_related=False, last_of_wall=False, visible=visible)
    return _win_score(state, ruleset, ctx) is not None


def resolve_claims(
    claims: Iterable[Action], discarder: int, play_rules: PlayRules
) -> tuple[list[Action], list[Action]]:
    """Which claims on one discard (or robbed kong) take effect: ``(taken, lost)``.

    The highest ``play_rules.priority`` wins (e.g. win > pung/kong > chow); among equals,
    the nearest seat in turn order from ``discarder``. Several wins: all of them, nearest
    first, up to ``winners_per_discard`` of them (3: all, 一炮多响; 1: only the nearest, 截和,
    seed 001). Passes are ignored. ``lost``: the other claims, nearest first. Raises ValueError
    when a seat claims twice or the discarder claims."""
    live = [a for a in claims if a.kind != "pass"]
    seats = [a.seat for a in live]
    if len(set(seats)) != len(seats):
        raise ValueError(f"one claim per seat, got seats {seats}")
    if discarder in seats:
        raise ValueError(f"seat {discarder} cannot claim its own discard")
    for a in live:
        if a.claim is None:
            raise ValueError(f"a {a.kind} is not a claim")
    order = sorted(live, key=lambda a: (-play_rules.priority(a.claim), distance(a.seat, discarder)))
    if not order:
        return [], []
    top = order[0]
    if top.claim == "win":
        wins = [a for a in order if a.claim == "win"]
        taken = wins[:play_rules.winners_per_discard]
    else:
        taken = [top]
    return taken, [a for a in order if a not in taken]


# ----------------------------------------------------------------------------------------


def _counts_with(st: SeatState, tile: str | None) -> tuple[int, ...]:
    if tile is None:
        return st.counts
    c = list(st.counts)
    c[_tiles.index(tile)] += 1
    return tuple(c)


def _flower_actions(state: TableState, play: PlayRules, seat: int) -> list[Action]:
    """Setting a held flower aside, which must come first — unless the wall has no
    replacement left (the flower then stays in the hand: it is not a playing tile)."""
    st = state.seats[seat]
    if wall_empty_for(state, play, seat):
        return []
    seen: list[str] = []
    for t in st.tiles:
        if play.is_flower(t) and t not in seen:
            seen.append(t)
    return [Action(seat, "flower", t) for t in seen]


def _held(st: SeatState) -> list[str]:
    """The distinct playing tiles held, in dense-index order."""
    return [_tiles.code(i) for i in range(34) if st.counts[i]]


def _win_score(state: TableState, ruleset: Ruleset, ctx: WinContext) -> WinScore | None:
    score = ruleset.score_win(state, ctx)
    return score if score.legal else None


def _context(state: TableState, ruleset: Ruleset, seat: int, tile: str, concealed: Sequence[str], *,
             self_drawn: bool, from_seat: int | None, robbing: bool, kong_related: bool,
             last_of_wall: bool, visible: int) -> WinContext:
    st = state.seats[seat]
    return WinContext(
        seat=seat, tile=tile, self_drawn=self_drawn, from_seat=from_seat, robbing_kong=robbing,
        kong_related=kong_related, last_of_wall=last_of_wall, visible_copies=max(visible, 0),
        concealed=tuple(t for t in concealed if not ruleset.play.is_flower(t)), melds=st.melds,
        seat_wind=st.wind or ruleset.seat_wind(seat, state.dealer or 0),
        prevalent_wind=state.prevalent_wind or "F1", flowers=st.flowers,
    )


def _turn_actions(state: TableState, ruleset: Ruleset, seat: int, *, drew: bool) -> list[Action]:
    st = state.seats[seat]
    out = [Action(seat, "discard", t) for t in _held(st)]
    if not drew:
        return _allowed(state, ruleset, out)
    play = ruleset.play
    # the self-drawn win: on the tile just drawn (the dealer's first turn: the last tile received)
    ld = state.last_draw if state.last_draw is not None and state.last_draw.seat == seat else None
    tile = ld.tile if ld is not None else next((t for t in reversed(st.tiles) if not play.is_flower(t)), None)
    if tile is not None and not play.is_flower(tile) and st.holds(tile):
        if ruleset.could_win(st.counts, len(st.melds)):
            k = st.tiles.index(tile)
            ctx = _context(state, ruleset, seat, tile, st.tiles[:k] + st.tiles[k + 1:], self_drawn=True,
                           from_seat=None, robbing=False, kong_related=bool(ld and ld.after_kong),
                           last_of_wall=bool(ld and ld.last_of_wall), visible=state.visible_count(tile))
            score = _win_score(state, ruleset, ctx)
            if score is not None:
                out.append(Action(seat, "self_drawn_win", tile, score=score, context=ctx))
    if not wall_empty_for(state, play, seat):  # a kong needs a replacement tile
        for i in range(34):
            if st.counts[i] == 4:
                out.append(Action(seat, "concealed_kong", _tiles.code(i)))
        for m in st.melds:
            if m.kind == "pung" and st.holds(m.tiles[0]):
                out.append(Action(seat, "added_kong", m.tiles[0]))
    return _allowed(state, ruleset, out)


def _claim_actions(state: TableState, ruleset: Ruleset) -> list[Action]:
    play = ruleset.play
    pend = state.pending
    assert pend is not None
    tile, discarder, dseq = pend.tile, pend.seat, pend.seq
    i = _tiles.index(tile)
    out: list[Action] = []
    if i >= 34:  # a flower-range tile played as a tile (鹰潭 宝): only the ruleset's own events claim it
        return out
    chower = next_seat(discarder, state.in_hand)
    for seat in seats_after(discarder, state.in_hand):
        st = state.seats[seat]
        if st.unseen:
            continue  # hidden tiles cannot be judged (imported logs only)
        mine: list[Action] = []
        for t in dict.fromkeys(pend.tiles):  # a kong's revealed tiles: a win on either (杠上炮)
            if ruleset.could_win(_counts_with(st, t), len(st.melds)):
                ctx = _context(state, ruleset, seat, t, st.tiles, self_drawn=False, from_seat=discarder,
                               robbing=False, kong_related=False, last_of_wall=pend.last_of_wall,
                               visible=state.visible_count(t) - 1)
                score = _win_score(state, ruleset, ctx)
                if score is not None:
                    mine.append(Action(seat, "win", t, discard_seq=dseq, from_seat=discarder, score=score,
                                       context=ctx))
                    break
        claimable = not pend.also  # several exposed tiles: only a win may take them
        if claimable and st.counts[i] == 3 and not wall_empty_for(state, play, seat):
            mine.append(Action(seat, "melded_kong", tile, discard_seq=dseq, from_seat=discarder))
        if claimable and st.counts[i] >= 2:
            mine.append(Action(seat, "pung", tile, discard_seq=dseq, from_seat=discarder))
        if claimable and play.chow == "previous_seat" and seat == chower:
            for run in _chows_with(i, play.honor_chows):
                if all(st.counts[r] for r in run if r != i):
                    mine.append(Action(seat, "chow", tile, tuple(_tiles.code(r) for r in run),
                                       discard_seq=dseq, from_seat=discarder))
        mine = _allowed(state, ruleset, mine)
        if mine:
            out.append(Action(seat, "pass", discard_seq=dseq))
            out.extend(mine)
    return out


def _won(state: TableState, discard_seq: int) -> bool:
    """A win was declared on the discard ``discard_seq``: in a hand that goes on, its claims
    were settled together (resolve_claims) and nothing is left to choose on it."""
    return any(w.legal and w.discard_seq == discard_seq for w in state.wins)


def _chows_with(i: int, honor_chows: bool) -> list[tuple[int, int, int]]:
    """The runs (dense indices, ascending) a chow of tile ``i`` can make: suited runs of
    three ranks; with ``honor_chows`` also three different winds or the three dragons."""
    if i < 27:
        rank = i % 9
        return [(i - rank + lo, i - rank + lo + 1, i - rank + lo + 2)
                for lo in (rank - 2, rank - 1, rank) if 0 <= lo and lo + 2 <= 8]
    if not honor_chows:
        return []
    block = range(27, 31) if i < 31 else range(31, 34)
    others = [t for t in block if t != i]
    return [tuple(sorted((i, a, b))) for x, a in enumerate(others) for b in others[x + 1:]]  # type: ignore[misc]


def _allowed(state: TableState, ruleset: Ruleset, actions: list[Action]) -> list[Action]:
    """Drop the actions whose event the ruleset's optional ``check_event`` hook (replayer/
    replay.py: ruleset-specific breaches, e.g. Nanchang 弃碰, claims after the wall is
    empty) would refuse. A seat's pass stays whenever it has another choice."""
    return [a for a in actions if a.kind == "pass" or not ruleset.check_event(state, a.to_payload())]


def _robbing_actions(state: TableState, ruleset: Ruleset) -> list[Action]:
    pk = state.pending_kong
    assert pk is not None
    if pk.kind not in ruleset.play.robbable_kongs:
        return []
    out: list[Action] = []
    for seat in seats_after(pk.seat, state.in_hand):
        st = state.seats[seat]
        if st.unseen or pk.tile is None:
            continue
        if not ruleset.could_win(_counts_with(st, pk.tile), len(st.melds)):
            continue
        # the robbed tile lies on the konger's kong: not one of the "other" visible copies
        ctx = _context(state, ruleset, seat, pk.tile, st.tiles, self_drawn=False, from_seat=pk.seat,
                       robbing=True, kong_related=True, last_of_wall=False,
                       visible=state.visible_count(pk.tile) - 1)
        score = _win_score(state, ruleset, ctx)
        if score is not None:
            rob = _allowed(state, ruleset, [Action(seat, "rob_kong", pk.tile, discard_seq=pk.seq, from_seat=pk.seat,
                                                   score=score, context=ctx)])
            if rob:
                out.append(Action(seat, "pass", discard_seq=pk.seq))
                out.extend(rob)
    return out
