"""Less common Changsha paths (docs/reference/rules/changsha.md), replayed as whole hands."""

from __future__ import annotations

from eventlog import events as ev
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


def _bu_zhang_then_open_kong() -> list:
    """E's first move is a 补张 (暗杠 9p, one replacement from the tail: the tail stack loses its
    top); later N opens its kong (开杠) with dice 1 + 1 = 2 and S wins on the revealed 9m."""
    turns = [("kong", 0, "concealed", "B9"), ("replacement", 0, "W5"), ("discard", 0, "W5"),
             ("turn", 1, None, None), ("turn", 2, "T7", "T7"), ("kong", 3, "melded", "T7"),
             ("reveal", 3, (1, 1), "B3 W9"), ("win", 1, "W9", 3)]
    return new_game() + scripted_hand(start=1, hand_number=0, dealer=0, hands={0: "B9 B9 B9 B9", 1: S_789, 3: N_KONG},
                                      turns=turns, birds=["T4"])


def test_open_kong_counts_stacks_after_a_bu_zhang_s4():
    """§4 开杠: "take the two tiles of the d-th stack from the tail … if the top tile is missing
    take the lower one". The 108-tile wall is 54 stacks; the deal and the draws take from the
    head, so the tail stacks are whole: wall positions 106–107 are stack #1, 104–105 stack #2.
    E's 补张 took position 107, the top of stack #1, whose lower tile 106 stands alone — so with
    dice 2 the 开杠 reveals stack #2, positions 104 and 105 — not 103 and 104, as if the tiles
    left still paired off from the tail end."""
    payloads = _bu_zhang_then_open_kong()
    wall = next(p for p in payloads if isinstance(p, ev.HandStarted)).wall
    assert wall[104:106] == ["B3", "W9"]
    res = run(as_events(payloads), mode="strict")
    assert res.findings == () and res.state.scores == (0, 120, 0, -120)
    k = next(i for i, p in enumerate(payloads) if isinstance(p, ev.KongTilesRevealed))
    shifted = payloads[:k] + [payloads[k].model_copy(update={"tiles": [wall[103], wall[104]]})] + payloads[k + 1:]
    assert "wrong_kong_tiles" in [f.rule_id for f in run(as_events(shifted), mode="audit").findings]
