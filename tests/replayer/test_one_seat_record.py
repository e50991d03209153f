"""A game recorded from one seat's own view replays: the other seats' concealed tiles are
hidden — their deal (``tiles_dealt`` with ``[]``), their draws (``tile`` null) and a concealed
kong's tile (``kong`` kind concealed, ``tile`` null) — and the replay counts only what the
record shows.

The rule, from the texts (not the code under test):

* docs/reference/DESIGN.md §8 "one seat's view" (docs/events.md ``kong``, ``tile_drawn``,
  ``tiles_dealt``): another seat's concealed tiles are not seen; a concealed kong (暗杠) lies
  face down, so in that seat's record it is four tiles the recorder cannot see.
* §4 tile accounting: every tile that leaves the wall is counted — in a one-seat record only
  the tiles the record shows can be (a hidden tile is none of the 34 kinds).
* a kong is a set: the seat's hand size counts it 3 and a replacement draw follows.

So a one-seat record of a consistent game is legal: no crash (a TileError once, from the
tile accounting), the hand sizes, declared sets and wall are those of the full game as that
seat sees it (``replayer.view.seat_state_view``, the view every reader shows), and a finding
only where the record contradicts itself."""

from __future__ import annotations

import json
from functools import cache

import pytest
from typer.testing import CliRunner

from eventlog import events as ev
from eventlog.ingest import ImportedGame, parse_file
from eventlog.store import open_store
from eventlog.store.base import NO_STREAM
from eventlog.view import seat_view
from paipu.cli import app
from paipu.samples import SAMPLES_DIR
from replayer.replay import replay, replay_game, run
from replayer.simulate.engine import SimulationConfig, simulate
from replayer.view import seat_state_view

#: the five rulesets (tests/replayer per-ruleset simulated games) — each allows 暗杠
RULESETS = ("mcr", "nanchang", "sichuan", "changsha", "cjm_chips")
#: findings of tile accounting: none is right in the record of a game that holds together
ACCOUNTING = {"tile_count_exceeded", "tile_not_held", "wrong_tile_count", "deal_mismatch",
              "wall_exhausted", "wall_mismatch", "unexpected_replacement", "replacement_missing"}

# seat 0's own record of an MCR hand (docs/reference/rules: 13 tiles to each seat, the dealer
# draws the 14th): seat 1 draws unseen, declares a concealed kong seat 0 cannot see, draws its
# replacement unseen and discards B5.
SEAT0_HAND = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "J1"]


def _minimal(kong: dict | None = None) -> list[dict]:
    out: list[dict] = []

    def e(type_: str, **payload) -> None:
        out.append({"event_id": f"00000000-0000-4000-8000-{len(out):012d}", "type": type_, "payload": payload})

    e("game_started", ruleset="mcr", players=["A", "B", "C", "D"])
    e("hand_started", hand_number=0, prevalent_wind="F1", dealer=0)
    e("tiles_dealt", seat=0, tiles=SEAT0_HAND)
    for s in (1, 2, 3):
        e("tiles_dealt", seat=s, tiles=[])
    e("tile_drawn", seat=0, tile="J1")
    e("tile_discarded", seat=0, tile="J1")
    e("tile_drawn", seat=1, tile=None)
    e("kong", **(kong or {"seat": 1, "kind": "concealed", "tile": None}))
    e("tile_drawn", seat=1, tile=None, source="kong_replacement")
    e("tile_discarded", seat=1, tile="B5")
    return out


KONG = 9  # the kong's seq in _minimal()


def test_a_hidden_concealed_kong_in_one_seats_record_replays_without_findings():
    events = [ev.parse_event(e) for e in _minimal()]  # the schema takes a concealed kong's tile as null
    assert events[KONG].payload.tile is None
    result = run(events)
    assert result.findings == ()
    seat1 = result.state.seats[1]
    # 13 dealt + 1 drawn − 4 set aside + 1 replacement − 1 discarded: 10 concealed, none seen
    assert (seat1.tiles, seat1.hidden) == ((), 10)
    assert seat1.hand_size == 13  # the kong counts 3
    (meld,) = seat1.melds
    assert (meld.kind, meld.kong_kind, meld.tiles, meld.seq) == ("kong", "concealed", (), KONG)  # face down
    # tile accounting: seat 0's 13 dealt tiles, its J1 draw, seat 1's B5 — nothing else is seen
    seen = result.state.seen
    assert sum(seen) == 13 + 1 + 1
    assert all(n <= 4 for n in seen)
    # drawn: 14; the kong (counts 3): 13; its replacement: 14; the discard: 13
    assert [s.state.seats[1].hand_size for s in replay(events)][KONG - 1:] == [14, 13, 14, 13]


def test_a_hidden_kong_the_record_contradicts_is_a_finding():
    """Seat 0's hand is shown (13 tiles, none hidden): four unseen tiles cannot come from it."""
    events = _minimal()
    del events[KONG - 3:]
    events.append({"event_id": "00000000-0000-4000-8000-000000000099", "type": "kong",
                   "payload": {"seat": 0, "kind": "concealed", "tile": None}})
    events.insert(KONG - 3, {"event_id": "00000000-0000-4000-8000-000000000098", "type": "tile_drawn",
                             "payload": {"seat": 0, "tile": "J1"}})
    found = run([ev.parse_event(e) for e in events]).findings
    assert [f.rule_id for f in found] == ["tile_not_held"]


@pytest.mark.parametrize("kind", ["melded", "added"])
def test_only_a_concealed_kong_can_hide_its_tile(kind):
    """A melded or added kong is shown to every seat (docs/events.md ``kong``)."""
    payload = {"seat": 1, "kind": kind, "tile": None} | ({"discard_seq": 8} if kind == "melded" else {})
    with pytest.raises(ev.EventError):
        ev.parse_event(_minimal(payload)[KONG])


def test_the_one_seat_record_through_the_cli(tmp_path):
    """JSON Lines → ``paipu ingest`` → ``paipu verify`` (no findings) and ``paipu replay --seat``."""
    log = tmp_path / "seat0.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in _minimal()), encoding="utf-8")
    (game,) = list(parse_file(log))
    data = str(tmp_path / "data")
    runner = CliRunner()
    ingest = runner.invoke(app, ["ingest", "--data", data, "--quiet", str(log)], catch_exceptions=False)
    assert ingest.exit_code == 0, ingest.output
    verify = runner.invoke(app, ["verify", "--data", data, "--json"], catch_exceptions=False)
    assert verify.exit_code == 0, verify.output
    (report,) = json.loads(verify.stdout)["games"]
    assert report["game_id"] == game.game_id and report["findings"] == []
    shown = runner.invoke(app, ["replay", game.game_id, "--at", str(KONG), "--seat", "2", "--json", "--data", data],
                          catch_exceptions=False)
    assert shown.exit_code == 0, shown.output
    out = json.loads(shown.output)
    assert out["event"]["payload"]["tile"] is None and "hidden" in out["event"]["text_en"]
    assert out["state"]["seats"][1]["hidden"] == 10 and out["state"]["seats"][1]["melds"][0]["tiles"] == []
    export = runner.invoke(app, ["export", "--data", data, "--quiet"], catch_exceptions=False)
    assert export.exit_code == 0, export.output


# --- the seat view of a full game, replayed ----------------------------------------------------

@cache
def _with_concealed_kong(ruleset: str) -> tuple[ev.NewEvent, ...]:
    """The first simulated one-hand game (seed 0, 1 …) of ``ruleset`` with a concealed kong."""
    for seed in range(60):
        cfg = SimulationConfig(ruleset=ruleset, options={}, seed=seed, hands_per_game=1)
        events = tuple(next(iter(simulate(cfg, 1))).events)
        if any(e.type == "kong" and e.payload.kind == "concealed" for e in events):
            return events
    raise AssertionError(f"no simulated {ruleset} game with a concealed kong")  # pragma: no cover


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_seats_view_of_a_full_game_replays_as_that_seat_sees_the_full_game(ruleset):
    """For every seat: the events as it sees them (eventlog.view.seat_view — the konger's
    neighbours get the kong with no tile) replay with no crash and no tile-accounting finding;
    after the deal every state — also after another seat's win, which the record cannot score
    but takes as declared — has the hand sizes, declared sets (another seat's 暗杠 face down),
    the seat's own tiles, the wall, the seats still in, the phase and the seat to play of the
    full game's state as that seat sees it (replayer.view.seat_state_view), the same tiles seen
    (its ``seen``: the seat's own record counts what the seat sees), and its scores whenever
    nothing it could not compute is waiting for its report (``TableState.unsettled``)."""
    events = _with_concealed_kong(ruleset)
    full = [s.state.snapshot() for s in replay_game(events)]
    assert not [f for s in replay(events) for f in s.findings]  # the full game holds together
    kongers = {e.payload.seat for e in events if e.type == "kong" and e.payload.kind == "concealed"}
    for seat in range(4):
        view = [seat_view(e, seat) for e in events]
        assert any(e.type == "kong" and e.payload.tile is None for e in view) == bool(kongers - {seat})
        for i, step in enumerate(replay_game(view)):
            assert not {f.rule_id for f in step.findings} & ACCOUNTING, (seat, i, step.findings)
            got, want = step.state, seat_state_view(full[i], seat)
            assert got.seen == want.seen, (seat, i)
            if full[i].phase == "dealing":
                continue  # a hidden dealer deal of 14 shows 13 until the dealer acts (docs/events.md tiles_dealt)
            assert [st.hand_size for st in got.seats] == [st.hand_size for st in want.seats], (seat, i)
            assert [st.melds for st in got.seats] == [st.melds for st in want.seats], (seat, i)
            assert sorted(got.seats[seat].tiles) == sorted(want.seats[seat].tiles), (seat, i)
            assert got.wall_remaining == full[i].wall_remaining, (seat, i)
            assert (got.in_hand, got.phase, got.turn) == (full[i].in_hand, full[i].phase, full[i].turn), (seat, i)
            assert got.unsettled or got.scores == full[i].scores, (seat, i)


def test_one_seat_records_of_every_ruleset_verify_and_export(tmp_path):
    """The seat views above, stored as games of their own: ``paipu verify`` replays each with
    no internal error (exit 0, or 1 for the findings of a win it cannot score) and ``paipu
    export`` writes them (exit 0)."""
    store = open_store(tmp_path / "data")
    ids = []
    for ruleset in RULESETS:
        events = _with_concealed_kong(ruleset)
        konger = next(e.payload.seat for e in events if e.type == "kong" and e.payload.kind == "concealed")
        gid = f"seat-view-{ruleset}"
        view = [ev.parse_event(seat_view(e, (konger + 1) % 4).model_dump_json_dict() | {"event_id": ev.uuid5_text(f"{gid}/{k}")})
                for k, e in enumerate(events)]
        store.append(gid, view, NO_STREAM)
        ids.append(gid)
    store.close()
    runner = CliRunner()
    data = str(tmp_path / "data")
    verify = runner.invoke(app, ["verify", "--data", data, "--json"], catch_exceptions=False)
    assert verify.exit_code in (0, 1), verify.output
    report = json.loads(verify.stdout)["games"]
    assert sorted(g["game_id"] for g in report) == sorted(ids)
    assert not [f for g in report for f in g["findings"] if f["rule_id"] in ACCOUNTING]
    export = runner.invoke(app, ["export", "--data", data, "--quiet", "--json"], catch_exceptions=False)
    assert export.exit_code == 0, export.output
    done = json.loads(export.stdout)
    assert (done["games"], done["skipped"], done["damaged"]) == (len(ids), [], [])


def test_a_source_that_deals_the_dealer_13_and_has_it_draw():
    """Botzone deals every seat 13 and the dealer draws its 14th (the bundled sample): another
    seat's view hides the dealer's deal of 13 — after each deal and from the draw on, every
    hand size and the wall are the full game's (also after a win)."""
    path = SAMPLES_DIR / "botzone-mcr-human-sample" / "sample_16_games.txt"
    events = next(g for g in parse_file(path) if isinstance(g, ImportedGame)).events
    full = [s.state.snapshot() for s in replay_game(events)]
    for seat in range(4):
        for i, step in enumerate(replay_game([seat_view(e, seat) for e in events])):
            assert not {f.rule_id for f in step.findings} & ACCOUNTING, (seat, i, step.findings)
            if full[i].phase != "dealing" or events[i].type == "tiles_dealt":
                assert [st.hand_size for st in step.state.seats] == [st.hand_size for st in full[i].seats], (seat, i)
                assert step.state.wall_remaining == full[i].wall_remaining, (seat, i)
