"""Dispute review page: everything ``paipu verify GAME`` checks, for one game
(shared/DESIGN.md §5 verification, §6 findings, §4 reported scores).

The hash-chain check (eventlog.verify), every finding of the audit replay with its event,
rule and the rule's source section, the computed versus the reported fans and scores side
by side (replayer.audit), and each winning hand with every fan and the tiles it was
counted on. Read-only; ``?game=ID`` selects the game.
"""

from __future__ import annotations

import html
import shlex

import pandas as pd
import streamlit as st

from dashboard import data as D
from dashboard.common import game_links, need_games, read_game_log, start_page
from dashboard.tiles import meld_html, tile_html, tiles_html
from eventlog.describe import hand_ordinal
from replayer.audit import fan_keys
from replayer.itemized import breakdown, payments_breakdown
from replayer.rules.base import score_unit_of

PAGE = "views/dispute.py"


def _cell(v: object) -> object:
    """A score for a table cell: as text when beyond 64 bits (a number stored before the ranges
    were checked, docs/events.md "Number ranges"), which no Arrow column holds; a column with
    such a cell is a text column (pandas: object), so every cell of it shows as written."""
    return str(v) if isinstance(v, int) and not -(2**63) <= v < 2**63 else v
ss = st.session_state

data = start_page("Dispute review")
log_v, games = need_games(data)
ids = [g["game_id"] for g in games]

qp = st.query_params
link = qp.get("game")
if link != ss.get("dp_link"):
    ss.dp_link = link
    if link is not None:
        if link not in ids:
            st.error(f"There is no game `{link}` in `{D.log_name(data)}`. Pick one of these games:")
            game_links(games, PAGE)
            st.stop()
        ss.dp_game = link
if ss.get("dp_game") not in ids:
    ss.dp_game = ids[0]

game_id = st.selectbox("Game", ids, key="dp_game")
if qp.get("game") != game_id:
    qp.clear()
    qp["game"] = game_id
ss.dp_link = game_id

review = read_game_log(game_id, D.game_review, str(data), log_v, game_id, verb="checked")
chain = review.chain

# ---- hash chain
st.subheader("Hash chain")
if chain.ok:
    st.success(f"Intact: {chain.events} events, every seq dense, every prev_hash links, every "
               "hash re-computes, and the chain ends where the store's stream record says.")
else:
    st.error(f"BROKEN at event {chain.first_bad_seq}: {chain.reason} ({chain.events} events stored)")
    st.warning(review.audit_error)
    st.stop()

audit = review.audit
steps = read_game_log(game_id, D.game_steps, str(data), log_v, game_id, verb="replayed or checked")
c = st.columns(5)
c[0].metric("events", audit.events)
c[1].metric("hands", audit.hands)
c[2].metric("wins", len(audit.wins))
c[3].metric("exhaustive draws", audit.draws)
c[4].metric("findings", len(audit.findings))

# ---- findings
st.subheader(f"Findings ({len(audit.findings)})")
if not audit.findings:
    st.success(f"No finding: every event of this game follows the rules of its ruleset ({audit.ruleset}).")
else:
    st.dataframe(
        pd.DataFrame(
            [
                {"event": f.seq, "hand": hand_ordinal(f.hand_number), "seat": f.seat, "rule": f.rule_id,
                 "what": f.message, "rule source": f.source}
                for f in audit.findings
            ]
        ),
        hide_index=True, width="stretch",
    )
    for f in audit.findings:
        st.page_link("views/replay.py", label=f"▶ replay event {f.seq} ({f.rule_id})",
                     query_params={"game": game_id, "seq": str(f.seq)})

# ---- penalties and rulings, beside the events they rule on
ruled = [s for s in steps if s.event.type in ("referee_ruling", "penalty")]
st.subheader(f"Penalties and rulings ({len(ruled)})")
if not ruled:
    st.info("No penalty or referee ruling in this game.")
else:
    from eventlog.describe import describe_event

    by_seq = {s.event.seq: s.event for s in steps}

    def _on(p):
        ref = getattr(p, "ref_seq", None)
        if ref is None or ref not in by_seq:
            return "–" if ref is None else f"event {ref} (not in the game)"
        return f"event {ref}: {describe_event(by_seq[ref])}"

    st.dataframe(
        pd.DataFrame(
            [
                {"event": s.event.seq, "kind": getattr(s.event.payload, "kind", "penalty"),
                 "rules on": _on(s.event.payload), "rule": s.event.payload.rule,
                 "decision": getattr(s.event.payload, "ruling", None) or s.event.payload.reason,
                 "score changes": " ".join(f"{x:+d}" for x in (s.event.payload.score_changes or []))}
                for s in ruled
            ]
        ),
        hide_index=True, width="stretch",
    )

# ---- reported scores, as the source wrote them, against the computed ones
reported = [s.state.reported[-1] for s in steps if s.event.type == "score_reported" and s.state.reported]
st.subheader("Scores: computed versus reported")
if not reported:
    st.info("The source reported no scores for this game: nothing to compare.")
else:
    def _l(v):
        return "–" if v is None else " ".join(f"{x:+d}" for x in v)

    st.dataframe(
        pd.DataFrame(
            [
                {"event": r.seq, "winner": "–" if r.winner is None else str(r.winner),
                 "reported changes": _l(r.score_changes), "computed changes": _l(r.computed_changes),
                 "reported total": "–" if r.total is None else str(r.total),
                 "computed total": "–" if r.computed_total is None else str(r.computed_total),
                 "agrees": "✗ differs" if not r.agrees else ("? cannot be checked: " + r.unverifiable
                                                              if r.unverifiable else "✓")}
                for r in reported
            ]
        ),
        hide_index=True, width="stretch",
    )
    # the computed changes by rule item, each with its source: the rule a disputed payment turns on
    for r in reported:
        by_rule = breakdown(r)
        if by_rule:
            st.markdown(f"**Event {r.seq}: the computed changes {_l(r.computed_changes)} by rule** "
                        f"({'agrees with' if r.agrees else 'DIFFERS from'} the reported {_l(r.score_changes)})")
            st.dataframe(pd.DataFrame([{"rule": x.rule, "rule source": x.source, "settled at event": x.events,
                                        "changes by seat": x.changes, "payments (payer→payee amount)": x.payments}
                                       for x in by_rule]),
                         hide_index=True, width="stretch")

# ---- each win: fans side by side, score changes, the hand and the tiles of each fan
st.subheader(f"Wins ({len(audit.wins)})")
if not audit.wins:
    st.write(audit.no_win_words)
# each hand that ended in an exhaustive draw (流局/荒庄): its settlement by rule item, with sources
for d in audit.exhaustive_draws:
    st.markdown(f"**{d.title}**")
    draw_rows = payments_breakdown(d.payments, d.changes)
    if draw_rows:
        st.dataframe(pd.DataFrame([{"rule": x.rule, "rule source": x.source, "settled at event": x.events,
                                    "changes by seat": x.changes, "payments (payer→payee amount)": x.payments}
                                   for x in draw_rows]),
                     hide_index=True, width="stretch")
for w in audit.wins:
    how = "self-drawn" if w.self_drawn else f"on the discard of seat {w.from_seat}"
    verdict = ("agrees with the source" if w.fans_agree is not False and w.score_agrees is not False
               else "DIFFERS from the source")
    if w.reported is None:
        verdict = "nothing reported to compare"
    with st.expander(f"Hand {hand_ordinal(w.hand_number)}, event {w.seq}: seat {w.seat} wins on {w.tile} ({how}) — "
                     f"{w.computed_words_in(score_unit_of(audit.ruleset))}, {verdict}", expanded=True):
        comp: dict[str, dict] = {}
        line_key, reported_key, _known = fan_keys(w.fans)
        for f in w.fans:
            item = comp.setdefault(line_key(f), {"fan": f.name_en, "中文": f.name_zh,
                                                 "computed": f"{f.value} × {f.count}{f.note}", "_c": 0})
            item["_c"] += f.count
        rows = list(comp.values())
        by_key = {k: r for k, r in comp.items()}
        for name, pts, cnt in w.reported_fans:
            k = reported_key(name)
            r = by_key.get(k)
            if r is None:
                r = {"fan": "", "中文": "", "computed": "–"}
                by_key[k] = r
                rows.append(r)
            r["reported"] = f"{name}" + (f" {pts}" if pts is not None else "") + f" × {cnt}"
            r["_r"] = r.get("_r", 0) + cnt
        for r in rows:
            r.setdefault("reported", "–" if w.reported_fans else "(not reported)")
            r["same"] = "" if not w.reported_fans else ("✓" if r.get("_c") == r.get("_r") else "✗")
        left, right = st.columns([3, 2])
        with left:
            st.markdown("**Fans: computed | reported**")
            st.dataframe(pd.DataFrame(rows, columns=["fan", "中文", "computed", "reported", "same"]),
                         hide_index=True, width="stretch")
            rep_total = w.reported.total if w.reported is not None else None
            st.markdown(f"Total: computed **{w.points}**, reported **{'–' if rep_total is None else rep_total}**")
        with right:
            st.markdown("**Score changes by seat**")
            rep_changes = w.reported.score_changes if w.reported is not None else None
            st.dataframe(
                pd.DataFrame(
                    [
                        {"seat": i,
                         "computed": None if w.changes is None else w.changes[i],
                         "reported": None if rep_changes is None else rep_changes[i]}
                        for i in range(4)
                    ]
                ).map(_cell),
                hide_index=True, width="stretch",
            )
        win_state = next((s.state for s in steps if s.event.seq == w.seq), None)
        rec = next((x for x in (win_state.wins if win_state else ()) if x.seq == w.seq), None)
        ctx = rec.context if rec is not None else None  # the table's WinContext: the same for every ruleset
        if ctx is not None:
            melds = "".join(
                meld_html(m.tiles, m.kind if m.kong_kind is None else f"{m.kong_kind} kong",
                          claimed=m.claimed_tile)
                for m in ctx.melds
            )
            concealed = list(ctx.concealed)
            st.markdown(
                '<span class="pp-label">winning hand (concealed tiles + the winning tile)</span>'
                + tiles_html(concealed + [ctx.tile], classes=[""] * len(concealed) + ["win"])
                + (f'<span class="pp-label">declared sets</span><div class="pp-tiles">{melds}</div>' if melds else ""),
                unsafe_allow_html=True,
            )
        for f in w.fans:
            groups = "".join(
                f'<span class="pp-meld">{"".join(tile_html(t) for t in g)}</span>' for g in f.tiles
            ) or '<span class="pp-label">(a condition of the win, no tiles)</span>'
            st.markdown(
                f'<div><b>{html.escape(f.name_en)} {html.escape(f.name_zh)}</b> — {f.value} point'
                f'{"s" if f.value != 1 else ""}{f" × {f.count}" if f.count > 1 else ""}{html.escape(f.note)}'
                f'<div class="pp-tiles">{groups}</div></div>',
                unsafe_allow_html=True,
            )
        st.page_link("views/replay.py", label=f"▶ replay this win (event {w.seq})",
                     query_params={"game": game_id, "seq": str(w.seq)})

# ---- what-if scoring: the same events under another ruleset, preset or option
st.subheader("What-if scoring")
st.caption("The same events re-scored under another ruleset, preset or option, side by side with the "
           "game's own scoring; what differs is marked, with the rule it comes from (replayer/whatif.py).")
from replayer.rules.base import base_of, known_rulesets, presets  # noqa: E402
from replayer.rules.catalog import parse_option  # noqa: E402 - the one NAME=VALUE reader (as --option)
from replayer.whatif import WhatIf, what_if  # noqa: E402

own = audit.ruleset or ""
same_base = [n for n, (b, _o) in presets().items() if b == base_of(own) and n not in (own, base_of(own))]
choices = ["(the game's own ruleset)"] + same_base + [r for r in known_rulesets() if r not in same_base]
wc1, wc2 = st.columns([1, 2])
target = wc1.selectbox("Re-score as", choices, index=1 if same_base else 0, key=f"wi_as_{game_id}")
opt_text = wc2.text_input("Options (K=V, space-separated, quoted as in a shell where a value holds spaces; "
                          "e.g. knitted_straight_waits=false cjm_fan_values='{\"mixed_straight\": 8}')",
                          key=f"wi_opt_{game_id}")
wi: WhatIf | None
try:
    # shell-like words (shlex), as the same K=V typed after --option: a quoted JSON value may hold spaces
    try:
        words = shlex.split(opt_text)
    except ValueError as e:  # an unclosed quote
        raise ValueError(f"options {opt_text!r}: {e}") from None
    wi_opts = dict(parse_option(t) for t in words)
    wi = what_if([s.event for s in steps], None if target.startswith("(") else target, wi_opts)
except Exception as e:  # noqa: BLE001 - an unknown option or ruleset is said, not raised
    st.error(f"Cannot re-score: {e}")
    wi = None
if wi is not None:
    (st.warning if wi.differs else st.success)(
        f"As {wi.ruleset_after} {wi.options_after}: " + ("the result DIFFERS." if wi.differs else "the same result."))
    if wi.option_changes:
        st.dataframe(pd.DataFrame([{"option": c.name, "this game": c.before, "what-if": c.after,
                                    "meaning": c.meaning, "rule source": c.source} for c in wi.option_changes]),
                     hide_index=True, width="stretch")

    def _mark(df: pd.DataFrame, flags: list[bool]):
        return df.style.apply(lambda row: ["background-color: #fff1c2" if flags[row.name] else "" for _ in row], axis=1)

    rows = [{"win event": x.seq, "seat": x.seat, "tile": x.tile,
             "legal": "yes" if x.legal_before else "no", "legal (what-if)": "yes" if x.legal_after else "no",
             "total": score_unit_of(wi.ruleset_before).amount(x.points_before),
             "total (what-if)": score_unit_of(wi.ruleset_after).amount(x.points_after),
             "changes": " ".join(f"{v:+d}" for v in x.changes_before or ()) or "–",
             "changes (what-if)": " ".join(f"{v:+d}" for v in x.changes_after or ()) or "–",
             "why (what-if)": "; ".join(f"{r[0]}: {r[1]} ({r[2]})" for r in x.reasons_after
                                        if r[0] != "reported_score_mismatch") or "–"}
            for x in wi.wins]
    if rows:
        st.dataframe(_mark(pd.DataFrame(rows), [x.differs for x in wi.wins]), hide_index=True, width="stretch")
    fans = [{"win event": x.seq, "fan": d.name_en, "中文": d.name_zh, "this game": d.before or "–",
             "what-if": d.after or "–", "rule source": d.source} for x in wi.wins for d in x.fans]
    if fans:
        st.dataframe(_mark(pd.DataFrame(fans), [True] * len(fans)), hide_index=True, width="stretch")
    start = (f" (from {list(wi.start_after)}, the starting scores of {wi.ruleset_after})"
             if wi.start_after is not None else "")
    st.markdown(f"Final scores: this game **{list(wi.scores_before)}**, what-if **{list(wi.scores_after)}**{start}")

# ---- the whole page as one offline file
from dashboard.package import dispute_html  # noqa: E402

st.download_button("⬇ Dispute package (one offline HTML page)",
                   dispute_html([s.event for s in steps], chain, audit, [wi] if wi is not None else []),
                   file_name=f"{game_id}-dispute.html", mime="text/html")
