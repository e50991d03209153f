"""The import's fast paths write exactly the bytes of its general path (issue 19).

* payloads written once a hand (deals, the reported score, the game's end) are made and
  encoded directly when their fields are plainly valid — compared here with validating the
  same fields and encoding the model, for every such event of every bundled game and of
  simulated games of several rulesets, and for fields at and past every bound;
* a game built by an importer is sealed from its records as columns
  (``ImportedGame.sealed``; its ids hashed as the canonical UUIDs they are) — compared with
  sealing the same game's validated events one by one (``Batch.encode``, then
  ``SealedBatch.of``: every id and version encoded), log hash included;
* the Botzone text parser reads a common line once per text — compared with the general
  reading of every line (the same lines with the action words upper-case).

Every expected value is what the general path makes of the same input; nothing is written
down by hand.
"""

from __future__ import annotations

import re

import pytest
from ingest_helpers import FIXTURES, TEXT_SAMPLE

from eventlog.ingest import ImportedGame, IngestError, UnknownFormatError, parse_file
from eventlog.ingest.builder import _PLAIN, _entry, _validated_entry
from eventlog.store import NO_STREAM
from eventlog.store.planning import Batch, SealedBatch
from paipu.samples import sample_files
from replayer.simulate.engine import SimulationConfig, simulate_game

FIXED_CLOCK = "2026-01-02T03:04:05.000000Z"


def _bundled_games() -> list[ImportedGame]:
    files = [*sample_files(), *sorted(p for p in FIXTURES.rglob("*") if p.is_file())]
    games = []
    for f in files:
        try:
            games += [g for g in parse_file(f) if isinstance(g, ImportedGame)]
        except UnknownFormatError:  # a fixture no importer reads
            continue
    return games


def _simulated_events() -> list:
    events = []
    for ruleset, seed in (("mcr", "fast-1"), ("mcr", "fast-2"), ("sichuan", "fast-3"), ("changsha", "fast-4")):
        events += simulate_game(SimulationConfig(ruleset=ruleset, seed=seed, hands_per_game=2), 0).events
    return events


def _same_entry(type_: str, fields: dict) -> None:
    """The entry made directly is the validated one: type, payload (equal, same repr), text,
    version and fingerprint part; fields validation refuses are refused with its words."""
    try:
        slow = _validated_entry(type_, dict(fields))
    except IngestError as e:
        with pytest.raises(IngestError) as got:
            _entry(type_, dict(fields))
        assert str(got.value) == str(e)
        return
    fast = _entry(type_, dict(fields))
    assert fast[0] == slow[0] and fast[2] == slow[2] and fast[3:] == slow[3:]
    assert fast[1] == slow[1] and repr(fast[1]) == repr(slow[1])
    assert fast[1].model_dump(mode="json") == slow[1].model_dump(mode="json")


def _builder_fields(event) -> dict:
    """The fields an importer's builder gives for this event's payload (fans as dicts)."""
    return event.payload.model_dump()


def test_once_a_hand_payloads_of_every_bundled_and_simulated_game_are_the_validated_ones():
    games = _bundled_games()
    assert {g.format for g in games} >= {"botzone-text", "botzone-json", "pmn"}
    events = [e for g in games for e in g.events] + _simulated_events()
    seen = {t: 0 for t in _PLAIN}
    for ev in events:
        if ev.type in _PLAIN:
            seen[ev.type] += 1
            _same_entry(ev.type, _builder_fields(ev))
    assert all(n >= 20 for n in seen.values()), seen


@pytest.mark.parametrize(("type_", "fields"), [
    ("tiles_dealt", {"seat": 0, "tiles": []}),
    ("tiles_dealt", {"seat": 3, "tiles": ["H1", "J3", "W1"]}),
    ("tiles_dealt", {"seat": 4, "tiles": ["W1"]}),
    ("tiles_dealt", {"seat": True, "tiles": ["W1"]}),
    ("tiles_dealt", {"seat": 1, "tiles": ["W0"]}),
    ("tiles_dealt", {"seat": 1, "tiles": ("W1", "W2")}),
    ("tiles_dealt", {"seat": 1, "tiles": ["W1"], "extra": 1}),
    ("game_ended", {"final_scores": None}),
    ("game_ended", {"final_scores": [10**9, -(10**9), 0, 7]}),
    ("game_ended", {"final_scores": [10**9 + 1, 0, 0, 0]}),
    ("game_ended", {"final_scores": [1, 2, 3]}),
    ("game_ended", {"final_scores": [1.0, 2, 3, 4]}),
    ("game_ended", {}),
    ("score_reported", {"winner": None, "score_changes": None, "fans": [], "total": None, "text": ""}),
    ("score_reported", {"winner": 2, "score_changes": [-8, -8, 40, -24], "total": -(10**9),
                        "fans": [{"name": '混"一\\色\n\u2028', "points": None, "count": 2},
                                 {"name": "", "points": -3, "count": 10**9}],
                        "text": "Fan 16 \x00\ud800 ends"}),
    ("score_reported", {"winner": 4, "score_changes": None, "fans": [], "total": None, "text": ""}),
    ("score_reported", {"winner": None, "score_changes": None, "fans": [], "total": True, "text": ""}),
    ("score_reported", {"winner": None, "score_changes": None, "fans": [{"name": "x", "count": 1}],
                        "total": None, "text": ""}),
    ("score_reported", {"winner": None, "score_changes": None, "total": None, "text": "",
                        "fans": [{"name": "x", "points": None, "count": 10**9 + 1}]}),
    ("score_reported", {"winner": None, "score_changes": None, "fans": [], "total": None, "text": 5}),
    ("score_reported", {"winner": 1}),
])
def test_once_a_hand_payloads_at_and_past_their_bounds_are_the_validated_ones(type_, fields):
    _same_entry(type_, fields)


def test_every_bundled_game_is_sealed_from_its_records_into_the_bytes_of_its_validated_events():
    head = (41, "cd" * 32)
    for game in _bundled_games():
        fast, fp = game.sealed(FIXED_CLOCK, head)
        events, ruleset, slow_fp = ImportedGame(game.game_id, game.events, game.source_path, game.first_line,
                                                game.format).fingerprinted()  # not built: the general path
        slow = SealedBatch.of(game.game_id, events, FIXED_CLOCK, ruleset, head)
        assert fp == slow_fp and fast == slow and fast.log == slow.log
        assert list(fast.rows) == list(slow.rows)
        batch = Batch.encode(game.game_id, game.events, NO_STREAM)  # every event validated and encoded alone
        assert [r[5] for r in fast.rows] == [e.payload for e in batch.events]


def test_the_text_parser_reads_a_common_line_as_the_general_reading_does(tmp_path):
    text = TEXT_SAMPLE.read_text(encoding="utf-8")
    # "Player 0 DRAW W1" is no common line: every Player line of the copy is read the general way
    upper = re.sub(r"^(Player \d )(\w+)", lambda m: m.group(1) + m.group(2).upper(), text, flags=re.M)
    f = tmp_path / TEXT_SAMPLE.name
    f.write_text(upper, encoding="utf-8")
    for _ in range(2):  # a second time from the lines read the first time
        mine = [g.sealed(FIXED_CLOCK) for g in parse_file(TEXT_SAMPLE)]
        general = [g.sealed(FIXED_CLOCK) for g in parse_file(f)]
        assert mine == general and len(mine) == 16


@pytest.mark.parametrize("text", [
    "", "\n", "a\nb\n", "a\n\nb", "中文\n牌谱\n\u2028x\x0b\x0c\x1c\x85y\n", "no end",
    "a\r\nb\rc\n", "\r", "\r\n", "x\n\r\n\ry",
])
def test_lines_are_split_at_lf_crlf_and_cr_only_with_or_without_a_cr_in_the_text(text):
    """Lines split by ``str.split`` when the text holds no CR: what the line-end expression
    gives (a Unicode line separator, a form feed … stay inside their line)."""
    from eventlog.ingest.base import _split_lines

    assert _split_lines(text) == re.split(r"\r\n|\r|\n", text)


def _refusal(check, *args):
    try:
        check(*args)
    except Exception as e:  # compared, whatever it is
        return type(e), str(e), getattr(e, "size", None)
    return None


@pytest.mark.parametrize("sizes", [
    [10, 20, 30],  # every event small
    [10, 300_000, 10],  # one long text that fits in bytes (ASCII)
    [10, 20, 1_100_000],  # the third event too large
    [400_000, 400_000],  # long payloads with metadata of ordinary length
])
@pytest.mark.parametrize("char", ["x", "中"])
def test_a_sealed_games_event_sizes_are_checked_as_each_event_alone(sizes, char):
    """A sealed game's columns are checked at once (the longest texts surely fit) or event by
    event: the same refusal, naming the same event, as checking each event's texts alone."""
    from eventlog.store.sizes import check_event_size_columns, check_event_sizes

    payloads = [f'{{"t":"{char * n}"}}' for n in sizes]
    metadata = ['{"line":1}'] * len(sizes)
    assert (_refusal(check_event_size_columns, payloads, metadata)
            == _refusal(check_event_sizes, list(zip(payloads, metadata))))
