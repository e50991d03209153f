"""Botzone judge logs of "Chinese-Standard-Mahjong" (MCR, no flowers), JSON.

Two containers of the same judge log, both accepted:

* the match-page ``<matchid>_lite.json``: one-line ``{"status", "logs": [...],
  "players": [{"name", ...}] * 4, "initdata": "<JSON text: quan, srand, walltiles>"}``;
* the "download log" ``.log``: the bare ``logs`` array, TAB-indented, without players
  or initdata (so no wall and no match id).

``logs`` alternates judge records (``{"output": {"command", "content", "display"}}``) and
response records (``{"0": {"response": "PASS" | "PLAY t" | "PENG t" | "CHI m t" | "GANG"
| "GANG t" | "BUGANG t" | "HU", "verdict", ...}, "1": ...}``). The judge's ``display``
is the public record and what is imported: ``INIT`` (``quan`` = prevalent wind 0..3,
``srand``), ``DEAL`` (``hand``: four 13-tile hands), ``DRAW``/``PLAY``
(``player``, ``tile``), ``PENG``, ``CHI`` (``tileCHI`` = middle tile of the run),
``GANG``, ``BUGANG``, ``HU`` (``fan``: ``[{name, value, cnt}]``, ``fanCnt``, ``score``),
``HUANG``.

Quirks:

* ``PENG``/``CHI`` carry the claimer's NEXT discard in ``tile``, not the claimed tile (the
  claimed tile is the last ``PLAY``): each becomes the claim and then a
  ``tile_discarded``.
* ``GANG`` does not say which kong: after another seat's ``PLAY`` it is melded (the
  response is a bare ``GANG``), right after the seat's own ``DRAW`` it is concealed
  (``GANG t``).
* ``HU`` names no tile: it is the seat's draw (self-drawn), the last discard, or the
  tile of the ``BUGANG`` just made (robbing the kong).
* A claim that lost on priority only shows in the response record before the judge's
  decision (e.g. ``{"0": "GANG", "3": "CHI T2 W6"}`` → seat 0's kong, seat 3's chow
  lost): it becomes a ``pass`` with ``claim``.
* ``walltiles`` (136 tiles) is four walls of 34: seat ``i`` is dealt and draws (kong
  replacements included) from ``walltiles[34*i : 34*i+34]`` read from the END. Every
  deal and draw is checked against it. It is kept as given in the ``hand_started``
  event's metadata (``source_wall``, with ``wall_layout`` saying the above), not in the
  payload's ``wall``, which is one sequence in draw order and would be misread.
* Botzone plays MCR without flowers (136 tiles), and a seat whose own wall is empty
  cannot draw: ``HUANG`` comes while other seats' walls still hold tiles.

Game id: ``botzone-<matchid>`` when the file name starts with the 24-hex match id,
otherwise ``botzone-anon-<16 hex>`` from a hash of the INIT and DEAL records.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eventlog.events import ReportedFan
from eventlog.ingest.botzone_text import BOTZONE_RULESET_OPTIONS, objectid_date
from eventlog.ingest.base import ImportedGame, IngestError, ParseIssue, register
from eventlog.ingest.builder import GameBuilder, check_tile, chow_run

NAME = "botzone-json"
WINDS = ("F1", "F2", "F3", "F4")
DEALER = 0  # the judge's player 0 is East (seat wind = id) and draws first
WALL_LAYOUT = "botzone: seat i is dealt and draws from walltiles[34*i:34*i+34], last tile first"
_MATCH_ID = re.compile(r"^([0-9a-f]{24})(?:_|\.|$)")
_CLAIM_WORD = {"PENG": "pung", "CHI": "chow", "GANG": "kong", "HU": "win"}


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise IngestError(f"{what} is not an integer: {v!r}")
    return v


def _seat(v: Any) -> int:
    s = _int(v, "player")
    if not 0 <= s <= 3:
        raise IngestError(f"player {s} is not a seat 0..3")
    return s


def _tile(v: Any) -> str:
    if not isinstance(v, str):
        raise IngestError(f"tile is not a string: {v!r}")
    return check_tile(v)


def _four_ints(v: Any, what: str) -> list[int]:
    if not isinstance(v, list) or len(v) != 4:
        raise IngestError(f"{what} is not a list of 4 integers: {v!r}")
    return [_int(x, what) for x in v]


class _Wall:
    """The four per-seat walls of a Botzone judge game, to check deals and draws."""

    def __init__(self, tiles: list[str]) -> None:
        if len(tiles) != 136:
            raise IngestError(f"walltiles has {len(tiles)} tiles (expected 136)")
        self.segments = [tiles[34 * i : 34 * i + 34][::-1] for i in range(4)]
        self.pos = [0] * 4

    def take(self, seat: int, tiles: list[str]) -> None:
        seg, at = self.segments[seat], self.pos[seat]
        want = seg[at : at + len(tiles)]
        if want != tiles:
            raise IngestError(
                f"seat {seat} gets {' '.join(tiles)} but its wall gives {' '.join(want) or 'nothing'}"
            )
        self.pos[seat] += len(tiles)


class _Game:
    def __init__(self, path: Path, data: Any) -> None:
        if isinstance(data, dict):
            logs = data.get("logs")
            self.players = [
                str(p.get("name", f"Player {i}")) if isinstance(p, dict) else f"Player {i}"
                for i, p in enumerate(data.get("players") or [{}] * 4)
            ]
            init = data.get("initdata")
            try:
                self.init = json.loads(init) if isinstance(init, str) and init else (init or {})
            except json.JSONDecodeError as e:
                raise IngestError(f"initdata is not JSON: {e.msg}") from None
        else:
            logs, self.players, self.init = data, [f"Player {i}" for i in range(4)], {}
        if not isinstance(logs, list) or not logs:
            raise IngestError("no judge log (expected a 'logs' array or a bare array)")
        if len(self.players) != 4:
            raise IngestError(f"{len(self.players)} players (expected 4)")
        self.logs = logs
        self.path = path
        m = _MATCH_ID.match(path.name)
        self.match_id = m.group(1) if m else None

    def game_id(self) -> str:
        if self.match_id:
            return f"botzone-{self.match_id}"
        key = [
            r["output"].get("display")
            for r in self.logs
            if isinstance(r, dict) and isinstance(r.get("output"), dict)
            and isinstance(r["output"].get("display"), dict)
            and r["output"]["display"].get("action") in ("INIT", "DEAL")
        ]
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
        return f"botzone-anon-{digest[:16]}"


class BotzoneJsonImporter:
    name = NAME
    description = "Botzone Chinese-Standard-Mahjong judge log (_lite.json or downloaded .log)"

    def sniff(self, head: str, path: Path) -> bool:
        h = head.lstrip()
        first = h.split("\n", 1)[0]
        if not h.startswith(("{", "[")) or '"event_id"' in first:
            return False  # (a JSON Lines event file starts with an event envelope)
        return '"logs"' in h or ('"output"' in h and '"display"' in h) or '"keep_running"' in h

    def parse(self, path: Path) -> Iterator[ImportedGame | ParseIssue]:
        # One judge log per file, at most a few hundred kB: read whole.
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            yield ParseIssue(str(path), e.lineno, f"not JSON (truncated?): {e.msg} at column {e.colno}")
            return
        game_id: str | None = None
        where: list[int | None] = [None]  # the record being read, for the issue
        try:
            game = _Game(path, data)
            game_id = game.game_id()
            b = GameBuilder(game_id, {"source": path.name, "format": NAME})
            yield self._run(game, b, path, where)
        except IngestError as e:
            yield ParseIssue(str(path), None, str(e), game_id, where[0])

    def _run(
        self, game: _Game, b: GameBuilder, path: Path, where: list[int | None]
    ) -> ImportedGame:
        wall: _Wall | None = None
        responses: dict[str, Any] = {}
        over = False
        started = False
        for i, rec in enumerate(game.logs):
            where[0] = i
            if not isinstance(rec, dict):
                raise IngestError("a log record is not a JSON object")
            out = rec.get("output")
            if out is None:
                responses = rec  # one response per seat, read when the judge decides
                continue
            if over:
                raise IngestError("judge output after the game was over")
            if not isinstance(out, dict) or not isinstance(out.get("display"), dict):
                raise IngestError("judge record without a display object")
            d = out["display"]
            action = d.get("action")
            b.at(record=i)
            if action == "INIT":
                quan = d.get("quan", game.init.get("quan"))
                if quan not in (0, 1, 2, 3):
                    raise IngestError(f"quan (prevalent wind) must be 0..3, got {quan!r}")
                srand = d.get("srand", game.init.get("srand"))
                tiles = str(game.init.get("walltiles") or "").split()
                date = objectid_date(game.match_id)
                if date:
                    b.at(**b.location, date=date)
                b.game_started(
                    game.players,
                    source=(f"https://botzone.org.cn/match/{game.match_id}"
                            if game.match_id else path.name),
                    ruleset_options=dict(BOTZONE_RULESET_OPTIONS),
                )
                if tiles:
                    # Kept in the event's metadata, not in ``wall``: the payload's wall is
                    # one sequence in draw order (DESIGN.md §4), which four per-seat walls
                    # are not; the replayer would misread it.
                    wall = _Wall([check_tile(t) for t in tiles])
                    b.at(record=i, source_wall=tiles, wall_layout=WALL_LAYOUT)
                b.hand_started(0, WINDS[quan], DEALER,
                               seed=None if srand is None else str(srand))
                started = True
                continue
            if not started:
                raise IngestError(f"{action!r} before INIT")
            if action == "DEAL":
                hands = d.get("hand")
                if not isinstance(hands, list) or len(hands) != 4:
                    raise IngestError("DEAL without four hands")
                for seat, hand in enumerate(hands):
                    if not isinstance(hand, list) or len(hand) != 13:
                        raise IngestError(f"DEAL: seat {seat} is not dealt 13 tiles")
                    tiles = [_tile(t) for t in hand]
                    if wall:
                        wall.take(seat, tiles)
                    b.deal(seat, tiles)
            elif action == "DRAW":
                seat, tile = _seat(d.get("player")), _tile(d.get("tile"))
                if wall:
                    wall.take(seat, [tile])
                b.draw(seat, tile)
            elif action == "PLAY":
                b.discard(_seat(d.get("player")), _tile(d.get("tile")))
            elif action in ("PENG", "CHI", "GANG", "HU"):
                seat = _seat(d.get("player"))
                self._lost_claims(b, responses, seat)
                if action == "PENG":
                    b.pung(seat)
                    b.discard(seat, _tile(d.get("tile")))
                elif action == "CHI":
                    b.chow(seat, _tile(d.get("tileCHI")))
                    b.discard(seat, _tile(d.get("tile")))
                elif action == "GANG":
                    b.kong(seat, _tile(d["tile"]) if d.get("tile") is not None else None)
                else:
                    b.win(seat)
                    fans = [
                        ReportedFan(name=str(f.get("name", "?")), points=f.get("value"),
                                    count=f.get("cnt", 1))
                        for f in d.get("fan") or []
                        if isinstance(f, dict)
                    ]
                    score = _four_ints(d.get("score"), "HU score")
                    b.score_reported(winner=seat, score_changes=score, fans=fans,
                                     total=d.get("fanCnt"),
                                     text=json.dumps(d, ensure_ascii=False, sort_keys=True))
                    b.hand_ended()
                    b.game_ended(score)
                    over = True
            elif action == "BUGANG":
                b.added_kong(_seat(d.get("player")), _tile(d.get("tile")))
            elif action == "HUANG":
                b.exhaustive_draw()
                content = out.get("content")
                score = ([_int(content.get(str(s)), "HUANG score") for s in range(4)]
                         if isinstance(content, dict) else [0, 0, 0, 0])
                b.score_reported(score_changes=score,
                                 text=json.dumps(d, ensure_ascii=False, sort_keys=True))
                b.hand_ended()
                b.game_ended(score)
                over = True
            else:
                raise IngestError(f"unknown judge action {action!r}")
        if not over:
            raise IngestError("the log ends before HU or HUANG (truncated?)")
        return b.build(str(path), 1)

    @staticmethod
    def _lost_claims(b: GameBuilder, responses: dict[str, Any], winner: int) -> None:
        """Claims in the response record that the judge's decision overrode."""
        target = b.claim_target()
        if target is None:
            return
        _seq, by, tile = target
        for key in ("0", "1", "2", "3"):
            r = responses.get(key)
            seat = int(key)
            if seat in (winner, by) or not isinstance(r, dict):
                continue
            words = str(r.get("response", "")).split()
            if not words or words[0] not in _CLAIM_WORD:
                continue
            claim = _CLAIM_WORD[words[0]]
            if claim == "chow":
                if len(words) < 2:
                    raise IngestError(f"seat {seat}'s response {' '.join(words)!r} names no chow")
                tiles = chow_run(check_tile(words[1]))
            else:
                tiles = [tile] * {"pung": 3, "kong": 4, "win": 1}[claim]
            b.lost_claim(seat, claim, tiles)


IMPORTER = register(BotzoneJsonImporter())
