"""Expected numbers for the dashboard tests, read straight from the bundled source files
(paipu/samples), never from paipu's code: games, wins, exhaustive draws, winners by seat,
fan counts, and the tiles one seat holds at a point of a Botzone text game."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "paipu" / "samples"
TEXT = SAMPLES / "botzone-mcr-human-sample" / "sample_16_games.txt"
JSON_DIR = SAMPLES / "botzone-mcr-matchlog-json"
PMN = SAMPLES / "pmn-python-majiang" / "mahjongsoft_duplicate_mcr_session74621_game1_table3.pmn"
PMN_GAME = "pmn-mahjongsoft.com-74621-1-3"


def text_lines() -> list[str]:
    return TEXT.read_text(encoding="utf-8").splitlines()


def json_logs() -> list[tuple[Path, list[dict]]]:
    """Each Botzone judge log with its list of log entries (lite JSON or bare array)."""
    out = []
    for p in sorted(JSON_DIR.iterdir()):
        if p.name == "README.txt":
            continue
        d = json.loads(p.read_text(encoding="utf-8"))
        out.append((p, d["logs"] if isinstance(d, dict) else d))
    return out


def json_displays(logs: list[dict]) -> list[dict]:
    return [
        e["output"]["display"] for e in logs
        if isinstance(e, dict) and isinstance(e.get("output"), dict) and isinstance(e["output"].get("display"), dict)
    ]


def pmn_tags() -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', PMN.read_text(encoding="utf-8"), re.M))


def pmn_winners() -> list[int]:
    """Seats that declared mahjong (``M<seat>`` in the Play tag)."""
    return [int(s) for s in re.findall(r"M(\d)", pmn_tags()["Play"])]


def totals() -> dict[str, int]:
    """Games, wins and exhaustive draws over all bundled files."""
    lines = text_lines()
    games = sum(1 for ln in lines if ln.startswith("Match "))
    wins = sum(1 for ln in lines if re.match(r"Player \d Hu ", ln))
    draws = sum(1 for ln in lines if ln.strip() == "Huang")
    logs = json_logs()
    games += len(logs)
    for _p, lg in logs:
        acts = [d.get("action") for d in json_displays(lg)]
        wins += acts.count("HU")
        draws += acts.count("HUANG")
    games += 1
    wins += len(pmn_winners())
    return {"games": games, "wins": wins, "draws": draws}


def wins_by_seat() -> Counter:
    c: Counter = Counter()
    for ln in text_lines():
        m = re.match(r"Player (\d) Hu ", ln)
        if m:
            c[int(m.group(1))] += 1
    for _p, lg in json_logs():
        for d in json_displays(lg):
            if d.get("action") == "HU":
                c[int(d["player"])] += 1
    for s in pmn_winners():
        c[s] += 1
    return c


#: Official MCR table numbers the PMN Fan tag uses, for the fans the tests count.
PMN_FAN_NUMBERS = {"平和": "63"}


def wins_with_fan(name_zh: str) -> int:
    """Wins whose reported fan list holds ``name_zh`` (Botzone text ``Fan`` lines, Botzone
    JSON ``fan`` lists, PMN ``Fan`` tag numbers)."""
    n = sum(1 for ln in text_lines() if ln.startswith("Fan ") and re.search(rf"(^|[ +]){name_zh}\*", ln))
    for _p, lg in json_logs():
        for d in json_displays(lg):
            if d.get("action") == "HU" and any(f["name"] == name_zh for f in d["fan"]):
                n += 1
    num = PMN_FAN_NUMBERS.get(name_zh)
    if num:
        for part in pmn_tags()["Fan"].split("None")[1:]:
            if re.search(rf"(^|[ /.]){num}(/|$|\s)", part.strip()):
                n += 1
    return n


def first_text_game() -> tuple[str, list[str]]:
    """Match id and lines of the first game of the Botzone text sample."""
    lines = text_lines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Match "))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("Match ")), len(lines))
    return lines[start].split()[1], lines[start:end]


def _chow_tiles(middle: str) -> list[str]:
    s, r = middle[0], int(middle[1])
    return [f"{s}{r - 1}", middle, f"{s}{r + 1}"]


def hands_until_first_chi(lines: list[str]) -> tuple[dict[int, Counter], dict[int, list[str]], tuple[int, int, list[str], str]]:
    """Play the game's lines up to and including its first ``Chi`` (Deal, Draw, Play only
    before it): each seat's concealed tiles, each seat's discards in order, and the chow
    as (claimant, discarder, tiles, claimed tile). Botzone ``Chi X`` names the middle tile
    of the run; the claimed tile is the last discard."""
    hands: dict[int, Counter] = {i: Counter() for i in range(4)}
    rivers: dict[int, list[str]] = {i: [] for i in range(4)}
    last: tuple[int, str] | None = None
    for ln in lines[1:]:
        parts = ln.split()
        if parts[0] != "Player":
            continue
        seat, act, tiles = int(parts[1]), parts[2], parts[3:]
        if act == "Deal":
            hands[seat].update(tiles)
        elif act == "Draw":
            hands[seat][tiles[0]] += 1
        elif act == "Play":
            hands[seat][tiles[0]] -= 1
            rivers[seat].append(tiles[0])
            last = (seat, tiles[0])
        elif act == "Chi":
            assert last is not None
            run = _chow_tiles(tiles[0])
            rest = list(run)
            rest.remove(last[1])
            for t in rest:
                hands[seat][t] -= 1
            return hands, rivers, (seat, last[0], run, last[1])
        else:
            raise AssertionError(f"unexpected action before the first Chi: {ln}")
    raise AssertionError("no Chi in the game")


def glyph(tile: str) -> str:
    """The Unicode Mahjong Tiles character (U+1F000 block, Unicode 5.1 chart) of a code."""
    s, r = tile[0], int(tile[1])
    if s == "F":
        return chr(0x1F000 + r - 1)
    if s == "J":
        return chr(0x1F004 + r - 1)  # red, green, white
    return chr({"W": 0x1F007, "T": 0x1F010, "B": 0x1F019}[s] + r - 1)


def tamper_pmn_event_50(log: Path) -> None:
    """Edit event 50 of :data:`PMN_GAME` in the SQLite log ``log`` behind the store's back (its
    append-only triggers dropped, J1 → J2 in the payload): its hash no longer matches."""
    import sqlite3

    con = sqlite3.connect(log)
    for (trigger,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        con.execute(f"DROP TRIGGER {trigger}")
    cur = con.execute("UPDATE events SET payload = replace(payload, '\"J1\"', '\"J2\"') "
                      "WHERE game_id = ? AND seq = 50 AND payload LIKE '%\"J1\"%'", (PMN_GAME,))
    assert cur.rowcount == 1
    con.commit()
    con.close()
