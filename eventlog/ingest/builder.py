"""Turn table actions read from a source log into one game's canonical events.

Every importer speaks to a :class:`GameBuilder` in table terms (deal, draw, discard,
chow, pung, kong, win …); the builder numbers the events, attaches the source location
as metadata, derives what the action implies from the turn so far (which discard a
claim takes and its sequence number, whether a draw replaces a kong or a flower,
whether a win is self-drawn, on a discard or robbing a kong) and checks that the
record is physically possible:

* every tile code exists, and no tile is dealt or drawn a fifth time in a hand;
* only a seat that may act does (draws in turn order, the drawer or claimer discards,
  claims only on the last discard, a chow only by the next seat …);
* a seat discards or melds only tiles it holds, when the source shows them.

A breach raises :class:`~eventlog.ingest.base.IngestError`; the importer reports it as a
:class:`~eventlog.ingest.base.ParseIssue` and drops the game. These are checks of the
*record*, not of the rules: whether a win is a valid hand, a claim was allowed by the
ruleset, or the reported fans are right is the replayer's (audit findings).

Turn order follows shared/DESIGN.md §3: seats 0..3, the next player is ``seat + 1``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from eventlog.events import (
    EventError,
    NewEvent,
    Payload,
    ReportedFan,
    parse_payload,
)
from eventlog.ingest.base import IngestError, ImportedGame
from eventlog import tiles as _tiles

__all__ = ["GameBuilder", "chow_run", "check_tile"]

Phase = Literal[
    "start",  # hand dealt, dealer has not drawn
    "drawn",  # actor drew: may discard, kong, win (self-drawn), replace a flower
    "claimed",  # actor chowed/punged: must discard
    "discarded",  # a discard is on the table: next draws, or someone claims
    "kong",  # actor declared a kong: must draw a replacement (an added kong may be robbed)
    "flower",  # actor set a flower aside: must draw a replacement
    "won",  # a win was declared (more winners on the same tile may follow)
    "drawn_game",  # exhaustive draw
]

CLAIM_WORDS = ("chow", "pung", "kong", "win")


def check_tile(code: str) -> str:
    """``code`` if it is a canonical tile (eventlog.tiles); IngestError otherwise."""
    if not _tiles.is_valid(code):
        raise IngestError(f"unknown tile code {code!r}")
    return code


def chow_run(middle: str) -> list[str]:
    """The run whose middle tile is ``middle`` (Botzone and PMN name a chow by it)."""
    check_tile(middle)
    if middle[0] not in _tiles.SUITS or not 2 <= int(middle[1]) <= 8:
        raise IngestError(f"{middle} cannot be the middle tile of a chow")
    s, r = middle[0], int(middle[1])
    return [f"{s}{r - 1}", middle, f"{s}{r + 1}"]


class GameBuilder:
    """Accumulates one game's events; see the module docstring.

    ``meta`` is the metadata common to every event (``source``, ``format``); the
    importer sets the location of the current action with :meth:`at` before each call.
    Seats are 0..3; tiles are canonical codes (the importer converts its notation)."""

    def __init__(self, game_id: str, meta: dict[str, Any]) -> None:
        self.game_id = game_id
        self.meta = dict(meta)
        self.events: list[NewEvent] = []
        self._loc: dict[str, Any] = {}
        self.dealer = 0
        self.hand_number: int | None = None
        self._phase: Phase = "start"
        self._actor = 0
        self._dealt: set[int] = set()
        self._seen: Counter[str] = Counter()
        self._hands: list[Counter[str]] = [Counter() for _ in range(4)]
        self._known = [False] * 4  # concealed hand known (tiles were shown)
        self._pungs: list[list[str]] = [[] for _ in range(4)]
        self._last_draw: list[str | None] = [None] * 4
        self._discard: tuple[int, int, str] | None = None  # seq, seat, tile
        self._kong: tuple[int, int, str, str] | None = None  # seq, seat, tile, kind
        self._win_source: dict[str, Any] | None = None
        self._winners: list[int] = []
        self._flower_return: Phase = "drawn"

    # -- plumbing -------------------------------------------------------------------
    def at(self, **loc: Any) -> GameBuilder:
        """Set the source location (``line=``, ``record=``, ``token=`` …) of what follows."""
        self._loc = loc
        return self

    @property
    def location(self) -> dict[str, Any]:
        """The source location set by the last :meth:`at`."""
        return dict(self._loc)

    def emit(self, type_: str, **fields: Any) -> int:
        """Append an event of ``type_``; returns its sequence number in the game."""
        try:
            payload: Payload = parse_payload(type_, fields)
        except EventError as e:
            raise IngestError(str(e)) from None
        seq = len(self.events)
        self.events.append(
            NewEvent.of(
                payload,
                metadata={**self.meta, **self._loc},
                id_seed=f"{self.game_id}/{seq}",
            )
        )
        return seq

    def build(self, source_path: str, first_line: int) -> ImportedGame:
        return ImportedGame(
            self.game_id, self.events, source_path, first_line, self.meta.get("format", "")
        )

    def _need(self, ok: bool, reason: str) -> None:
        if not ok:
            raise IngestError(reason)

    def _expecting(self) -> str:
        p, a = self._phase, self._actor
        return {
            "start": f"seat {self.dealer} (dealer) to draw",
            "drawn": f"seat {a} to discard, kong or win",
            "claimed": f"seat {a} to discard",
            "discarded": f"seat {(a + 1) % 4} to draw, or a claim on seat {a}'s discard",
            "kong": f"seat {a} to draw a kong replacement",
            "flower": f"seat {a} to draw a flower replacement",
            "won": "the hand to end",
            "drawn_game": "the hand to end",
        }[p]

    def _refuse(self, what: str) -> IngestError:
        return IngestError(f"{what} is not possible now (expecting {self._expecting()})")

    def _take(self, seat: int, tile: str, n: int = 1) -> None:
        """Remove ``n`` copies of ``tile`` from ``seat``'s concealed hand (when known)."""
        if not self._known[seat]:
            return
        have = self._hands[seat][tile]
        if have < n:
            raise IngestError(
                f"seat {seat} holds {have} {tile} but the action needs {n}"
            )
        self._hands[seat][tile] -= n

    def _see(self, tile: str) -> None:
        self._seen[tile] += 1
        if self._seen[tile] > 4:
            raise IngestError(f"a fifth copy of {tile} in this hand")

    # -- hand framing ---------------------------------------------------------------
    def game_started(
        self,
        players: Sequence[str],
        *,
        ruleset: str = "mcr",
        source: str = "",
        initial_scores: Sequence[int] | None = None,
        ruleset_options: dict[str, Any] | None = None,
    ) -> int:
        fields: dict[str, Any] = {
            "ruleset": ruleset,
            "players": list(players),
            "source": source,
            "ruleset_options": ruleset_options or {},
        }
        if initial_scores is not None:
            fields["initial_scores"] = list(initial_scores)
        return self.emit("game_started", **fields)

    def hand_started(
        self,
        hand_number: int,
        prevalent_wind: str,
        dealer: int,
        *,
        wall: Sequence[str] = (),
        seed: str | None = None,
    ) -> int:
        for t in wall:
            check_tile(t)
        wall_count = Counter(wall)
        over = sorted((t for t, c in wall_count.items() if c > 4), key=_tiles.sort_key)
        self._need(not over, f"the wall holds more than four of {', '.join(over)}")
        self.dealer = dealer
        self.hand_number = hand_number
        self._phase, self._actor = "start", dealer
        self._dealt = set()
        self._seen = Counter()
        self._hands = [Counter() for _ in range(4)]
        self._known = [False] * 4
        self._pungs = [[] for _ in range(4)]
        self._last_draw = [None] * 4
        self._discard = self._kong = self._win_source = None
        self._winners = []
        return self.emit(
            "hand_started",
            hand_number=hand_number,
            prevalent_wind=prevalent_wind,
            dealer=dealer,
            wall=list(wall),
            seed=seed,
        )

    def deal(self, seat: int, tiles: Sequence[str]) -> int:
        self._need(self._phase == "start", "tiles dealt after play began")
        self._need(seat not in self._dealt, f"seat {seat} is dealt twice")
        for t in tiles:
            check_tile(t)
            self._see(t)
        self._dealt.add(seat)
        self._known[seat] = True
        self._hands[seat].update(tiles)
        return self.emit("tiles_dealt", seat=seat, tiles=list(tiles))

    # -- the turn -------------------------------------------------------------------
    def draw(self, seat: int, tile: str | None) -> int:
        p, a = self._phase, self._actor
        if p == "start" and seat == self.dealer:
            source = "wall"
        elif p == "discarded" and seat == (a + 1) % 4:
            source = "wall"
        elif p == "kong" and seat == a:
            source = "kong_replacement"
        elif p == "flower" and seat == a:
            source = "flower_replacement"
        else:
            raise self._refuse(f"a draw by seat {seat}")
        if tile is not None:
            check_tile(tile)
            self._see(tile)
            self._hands[seat][tile] += 1
        else:
            self._known[seat] = False
        self._last_draw[seat] = tile
        next_phase: Phase = "drawn"
        if p == "flower" and self._flower_return == "start":
            next_phase = "start"
        self._phase, self._actor = next_phase, seat
        self._kong = None
        return self.emit("tile_drawn", seat=seat, tile=tile, source=source)

    def flower(self, seat: int, flower: str) -> int:
        check_tile(flower)
        self._need(_tiles.is_flower(flower), f"{flower} is not a flower")
        p, a = self._phase, self._actor
        self._need(p == "start" or (p == "drawn" and seat == a),
                   str(self._refuse(f"a flower set aside by seat {seat}")))
        self._take(seat, flower)
        self._flower_return = "start" if p == "start" else "drawn"
        self._phase, self._actor = "flower", seat
        return self.emit("flower_replaced", seat=seat, flower=flower)

    def discard(self, seat: int, tile: str) -> int:
        check_tile(tile)
        if not (self._phase in ("drawn", "claimed") and seat == self._actor):
            raise self._refuse(f"a discard by seat {seat}")
        self._take(seat, tile)
        seq = self.emit("tile_discarded", seat=seat, tile=tile)
        self._discard = (seq, seat, tile)
        self._phase, self._actor = "discarded", seat
        return seq

    def last_drawn(self, seat: int) -> str:
        """The tile ``seat`` just drew (for "discard the drawn tile" notations)."""
        t = self._last_draw[seat]
        if self._phase != "drawn" or self._actor != seat or t is None:
            raise IngestError(f"seat {seat} discards 'the drawn tile' but did not just draw one")
        return t

    def _claimable(self, seat: int, what: str) -> tuple[int, int, str]:
        if self._phase != "discarded" or self._discard is None or seat == self._actor:
            raise self._refuse(f"{what} by seat {seat}")
        return self._discard

    def chow(self, seat: int, middle: str) -> int:
        """Chow named by its middle tile; the claimed tile is the last discard."""
        run = chow_run(middle)
        seq, by, tile = self._claimable(seat, "a chow")
        self._need(seat == (by + 1) % 4,
                   f"seat {seat} chows seat {by}'s discard but only seat {(by + 1) % 4} may")
        self._need(tile in run, f"chow {'-'.join(run)} does not contain the discard {tile}")
        for t in run:
            if t != tile:
                self._take(seat, t)
        self._phase, self._actor = "claimed", seat
        return self.emit("chow", seat=seat, tiles=run, claimed_tile=tile, discard_seq=seq)

    def pung(self, seat: int, tile: str | None = None) -> int:
        seq, _by, discarded = self._claimable(seat, "a pung")
        if tile is not None:
            check_tile(tile)
            self._need(tile == discarded, f"pung of {tile} but the discard is {discarded}")
        self._take(seat, discarded, 2)
        self._pungs[seat].append(discarded)
        self._phase, self._actor = "claimed", seat
        return self.emit("pung", seat=seat, tile=discarded, discard_seq=seq)

    def melded_kong(self, seat: int, tile: str | None = None) -> int:
        seq, _by, discarded = self._claimable(seat, "a melded kong")
        if tile is not None:
            check_tile(tile)
            self._need(tile == discarded, f"kong of {tile} but the discard is {discarded}")
        self._take(seat, discarded, 3)
        out = self.emit("kong", seat=seat, kind="melded", tile=discarded, discard_seq=seq)
        self._kong = (out, seat, discarded, "melded")
        self._phase, self._actor = "kong", seat
        return out

    def concealed_kong(self, seat: int, tile: str) -> int:
        check_tile(tile)
        if not (self._phase == "drawn" and seat == self._actor):
            raise self._refuse(f"a concealed kong by seat {seat}")
        self._take(seat, tile, 4)
        out = self.emit("kong", seat=seat, kind="concealed", tile=tile)
        self._kong = (out, seat, tile, "concealed")
        self._phase, self._actor = "kong", seat
        return out

    def added_kong(self, seat: int, tile: str) -> int:
        check_tile(tile)
        if not (self._phase == "drawn" and seat == self._actor):
            raise self._refuse(f"an added kong by seat {seat}")
        self._need(tile in self._pungs[seat], f"seat {seat} adds {tile} to a pung it has not got")
        self._take(seat, tile)
        self._pungs[seat].remove(tile)
        out = self.emit("kong", seat=seat, kind="added", tile=tile)
        self._kong = (out, seat, tile, "added")
        self._phase, self._actor = "kong", seat
        return out

    def kong(self, seat: int, tile: str | None) -> int:
        """A kong the source does not qualify: melded when it claims a discard by another
        seat, concealed when the seat has just drawn (then the tile must be given)."""
        if self._phase == "discarded" and seat != self._actor:
            return self.melded_kong(seat, tile)
        if self._phase == "drawn" and seat == self._actor:
            if tile is None:
                raise IngestError(f"a kong by seat {seat} after its draw names no tile")
            return self.concealed_kong(seat, tile)
        raise self._refuse(f"a kong by seat {seat}")

    def lost_claim(self, seat: int, claim: str, tiles: Sequence[str]) -> int:
        """A claim on the current discard (or robbable kong) that lost on priority."""
        self._need(claim in CLAIM_WORDS, f"unknown claim {claim!r}")
        for t in tiles:
            check_tile(t)
        if self._phase == "discarded" and self._discard is not None:
            seq, by, _ = self._discard
        elif self._phase == "kong" and self._kong is not None and self._kong[3] == "added":
            seq, by, _, _ = self._kong
        else:
            raise self._refuse(f"a claim by seat {seat}")
        self._need(seat != by, f"seat {seat} claims its own tile")
        return self.emit("pass", seat=seat, discard_seq=seq, claim=claim, tiles=list(tiles))

    def win(self, seat: int, tile: str | None = None) -> int:
        """Self-drawn after the seat's own draw, on the last discard, robbing an added
        kong, or a further winner on the same tile (several winners)."""
        p, a = self._phase, self._actor
        if p == "won" and self._win_source is not None:
            src = dict(self._win_source)
            self._need(seat not in self._winners, f"seat {seat} declares a win twice")
            self._need(not src["self_drawn"], "a second winner on a self-drawn tile")
            self._need(src["from_seat"] != seat, f"seat {seat} wins on its own tile")
        elif p == "drawn" and seat == a:
            drawn = self._last_draw[seat]
            src = {"tile": drawn, "self_drawn": True, "from_seat": None,
                   "discard_seq": None, "robbing_kong": False}
        elif p == "discarded" and seat != a and self._discard is not None:
            seq, by, t = self._discard
            src = {"tile": t, "self_drawn": False, "from_seat": by,
                   "discard_seq": seq, "robbing_kong": False}
        elif p == "kong" and seat != a and self._kong is not None and self._kong[3] == "added":
            seq, by, t, _ = self._kong
            src = {"tile": t, "self_drawn": False, "from_seat": by,
                   "discard_seq": seq, "robbing_kong": True}
        else:
            raise self._refuse(f"a win by seat {seat}")
        if tile is not None:
            check_tile(tile)
            if src["tile"] is None:
                src["tile"] = tile
            self._need(tile == src["tile"],
                       f"seat {seat} wins on {tile} but the winning tile is {src['tile']}")
        self._need(src["tile"] is not None, f"the winning tile of seat {seat} is unknown")
        self._win_source = src
        self._winners.append(seat)
        self._phase = "won"
        return self.emit("win_declared", seat=seat, **src)

    def claim_target(self) -> tuple[int, int, str] | None:
        """``(seq, seat, tile)`` of what a claim now would take: the last discard, or an
        added kong that may be robbed; None when nothing can be claimed."""
        if self._phase == "discarded" and self._discard is not None:
            return self._discard
        if self._phase == "kong" and self._kong is not None and self._kong[3] == "added":
            return self._kong[:3]
        return None

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def phase(self) -> str:
        return self._phase

    def exhaustive_draw(self) -> int:
        self._need(self._phase not in ("won", "drawn_game"),
                   "an exhaustive draw after the hand was over")
        self._phase = "drawn_game"
        return self.emit("exhaustive_draw")

    def score_reported(
        self,
        *,
        winner: int | None = None,
        score_changes: Sequence[int] | None = None,
        fans: Sequence[ReportedFan] = (),
        total: int | None = None,
        text: str = "",
    ) -> int:
        return self.emit(
            "score_reported",
            winner=winner,
            score_changes=list(score_changes) if score_changes is not None else None,
            fans=[f.model_dump() for f in fans],
            total=total,
            text=text,
        )

    def hand_ended(self) -> int:
        self._need(self._phase in ("won", "drawn_game"),
                   f"the hand ends without a win or exhaustive draw (truncated?); "
                   f"was expecting {self._expecting()}")
        assert self.hand_number is not None
        return self.emit("hand_ended", hand_number=self.hand_number)

    def game_ended(self, final_scores: Sequence[int] | None = None) -> int:
        return self.emit(
            "game_ended", final_scores=list(final_scores) if final_scores is not None else None
        )
