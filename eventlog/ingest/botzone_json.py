"""Botzone judge logs of "Chinese-Standard-Mahjong" (MCR, no flowers), JSON.

Two containers of the same judge log, both accepted:

* the match-page ``<matchid>_lite.json``: one-line ``{"status", "logs": [...],
  "players": [{"name", ...}] * 4, "initdata": "<JSON text: quan, srand, walltiles>"}``;
  a ``status`` other than ``"finished"`` (``"running"``) is a match not over: refused;
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
  replacements included) from ``walltiles[34*i : 34*i+34]`` read from the END. It becomes
  the ``hand_started`` wall in the per-seat layout (docs/events.md, ``wall_layout``
  "per_seat"): seat 0's wall then seat 1's …, each in the order its seat takes the tiles
  (each segment reversed). Deals and draws are written as the log gives them; the
  replayer checks them against the wall (``wall_mismatch``, issue 13 item 7).
* Botzone plays MCR without flowers (136 tiles), and a seat whose own wall is empty
  cannot draw: ``HUANG`` comes while other seats' walls still hold tiles.
* The judge ends a game on an offence with ``command: "finish"`` and a display
  ``{"action": "WA" | "WH" | <verdict>, "player": p, "score": [...]}`` (the judge's
  ``playerError``: the offender −30, each other seat +10). ``WH`` (错和, a declared win
  below 8 fans) becomes the ``win_declared`` it was — the replayer finds the false win
  and, with ``false_win_penalty`` on (the Botzone profile), settles −30/+10. ``WA``
  (an illegal response) and verdicts (``TLE``, ``RE`` …) become a ``penalty`` of the
  judge's score naming the response; the hand then ends unfinished, which the replayer
  reports as a finding. The game is stored either way.
* A ``.log`` file may hold several judge logs one after the other (``[...][...]``, or
  one array with a second ``INIT``): each is a game.

Dates: ``srand`` (in ``INIT`` and ``initdata``) is the Unix time the match was set up;
the game's date is that day (UTC), or the match id's day when there is no ``srand``.

Game id: ``botzone-<matchid>`` when the file name starts with a 24-hex match id whose
time agrees with ``srand`` (within a day), otherwise ``botzone-anon-<16 hex>`` from the
content. Identity is the content, not the name: the ingest load recognises the same
game under any id through its fingerprint (:func:`eventlog.ingest.base.fingerprint`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from eventlog.errors import json_error
from eventlog.events import ReportedFan
from eventlog.ingest.botzone_text import BOTZONE_RULESET_OPTIONS
from eventlog.ingest.base import (
    ImportedGame,
    IngestError,
    ParseIssue,
    decode_text,
    name_text,
    issue_reason,
    register,
)
from eventlog.ingest.builder import GameBuilder, check_tile, chow_run

NAME = "botzone-json"
WINDS = ("F1", "F2", "F3", "F4")
DEALER = 0  # the judge's player 0 is East (seat wind = id) and draws first
_MATCH_ID = re.compile(r"^([0-9a-f]{24})(?:_|\.|$)")
_CLAIM_WORD = {"PENG": "pung", "CHI": "chow", "GANG": "kong", "HU": "win"}
#: Judge endings on an offence (judge/main.cpp ``playerError``): the action is "WA",
#: "WH" or the response's verdict.
OFFENCES = {
    "WA": "illegal response (WA)",
    "WH": "false win (WH, 错和)",
    "TLE": "time limit exceeded (TLE)",
    "MLE": "memory limit exceeded (MLE)",
    "RE": "runtime error (RE)",
    "OLE": "output limit exceeded (OLE)",
    "NJ": "no response (NJ)",
}
_DAY = 86400
_MAX_DEPTH = 64  # a judge log nests 5 levels; deeper is not a judge log


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise IngestError(f"{what} is not an integer: {str(v)[:40]!r}")
    return v


def _seat(v: Any) -> int:
    s = _int(v, "player")
    if not 0 <= s <= 3:
        raise IngestError(f"player {s} is not a seat 0..3")
    return s


def _tile(v: Any) -> str:
    if not isinstance(v, str):
        raise IngestError(f"tile is not a string: {str(v)[:40]!r}")
    return check_tile(v)


def _four_ints(v: Any, what: str) -> list[int]:
    if not isinstance(v, list) or len(v) != 4:
        raise IngestError(f"{what} is not a list of 4 integers: {str(v)[:60]!r}")
    return [_int(x, what) for x in v]


def _depth_ok(text: str) -> bool:
    """False when brackets nest deeper than a judge log can (the JSON reader would
    recurse without bound)."""
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > _MAX_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def match_date(srand: Any, match_id: str | None) -> str | None:
    """The UTC day (``YYYY-MM-DD``) a judge game was played: its ``srand`` seed is the Unix
    time the match was set up (2026 logs: within seconds of the match id's time); else
    the time inside the match id (a MongoDB ObjectId). None when neither is known."""
    if isinstance(srand, int) and not isinstance(srand, bool) and 946684800 <= srand < 4102444800:
        return datetime.fromtimestamp(srand, tz=timezone.utc).date().isoformat()
    if match_id and re.fullmatch(r"[0-9a-fA-F]{24}", match_id):
        return datetime.fromtimestamp(int(match_id[:8], 16), tz=timezone.utc).date().isoformat()
    return None


def seat_walls(walltiles: list[str]) -> list[str]:
    """The judge's ``walltiles`` (136 tiles) as the ``hand_started`` wall of the per-seat
    layout: seat ``i``'s 34 tiles ``walltiles[34*i : 34*i+34]`` in the order seat ``i``
    takes them (the judge takes from the end), seat 0's first. IngestError when the text
    is not 136 tile codes (no layout can be read from it)."""
    if len(walltiles) != 136:
        raise IngestError(f"walltiles has {len(walltiles)} tiles (expected 136)")
    return [check_tile(t) for i in range(4) for t in walltiles[34 * i : 34 * i + 34][::-1]]


def _players(data: dict[str, Any]) -> list[str]:
    raw = data.get("players")
    if raw is None:
        return [f"Player {i}" for i in range(4)]
    if not isinstance(raw, list) or len(raw) != 4:
        raise IngestError(f"players is not a list of 4 players: {str(raw)[:60]!r}")
    return [
        str(p.get("name", f"Player {i}"))[:200] if isinstance(p, dict) else f"Player {i}"
        for i, p in enumerate(raw)
    ]


class _Game:
    def __init__(self, path: Path, data: Any, logs: list[Any] | None = None) -> None:
        if isinstance(data, dict):
            status = data.get("status", "finished")
            if status != "finished":  # the match page's state: a log of a match still on (or stopped)
                raise IngestError(f"the match's status is {str(status)[:40]!r}, not 'finished': "
                                  "the log is of an unfinished match")
            logs = data.get("logs") if logs is None else logs
            self.players = _players(data)
            init = data.get("initdata")
            if isinstance(init, str) and init:
                if not _depth_ok(init):
                    raise IngestError("initdata is nested too deeply")
                try:
                    init = json.loads(init)
                except json.JSONDecodeError as e:
                    raise IngestError(f"initdata is not JSON: {e.msg}") from None
            if init is not None and init != "" and not isinstance(init, dict):
                raise IngestError(f"initdata is not a JSON object: {str(init)[:40]!r}")
            self.init = init if isinstance(init, dict) else {}
        else:
            logs = data if logs is None else logs
            self.players, self.init = [f"Player {i}" for i in range(4)], {}
        if not isinstance(logs, list) or not logs:
            raise IngestError("no judge log (expected a 'logs' array or a bare array)")
        self.logs = logs
        self.path = path
        m = _MATCH_ID.match(path.name)
        self.match_id = m.group(1) if m else None
        srand = self.init.get("srand", self._init_display().get("srand"))
        if self.match_id and isinstance(srand, int) and not isinstance(srand, bool) \
                and abs(int(self.match_id[:8], 16) - srand) > _DAY:
            self.match_id = None  # a file name that is not this game's match id

    def _init_display(self) -> dict[str, Any]:
        for r in self.logs:
            if isinstance(r, dict) and isinstance(r.get("output"), dict):
                d = r["output"].get("display")
                if isinstance(d, dict) and d.get("action") == "INIT":
                    return d
        return {}

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


def _split_games(logs: list[Any]) -> list[list[Any]]:
    """One judge log per game: a second ``INIT`` starts the next game."""
    games: list[list[Any]] = [[]]
    for rec in logs:
        out = rec.get("output") if isinstance(rec, dict) else None
        d = out.get("display") if isinstance(out, dict) else None
        if isinstance(d, dict) and d.get("action") == "INIT" and any(
            isinstance(r, dict) and "output" in r for r in games[-1]
        ):
            games.append([])
        games[-1].append(rec)
    return games


def _documents(text: str) -> Iterator[tuple[int, Any]]:
    """``(line, value)`` for each JSON value in ``text`` (one, or several written one
    after the other). JSONDecodeError for text that is not JSON."""
    dec = json.JSONDecoder()
    pos = 0
    n = len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos >= n:
            return
        value, end = dec.raw_decode(text, pos)
        yield text.count("\n", 0, pos) + 1, value
        pos = end


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
        # One judge log (or a few) per file, at most a few hundred kB: read whole.
        text, encoding = decode_text(path.read_bytes())
        if not _depth_ok(text):
            yield ParseIssue(str(path), None, f"unreadable: JSON nested deeper than {_MAX_DEPTH} levels")
            return
        docs = _documents(text)
        while True:
            try:
                line, data = next(docs)
            except StopIteration:
                return
            except json.JSONDecodeError as e:
                yield ParseIssue(str(path), e.lineno, json_error(e, line=False)
                                 + (" (the file ends inside a value: truncated?)"
                                    if e.pos >= len(text.rstrip()) else ""))
                return
            except Exception as e:
                yield ParseIssue(str(path), None, issue_reason(e))
                return
            logs = data.get("logs") if isinstance(data, dict) else data
            parts = _split_games(logs) if isinstance(logs, list) and logs else [logs]
            for k, part in enumerate(parts):
                yield self._one(path, data, part, line, k, len(parts), encoding)

    def _one(self, path: Path, data: Any, logs: Any, line: int, k: int, n: int,
             encoding: str = "utf-8") -> ImportedGame | ParseIssue:
        game_id: str | None = None
        where: list[int | None] = [None]  # the record being read, for the issue
        try:
            game = _Game(path, data, logs if isinstance(logs, list) else None)
            game_id = game.game_id()
            b = GameBuilder(game_id, {"source": name_text(path.name), "format": NAME,
                                      **({"part": k} if n > 1 else {})})
            return self._run(game, b, path, where, line, encoding)
        except Exception as e:  # this game only (issue 12 item 5)
            reason = issue_reason(e)
            if n > 1:
                reason = f"game {k + 1} of {n} in this file: {reason}"
            return ParseIssue(str(path), line, reason, game_id, where[0])

    def _run(
        self, game: _Game, b: GameBuilder, path: Path, where: list[int | None], line: int,
        encoding: str = "utf-8",
    ) -> ImportedGame:
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
                if quan not in (0, 1, 2, 3) or isinstance(quan, bool):
                    raise IngestError(f"quan (prevalent wind) must be 0..3, got {str(quan)[:20]!r}")
                srand = d.get("srand", game.init.get("srand"))
                walltiles = game.init.get("walltiles") or ""
                if not isinstance(walltiles, str):
                    raise IngestError("initdata.walltiles is not a string")
                tiles = walltiles.split()
                date = match_date(srand, game.match_id)
                b.at(**b.location, encoding=encoding, **({"date": date} if date else {}))
                b.game_started(
                    game.players,
                    source=(f"https://botzone.org.cn/match/{game.match_id}"
                            if game.match_id else "botzone"),
                    ruleset_options=dict(BOTZONE_RULESET_OPTIONS),
                )
                b.hand_started(0, WINDS[quan], DEALER, wall=seat_walls(tiles) if tiles else (),
                               seed=None if srand is None else str(srand)[:40])
                started = True
                continue
            if not started:
                raise IngestError(f"{str(action)[:20]!r} before INIT")
            if action == "DEAL":
                hands = d.get("hand")
                if not isinstance(hands, list) or len(hands) != 4:
                    raise IngestError("DEAL without four hands")
                for seat, hand in enumerate(hands):
                    if not isinstance(hand, list):
                        raise IngestError(f"DEAL: seat {seat}'s hand is not a list of tiles")
                    # as written: a hand of the wrong size or other than the wall gives is
                    # the replayer's deal_mismatch / wall_mismatch
                    b.deal(seat, [_tile(t) for t in hand])
            elif action == "DRAW":
                # as written: a tile other than the seat's wall gives is the replayer's
                # wall_mismatch
                b.draw(_seat(d.get("player")), _tile(d.get("tile")))
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
                    score = _four_ints(d.get("score"), "HU score")
                    b.score_reported(winner=seat, score_changes=score, fans=_fans(d),
                                     total=_opt_int(d.get("fanCnt"), "fanCnt"),
                                     text=_text(d))
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
                b.score_reported(score_changes=score, text=_text(d))
                b.hand_ended()
                b.game_ended(score)
                over = True
            elif isinstance(action, str) and (action in OFFENCES or out.get("command") == "finish"):
                self._offence(b, d, out, responses, action)
                over = True
            else:
                raise IngestError(f"unknown judge action {str(action)[:20]!r}")
        if not over:
            raise IngestError(
                f"the judge log ends after record {len(game.logs) - 1} without HU, HUANG or an "
                "offence (WA/WH): the game is incomplete (truncated, or cut from a longer file)"
            )
        return b.build(str(path), line)

    @staticmethod
    def _offence(b: GameBuilder, d: dict[str, Any], out: dict[str, Any],
                 responses: dict[str, Any], action: str) -> None:
        """The judge ended the game on ``player``'s offence (judge/main.cpp
        ``playerError``)."""
        seat = _seat(d.get("player"))
        score = _four_ints(d.get("score"), f"{action} score")
        what = OFFENCES.get(action, f"judge verdict {action}")
        r = responses.get(str(seat))
        said = str(r.get("response", ""))[:80] if isinstance(r, dict) else ""
        if action == "WH":
            # the win was declared: store it; the replayer judges it (false win, and the
            # false_win_penalty settlement of the Botzone profile)
            b.win(seat)
        else:
            b.emit("penalty", seat=seat, score_changes=score,
                   reason=f"Botzone judge: {what} by seat {seat}"
                          + (f", response {said!r}" if said else ""),
                   rule=f"botzone_{action.lower()}")
        b.score_reported(score_changes=score, fans=_fans(d),
                         total=None, text=_text(d))
        b.hand_ended()
        b.game_ended(score)

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
                    raise IngestError(f"seat {seat}'s response {' '.join(words)[:40]!r} names no chow")
                tiles = chow_run(check_tile(words[1]))
            else:
                tiles = [tile] * {"pung": 3, "kong": 4, "win": 1}[claim]
            b.lost_claim(seat, claim, tiles)


def _opt_int(v: Any, what: str) -> int | None:
    return None if v is None else _int(v, what)


def _fans(d: dict[str, Any]) -> list[ReportedFan]:
    raw = d.get("fan") or []
    if not isinstance(raw, list):
        raise IngestError("fan is not a list")
    fans = []
    for f in raw:
        if not isinstance(f, dict):
            continue
        fans.append(ReportedFan(
            name=str(f.get("name", "?"))[:100],
            points=_opt_int(f.get("value"), "fan value"),
            count=_opt_int(f.get("cnt", 1), "fan cnt") or 1,
        ))
    return fans


def _text(d: dict[str, Any]) -> str:
    return json.dumps(d, ensure_ascii=False, sort_keys=True)


IMPORTER = register(BotzoneJsonImporter())
