"""Hand-written game logs for the replayer tests: a builder of StoredEvents with real
sequence numbers, deterministic ids and a real hash chain (eventlog.events.chain_hash).

With ``wall=True`` a hand's ``hand_started`` gets the full 144-tile wall that the hand's
own deals and draws imply: the dealt tiles first, then wall draws from the front,
replacement draws from the back, the untouched tiles in between (canonical order)."""

from __future__ import annotations

from typing import Any

from eventlog import events as ev
from eventlog import tiles as T
from replayer.rules.base import standard_tile_copies


def tl(text: str) -> list[str]:
    return T.parse(text)


class GameBuilder:
    def __init__(self, game_id: str = "g1", *, ruleset: str = "mcr", options: dict[str, Any] | None = None,
                 initial_scores: list[int] | None = None) -> None:
        self.game_id = game_id
        self.payloads: list[ev.Payload] = []
        self._walls: dict[int, bool] = {}
        self.add(ev.GameStarted(ruleset=ruleset, ruleset_options=options or {},
                                players=["A", "B", "C", "D"],
                                initial_scores=initial_scores or [0, 0, 0, 0]))

    def add(self, payload: ev.Payload) -> int:
        self.payloads.append(payload)
        return len(self.payloads) - 1

    # sugar -------------------------------------------------------------------------
    def hand(self, n: int, dealer: int, wind: str = "F1", *, wall: bool = False) -> int:
        seq = self.add(ev.HandStarted(hand_number=n, prevalent_wind=wind, dealer=dealer))
        self._walls[seq] = wall
        return seq

    def deal(self, seat: int, tiles: str) -> int:
        return self.add(ev.TilesDealt(seat=seat, tiles=tl(tiles)))

    def draw(self, seat: int, tile: str | None, source: str = "wall") -> int:
        return self.add(ev.TileDrawn(seat=seat, tile=tile, source=source))

    def flower(self, seat: int, flower: str, replacement: str) -> int:
        self.add(ev.FlowerReplaced(seat=seat, flower=flower))
        return self.draw(seat, replacement, "flower_replacement")

    def discard(self, seat: int, tile: str) -> int:
        return self.add(ev.TileDiscarded(seat=seat, tile=tile))

    def chow(self, seat: int, tiles: str, claimed: str, dseq: int) -> int:
        return self.add(ev.Chow(seat=seat, tiles=tl(tiles), claimed_tile=claimed, discard_seq=dseq))

    def pung(self, seat: int, tile: str, dseq: int) -> int:
        return self.add(ev.Pung(seat=seat, tile=tile, discard_seq=dseq))

    def kong(self, seat: int, kind: str, tile: str, dseq: int | None = None) -> int:
        return self.add(ev.Kong(seat=seat, kind=kind, tile=tile, discard_seq=dseq))

    def win(self, seat: int, tile: str, *, from_seat: int | None = None, dseq: int | None = None,
            robbing: bool = False) -> int:
        return self.add(ev.WinDeclared(seat=seat, tile=tile, self_drawn=from_seat is None,
                                       from_seat=from_seat, discard_seq=dseq, robbing_kong=robbing))

    def end(self, n: int) -> int:
        return self.add(ev.HandEnded(hand_number=n))

    # output ------------------------------------------------------------------------
    def _with_walls(self) -> list[ev.Payload]:
        out = list(self.payloads)
        starts = sorted(self._walls)
        for k, s in enumerate(starts):
            if not self._walls[s]:
                continue
            stop = starts[k + 1] if k + 1 < len(starts) else len(out)
            dealt, front, back = [], [], []
            for p in out[s + 1:stop]:
                if isinstance(p, ev.TilesDealt):
                    dealt.extend(p.tiles)
                elif isinstance(p, ev.TileDrawn) and p.tile is not None:
                    (front if p.source == "wall" else back).append(p.tile)
            left = list(standard_tile_copies(flowers=True))
            for t in dealt + front + back:
                left[T.index(t)] -= 1
            middle = [T.code(i) for i, n in enumerate(left) for _ in range(max(n, 0))]
            wall = dealt + front + middle + back[::-1]
            out[s] = out[s].model_copy(update={"wall": wall})
        return out

    def truncated(self, k: int, *replacement: ev.Payload) -> GameBuilder:
        """A copy holding this game's first ``k`` events (walls already filled in) followed
        by ``replacement``: an illegal event put where a legal one was."""
        g = GameBuilder.__new__(GameBuilder)
        g.game_id = self.game_id
        g.payloads = self._with_walls()[:k] + list(replacement)
        g._walls = {}
        return g

    def events(self) -> list[ev.StoredEvent]:
        stored: list[ev.StoredEvent] = []
        prev = ev.GENESIS_HASH
        for seq, p in enumerate(self._with_walls()):
            new = ev.NewEvent.of(p, id_seed=f"{self.game_id}/{seq}")
            payload = new.payload_json()
            h = ev.chain_hash(prev, game_id=self.game_id, seq=seq, event_id=new.event_id, type_=new.type,
                              schema_version=new.schema_version, payload=payload, metadata={},
                              recorded_at="")
            stored.append(ev.StoredEvent(event_id=new.event_id, type=new.type, payload=p, metadata={},
                                         game_id=self.game_id, seq=seq, position=seq + 1,
                                         prev_hash=prev, hash=h))
            prev = h
        return stored
