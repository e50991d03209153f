"""A newcomer's trial of the CLI, items 5–8: flags that would be silently ignored are refused,
a re-run says what it did not write, a directory walk skips what is not a game log, garbage is
never echoed raw, the stepper says why a key did nothing, hands are counted from 1 in words
(0-based in data), and the review's summary says what it measured."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import run

import paipu.samples

PMN = "pmn-mahjongsoft.com-74621-1-3"
SAMPLES = Path(paipu.samples.__file__).parent


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("flags") / "paipu-data"
    assert run("quickstart", "--data", d).exit_code == 0
    return d


# ------------------------------------------------------------- 5. flags silently ignored

def test_simulate_with_data_and_out_is_refused(tmp_path):
    res = run("simulate", "--data", tmp_path / "d", "--out", tmp_path / "g.jsonl")
    assert res.exit_code == 2 and "give one of them" in res.output
    assert not (tmp_path / "g.jsonl").exists() and not (tmp_path / "d").exists()


def test_verify_out_without_export_is_refused(data, tmp_path):
    res = run("verify", "--out", tmp_path / "pq", "--data", data)
    assert res.exit_code == 2 and "without --export nothing is written" in res.output


def test_simulate_again_says_the_games_were_there(tmp_path):
    args = ["simulate", "--games", "1", "--hands-per-game", "1", "--seed", "7", "--data", tmp_path]
    first = run(*args)
    assert first.exit_code == 0 and first.output.startswith("1 game, 1 hand"), first.output
    again = run(*args)
    assert again.exit_code == 0
    assert again.output.strip() == (f"1 game already in {tmp_path} (the same seed and settings make the same "
                                    "games): nothing written")


# ------------------------------------------------------------- 6. ingest

def test_ingest_a_directory_skips_what_is_not_a_game_log(tmp_path):
    res = run("ingest", SAMPLES, "--data", tmp_path)
    assert res.exit_code == 0, res.output
    readmes = sorted(SAMPLES.rglob("README.txt"))
    assert readmes
    for f in readmes:
        assert f"note: skipped {f}: not a game log of a known format" in res.output
    assert f"0 errors, {len(readmes)} files skipped" in res.output


def test_an_empty_file_is_called_empty_and_leaves_no_store(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    data = tmp_path / "new-data"
    res = run("ingest", empty, "--data", data)
    assert res.exit_code == 1 and f"error: {empty}: empty file" in res.output
    assert "format not recognised" not in res.output and not data.exists()
    walk = tmp_path / "walk"
    walk.mkdir()
    (walk / "empty.txt").write_bytes(b"")
    res = run("ingest", walk, "--data", data)
    assert res.exit_code == 2 and f"note: skipped {walk / 'empty.txt'}: empty file" in res.output


def test_garbage_is_clipped_and_escaped_and_a_failed_ingest_leaves_nothing(tmp_path):
    garbage = tmp_path / "g.txt"
    garbage.write_bytes(b"Match 1\n" + b"garbage\x1b[31m red \x07 " * 200 + b"\n")  # a Botzone text head
    data = tmp_path / "d"
    data.mkdir()
    res = run("ingest", garbage, "--data", data)
    assert res.exit_code == 1
    err = next(ln for ln in res.output.splitlines() if ln.startswith("error:"))
    assert "\x1b" not in res.output and "\x07" not in res.output and "\\x1b" in err
    assert len(err) <= len("error: ") + 400, len(err)  # an error line: cut in the middle at 400 (its advice kept)
    assert list(data.iterdir()) == []  # the store this ingest created is gone; the directory was there


# ------------------------------------------------------------- 7. replay

def test_hands_are_counted_from_one_in_words_and_from_zero_in_data(data):
    res = run("replay", PMN, "--at", "1", "--data", data)
    assert res.exit_code == 0, res.output
    assert "Hand 1 starts" in res.output and "第1局开始" in res.output and "hand 1 " in res.output
    doc = json.loads(run("replay", PMN, "--at", "1", "--json", "--data", data).output)
    assert doc["state"]["hand_number"] == 0 and doc["event"]["payload"]["hand_number"] == 0
    assert doc["event"]["text_en"].startswith("Hand 1 starts")


def test_go_to_says_why_it_stays(data):
    from eventlog.store import open_store
    from paipu.cli.stepper import go_to
    from replayer.replay import replay

    store = open_store(data, create=False)
    try:
        steps = list(replay(list(store.read_game(PMN)), mode="audit"))
    finally:
        store.close()
    last = steps[-1].event.seq
    assert go_to(steps, "5", 0) == (5, "")
    assert go_to(steps, "", 3) == (3, "")
    idx, why = go_to(steps, "abc", 3)
    assert idx == 3 and why == f'go to "abc": not a seq — give a number 0..{last}'
    idx, why = go_to(steps, str(last + 1), 3)
    assert idx == 3 and why == f"go to {last + 1}: no such event (the game's events are 0..{last})"


# ------------------------------------------------------------- 8. review wording

def test_review_of_one_seat_has_no_all_seats_line(data):
    one = run("review", PMN, "--seat", "0", "--data", data)
    assert one.exit_code == 0 and "all" not in one.output.splitlines()[-1]
    two = run("review", PMN, "--seat", "0", "--seat", "2", "--data", data)
    assert two.output.splitlines()[-1].startswith("all reviewed seats: ")


def test_review_compares_improving_tiles_at_one_shanten(data):
    seen = 0
    for seat in range(4):
        text = run("review", PMN, "--seat", seat, "--data", data).output
        doc = json.loads(run("review", PMN, "--seat", seat, "--json", "--data", data).output)
        for h in doc["hands"]:
            for d in h["discards"]:
                line = next(ln for ln in text.splitlines() if re.search(rf"event {d['seq']}\b", ln))
                if d["options"][0]["shanten"] != d["shanten_after"]:
                    seen += 1
                    assert "from ready; the best discards reach " in line and " at best" not in line, line
    assert seen  # the sample holds discards that raise the shanten


def test_review_says_how_far_from_ready_in_words(data):
    # a number in words, as the review's docs define it: shanten 0 is ready (听牌), n is n tiles
    # to exchange before the hand is ready (一向听 …); never "shanten ready -> ready"
    from replayer.review import shanten_change_words, shanten_words

    assert [shanten_words(n) for n in (0, 1, 2)] == ["ready (听牌)", "1 from ready", "2 from ready"]
    assert shanten_change_words(0, 0) == "stays ready (听牌)"
    assert shanten_change_words(2, 1, arrow="->") == "2 from ready -> 1 from ready"
    for seat in range(4):
        text = run("review", PMN, "--seat", seat, "--data", data).output
        assert not re.search(r"shanten (ready|win|-|\d)|ready -> ready|-> ready(?! \(听牌\))", text), text
    # the sample's Play: seat 1 declares mahjong on seat 0's 🀛 B3, so its last discard left it ready on B3
    text = run("review", PMN, "--seat", "1", "--data", data).output
    last = [ln for ln in text.splitlines() if ln.lstrip().startswith("#")][-1]
    assert ": stays ready (听牌) on 🀛 B3," in last or "-> ready (听牌) on 🀛 B3," in last, last


def test_review_summary_never_says_0_of_0():
    from paipu.cli.review import _summary_words
    from replayer.review import SeatSummary

    text = _summary_words(SeatSummary(seat=0, discards=0, kept_best=0, hands=0, ready_hands=0, mean_ready_turn=None))
    assert text == "no discard reviewed; no reviewable hand"
    text = _summary_words(SeatSummary(seat=1, discards=9, kept_best=9, hands=1, ready_hands=0, mean_ready_turn=None))
    assert text == "9 of 9 discards kept the maximum (100 %); never ready in 1 hand"


def test_review_counts_hands_from_one(data):
    res = run("review", PMN, "--seat", "0", "--hand", "1", "--data", data)
    assert res.exit_code == 0, res.output
    assert "hand 1, seat 0:" in res.output
    doc = json.loads(run("review", PMN, "--seat", "0", "--hand", "1", "--json", "--data", data).output)
    assert [h["hand_number"] for h in doc["hands"]] == [0]  # data stays 0-based
    res = run("review", PMN, "--seat", "0", "--hand", "2", "--data", data)  # the sample has one hand
    assert res.exit_code == 2 and "has no hand 2 (hands are counted from 1)" in res.output


def test_server_with_data_is_refused(tmp_path):
    # the server has its own log: a --data beside --server would be silently unused
    for cmd in (("games",), ("read", PMN), ("ingest", SAMPLES)):
        res = run(*cmd, "--server", "127.0.0.1:1", "--data", tmp_path)
        assert res.exit_code == 2 and "give one of them" in res.output, (cmd, res.output)


def test_score_flags_of_the_other_mode_are_refused(tmp_path):
    src = tmp_path / "v.jsonl"
    src.write_text("", encoding="utf-8")
    res = run("score", "--vectors", src, "--self-drawn", "--context", "dealer=1")
    assert res.exit_code == 2 and "--vectors with --context, --self-drawn: those describe one hand" in res.output
    res = run("score", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B1", "--win", "B1", "--out", tmp_path / "o")
    assert res.exit_code == 2 and "--out" in res.output and not (tmp_path / "o").exists()
