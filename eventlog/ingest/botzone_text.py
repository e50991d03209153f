"""Botzone / PKU "Chinese Standard Mahjong" human-game text logs (``data.txt``, ``sample.txt``).

Format (the dataset's data/README.md; one block per match, blocks separated by a blank
line)::

    Match <id>
    Wind <0..3>                       prevalent wind: 0 East 1 South 2 West 3 North
    Player <N> Deal <13 tiles>        N = 0..3, seat 0 is East and deals (draws first)
    Player <N> Draw <t> | Play <t> | Chi <middle tile of the run> | Peng <t> | Gang <t>
             | AnGang <t> | BuGang <t> | Hu <t>     [Ignore Player <M> <Chi|Peng|Gang|Hu> <t>]...
    Fan <total> <name>*<count>+<name>*<count>...   then   Score <s0> <s1> <s2> <s3>
    Huang                                          then   Score 0 0 0 0

Mapping (shared/DESIGN.md §4): ``Match`` → game ``botzone-<id>`` (one hand per match),
``Chi X`` → chow of X-1, X, X+1 claiming the last discard, ``Gang`` → a melded kong
after another seat's discard or a concealed kong right after the seat's own draw,
``AnGang`` → concealed, ``BuGang`` → added, ``Hu`` after another seat's ``BuGang`` →
robbing the kong, each ``Ignore`` → a ``pass`` naming the claim that lost on priority,
``Huang`` → exhaustive draw, ``Fan``/``Score`` → ``score_reported`` (kept as written: the
format gives fan names and counts, not per-fan points).

Quirks of the real data: the README says ``Wind`` 0..3 and the seats are "东、北、西、南";
the sample's own fans say otherwise (game 61602cb45ddc087351c04371: ``Wind 3``, seat 3
pungs F4 and scores both 圈风刻 and 门风刻), so 0..3 = F1..F4 = East South West North.
``Ignore`` action words appear upper-case in the README's examples (``PENG``), so action
words are read case-insensitively.
"""

from __future__ import annotations

import bisect
import os
import re
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path

from eventlog.events import ReportedFan
from eventlog.ingest.base import (
    ImportedGame,
    IngestError,
    ParseIssue,
    TextDecoding,
    decode_text,
    issue_reason,
    lines_of,
    name_text,
    quoted,
    register,
    text_decoding,
)
from eventlog.ingest.builder import GameBuilder, check_tile, chow_run
from eventlog.tiles import ALL_TILES as TILE_CODES

NAME = "botzone-text"
WINDS = ("F1", "F2", "F3", "F4")
DEALER = 0  # data/README.md: Player 0 is East; East deals and draws first
_PLAYER = re.compile(r"^Player\s+([-+]?\d+)\s+(\w+)(?:\s+(.*))?$")  # a signed seat: "not a seat"
_IGNORE = re.compile(r"\s+Ignore\s+", re.IGNORECASE)
_IGNORED = re.compile(r"^Player\s+([-+]?\d+)\s+(\w+)(?:\s+(\S+))?$", re.IGNORECASE)
_CLAIM_OF = {"chi": "chow", "peng": "pung", "gang": "kong", "hu": "win"}
# read once a game (Score, Fan, Match lines), compiled once
_INT = re.compile(r"[-+]?[0-9]{1,9}")
_FAN_TOTAL = re.compile(r"-?[0-9]{1,9}")
_FAN_COUNT = re.compile(r"[0-9]{1,6}")
_WHOLE = re.compile(r"[-+]?[0-9]+")
_NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]*)?")
#: What :meth:`BotzoneTextImporter.sniff` looks for past a damaged first line.
_GAME_START = re.compile(r"^[ \t]*Match[ \t]+\S+[ \t]*\r?\n[ \t]*Wind[ \t]+[0-3][ \t]*\r?$", re.M)
_DEAL_LINE = re.compile(r"^[ \t]*Player[ \t]+[0-3][ \t]+Deal(?:[ \t]+[WBTFJH][1-9]){13}[ \t]*\r?$", re.M)
_OBJECT_ID = re.compile(r"[0-9a-fA-F]{24}")
#: A line only a Botzone text log has (:meth:`BotzoneTextImporter.resembles`): a match, the
#: prevalent wind, a seat's deal or action, a fan or score line, a draw.
_BOTZONE_LINE = re.compile(
    r"^(?:Match\s+\S+|Wind\s+[0-3]|Huang|Score(?:\s+[-+]?[0-9]+){4}|Fan\s+-?[0-9]+\b.*"
    r"|Player\s+[0-3]\s+(?:Deal|Draw|Play|Chi|Peng|Gang|AnGang|BuGang|Hu)\b.*)$", re.IGNORECASE)


def _claim_tiles(claim: str, tile: str | None) -> list[str]:
    """The tiles a lost claim would have melded (a chow: its run; a win: the tile)."""
    if tile is None:
        return []
    check_tile(tile)
    if claim == "chow":
        return chow_run(tile)
    return [tile] * {"pung": 3, "kong": 4, "win": 1}[claim]


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise IngestError(f"not a seat: {text!r} (expected 0..3)")
    return int(text)


def _one_tile(arg: str | None, action: str) -> str:
    parts = (arg or "").split()
    if len(parts) != 1:
        raise IngestError(f"{action} takes one tile, got {arg!r}")
    return check_tile(parts[0])


def _ints(text: str, n: int, what: str) -> list[int]:
    parts = text.split()
    if not all(_INT.fullmatch(p) for p in parts):
        if all(_WHOLE.fullmatch(p) for p in parts):  # integers, too long for a score
            raise IngestError(f"{what}: out of range (at most 9 digits): {quoted(text)}")
        raise IngestError(f"{what}: not integers: {quoted(text)}")
    values = [int(p) for p in parts]
    if len(values) != n:
        raise IngestError(f"{what}: expected {n} numbers, got {len(values)}")
    return values


def parse_fans(text: str) -> tuple[int | None, list[ReportedFan]]:
    """``Fan 9 混一色*1+箭刻*1`` (without ``Fan``) → total and fans as written.

    Fan names are kept verbatim, damage included (a name turned into ``???`` by a lost
    encoding stays ``???``); a part without ``*count`` counts once. IngestError for a
    ``*count`` that is a number but no count (``*99999999999999999999``, ``*-1``)."""
    total_text, _, desc = text.strip().partition(" ")
    if not _FAN_TOTAL.fullmatch(total_text):
        raise IngestError(f"Fan: total is not an integer: {total_text!r}")
    total: int | None = int(total_text)
    fans = []
    for part in desc.strip().split("+"):
        part = part.strip()
        if not part:
            continue
        name, star, count = part.rpartition("*")
        if star and _FAN_COUNT.fullmatch(count.strip()) and name:
            fans.append(ReportedFan(name=name, count=int(count)))
        elif star and name and _NUMBER.fullmatch(count.strip()):
            # a number that is no count (too long, negative, a fraction): not a name either
            raise IngestError(f"Fan: {name}'s count is not a count (1 to 6 digits): {count.strip()[:30]!r}")
        else:
            fans.append(ReportedFan(name=part, count=1))
    return total, fans


#: Botzone's judge plays MCR with 136 tiles (no flowers) and four walls of 34, one per seat,
#: each seat drawing from its own (a hand ends when the seat due to draw has none left);
#: a false win (``WH``, fewer than 8 fans) costs the offender 30 and pays each other seat
#: 10 (judge/main.cpp ``playerError``). Both Botzone formats store these as the game's
#: ruleset options (the "Botzone profile").
BOTZONE_RULESET_OPTIONS: dict[str, object] = {
    "flowers": False,
    "wall_layout": "per_seat",
    "false_win_penalty": True,
    "false_win_penalty_points": 10,
}


def objectid_date(match_id: str | None) -> str | None:
    """The UTC date (``YYYY-MM-DD``) inside a Botzone match id: a MongoDB ObjectId whose
    first 4 bytes are the creation time in seconds since 1970. None for other ids."""
    if not match_id or not _OBJECT_ID.fullmatch(match_id):
        return None
    return datetime.fromtimestamp(int(match_id[:8], 16), tz=timezone.utc).date().isoformat()


class _Block:
    """One ``Match`` block being read."""

    def __init__(self, path: Path, match_id: str, line: int, encoding: str = "utf-8") -> None:
        self.game_id = f"botzone-{match_id}"
        self.first_line = line
        self.b = GameBuilder(self.game_id, {"source": name_text(path.name), "format": NAME})
        date = objectid_date(match_id)
        self.b.at(line=line, encoding=encoding, **({"date": date} if date else {})).game_started(
            [f"Player {i}" for i in range(4)],
            source=f"https://botzone.org.cn/match/{match_id}",
            ruleset_options=dict(BOTZONE_RULESET_OPTIONS),
        )
        self.started = False
        self.winner: int | None = None
        self.fan_line: tuple[int | None, list[ReportedFan], str] | None = None
        self.scored = False
        self.last_line = line

    @property
    def playing(self) -> bool:
        """Between the Wind line and the Score line: where the Player lines go."""
        return self.started and not self.scored

    def line(self, n: int, text: str) -> None:
        """Read line ``n`` (any line of the block; the common Player line is read by
        :meth:`BotzoneTextImporter.parse` itself, the same way)."""
        self.last_line = n
        b = self.b.at_line(n)
        word, _, rest = text.strip().partition(" ")
        if self.scored:
            raise IngestError(f"text after the Score line: {quoted(text.strip())}")
        if word == "Wind":
            if self.started:
                raise IngestError("a second Wind line")
            w = rest.strip()
            if w not in ("0", "1", "2", "3"):
                raise IngestError(f"Wind must be 0..3, got {w!r}")
            b.hand_started(0, WINDS[int(w)], DEALER)
            self.started = True
            return
        if not self.started:
            raise IngestError(f"expected 'Wind N' after the Match line, got {quoted(text.strip())}")
        if word == "Player":
            self._player(n, text.strip())
        elif word == "Huang":
            b.exhaustive_draw()
        elif word == "Fan":
            if self.winner is None:
                raise IngestError("a Fan line without a Hu")
            total, fans = parse_fans(rest)
            self.fan_line = (total, fans, text.strip())
        elif word == "Score":
            scores = _ints(rest, 4, "Score")
            if not self.b.hand_over:
                raise IngestError("a Score line before Hu or Huang")
            if self.winner is not None and self.fan_line is None:
                raise IngestError("a Score line without the Fan line of the win")
            total, fans, fan_text = self.fan_line or (None, [], "")
            b.score_reported(
                winner=self.winner,
                score_changes=scores,
                fans=fans,
                total=total,
                text="\n".join(t for t in (fan_text, text.strip()) if t),
            )
            b.hand_ended()
            b.game_ended(scores)
            self.scored = True
        else:
            raise IngestError(f"unknown line: {quoted(text.strip())}")

    def _player(self, n: int, text: str) -> None:
        head, *ignored = _IGNORE.split(text)
        m = _PLAYER.match(head)
        if not m:
            raise IngestError(f"not a Player line: {quoted(text)}")
        seat, action, arg = _seat(m.group(1)), m.group(2).lower(), m.group(3)
        b = self.b
        if ignored and action not in ("peng", "gang", "hu", "chi"):
            raise IngestError(f"Ignore after {m.group(2)}: only claims can outrank others")
        for ig in ignored:
            im = _IGNORED.match(ig.strip())
            if not im or im.group(2).lower() not in _CLAIM_OF:
                raise IngestError(f"cannot read 'Ignore {ig.strip()}'")
            claim = _CLAIM_OF[im.group(2).lower()]
            b.lost_claim(_seat(im.group(1)), claim, _claim_tiles(claim, im.group(3)))
        if action == "deal":
            # stored as written: a deal of the wrong size is the replayer's finding (deal_mismatch)
            b.deal(seat, (arg or "").split())  # each tile checked there
        elif action == "draw":
            b.draw(seat, _one_tile(arg, "Draw"))
        elif action == "play":
            b.discard(seat, _one_tile(arg, "Play"))
        elif action == "chi":
            b.chow(seat, _one_tile(arg, "Chi"))
        elif action == "peng":
            b.pung(seat, _one_tile(arg, "Peng"))
        elif action == "gang":
            b.kong(seat, _one_tile(arg, "Gang") if arg else None)
        elif action == "angang":
            b.concealed_kong(seat, _one_tile(arg, "AnGang"))
        elif action == "bugang":
            b.added_kong(seat, _one_tile(arg, "BuGang"))
        elif action == "hu":
            b.win(seat, _one_tile(arg, "Hu") if arg else None)
            self.winner = seat
        else:
            raise IngestError(f"unknown action {m.group(2)!r}")

    def finish(self, path: Path) -> ImportedGame:
        if not self.scored:
            raise IngestError(
                "the match ends without its Score line (truncated?)"
                if self.started else "the match has no Wind line"
            )
        return self.b.build(str(path), self.first_line)


_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}
_TILES = frozenset(TILE_CODES)
#: "Player N <action> <tile>" read directly (as _Block._player reads it: the same builder
#: call); other spellings (upper case, an Ignore, no tile, a deal) go through _player.
_ONE_TILE_ACTIONS: dict[str, Callable[[GameBuilder, int, str], object]] = {
    "Draw": GameBuilder.draw,
    "Play": GameBuilder.discard,
    "Chi": GameBuilder.chow,
    "Peng": GameBuilder.pung,
    "Gang": GameBuilder.kong,
    "AnGang": GameBuilder.concealed_kong,
    "BuGang": GameBuilder.added_kong,
    "Hu": GameBuilder.win,  # and the block's winner is that seat
}
_WIN = GameBuilder.win
#: "Player N <action> <tile>" lines read so far, by their text: ``(builder action, seat,
#: tile)`` (:func:`_common_line`). A game's lines repeat (four seats, 34 tiles, eight
#: actions): most are found here, by one lookup. Bounded: emptied when full.
_COMMON_LINES: dict[str, tuple[Callable[[GameBuilder, int, str], object], int, str]] = {}
_COMMON_LINES_MAX = 1 << 14


def _common_line(text: str) -> tuple[Callable[[GameBuilder, int, str], object], int, str] | None:
    """``(builder action, seat, tile)`` of a line ``Player <seat> <action> <tile>`` whose
    action is one of :data:`_ONE_TILE_ACTIONS` (spelled as there) and whose tile is a tile
    code — read as :meth:`_Block._player` reads it, the same builder call — kept in
    :data:`_COMMON_LINES`; None for any other line (read the general way)."""
    parts = text.split()
    if len(parts) != 4:
        return None
    act, seat, tile = _ONE_TILE_ACTIONS.get(parts[2]), _SEATS.get(parts[1]), parts[3]
    if (act is None or seat is None or parts[0] != "Player" or tile not in _TILES
            or not text.lstrip().startswith("Player ")):
        return None
    if len(_COMMON_LINES) >= _COMMON_LINES_MAX:
        _COMMON_LINES.clear()
    made = _COMMON_LINES[text] = (act, seat, sys.intern(tile))
    return made


def _cut_line(path: Path) -> int | None:
    """The number of the file's last line when the file ends inside it (no line end after
    it: a file cut short), else None. Read only when an issue is found."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(f.tell() - 2, 0))
            tail = f.read()
            if tail[-1:] in (b"\n", b"\r") or tail in (b"\n\0", b"\r\0"):  # a line end (UTF-16 LE's too)
                return None
        text, _ = decode_text(path.read_bytes())
    except OSError:
        return None
    return sum(1 for _ in lines_of(text)) or None  # numbered from 1: the count is the last


class BotzoneTextImporter:
    name = NAME
    description = "Botzone / PKU Chinese Standard Mahjong text log (Match / Wind / Player lines)"

    def sniff(self, head: str, path: Path) -> bool:
        """A ``Match <id>`` first line; or, when the first line is damaged (a header, a typo:
        a file of 1,000 games is no README), a ``Match`` line followed by a ``Wind`` line and a
        full ``Player N Deal`` line further on — the parser then reports the bad lines with
        file and line and reads the games."""
        for line in head.splitlines():
            if line.strip():
                if re.match(r"^Match\s+\S+\s*$", line.strip()):
                    return True
                break
        return bool(_GAME_START.search(head) and _DEAL_LINE.search(head))

    def resembles(self, head: str, path: Path) -> bool:
        """Whether a file :meth:`sniff` does not take still has Botzone lines in its head (two
        or more ``Match``, ``Wind``, ``Player N <action>``, ``Fan``, ``Score``, ``Huang``
        lines): a game log whose start is too damaged to tell, not a README to skip."""
        return sum(1 for line in head.splitlines() if _BOTZONE_LINE.match(line.strip())) >= 2

    def parse(self, path: Path) -> Iterator[ImportedGame | ParseIssue]:
        block: _Block | None = None
        skipping = False  # inside a block already reported, or stray lines already reported
        decoding, lines = text_decoding(path)
        starts: list[int] = []  # a file of mixed encodings: the Match lines, where games end
        if decoding.by_line:
            listed = list(lines)
            starts = [n for n, t in listed if t.strip() == "Match" or t.strip().startswith("Match ")]
            lines = iter(listed)

        def end_of(first: int) -> int | None:
            """The line after the game that starts at ``first`` (the next Match line)."""
            i = bisect.bisect_right(starts, first)
            return starts[i] if i < len(starts) else None
        cut: list[int | None] = []  # the last line's number when the file ends inside it (once)

        def reason(n: int, e: Exception) -> str:
            """The issue's words; on a line the file ends inside, "truncated?" (as the other
            importers say): a cut "Player 0 Dr" is no unknown action."""
            if not cut:
                cut.append(_cut_line(path))
            return issue_reason(e) + (" (the file ends inside this line: truncated?)" if cut[0] == n else "")
        builder: GameBuilder | None = None  # the block's while it is playing (block.playing)
        common_lines = _COMMON_LINES
        for n, text in lines:
            if builder is not None:
                # the common line, "Player <seat> <action> <tile>", straight to the builder (what
                # _Block._player does with it); nine lines in ten of a game, read once a text
                common = common_lines.get(text)
                if common is None:
                    common = _common_line(text)
                if common is not None:
                    act, seat, tile = common
                    assert block is not None
                    block.last_line = n
                    try:
                        act(builder.at_line(n), seat, tile)
                        if act is _WIN:
                            block.winner = seat
                    except Exception as e:  # this game only (issue 12 item 5)
                        yield ParseIssue(str(path), n, reason(n, e), block.game_id)
                        block, builder, skipping = None, None, True
                    continue
                parts = text.split()
                if (len(parts) > 3 and parts[2] == "Deal" and parts[0] == "Player" and parts[1] in _SEATS
                      and _TILES.issuperset(parts[3:]) and text.lstrip().startswith("Player ")):
                    # "Player <seat> Deal <tile> …" (four lines a game), as _Block._player reads it
                    assert block is not None
                    block.last_line = n
                    try:
                        builder.at_line(n).deal(_SEATS[parts[1]], parts[3:])
                    except Exception as e:  # this game only (issue 12 item 5)
                        yield ParseIssue(str(path), n, reason(n, e), block.game_id)
                        block, builder, skipping = None, None, True
                    continue
            stripped = text.strip()
            if stripped.startswith("Match ") or stripped == "Match":
                if block is not None:
                    yield self._close(path, block, decoding, end_of)
                block, builder, skipping = None, None, False
                match_id = stripped[5:].strip()
                if not match_id or " " in match_id:
                    yield ParseIssue(str(path), n, f"bad Match line: {quoted(stripped, 60)}")
                    skipping = True
                else:
                    try:
                        block = _Block(path, match_id, n, decoding.of_lines(n, end_of(n)))
                    except Exception as e:
                        yield ParseIssue(str(path), n, issue_reason(e), f"botzone-{match_id[:40]}")
                        skipping = True
                continue
            if not stripped:
                continue
            if block is None:
                if not skipping:
                    yield ParseIssue(str(path), n, f"line outside a Match block: {quoted(stripped)}")
                    skipping = True
                continue
            try:
                block.line(n, text)
            except Exception as e:  # this game only (issue 12 item 5)
                yield ParseIssue(str(path), n, reason(n, e), block.game_id)
                block, skipping = None, True
            builder = block.b if block is not None and block.playing else None
        if block is not None:
            yield self._close(path, block, decoding, end_of)

    @staticmethod
    def _close(path: Path, block: _Block, decoding: TextDecoding,
               end_of: Callable[[int], int | None]) -> ImportedGame | ParseIssue:
        try:
            game = block.finish(path)
        except Exception as e:
            return ParseIssue(str(path), block.last_line, issue_reason(e), block.game_id)
        if decoding.by_line:
            note = decoding.damage_note(block.first_line, end_of(block.first_line))
            if note is not None:
                game.warnings = (note,)
        return game


IMPORTER = register(BotzoneTextImporter())
