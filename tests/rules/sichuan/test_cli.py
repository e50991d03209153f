"""Sichuan through the CLI as a user meets it: ``paipu replay`` marks a seat that has won and
left the 血战 hand (tile, event, out) and shows each seat's declared void suit (定缺, §2);
``paipu score --hand`` prices a 杠上花 under ``gangshanghua_mode = plus2_no_gen`` without the
根 of the kong just made (§10, §12.17)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from eventlog import events as ev
from eventlog.store import open_store
from paipu.cli import app
from tests.rules.sichuan.test_dingque import declared
from tests.rules.sichuan.test_rules import E_JUNK, N_JUNK, S_READY, W_JUNK


def _store(tmp_path, payloads) -> str:
    store = open_store(tmp_path)
    try:
        store.append("sc", [ev.NewEvent.of(p, id_seed=f"sc/{i}") for i, p in enumerate(payloads)])
    finally:
        store.close()
    return str(tmp_path)


def test_replay_marks_the_winner_out_and_the_void_suits(tmp_path):
    h = declared({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, "TTWW")
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    w = h.win(1, "B3", from_seat=2, dseq=d)
    nxt = h.turn(3)  # play goes on at N (§4)
    data = _store(tmp_path, h.g._with_walls())
    r = CliRunner().invoke(app, ["replay", "sc", "--at", str(nxt), "--data", data], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert f"won B3 (from seat 2, #{w}), out" in r.output
    assert r.output.count("void T 条") == 2 and r.output.count("void W 万") == 2


def test_score_hand_plus2_no_gen_drops_the_root_of_the_kong_just_made():
    """A concealed 1m kong, then its replacement 9m completes 2m3m4m 5m6m7m 7m8m9m 9m9m: 清一色 2;
    ``plus1``: + 根 1 + 杠上花 1 = 4; ``plus2_no_gen``: + 杠上花 2 and the 1m kong is no 根 = 4
    (not 5: the kong's 根 is what ``plus2_no_gen`` takes away)."""
    base = ["score", "--ruleset", "sichuan", "--hand", "W2 W3 W4 W5 W6 W7 W7 W8 W9 W9", "--meld", "ckong:W1",
            "--win", "W9", "--self-drawn", "--kong", "--json"]
    r = CliRunner().invoke(app, base)
    assert r.exit_code == 0, r.output
    items = {i["id"]: (i["points"], i["count"]) for i in json.loads(r.output)["items"]}
    assert items == {"qingyise": (2, 1), "gen": (1, 1), "gangshanghua": (1, 1)}
    r = CliRunner().invoke(app, base + ["--option", "gangshanghua_mode=plus2_no_gen"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {i["id"]: (i["points"], i["count"]) for i in out["items"]} == {"qingyise": (2, 1), "gangshanghua": (2, 1)}
    assert out["total"] == 4


def test_rulesets_json_lists_every_ruleset_with_its_options():
    """``paipu rulesets --json`` (issue 14 item 4): each ruleset with its options — Sichuan's
    §9 options with type, default, meaning and rule source."""
    r = CliRunner().invoke(app, ["rulesets", "--json"])
    assert r.exit_code == 0, r.output
    got = {d["id"]: d for d in json.loads(r.output)}
    assert {"mcr", "nanchang", "sichuan"} <= set(got) and all(d["options"] for d in got.values())
    opts = {o["option"]: o for o in got["sichuan"]["options"]}
    assert opts["mode"]["default"] == "xuezhan" and "§4" in opts["mode"]["source"]
    assert opts["cap"]["default"] is None and opts["huazhu_fan"]["default"] is None
    assert {"dingque_declared", "zimo_bonus", "tuishui", "hujiao_zhuanyi", "draw_dealer"} <= set(opts)


def test_score_shows_every_step_from_fan_to_payment_s6_s12_9():
    """sichuan.md §12.9: 天胡 is a self-draw, the cap applies to it, and ``jiadi`` is added after
    the cap: 天胡 (5 fan, §6.2) with cap = 3 → 底金 1 × 2^3 = 8, + 加底 1 = 9 from each of the
    three (§5.4). The explanation shows the cap (封顶) and 加底, not only "total 5 fan"."""
    import json

    from tests.cli_run import run as cli

    args = ["score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 B2 B3 B4 B5", "--win", "B5",
            "--self-drawn", "--context", "first_draw=yes", "--option", "cap=3", "--option", "zimo_bonus=jiadi"]
    out = cli(*args).output
    assert "5 fan → capped at 3 fan (封顶" in out
    assert "底金 1 × 2^3 = 8" in out and "加底 1" in out and "= 9 per payer" in out
    obj = json.loads(cli(*args, "--json").output)
    assert obj["changes"] == [27, -9, -9, -9]
    assert len(obj["payment_steps"]) == 4


def test_score_steps_without_cap_or_bonus_s6():
    """No cap, no bonus: 平胡 0 fan on a discard → 底金 1 × 2^0 = 1 (§6, §11 Ex 1)."""
    import json

    from tests.cli_run import run as cli

    obj = json.loads(cli("score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 B2 B3 B4 B5",
                         "--win", "B5", "--json").output)
    assert obj["payment_steps"] == ["0 fan", "底金 1 × 2^0 = 1 (§6) per payer (§5.4)"]
