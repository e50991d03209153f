"""``--option NAME=VALUE`` is read by one parser in every command (score, verify --as, dispute,
review's what-if) and the dashboard, and every default ``paipu rulesets`` shows is written in a
form that parser reads back: Changsha's ``kong_pay`` (changsha.md §4, §8.14: points per payer
for a melded and a concealed kong) is an object, given as JSON."""

from __future__ import annotations

import json

import pytest
from cli_run import one_error, run

# a small win on B5 (changsha.md §3.1: four sets and a 2-5-8 pair); seat 0 is the dealer
HAND = ("--ruleset", "changsha", "--hand", "W1 W2 W3 W4 W5 W6 B7 B8 B9 B5 T3 T4 T5", "--win", "B5")
KONG_PAY = 'kong_pay={"ming":5,"an":10}'


def test_score_takes_an_object_option_as_json_as_verify_does():
    res = run("score", *HAND, "--option", KONG_PAY, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["legal"] is True


def test_verify_as_takes_the_same_text(tmp_path):
    from eventlog.store import open_store

    open_store(tmp_path / "d", create=True).close()
    res = run("verify", "--data", tmp_path / "d", "no-such-game", "--as", "changsha", "--option", KONG_PAY)
    assert "no such game" in one_error(res)  # the option is taken; the unknown game is what is said
    res = run("verify", "--data", tmp_path / "d", "no-such-game", "--as", "changsha", "--option", "kong_pay=3")
    assert "kong_pay" in one_error(res) and res.exit_code == 2


def test_score_refuses_text_without_a_value_naming_the_flag():
    assert "--option 'kong_pay'" in one_error(run("score", *HAND, "--option", "kong_pay"))


def test_every_default_shown_reads_back_through_the_option_parser():
    from paipu.cli.ruleset_options import build_ruleset, parse_options

    res = run("rulesets", "changsha")
    line = next(ln for ln in res.output.splitlines() if ln.strip().startswith("kong_pay ="))
    shown = line.split(" = ", 1)[1].split(" (", 1)[0]
    assert json.loads(shown) == {"ming": 0, "an": 0}
    for d in json.loads(run("rulesets", "--json").output):
        for o in d["options"]:
            if o["default"] is None:
                continue
            text = f"{o['option']}={json.dumps(o['default'], ensure_ascii=False)}"
            build_ruleset(d["id"], parse_options([text]))  # raises CliError if refused


@pytest.mark.parametrize("text", ['kong_pay={"ming": 5, "an": 10}', "kong_pay = {\"ming\":5,\"an\":10}"])
def test_the_parser_reads_json_objects(text):
    from replayer.rules.catalog import parse_option

    assert parse_option(text) == ("kong_pay", {"ming": 5, "an": 10})
