"""Less common Changsha paths (docs/reference/rules/changsha.md), replayed as whole hands."""

from __future__ import annotations

from replayer.replay import run

from .game import as_events, new_game, scripted_hand

N_KONG = "T7 T7 T7 W1 W1 W1 B1 B1 B1 T2 T3 T5 T5"  # §7 Ex 8: after the kong N waits 1s / 4s
S_789 = "W2 W3 W4 W7 W8 T1 T2 T3 B5 B5 B6 B7 B8"  # wins on 6m or 9m (pair 5p)


def _after_open_kong(reveal: str, then: list[tuple]) -> list:
    turns = [("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "T7", "T7"),
             ("kong", 3, "melded", "T7"), ("reveal", 3, (3, 5), reveal), *then]
    return new_game() + scripted_hand(start=1, hand_number=0, dealer=0, hands={1: S_789, 3: N_KONG}, turns=turns,
                                      birds=["T4"])


def test_passing_a_win_on_either_open_kong_tile_is_louhu_s4():
    """§4 漏胡 and 开杠: both revealed tiles are exposed "as if discarded". S could win on the
    second one (9m) and does not; E then discards a 9m before S draws again: S may not win on
    it — as when the 9m is the first revealed tile."""
    for reveal in ("B3 W9", "W9 B3"):
        payloads = _after_open_kong(reveal, [("turn", 0, "W9", "W9"), ("win", 1, "W9", 0)])
        res = run(as_events(payloads), mode="audit")
        assert [f.rule_id for f in res.findings] == ["passed_win"], reveal
        assert "changsha.md §4" in res.findings[0].source


def test_a_passed_open_kong_tile_blocks_only_its_own_kind_s4():
    """§4 漏胡 "只对该玩家漏胡的那张牌有效": after passing the revealed 9m, S may still win on a
    discarded 6m before its next draw."""
    payloads = _after_open_kong("B3 W9", [("turn", 0, "W6", "W6"), ("win", 1, "W6", 0)])
    assert run(as_events(payloads), mode="audit").findings == ()


def _dealer_opens_a_kong_first(options: dict) -> list:
    """The dealer's dealt 14 hold 7s×4 and wait on 1s / 4s after the kong; before his first
    discard he opens the kong (开杠, dice 3 + 5) revealing 3p and 9m, and S wins on the 9m
    (杠上炮). Bird 4s: rank 4 → N, not involved."""
    turns = [("kong", 0, "concealed", "T7"), ("reveal", 0, (3, 5), "B3 W9"), ("win", 1, "W9", 0)]
    return new_game(options) + scripted_hand(start=1, hand_number=0, dealer=0,
                                             hands={0: "T7 T7 T7 T7 W1 W1 W1 B1 B1 B1 T2 T3 T5 T5", 1: S_789},
                                             turns=turns, birds=["T4"])


def test_kaigang_reveal_earthly_s8_17():
    """§8.17 (open; option ``kaigang_reveal_earthly``, default false): a tile revealed by the
    dealer's 开杠 before his first discard is not his first discard — S's win is 杠上炮 alone,
    1 big unit: 6X + X (dealer) = 70. With the option it is also 地胡: 2 big units, 2·60 + 10 = 130."""
    res = run(as_events(_dealer_opens_a_kong_first({})), mode="strict")
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["kong_reveal_claim"]
    assert res.state.scores == (-70, 70, 0, 0)
    opts = {"kaigang_reveal_earthly": True}
    res = run(as_events(_dealer_opens_a_kong_first(opts)), mode="strict")
    [w] = res.state.wins
    assert [f.id for f in w.score.fans] == ["earthly", "kong_reveal_claim"]
    assert res.state.scores == (-130, 130, 0, 0)
