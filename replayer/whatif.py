"""What-if scoring: a game (or one win of it) re-scored under another ruleset, preset or option
set, side by side with the game's own scoring, each difference with the rule it comes from.

Nothing here decides a rule: both sides are :func:`replayer.audit.audit_game` replays (the
game's own ruleset, and the one asked for); this module lines them up:

* **option changes** — every option whose value differs between the two bound rulesets (the
  same base ruleset), each with its meaning and rule source from the ruleset's options model
  (:mod:`replayer.rules.catalog`); a different base ruleset is one change with both
  rulesets' rule sources. Under a different base ruleset the record's table stays as it
  was built — its wall layout (one shared wall or one per seat, as its hand_started events
  list the walls: :func:`replayer.rules.base.at_table`) — and the scores start from the
  other ruleset's own (its unit, e.g. chip stacks: ``start_after``);
* per **win**: legal or not on each side (with the finding and its source when a side rejects
  it: a 诈和, a fan minimum not reached), points, score changes, and the fans (or factors) found
  on one side only or counted differently — each with the rule source its ruleset gives for it;
* **findings** raised on one side only (a tile the other ruleset does not have, a claim it
  does not allow …) and the final scores.

``what_if(events, "mcr1998")`` re-scores under the preset's options; ``what_if(events, None,
{"knitted_straight_waits": False})`` keeps the game's ruleset and options but those given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from replayer.audit import GameAudit, WinAudit, audit_game
from replayer.explained import ScoreLine
from replayer.findings import Finding
from replayer.rules.base import Ruleset, at_table, base_of, get_ruleset, get_spec, presets

__all__ = ["OptionChange", "FanDifference", "WinComparison", "WhatIf", "what_if", "what_if_json", "parse_option"]


@dataclass(frozen=True)
class OptionChange:
    """One option set differently: ``name``, the game's value and the what-if value (JSON
    text), its ``meaning`` and rule ``source``."""

    name: str
    before: str
    after: str
    meaning: str
    source: str


@dataclass(frozen=True)
class FanDifference:
    """A fan (factor, item) counted on one side only or differently: ``before`` / ``after`` as
    ``"value × count"`` ("" when absent on that side); ``source``: where its ruleset writes it."""

    id: str
    name_en: str
    name_zh: str
    before: str
    after: str
    source: str


@dataclass(frozen=True)
class WinComparison:
    """One declared win on both sides. ``reasons_before`` / ``reasons_after``: the findings
    at the win (rule id, message, source) — why a side rejects it; ``differs``: legality,
    points, score changes or fans differ."""

    seq: int
    hand_number: int | None
    seat: int
    tile: str
    legal_before: bool
    legal_after: bool
    points_before: int | None
    points_after: int | None
    changes_before: tuple[int, int, int, int] | None
    changes_after: tuple[int, int, int, int] | None
    fans: tuple[FanDifference, ...]
    reasons_before: tuple[tuple[str, str, str], ...]
    reasons_after: tuple[tuple[str, str, str], ...]

    @property
    def differs(self) -> bool:
        return (self.legal_before != self.legal_after or self.points_before != self.points_after
                or self.changes_before != self.changes_after or bool(self.fans))


@dataclass(frozen=True)
class WhatIf:
    """A game under its own ruleset (``ruleset_before``, options) and another
    (``ruleset_after``, options): option changes, wins side by side (only ``win_seq``'s when
    asked), findings on one side only, final scores."""

    game_id: str
    ruleset_before: str
    options_before: dict[str, Any]
    ruleset_after: str
    options_after: dict[str, Any]
    option_changes: tuple[OptionChange, ...]
    wins: tuple[WinComparison, ...]
    findings_only_before: tuple[Finding, ...]
    findings_only_after: tuple[Finding, ...]
    scores_before: tuple[int, ...]
    scores_after: tuple[int, ...]
    #: the what-if's starting scores when they are not the record's: another base ruleset
    #: counts in its own unit and starts from its own (:meth:`Ruleset.initial_scores`, e.g. the
    #: chip format's 100-chip stacks, competition.md §A5); None: the record's
    start_after: tuple[int, ...] | None = None

    @property
    def differs(self) -> bool:
        return (any(w.differs for w in self.wins) or bool(self.findings_only_before or self.findings_only_after)
                or self.scores_before != self.scores_after)


def parse_option(text: str) -> tuple[str, Any]:
    """``K=V`` → (K, V): V read as JSON (``true``, ``3``, ``null``, ``"x"``), else as a plain
    string. Raises ValueError without ``=`` or with an empty name."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"an option is written NAME=VALUE, got {text!r}")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value.strip()


def _docs(ruleset_id: str) -> dict[str, Any]:
    from replayer.rules.catalog import option_docs

    return {d.name: d for d in option_docs(get_spec(base_of(ruleset_id)).options_model)}


def _effective(rs: Ruleset, names: list[str]) -> dict[str, str]:
    docs = _docs(rs.id)
    given = rs.options_dict()
    return {n: json.dumps(given[n], ensure_ascii=False, sort_keys=True) if n in given
            else docs[n].default if n in docs else "(default)" for n in names}


def _option_changes(before: Ruleset, after: Ruleset) -> tuple[OptionChange, ...]:
    b, a = base_of(before.id), base_of(after.id)
    if b != a:
        # where each ruleset is written (its rule source for what it has no rule id for)
        return (OptionChange("ruleset", before.id, after.id, "another ruleset: every rule may differ",
                             f"{before.rule_source('ruleset')} | {after.rule_source('ruleset')}"),)
    docs = _docs(before.id)
    names = list(docs) + sorted((set(before.options_dict()) | set(after.options_dict())) - set(docs))
    eb, ea = _effective(before, names), _effective(after, names)
    out = [OptionChange(n, eb[n], ea[n], docs[n].meaning if n in docs else "an option of the ruleset",
                        (docs[n].source if n in docs else "") or after.rule_source(n))
           for n in names if eb[n] != ea[n]]
    if before.id != after.id:
        out.insert(0, OptionChange("preset", before.id, after.id, "a preset: the base ruleset with these options",
                                   "replayer/rules/presets/*.toml"))
    return tuple(out)


def _fan_map(lines: tuple[ScoreLine, ...]) -> dict[str, tuple[ScoreLine, int]]:
    out: dict[str, tuple[ScoreLine, int]] = {}
    for f in lines:
        key = f.id or f.name_en
        line, n = out.get(key, (f, 0))
        out[key] = (line, n + f.count)
    return out


def _fan_text(pair: tuple[ScoreLine, int] | None) -> str:
    if pair is None:
        return ""
    line, n = pair
    return f"{line.value} × {n}"


def _fans(before: WinAudit | None, after: WinAudit | None, rs_b: Ruleset, rs_a: Ruleset) -> tuple[FanDifference, ...]:
    mb = _fan_map(before.fans if before else ())
    ma = _fan_map(after.fans if after else ())
    out = []
    for key in list(mb) + [k for k in ma if k not in mb]:
        tb, ta = _fan_text(mb.get(key)), _fan_text(ma.get(key))
        if tb == ta:
            continue
        line = (ma.get(key) or mb[key])[0]
        rs = rs_a if key in ma else rs_b
        out.append(FanDifference(key, line.name_en, line.name_zh, tb, ta, rs.rule_source(key)))
    return tuple(out)


def _reasons(findings: tuple[Finding, ...], seq: int) -> tuple[tuple[str, str, str], ...]:
    return tuple((f.rule_id, f.message, f.source) for f in findings if f.seq == seq)


def _fkey(f: Finding) -> tuple[int, str]:
    return (f.seq, f.rule_id)


def what_if(events: Iterable[Any], ruleset: str | None = None, options: Mapping[str, Any] | None = None, *,
            win_seq: int | None = None) -> WhatIf:
    """Re-score a game (``events`` in seq order) under ``ruleset`` (a ruleset or preset id;
    None: the game's own) with ``options`` (over the game's options when the ruleset is the
    game's own, else over the ruleset's or preset's), side by side with its own scoring.
    ``win_seq``: compare that win only. Raises :class:`RulesetError` for an unknown ruleset
    or a bad option, ValueError for a ``win_seq`` that is no win of the game."""
    events = list(events)
    own = audit_game(events)
    if own.ruleset is None:
        raise ValueError("the game has no game_started event: nothing to re-score")
    own_rs = get_ruleset(own.ruleset, dict(own.state.ruleset_options))
    target = ruleset or own.ruleset
    # the same base ruleset: the game's table options (wall layout, flowers …) stay unless the
    # preset or the options given set them
    base_opts = dict(own.state.ruleset_options) if base_of(target) == base_of(own.ruleset) else {}
    preset = presets().get(target)
    if preset is not None and preset[0] != target:
        base_opts.update(preset[1])
    other_rs = get_ruleset(target, {**base_opts, **dict(options or {})})
    start: tuple[int, ...] | None = None
    if base_of(target) != base_of(own.ruleset):
        # the record's walls stay as the table was built (one shared wall, or one per seat):
        # a fact of the record, not a rule of the other ruleset's scoring
        other_rs = at_table(other_rs, wall_layout=own_rs.play.wall_layout)
        # scores are the other ruleset's unit: it starts from its own (e.g. chip stacks)
        start = tuple(other_rs.initial_scores())
        if list(start) == list(own.state.initial_scores):
            start = None
        else:
            events = _started_with(events, start)
    other = audit_game(events, ruleset=other_rs)
    return replace(_compare(own, other, own_rs, other_rs, win_seq), start_after=start)


def _started_with(events: list[Any], scores: tuple[int, ...]) -> list[Any]:
    """``events`` with the game_started's ``initial_scores`` set to ``scores``."""
    out = []
    for e in events:
        if getattr(e, "type", None) == "game_started":
            e = e.model_copy(update={"payload": e.payload.model_copy(update={"initial_scores": list(scores)})})
        out.append(e)
    return out


def _compare(own: GameAudit, other: GameAudit, rs_b: Ruleset, rs_a: Ruleset, win_seq: int | None) -> WhatIf:
    wb = {w.seq: w for w in own.wins}
    wa = {w.seq: w for w in other.wins}
    seqs = sorted(set(wb) | set(wa))
    if win_seq is not None:
        if win_seq not in seqs:
            raise ValueError(f"event {win_seq} is no declared win of game {own.game_id!r} (wins: {seqs})")
        seqs = [win_seq]
    wins = []
    for s in seqs:
        b, a = wb.get(s), wa.get(s)
        w = b or a
        assert w is not None
        wins.append(WinComparison(
            seq=s, hand_number=w.hand_number, seat=w.seat, tile=w.tile,
            legal_before=bool(b and b.legal), legal_after=bool(a and a.legal),
            points_before=b.points if b else None, points_after=a.points if a else None,
            changes_before=b.changes if b else None, changes_after=a.changes if a else None,
            fans=_fans(b, a, rs_b, rs_a),
            reasons_before=_reasons(own.findings, s), reasons_after=_reasons(other.findings, s),
        ))
    kb = {_fkey(f) for f in own.findings}
    ka = {_fkey(f) for f in other.findings}
    only_b = tuple(f for f in own.findings if _fkey(f) not in ka)
    only_a = tuple(f for f in other.findings if _fkey(f) not in kb)
    if win_seq is not None:
        only_b = tuple(f for f in only_b if f.seq == win_seq)
        only_a = tuple(f for f in only_a if f.seq == win_seq)
    return WhatIf(
        game_id=own.game_id, ruleset_before=rs_b.id, options_before=rs_b.options_dict(),
        ruleset_after=rs_a.id, options_after=rs_a.options_dict(),
        option_changes=_option_changes(rs_b, rs_a), wins=tuple(wins),
        findings_only_before=only_b, findings_only_after=only_a,
        scores_before=tuple(own.state.scores), scores_after=tuple(other.state.scores),
    )


def what_if_json(w: WhatIf) -> dict[str, Any]:
    """The comparison as plain JSON values (``paipu verify --as --json``, the dispute package)."""
    def f(x: Finding) -> dict[str, Any]:
        return {"seq": x.seq, "rule_id": x.rule_id, "message": x.message, "source": x.source}

    return {
        "game_id": w.game_id, "differs": w.differs,
        "before": {"ruleset": w.ruleset_before, "options": w.options_before, "scores": list(w.scores_before)},
        "after": {"ruleset": w.ruleset_after, "options": w.options_after, "scores": list(w.scores_after),
                  "start": list(w.start_after) if w.start_after is not None else None},
        "option_changes": [vars(c) for c in w.option_changes],
        "wins": [{
            "seq": x.seq, "hand_number": x.hand_number, "seat": x.seat, "tile": x.tile, "differs": x.differs,
            "legal": [x.legal_before, x.legal_after], "points": [x.points_before, x.points_after],
            "changes": [list(x.changes_before) if x.changes_before else None,
                        list(x.changes_after) if x.changes_after else None],
            "fans": [vars(d) for d in x.fans],
            "reasons_before": [dict(zip(("rule_id", "message", "source"), r)) for r in x.reasons_before],
            "reasons_after": [dict(zip(("rule_id", "message", "source"), r)) for r in x.reasons_after],
        } for x in w.wins],
        "findings_only_before": [f(x) for x in w.findings_only_before],
        "findings_only_after": [f(x) for x in w.findings_only_after],
    }
