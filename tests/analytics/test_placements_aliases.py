"""Issue 21 item 5: placements per player, points per game, the deal-in rate by turn of the hand
and player aliases. Expected numbers are read from the Botzone text sample itself
(paipu/samples/botzone-mcr-human-sample: one hand per ``Match``, its ``Score`` line, its
``Play`` and ``Hu`` lines), never from the code under test; aliases are checked as what they
mean — the alias's games counted as the player's — on the export of every bundled game."""

from __future__ import annotations

import shutil
from collections import Counter, defaultdict

from analytics_samples import BOTZONE_TEXT
from typer.testing import CliRunner

from analytics.export import export
from analytics.queries import Analytics
from eventlog.players import PLAYERS_STREAM, read_aliases
from eventlog.store import open_store
from paipu.cli import app


def _matches() -> list[list[str]]:
    out: list[list[str]] = []
    for ln in BOTZONE_TEXT.read_text(encoding="utf-8").splitlines():
        if ln.startswith("Match "):
            out.append([])
        elif out:
            out[-1].append(ln)
    return out


def _place(scores: list[int], seat: int) -> int:
    """1 + the seats with a strictly higher score (ties share the better place)."""
    return 1 + sum(1 for s in scores if s > scores[seat])


def test_placements_from_the_score_lines(text_export):
    want: dict[str, Counter] = defaultdict(Counter)
    points: Counter = Counter()
    for lines in _matches():
        scores = [int(x) for x in next(ln for ln in lines if ln.startswith("Score ")).split()[1:]]
        for seat in range(4):
            name = f"Player {seat}"  # the text format's players (README of the sample)
            want[name][_place(scores, seat)] += 1
            points[name] += scores[seat]
    data, out = text_export
    with Analytics.open(out, data) as a:
        rows = {r["player"]: r for r in a.placements()}
    assert set(rows) == set(want)
    for name, c in want.items():
        r = rows[name]
        games = sum(c.values())
        assert r["games"] == games == len(_matches())
        assert [r["first"], r["second"], r["third"], r["fourth"]] == [c[1], c[2], c[3], c[4]], name
        assert abs(r["avg_placement"] - sum(k * n for k, n in c.items()) / games) < 1e-12
        assert abs(r["points_per_game"] - points[name] / games) < 1e-12


def test_deal_in_rate_by_turn_from_the_play_lines(text_export):
    discards: Counter = Counter()
    deal_ins: Counter = Counter()
    for lines in _matches():
        k: Counter = Counter()
        last: tuple[int, int] | None = None  # (seat, its k) of the latest action when it was a discard
        for ln in lines:
            parts = ln.split()
            if not parts or parts[0] != "Player":
                continue
            seat, act = int(parts[1]), parts[2]
            if act == "Play":
                k[seat] += 1
                discards[min(k[seat], 18)] += 1
                last = (seat, k[seat])
            elif act == "Hu":
                if last is not None and last[0] != seat:  # on a discard (not self-drawn, not a robbed kong)
                    deal_ins[min(last[1], 18)] += 1
            else:
                last = None
    data, out = text_export
    with Analytics.open(out, data) as a:
        rows = a.deal_in_by_turn()
    assert {r["turn"]: r["discards"] for r in rows} == dict(discards)
    assert {r["turn"]: r["deal_ins"] for r in rows if r["deal_ins"]} == {t: n for t, n in deal_ins.items() if n}
    assert sum(r["deal_ins"] for r in rows) == sum(deal_ins.values()) > 0


def test_aliases_are_events_and_every_query_uses_them(all_export, tmp_path):
    src, _ = all_export
    data = tmp_path / "data"
    shutil.copytree(src, data, ignore=shutil.ignore_patterns("parquet"))
    with Analytics.open(src / "parquet", src) as a:
        before = {r["player"]: r for r in a.seat_stats("player")}
        places_before = {r["player"]: r for r in a.placements()}
    assert "Player 0" in before and "Player0" in before  # the text and JSON formats spell it apart
    runner = CliRunner()
    res = runner.invoke(app, ["players", "alias", "Player0", "Player 0", "--data", str(data)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["players", "alias", "Player 0", "Player0", "--data", str(data)])
    assert res.exit_code == 2 and "cycle" in res.output  # refused: it would make a cycle
    store = open_store(data)
    try:
        stream = list(store.read_game(PLAYERS_STREAM))
        assert [e.type for e in stream] == ["player_aliased"]
        assert read_aliases(store) == {"Player0": "Player 0"}
        export(store, data / "parquet", data_dir=data)
        export(store, tmp_path / "again", data_dir=data)
    finally:
        store.close()
    # deterministic: the same log gives the same alias file
    assert (data / "parquet" / "player_aliases.parquet").read_bytes() == \
        (tmp_path / "again" / "player_aliases.parquet").read_bytes()
    with Analytics.open(data / "parquet", data) as a:
        after = {r["player"]: r for r in a.seat_stats("player")}
        assert "Player0" not in after
        assert after["Player 0"]["hands"] == before["Player 0"]["hands"] + before["Player0"]["hands"]
        assert after["Player 0"]["wins"] == before["Player 0"]["wins"] + before["Player0"]["wins"]
        places = {r["player"]: r for r in a.placements()}
        assert places["Player 0"]["games"] == places_before["Player 0"]["games"] + places_before["Player0"]["games"]
        # a filter by the alias finds the player
        assert a.seat_stats("player", player="Player0")[0]["player"] == "Player 0"
        assert {g["player"] for g in a.player_games(player="Player0")} == {"Player 0"}
    # the players stream is the log's own: not a game
    res = runner.invoke(app, ["games", "--json", "--data", str(data)])
    assert PLAYERS_STREAM not in res.output
    res = runner.invoke(app, ["verify", "-q", "--data", str(data)])
    assert res.exit_code == 1 and PLAYERS_STREAM not in res.output  # 1: the PMN game's true finding
    # withdrawn by aliasing it to itself (append-only)
    res = runner.invoke(app, ["players", "alias", "Player0", "Player0", "--data", str(data)])
    assert res.exit_code == 0
    res = runner.invoke(app, ["players", "list", "--json", "--data", str(data)])
    assert res.output.strip() == "{}"


def test_a_failing_rebuild_leaves_the_previous_export_as_it_was(all_export, tmp_path):
    """`paipu export --rebuild` on a log whose alias stream is damaged fails (exit 3: the
    log is damaged) — and the export that was there stays, byte for byte, readable by
    stats with no repair asked for (the rebuild is built aside and swapped in at the end)."""
    import hashlib
    import sqlite3

    src, _ = all_export
    data = tmp_path / "data"
    shutil.copytree(src, data)  # the store and its export
    runner = CliRunner()
    assert runner.invoke(app, ["players", "alias", "Player0", "Player 0", "--data", str(data)]).exit_code == 0
    res = runner.invoke(app, ["export", "-q", "--data", str(data)])
    assert res.exit_code == 0, res.output

    def files() -> dict[str, str]:
        return {str(p.relative_to(data / "parquet")): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted((data / "parquet").rglob("*")) if p.is_file() and p.name != ".lock"}

    before = files()
    assert "player_aliases.parquet" in before and len(before) > 2
    conn = sqlite3.connect(data / "events.sqlite", isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET payload = replace(payload, 'Player 0', 'Player 9') "
                 f"WHERE game_id = '{PLAYERS_STREAM}'")
    conn.close()
    res = runner.invoke(app, ["export", "--rebuild", "-q", "--data", str(data)])
    assert res.exit_code == 3 and PLAYERS_STREAM in res.output, res.output
    assert files() == before
    res = runner.invoke(app, ["stats", "--data", str(data)])
    assert res.exit_code == 0 and "--repair" not in res.output, res.output
