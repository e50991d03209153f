"""A computed settlement broken down by rule item: what a reported-score dispute turns on.

``paipu verify``'s ``reported_score_mismatch`` finding, ``paipu dispute``'s page and the
dashboard's Dispute page show the computed score changes of a report
(:attr:`~replayer.state.ReportedScore.computed_payments`) by the rule that makes each payment
and that rule's source section — 包牌 (competition.md §A8), 呼叫转移 (sichuan.md §3, §12.11),
查花猪 / 查大叫 (sichuan.md §7) — so a disagreement names the rule that decides it. The
rulesets give each :class:`~replayer.state.Payment` its ``reason`` and ``source``; nothing here
names a ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from replayer.state import HandResult, ReportedScore, ScoreEntry, SettledPayment, TableState

__all__ = ["RuleShare", "by_rule", "short_source", "bare_source", "payment_words", "rule_words", "settlement_words",
           "deciding_sources", "entries_settled", "BreakdownRow", "breakdown", "payments_breakdown", "HandSettlement", "by_hand",
           "final_scores_words"]

#: how long the breakdown may be inside a one-line finding; a longer one points to the pages
ONE_LINE = 320


@dataclass(frozen=True)
class RuleShare:
    """One rule item of a computed settlement: its ``rule`` (the payments' reason), ``source``
    (the rule text, "" when the ruleset gives none), the net ``changes`` per seat 0..3 of its
    payments and the ``payments`` themselves, in the order the rules made them. A share with
    no payments is what the computed changes hold beyond the itemized payments
    (``rule`` = ``"not itemized"``)."""

    rule: str
    source: str
    changes: tuple[int, int, int, int]
    payments: tuple[SettledPayment, ...]


def by_rule(payments: Iterable[SettledPayment], changes: Sequence[int] | None = None) -> tuple[RuleShare, ...]:
    """``payments`` grouped by (reason, source), in order of first appearance, each with its
    net changes. With ``changes`` (the computed changes they make up): a last share
    ``not itemized`` holds what the payments do not account for (none when they add up)."""
    groups: dict[tuple[str, str], list[SettledPayment]] = {}
    for sp in payments:
        groups.setdefault((sp.payment.reason, sp.payment.source), []).append(sp)
    out = [RuleShare(rule, source, _net(group), tuple(group)) for (rule, source), group in groups.items()]
    if changes is not None:
        total = [0, 0, 0, 0]
        for share in out:
            for i in range(4):
                total[i] += share.changes[i]
        rest = tuple(c - t for c, t in zip(changes, total))
        if any(rest):
            out.append(RuleShare("not itemized", "", (rest[0], rest[1], rest[2], rest[3]), ()))
    return tuple(out)


def _net(group: Iterable[SettledPayment]) -> tuple[int, int, int, int]:
    ch = [0, 0, 0, 0]
    for sp in group:
        ch[sp.payment.payer] -= sp.payment.amount
        ch[sp.payment.payee] += sp.payment.amount
    return (ch[0], ch[1], ch[2], ch[3])


def entries_settled(entries: Iterable[ScoreEntry]) -> tuple[tuple[int, int, int, int], tuple[SettledPayment, ...]]:
    """What score-log ``entries`` settled together: their summed ``changes`` per seat 0..3
    (points) and their payments, each with the event and kind that settled it, in order."""
    ch = [0, 0, 0, 0]
    paid: list[SettledPayment] = []
    for e in entries:
        for i in range(4):
            ch[i] += e.changes[i]
        paid += [SettledPayment(e.seq, e.kind, q) for q in e.payments]
    return (ch[0], ch[1], ch[2], ch[3]), tuple(paid)


def _parts_of(payments: Iterable[SettledPayment], seen: dict[str, None]) -> None:
    """Add to ``seen`` the distinct sections (:func:`bare_source`) of ``payments``' rules."""
    for sp in payments:
        for part in bare_source(sp.payment.source).split("; ") if sp.payment.source else ():
            seen.setdefault(part, None)


def short_source(source: str) -> str:
    """``sichuan.md §7 (查大叫)`` for ``docs/reference/rules/sichuan.md §7 (查大叫: a player not
    ready pays each ready one)``: where a line must stay short, the rules' directory left out
    and each part's words cut at their first colon (several parts: ``; `` between)."""
    out = []
    for part in source.split("; "):
        part = part.replace("docs/reference/rules/", "")
        head, sep, words = part.partition(" (")
        name = words.split(":")[0].rstrip(")")
        out.append(f"{head} ({name})" if sep and name else head)
    return "; ".join(out)


def bare_source(source: str) -> str:
    """``docs/reference/rules/sichuan.md §7`` for ``docs/reference/rules/sichuan.md §7 (查大叫:
    …)``: each part's file and sections only."""
    return "; ".join(part.partition(" (")[0] for part in source.split("; "))


def _signed(v: Sequence[int]) -> str:
    return "[" + ", ".join(f"{x:+d}" if x else "0" for x in v) + "]"


def rule_words(share: RuleShare, *, short: bool = False) -> str:
    """``huazhu [+16, +16, -48, +16] (sichuan.md §7 (查花猪))``: a share's rule, net changes
    and source (left out when the reason already quotes it, or there is none)."""
    source = short_source(share.source) if short else share.source
    said = share.source and share.source not in share.rule
    return f"{share.rule} {_signed(share.changes)}" + (f" ({source})" if said else "")


def payment_words(sp: SettledPayment) -> str:
    """``event 117: seat 2 pays seat 0 16 — huazhu (docs/reference/rules/sichuan.md §7 (查花猪))``."""
    p = sp.payment
    said = p.source and p.source not in p.reason
    return (f"event {sp.seq}: seat {p.payer} pays seat {p.payee} {p.amount} — {p.reason}"
            + (f" ({p.source})" if said else ""))


def settlement_words(report: ReportedScore) -> str:
    """The computed changes of ``report`` by rule item, on one line: ``by rule: 包牌: 3T
    [-78, +78, 0, 0] (competition.md §A8)``; when that is longer than a line, a pointer to
    the pages that list it; "" when nothing was computed or itemized."""
    if report.computed_changes is None or not report.computed_payments:
        return ""
    shares = by_rule(report.computed_payments, report.computed_changes)
    line = "by rule: " + "; ".join(rule_words(s, short=True) for s in shares)
    if len(line) <= ONE_LINE:
        return line
    sources = sorted({short_source(s.source) for s in shares if s.source})
    return (f"{len(shares)} rule items ({'; '.join(sources)}): each payment with its rule is on "
            "`paipu dispute` and the dashboard's Dispute page")


def deciding_sources(report: ReportedScore) -> tuple[str, ...]:
    """The distinct sections (:func:`bare_source`) of the rules behind ``report``'s computed
    changes, in order."""
    seen: dict[str, None] = {}
    _parts_of(report.computed_payments, seen)
    return tuple(seen)


class BreakdownRow(NamedTuple):
    """One row of a report's computed settlement by rule item, as the dispute pages show it:
    the ``rule``, its ``source``, the ``events`` that settled it (``117`` or ``32, 40``), its
    net ``changes`` per seat (``+16 +16 -48 +16``) and its ``payments`` (``2→0 16, 2→1 16``:
    payer→payee amount)."""

    rule: str
    source: str
    events: str
    changes: str
    payments: str


def breakdown(report: ReportedScore) -> tuple[BreakdownRow, ...]:
    """``report``'s computed changes by rule item (:func:`by_rule`), as rows; () when nothing
    was computed or itemized."""
    if report.computed_changes is None or not report.computed_payments:
        return ()
    return payments_breakdown(report.computed_payments, report.computed_changes)


def payments_breakdown(payments: Sequence[SettledPayment], changes: Sequence[int]) -> tuple[BreakdownRow, ...]:
    """``payments`` (making up ``changes``, points per seat 0..3) by rule item (:func:`by_rule`),
    as rows — e.g. an exhaustive draw's settlement (replayer.audit.DrawAudit); () when there
    are no payments and ``changes`` are all 0."""
    rows = []
    for share in by_rule(payments, changes):
        seqs = sorted({sp.seq for sp in share.payments})
        rows.append(BreakdownRow(
            share.rule, share.source or "–", ", ".join(str(s) for s in seqs) or "–",
            " ".join(f"{x:+d}" for x in share.changes),
            ", ".join(f"{sp.payment.payer}→{sp.payment.payee} {sp.payment.amount}" for sp in share.payments) or "–"))
    return tuple(rows)


class HandSettlement(NamedTuple):
    """What one hand of the game settled: the ``hand`` (its :class:`HandResult`), its net
    ``changes`` per seat 0..3 (points: every score-log entry from its hand_started to the next
    hand's) and their ``payments``, each with its rule item and source."""

    hand: HandResult
    changes: tuple[int, int, int, int]
    payments: tuple[SettledPayment, ...]


def by_hand(state: TableState) -> tuple[HandSettlement, ...]:
    """The game's computed score changes (``state.score_log``) hand by hand (``state.hands``,
    in order); () when a hand's first event is unknown (``HandResult.start_seq`` -1)."""
    hands = state.hands
    if not hands or any(h.start_seq < 0 for h in hands):
        return ()
    out = []
    for i, h in enumerate(hands):
        end = hands[i + 1].start_seq if i + 1 < len(hands) else None
        changes, paid = entries_settled(e for e in state.score_log
                                        if e.seq >= h.start_seq and (end is None or e.seq < end))
        out.append(HandSettlement(h, changes, paid))
    return tuple(out)


def _hand(h: HandResult) -> str:
    return f"hand {h.hand_number + 1}"


def final_scores_words(state: TableState) -> tuple[str, tuple[str, ...]]:
    """Where reported final scores that disagree with ``state.scores`` part from the computed
    ones, on one line, with the rule sections behind it (:func:`bare_source`): the hands' own
    score reports that disagree (``hand 2's reported changes disagree (event 57: reported [..],
    computed [..])``) when there are any; else the computed changes by hand and rule item
    (``computed by hand: hand 1 [+20, +11, -48, +17] (huazhu … ; chajiao …)``), each hand's net
    changes only when that is longer than a line, as many as a line holds. ("", ()) when the
    game has no hand."""
    bad = [(h, r) for h in state.hands for r in h.reported if not r.agrees]
    if bad:
        parts = [f"{_hand(h)}'s reported changes disagree (event {r.seq}: reported "
                 f"{_plain(r.score_changes)}, computed {_plain(r.computed_changes)})" for h, r in bad]
        sources: dict[str, None] = {}
        for _, r in bad:
            _parts_of(r.computed_payments, sources)
        line = "where: " + "; ".join(parts)
        if len(line) > ONE_LINE:
            line = (f"{len(bad)} hands' reported changes disagree: "
                    + ", ".join(f"{_hand(h)} (event {r.seq})" for h, r in bad))
        return line + " (each a reported_score_mismatch finding naming its rules)", tuple(sources)
    hands = by_hand(state)
    if not hands:
        return "", ()
    agreed = any(h.reported for h in state.hands)
    head = ("every hand's reported changes agree; " if agreed else "") + "computed by hand: "
    full, nets = [], []
    seen: dict[str, None] = {}
    for hs in hands:
        shares = by_rule(hs.payments, hs.changes)
        _parts_of(hs.payments, seen)
        net = f"{_hand(hs.hand)} {_signed(hs.changes)}"
        nets.append(net)
        full.append(net + (" (" + "; ".join(rule_words(x, short=True) for x in shares) + ")" if shares else ""))
    line = head + "; ".join(full)
    if len(line) > ONE_LINE:
        line = head + "; ".join(nets)
    if len(line) > ONE_LINE:
        kept: list[str] = []
        for net in nets:
            if len(head) + len("; ".join(kept + [net])) > ONE_LINE - 40:
                break
            kept.append(net)
        line = head + "; ".join(kept) + f"; … ({len(nets) - len(kept)} more hands)"
    return line, tuple(seen)


def _plain(v: Sequence[int] | None) -> str:
    return "–" if v is None else "[" + ", ".join(str(x) for x in v) + "]"
