"""PMN ("Portable Majiang Notation", python-majiang 0.0.1, MIT) — PBN-style tag pairs.

One record = consecutive ``[Tag "value"]`` lines (records are separated by a blank line
or start again when a tag repeats); ``%`` lines are comments. Tags read:

* ``Site`` (``…?session=S&game=G&table=T``) → game id ``pmn-<host>-<S>-<G>-<T>``
  (without those: ``pmn-<file stem>-<record number>``) and ``game_started.source``;
  ``Event``/``Date``/``Scoring`` → the game_started event's metadata; ``Scoring``
  ``Duplicate``/``Duplicate MCR`` → ruleset option ``multiple_winners: "all"``.
* ``East`` ``South`` ``West`` ``North`` → players (seats 0..3; East deals).
* ``Board`` (1-based deal number) → ``hand_number`` = Board − 1; ``PWind`` E/S/W/N.
* ``Deal`` → four hands ``c<digits>d<digits>b<digits>w<digits>r<digits>f<digits>``.
* ``Play`` → tokens ``<action><seat><suit><digit>``: T take (draw), D discard, C chow
  (tile = middle of the run, as python-majiang's ``chi(…, chi_middle_tile)``), P pung,
  A concealed kong, B added kong, Z melded kong, R flower set aside, then
  ``H<seat>`` win, ``N<seat>`` no game (exhaustive draw).
* ``Starting`` → initial scores; ``Result`` → reported score changes; ``Penalty`` (non-zero
  entries) → ``penalty`` events; ``Fan`` → reported fans per seat, ``no/count`` (0.0.1)
  or ``no/points/count`` (later README), names from the PMN fan list (Chinese). Fans for
  a seat that did not win are kept as that seat's ``score_reported`` (the replayer reports
  the disagreement).

Tile notation: c → W (characters), d → B (dots), b → T (bamboo), w1..w4 → F1..F4,
r1..r3 → J1..J3, f1..f8 → H1..H8. The order of ``r`` and ``f`` is not written in the
spec; we take r1 r2 r3 = 中 发 白 and f1..f8 = 春夏秋冬梅兰竹菊 (our J/H order).

Not in the 0.0.1 spec but in its own example (our sample):

* suit ``z``: ``D<seat>z1`` = "discard the tile just drawn" (python-majiang's
  ``DISCARD_TAKEN_TILE_STR = 'z1'``); it becomes ``tile_discarded`` of that tile. Any
  other ``z`` digit is a ParseIssue.
* action ``M<seat>``: a win ("mahjong"), several in a row when several seats win on the
  same discard (Duplicate MCR scores each). 0.0.1's own parser splits on ``H`` and cannot
  read ``M``; a later README writes ``H1H3`` for the same deal.
* a ``Play`` with no H/M/N ends in an exhaustive draw (python-majiang appends ``N0``) when
  the wall is used up — all 136 suit and honor tiles dealt or drawn (competition.md
  "荒牌"); one that stops before is cut off: a ParseIssue at the ``Play`` line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from eventlog.events import ReportedFan
from eventlog.ingest.base import (
    ImportedGame,
    IngestError,
    ParseIssue,
    TextDecoding,
    decode_by_line,
    issue_reason,
    lines_of,
    name_text,
    quoted,
    register,
)
from eventlog.ingest.builder import GameBuilder

NAME = "pmn"
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_HAND = re.compile(r"^c(\d*)d(\d*)b(\d*)w(\d*)r(\d*)f(\d*)$")
_TOKEN = re.compile(r"([TDCPABZR])([0-3])([a-z])(\d)|([HMN])([0-3])")
_SUIT = {"c": "W", "d": "B", "b": "T", "w": "F", "r": "J", "f": "H"}
_WIND = {"E": "F1", "S": "F2", "W": "F3", "N": "F4"}
_SEAT_TAGS = ("East", "South", "West", "North")
#: The suit and honor tiles of the set (4 × 34); the flowers come on top of them.
SUIT_AND_HONOR_TILES = 136
# PMN fan list (python-majiang README, "Fan list"): number → Chinese name.
FAN_NAMES = (
    "大四喜 大三元 绿一色 九莲宝灯 四杠 连七对 十三幺 清幺九 小四喜 小三元 字一色 四暗刻 "
    "一色双龙会 一色四同顺 一色四节高 一色四步高 三杠 混幺九 七对 七星不靠 全双刻 清一色 "
    "一色三同顺 一色三节高 全大 全中 全小 清龙 三色双龙会 一色三步高 全带五 三同刻 三暗刻 "
    "全不靠 组合龙 大于五 小于五 三风刻 花龙 推不倒 三色三同顺 三色三节高 无番和 妙手回春 "
    "海底捞月 杠上开花 抢杠和 双暗杠 碰碰和 混一色 三色三步高 五门齐 全求人 双箭刻 全带幺 "
    "不求人 双明杠 和绝张 箭刻 圈风刻 门风刻 门前清 平和 四归一 双同刻 双暗刻 暗杠 断幺 "
    "一般高 喜相逢 连六 老少副 幺九刻 明杠 缺一门 无字 边张 坎张 单钓将 自摸 花牌"
).split()


def pmn_tile(suit: str, digit: str) -> str:
    """One PMN tile (``c7``) → canonical code (``W7``); IngestError if not a tile."""
    ranks = {"c": 9, "d": 9, "b": 9, "w": 4, "r": 3, "f": 8}
    if suit not in _SUIT or digit not in "123456789" or len(digit) != 1 or int(digit) > ranks[suit]:
        raise IngestError(f"unknown tile code {suit}{digit!s}")
    return f"{_SUIT[suit]}{digit}"


def parse_hand(text: str) -> list[str]:
    """A Deal hand ``c7d345677b3689w2r1f`` → canonical tiles in the written order."""
    m = _HAND.match(text)
    if not m:
        raise IngestError(f"Deal hand {text!r} is not c…d…b…w…r…f…")
    return [pmn_tile(s, d) for s, digits in zip("cdbwrf", m.groups()) for d in digits]


def parse_fan(text: str) -> list[ReportedFan]:
    """One seat's ``Fan`` entry: ``39/1.62/1`` (no/count) or ``39/8/1.62/2/1`` (no/points/count)."""
    fans = []
    for part in text.split("."):
        nums = part.split("/")
        if len(nums) not in (2, 3) or not all(re.fullmatch(r"[0-9]{1,6}", n) for n in nums):
            raise IngestError(f"Fan entry {part!r} is not no/count or no/points/count")
        no = int(nums[0])
        name = FAN_NAMES[no - 1] if 1 <= no <= len(FAN_NAMES) else f"#{no}"
        points = int(nums[1]) if len(nums) == 3 else None
        fans.append(ReportedFan(name=name, points=points, count=int(nums[-1])))
    return fans


def _four(text: str, tag: str) -> list[int]:
    parts = text.split()
    if len(parts) != 4 or not all(re.fullmatch(r"-?[0-9]{1,9}", p) for p in parts):
        raise IngestError(f"{tag} is not four integers: {text!r}")
    return [int(p) for p in parts]


def _game_id(tags: dict[str, tuple[int, str]], path: Path, index: int) -> str:
    site = tags.get("Site", (0, ""))[1]
    try:
        u = urlparse(site)
    except ValueError:  # e.g. "Invalid IPv6 URL": not a site we can name the game by
        return f"pmn-{name_text(path.stem)}-{index}"
    q = parse_qs(u.query)
    parts = [q.get(k, [""])[0] for k in ("session", "game", "table")]
    if u.netloc and all(parts):
        return "pmn-" + "-".join([u.netloc, *parts])
    return f"pmn-{name_text(path.stem)}-{index}"


def _build(b: GameBuilder, path: Path, tags: dict[str, tuple[int, str]],
           encoding: str = "utf-8") -> None:
    """Emit the record's events into ``b``; IngestError on a malformed record."""

    def tag(name: str, default: str | None = None) -> tuple[int, str]:
        if name in tags:
            return tags[name]
        if default is None:
            raise IngestError(f"tag {name} is missing")
        return (min(n for n, _ in tags.values()), default)

    first = min(n for n, _ in tags.values())
    _, starting = tag("Starting", "0 0 0 0")
    scoring = tags.get("Scoring", (0, "MCR"))[1]
    if scoring not in ("MCR", "Duplicate", "Duplicate MCR"):
        raise IngestError(f"Scoring must be MCR or Duplicate MCR, got {scoring!r}")
    header = {k.lower(): tags[k][1] for k in ("Event", "Date", "Scoring") if k in tags}
    b.at(line=first, encoding=encoding, **header).game_started(
        [tag(t, "")[1] for t in _SEAT_TAGS],
        source=tags.get("Site", (0, name_text(path.name)))[1],
        initial_scores=_four(starting, "Starting"),
        # Duplicate MCR scores every seat that wins on the discard (python-majiang README:
        # "There can be multiple players in duplicate MCR rule").
        ruleset_options={"multiple_winners": "all"} if scoring != "MCR" else {},
    )
    board_line, board = tag("Board", "1")
    b.at(line=board_line)
    if not re.fullmatch(r"[0-9]{1,6}", board) or int(board) < 1:
        raise IngestError(f"Board must be a positive integer, got {board!r}")
    wind_line, wind = tag("PWind", "E")
    b.at(line=wind_line)
    if wind not in _WIND:
        raise IngestError(f"PWind must be E/S/W/N, got {wind!r}")
    b.at(line=board_line).hand_started(int(board) - 1, _WIND[wind], 0)
    deal_line, deal = tag("Deal")
    b.at(line=deal_line)
    hands = deal.split()
    if len(hands) != 4:
        raise IngestError(f"Deal has {len(hands)} hands (expected 4)")
    b.at(line=deal_line)
    taken = 0  # suit and honor tiles dealt or drawn (flowers aside): the wall's use
    for seat, h in enumerate(hands):
        tiles = parse_hand(h)
        taken += sum(1 for t in tiles if t[0] != "H")
        b.deal(seat, tiles)

    play_line, play = tag("Play")
    b.at(line=play_line)
    pos, k, ended = 0, 0, False
    for m in _TOKEN.finditer(play):
        if m.start() != pos:
            raise IngestError(f"Play: unreadable {play[pos:m.start()]!r} at column {pos + 1}")
        pos = m.end()
        b.at(line=play_line, token=k)
        k += 1
        if m.group(5):
            action, seat = m.group(5), int(m.group(6))
            if action in ("H", "M"):
                b.win(seat)
            else:
                b.exhaustive_draw()
            ended = True
            continue
        action, seat, suit, digit = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        if suit == "z":
            if (action, digit) != ("D", "1"):
                raise IngestError(f"unknown tile code z{digit} in {m.group(0)!r}")
            b.discard(seat, b.last_drawn(seat))
            continue
        tile = pmn_tile(suit, digit)
        if action == "T":
            taken += tile[0] != "H"
            b.draw(seat, tile)
        elif action == "D":
            b.discard(seat, tile)
        elif action == "C":
            b.chow(seat, tile)
        elif action == "P":
            b.pung(seat, tile)
        elif action == "Z":
            b.melded_kong(seat, tile)
        elif action == "A":
            b.concealed_kong(seat, tile)
        elif action == "B":
            b.added_kong(seat, tile)
        else:  # "R"
            b.flower(seat, tile)
    if pos != len(play.strip()):
        raise IngestError(f"Play: unreadable {play[pos:]!r} at column {pos + 1}")
    if not ended:
        # a hand ends in a win, or drawn once the wall is used up (competition.md "荒牌:
        # after the 144th tile is drawn and discarded and nobody wins"; without flowers,
        # 136): every suit and honor tile dealt or drawn. A Play that stops before is cut
        # off, not a drawn game.
        if taken < SUIT_AND_HONOR_TILES:
            b.at(line=play_line)
            raise IngestError(
                f"Play ends with {SUIT_AND_HONOR_TILES - taken} suit and honor tiles still in the wall and "
                "neither a win (H/M) nor a drawn game (N): the record is cut off (truncated?)")
        b.at(line=play_line, token=k, implied=True).exhaustive_draw()

    result_line, result = tag("Result", "")
    b.at(line=result_line)
    changes = _four(result, "Result") if result else None
    fan_line, fan = tag("Fan", "")
    b.at(line=fan_line)
    entries = fan.split() if fan else []
    if entries and len(entries) != 4:
        raise IngestError(f"Fan has {len(entries)} entries (expected 4)")
    winners = b.winners
    per_seat = {s: parse_fan(e) for s, e in enumerate(entries) if e != "None"}
    b.at(line=fan_line or result_line)
    if len(winners) == 1:
        w = winners[0]
        b.score_reported(winner=w, score_changes=changes, fans=per_seat.get(w, []),
                         text=f"Fan {fan!r} Result {result!r}")
    else:
        for w in winners:
            b.score_reported(winner=w, fans=per_seat.get(w, []), text=f"Fan {entries[w]!r}"
                             if entries else "")
        if changes is not None or not winners:
            b.at(line=result_line).score_reported(score_changes=changes,
                                                  text=f"Result {result!r}")
    # fans reported for a seat that did not win: kept as that seat's reported score; the
    # replayer's reported-score comparison finds it has no win (reported_score_mismatch)
    for s in sorted(set(per_seat) - set(winners)):
        b.at(line=fan_line).score_reported(winner=s, fans=per_seat[s], text=f"Fan {entries[s]!r}")
    pen_line, penalty = tag("Penalty", "0 0 0 0")
    b.at(line=pen_line)
    for seat, v in enumerate(_four(penalty, "Penalty")):
        if v:
            b.emit("penalty", seat=seat, score_changes=[v if s == seat else 0 for s in range(4)],
                   reason="PMN Penalty tag")
    b.hand_ended()
    b.game_ended(None)


class PmnImporter:
    name = NAME
    description = "PMN (Portable Majiang Notation, python-majiang) tag-pair records"

    def sniff(self, head: str, path: Path) -> bool:
        for line in head.splitlines():
            s = line.strip()
            if s and not s.startswith("%"):
                return bool(_TAG.match(s)) and not s.startswith('["') and not s.startswith("[{")
        return False

    def parse(self, path: Path) -> Iterator[ImportedGame | ParseIssue]:
        tags: dict[str, tuple[int, str]] = {}
        bad: tuple[int, str] | None = None
        index = 0
        source, decoding = decode_by_line(path.read_bytes())  # a record in another encoding: its own
        for n, text in lines_of(source):
            s = text.strip()
            if s.startswith("%"):
                continue
            m = _TAG.match(s)
            if (not s or (m and m.group(1) in tags)) and (tags or bad):
                index += 1
                yield self._record(path, tags, bad, index, decoding)
                tags, bad = {}, None
            if not s:
                continue
            if m:
                tags[m.group(1)] = (n, m.group(2))
            elif bad is None:
                bad = (n, f"not a PMN tag pair: {quoted(s)}")
        if tags or bad:
            index += 1
            yield self._record(path, tags, bad, index, decoding)

    @staticmethod
    def _record(
        path: Path, tags: dict[str, tuple[int, str]], bad: tuple[int, str] | None, index: int,
        decoding: TextDecoding | None = None,
    ) -> ImportedGame | ParseIssue:
        try:
            game_id = _game_id(tags, path, index) if tags else None
        except Exception as e:
            return ParseIssue(str(path), min((n for n, _ in tags.values()), default=None),
                              issue_reason(e))
        if bad is not None:
            return ParseIssue(str(path), bad[0], bad[1], game_id)
        first = min(n for n, _ in tags.values())
        assert game_id is not None
        b = GameBuilder(game_id, {"source": name_text(path.name), "format": NAME})
        end = max(n for n, _ in tags.values()) + 1
        decoding = decoding or TextDecoding("utf-8")
        try:
            _build(b, path, tags, decoding.of_lines(first, end))
            game = b.build(str(path), first)
            note = decoding.damage_note(first, end) if decoding.by_line else None
            if note is not None:
                game.warnings = (note,)
            return game
        except Exception as e:  # this record only (issue 12 item 5)
            loc = b.location
            where = f"Play token {loc['token']} ({_token_text(tags, loc['token'])}): " \
                if "token" in loc else ""
            return ParseIssue(str(path), loc.get("line", first), where + issue_reason(e), game_id)


def _token_text(tags: dict[str, tuple[int, str]], k: int) -> str:
    tokens = [m.group(0) for m in _TOKEN.finditer(tags.get("Play", (0, ""))[1])]
    return tokens[k] if k < len(tokens) else "?"


IMPORTER = register(PmnImporter())
