"""The dispute package: one self-contained HTML page about one game that a third party can
read offline (``paipu dispute GAME_ID --out FILE.html``).

It holds, with no link to anything outside the file: the game (ruleset, options, players);
the hash chain — each event's ``prev_hash`` / ``hash``, the verdict, the command that
re-checks it on a paipu store (``paipu verify GAME_ID``), a stdlib-only Python script that
re-computes it from the events embedded in the page (downloadable as JSON Lines, the
``paipu read GAME_ID --json`` form) and a button that re-computes it in the browser
(SHA-256 of ``prev_hash + "\\n" + body`` over each event's canonical body,
eventlog/hashing.py); every finding with its rule source; the referee's penalties and rulings
beside the events they rule on; computed versus reported fans and scores for each win; the
what-if results (replayer/whatif.py) with the differences marked and their rule sources; every
event in plain words. Pure functions of their inputs: the same game gives the same bytes (no
clock, no randomness).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from eventlog.describe import describe_event, describe_words, hand_ordinal
from eventlog.hashing import chain_body_text, canonical_text
from replayer.itemized import breakdown, payments_breakdown
from replayer.rules.base import ruleset_words_of, score_unit_of
from dashboard.tiles import CSS as TILE_CSS
from dashboard.tiles import tiles_html

__all__ = ["dispute_html", "RECHECK_SCRIPT"]

#: Re-computes the chain of a ``paipu read GAME_ID --json`` file with the standard library only.
RECHECK_SCRIPT = '''import hashlib, json, sys

prev = "0" * 64  # prev_hash of seq 0
for n, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    e = json.loads(line)
    body = {k: e[k] for k in ("event_id", "game_id", "metadata", "payload", "recorded_at",
                              "schema_version", "seq", "type")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    h = hashlib.sha256((prev + "\\n" + text).encode()).hexdigest()
    if e["seq"] != n or e["prev_hash"] != prev or e["hash"] != h:
        sys.exit(f"BROKEN at event {n}")
    prev = h
print(f"intact: {n + 1} events, last hash {prev}")
'''

_PAGE_CSS = """<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;
  margin:1.5em auto;max-width:1150px;padding:0 1em;color:#222}
h1{font-size:1.5em} h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}
table{border-collapse:collapse;margin:.4em 0 1em 0;font-size:.9em}
th,td{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f3f3}
tr.diff td,td.diff{background:#fff1c2}
.ok{color:#1a7f37;font-weight:600} .bad{color:#b00;font-weight:600}
code,pre{background:#f6f6f6;border-radius:4px} pre{padding:8px;overflow-x:auto;font-size:.85em}
.mono{font-family:monospace;font-size:.85em}
.note{color:#555;font-size:.9em}
</style>"""

_JS = """<script>
async function ppRecheck(){
  const out = document.getElementById('pp-recheck-result');
  const evs = JSON.parse(document.getElementById('pp-chain').textContent);
  let prev = '0'.repeat(64);
  for (let i = 0; i < evs.length; i++) {
    const e = evs[i];
    const buf = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(prev + '\\n' + e.body));
    const h = Array.from(new Uint8Array(buf)).map(b => b.toString(16).padStart(2, '0')).join('');
    const b = JSON.parse(e.body);
    if (b.seq !== i || e.prev_hash !== prev || e.hash !== h) {
      out.textContent = 'BROKEN at event ' + i; out.className = 'bad'; return;
    }
    prev = h;
  }
  out.textContent = 'intact: ' + evs.length + ' events, last hash ' + prev; out.className = 'ok';
}
</script>"""


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x))


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], *, diff: Sequence[bool] | None = None,
           raw: bool = False) -> str:
    out = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"]
    for i, r in enumerate(rows):
        cls = ' class="diff"' if diff is not None and diff[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{c if raw else _e(c)}</td>" for c in r) + "</tr>")
    return "".join(out) + "</table>"


def _changes(v: Sequence[int] | None) -> str:
    return "–" if v is None else " ".join(f"{x:+d}" for x in v)


def _body(e: Any) -> str:
    """The hashed body of a stored event (eventlog/hashing.py, as eventlog.events.expected_hash)."""
    return chain_body_text(game_id=e.game_id, seq=e.seq, event_id=e.event_id, type_=e.type,
                           schema_version=e.schema_version, payload_text=canonical_text(e.payload_json()),
                           metadata_text=canonical_text(e.metadata), recorded_at=e.recorded_at)


def _script_json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def _chain_section(game_id: str, events: Sequence[Any], chain: Any) -> str:
    verdict = (f'<p class="ok">Intact: {chain.events} events; every seq is dense, every prev_hash links and every '
               "hash re-computes.</p>" if chain.ok else
               f'<p class="bad">BROKEN at event {_e(chain.first_bad_seq)}: {_e(chain.reason)}</p>'
               + (f"<p>Only the {len(events)} events before it (seq 0–{len(events) - 1}) re-hash and link: they are "
                  "the ones listed here and trusted; the later ones are not shown and the game is not replayed.</p>"
                  if events else "<p>No event is trusted: none is shown and the game is not replayed.</p>"))
    lines = "\n".join(json.dumps(e.model_dump_json_dict(), ensure_ascii=False, sort_keys=True) for e in events)
    href = "data:application/x-ndjson;charset=utf-8," + _quote(lines + "\n")
    chain_data = [{"seq": e.seq, "prev_hash": e.prev_hash, "hash": e.hash, "body": _body(e)} for e in events]
    rows = [(e.seq, e.type, e.prev_hash[:16] + "…", e.hash[:16] + "…") for e in events]
    return (
        "<h2>Hash chain</h2>" + verdict
        + "<p>Re-check it on a paipu store holding the game: "
        + f"<code>paipu verify {_e(game_id)}</code> (exit 0: intact and no finding; 1: intact, findings; "
        + "3: broken). Or offline: save the events "
        + f'(<a download="{_e(game_id)}.jsonl" href="{href}">{_e(game_id)}.jsonl</a>, the '
        + f"<code>paipu read {_e(game_id)} --json</code> form) and run this with any Python 3 "
        + f"(<code>python3 recheck.py {_e(game_id)}.jsonl</code>):</p>"
        + f"<pre>{_e(RECHECK_SCRIPT)}</pre>"
        + '<p><button onclick="ppRecheck()">Re-compute the chain in this browser</button> '
        + '<span id="pp-recheck-result" class="note">(SHA-256 of prev_hash, a newline and each event\'s '
        + "canonical body)</span></p>"
        + f'<script type="application/json" id="pp-chain">{_script_json(chain_data)}</script>'
        + "<details><summary>Every event's hashes</summary>"
        + _table(("seq", "type", "prev_hash", "hash"), rows) + "</details>"
    )


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _findings_section(audit: Any) -> str:
    if audit is None:
        return "<h2>Findings</h2><p>The chain is broken: the events were not replayed.</p>"
    if not audit.findings:
        return f'<h2>Findings (0)</h2><p class="ok">No finding: every event follows the rules of {_e(audit.ruleset)}.</p>'
    rows = [(f.seq, hand_ordinal(f.hand_number), f.seat, f.rule_id, f.message, f.source) for f in audit.findings]
    return (f"<h2>Findings ({len(rows)})</h2>"
            + _table(("event", "hand", "seat", "rule", "what", "rule source"), rows))


def _rulings_section(events: Sequence[Any]) -> str:
    by_seq = {e.seq: e for e in events}
    ruled = [e for e in events if e.type in ("referee_ruling", "penalty")]
    if not ruled:
        return "<h2>Penalties and rulings (0)</h2><p>No penalty or referee ruling in this game.</p>"
    rows = []
    for e in ruled:
        p = e.payload
        ref = getattr(p, "ref_seq", None)
        on = "–" if ref is None else (f"event {ref}: {describe_event(by_seq[ref])}" if ref in by_seq
                                      else f"event {ref} (not in the game)")
        rows.append((e.seq, getattr(p, "kind", "penalty"), on, getattr(p, "rule", ""),
                     getattr(p, "ruling", None) or getattr(p, "reason", ""),
                     _changes(getattr(p, "score_changes", None))))
    return (f"<h2>Penalties and rulings ({len(rows)})</h2>"
            + _table(("event", "kind", "rules on", "rule", "decision", "score changes"), rows))


def _scores_section(audit: Any, events: Sequence[Any]) -> str:
    if audit is None:
        return ""
    out = [f"<h2>Scores: computed versus reported ({len(audit.wins)} wins)</h2>"]
    if audit.reported:
        rows = [(r.seq, "–" if r.winner is None else r.winner, _changes(r.score_changes), _changes(r.computed_changes),
                 _e(r.total), _e(r.computed_total),
                 "✗ differs" if not r.agrees else (f"? cannot be checked: {r.unverifiable}" if r.unverifiable else "✓"))
                for r in audit.reported]
        out.append("<p>Every score the source reported, against the computed one:</p>"
                   + _table(("event", "winner", "reported changes", "computed changes", "reported total",
                             "computed total", "agrees"), rows, diff=[not r.agrees for r in audit.reported]))
        for r in audit.reported:
            out.append(_breakdown_section(r))
    else:
        out.append("<p>The source reported no scores for this game: nothing to compare.</p>")
    if not audit.wins:
        out.append(f"<p>{_e(audit.no_win_words)}</p>")
    for d in audit.exhaustive_draws:
        out.append(_draw_section(d))
    hands = _win_hands(events, audit)
    for w in audit.wins:
        how = "self-drawn" if w.self_drawn else f"on the discard of seat {w.from_seat}"
        agree = w.fans_agree is not False and w.score_agrees is not False
        verdict = ("nothing reported to compare" if w.reported is None else
                   "agrees with the source" if agree else "DIFFERS from the source")
        out.append(f"<h3>Hand {_e(hand_ordinal(w.hand_number))}, event {w.seq}: seat {w.seat} wins on {_e(w.tile)} ({how}) — "
                   f'{_e(w.computed_words_in(score_unit_of(audit.ruleset)))}, <span class="{"ok" if agree else "bad"}">{verdict}</span></h3>')
        if w.seq in hands:
            out.append(hands[w.seq])
        rep = {n: (p, c) for n, p, c in w.reported_fans}
        fan_rows = [(f.name_en, f.name_zh, f"{f.value} × {f.count}") for f in w.fans]
        out.append(_table(("fan", "中文", "computed"), fan_rows))
        if w.reported_fans:
            out.append("<p>Reported fans: " + _e(", ".join(f"{n}" + (f" {p}" if p is not None else "") + f" × {c}"
                                                         for n, (p, c) in rep.items())) + "</p>")
        rc = w.reported.score_changes if w.reported is not None else None
        rt = w.reported.total if w.reported is not None else None
        out.append(_table(("", "total", "score changes by seat"),
                          [("computed", _e(w.points), _changes(w.changes)), ("reported", _e(rt), _changes(rc))],
                          diff=[False, w.reported is not None and not agree]))
    return "".join(out)


def _breakdown_section(r: Any) -> str:
    """The computed changes of the report ``r`` by rule item, each with its rule source
    (replayer/itemized.py): the rule that decides a disputed payment; "" when none."""
    rows = breakdown(r)
    if not rows:
        return ""
    verdict = "agrees with" if r.agrees else "DIFFERS from"
    return (f"<h3>Event {r.seq}: the computed changes {_e(_changes(r.computed_changes))} by rule "
            f"({verdict} the reported {_e(_changes(r.score_changes))})</h3>"
            + _table(("rule", "rule source", "settled at event", "changes by seat", "payments (payer→payee amount)"),
                     rows))


def _draw_section(d: Any) -> str:
    """A hand that ended in an exhaustive draw (replayer.audit.DrawAudit): what the ruleset's
    draw settlement paid, by rule item with each rule's source (replayer/itemized.py)."""
    rows = payments_breakdown(d.payments, d.changes)
    return (f"<h3>{_e(d.title)}</h3>"
            + (_table(("rule", "rule source", "settled at event", "changes by seat", "payments (payer→payee amount)"),
                      rows) if rows else ""))


def _win_hands(events: Sequence[Any], audit: Any) -> dict[int, str]:
    st = audit.state
    out = {}
    for w in st.wins:
        ctx = w.context
        if ctx is None:
            continue
        melds = " ".join("".join(m.tiles) for m in ctx.melds)
        concealed = list(ctx.concealed)
        out[w.seq] = (tiles_html(concealed + [ctx.tile], classes=[""] * len(concealed) + ["win"])
                      + (f'<p class="note">declared sets: {_e(melds)}</p>' if melds else ""))
    return out


def _whatif_section(whatifs: Sequence[Any], failed: Sequence[tuple[str, str]] = ()) -> str:
    out = [f"<h2>What-if scoring ({len(whatifs)})</h2>",
           '<p class="note">The same events re-scored under another ruleset, preset or option; rows that differ '
           "are highlighted, each with the rule it comes from.</p>"]
    if not whatifs and not failed:
        out.append("<p>No alternative asked for.</p>")
    for name, why in failed:
        out.append(f'<p class="bad">As {_e(name)}: not re-scored — {_e(why)}</p>')
    for w in whatifs:
        title = f"{w.ruleset_after} " + json.dumps(w.options_after, ensure_ascii=False, sort_keys=True)
        out.append(f"<h3>As {_e(title)} — " + ('<span class="bad">differs</span>' if w.differs else
                                                '<span class="ok">same result</span>') + "</h3>")
        if w.option_changes:
            out.append(_table(("option", "this game", "what-if", "meaning", "rule source"),
                              [(c.name, c.before, c.after, c.meaning, c.source) for c in w.option_changes]))
        rows, diff = [], []
        for x in w.wins:
            reasons = "; ".join(f"{r[0]}: {r[1]} ({r[2]})" for r in x.reasons_after if r[0] != "reported_score_mismatch")
            rows.append((x.seq, x.seat, x.tile, "yes" if x.legal_before else "no", "yes" if x.legal_after else "no",
                         _e(score_unit_of(w.ruleset_before).amount(x.points_before)),
                         _e(score_unit_of(w.ruleset_after).amount(x.points_after)), _changes(x.changes_before),
                         _changes(x.changes_after), reasons or "–"))
            diff.append(x.differs)
        if rows:
            out.append(_table(("win event", "seat", "tile", "legal", "legal (what-if)", "total", "total (what-if)",
                               "changes", "changes (what-if)", "why (what-if)"), rows, diff=diff))
        fans = [(x.seq, d.name_en, d.name_zh, d.before or "–", d.after or "–", d.source) for x in w.wins for d in x.fans]
        if fans:
            out.append(_table(("win event", "fan", "中文", "this game", "what-if", "rule source"), fans,
                              diff=[True] * len(fans)))
        extra = [(f.seq, f.rule_id, f.message, f.source) for f in w.findings_only_after
                 if f.rule_id != "reported_score_mismatch"]
        if extra:
            out.append("<p>Findings under the what-if ruleset only:</p>"
                       + _table(("event", "rule", "what", "rule source"), extra, diff=[True] * len(extra)))
        finals = [("this game", _changes(w.scores_before)), ("what-if", _changes(w.scores_after))]
        if w.start_after is not None:  # another ruleset starts from its own scores
            finals.append((f"what-if start ({w.ruleset_after}'s own)", _changes(w.start_after)))
        out.append(_table(("", "final scores"), finals,
                          diff=[False, w.scores_before != w.scores_after] + [False] * (len(finals) - 2)))
    return "".join(out)


def _events_section(events: Sequence[Any], audit: Any) -> str:
    marks: dict[int, list[str]] = {}
    for f in (audit.findings if audit is not None else ()):
        marks.setdefault(f.seq, []).append(f.rule_id)
    first = events[0] if events else None  # the game's ruleset names its units and items
    words = ruleset_words_of(first.payload.ruleset if first is not None and first.type == "game_started" else None)
    rows = []
    for e, state in zip(events, _states_after(events)):
        en, zh = describe_words(e, state, words)
        rows.append((e.seq, en, zh, describe_event(e), ", ".join(marks.get(e.seq, ()))))
    return (f"<h2>Events ({len(rows)})</h2>"
            + _table(("seq", "event", "中文", "as recorded", "finding"), rows,
                     diff=[bool(marks.get(e.seq)) for e in events]))


def _states_after(events: Sequence[Any]) -> list[Any]:
    """The table after each event (audit-mode replay), for plain words that name seats by
    wind and say whose discard a claim took; None for every event when the game cannot be
    replayed (the words then name seats by number)."""
    from eventlog.errors import PaipuError
    from replayer.replay import replay

    try:
        return [step.state for step in replay(events, mode="audit")]
    except PaipuError:  # e.g. an unknown ruleset: the package is still written
        return [None] * len(events)


def dispute_html(events: Sequence[Any], chain: Any, audit: Any, whatifs: Sequence[Any] = (),
                 failed: Sequence[tuple[str, str]] = ()) -> str:
    """The dispute page of one game: ``events`` (stored events in seq order; when the chain is
    broken, only those before its first bad seq — the trusted ones), ``chain``
    (eventlog.verify.ChainReport), ``audit`` (replayer.audit.GameAudit, None when the chain is
    broken), ``whatifs`` (replayer.whatif.WhatIf results), ``failed``: (ruleset, why) of the
    what-ifs that could not be made. Returns the whole HTML document."""
    game_id = chain.game_id
    start = next((e for e in events if e.type == "game_started"), None)
    info = []
    if start is not None:
        p = start.payload
        info = [("ruleset", p.ruleset), ("options", json.dumps(p.ruleset_options, ensure_ascii=False, sort_keys=True)),
                ("players", ", ".join(f"seat {i}: {n}" for i, n in enumerate(p.players)))]
    if audit is not None:
        info += [("hands", audit.hands), ("wins", len(audit.wins)), ("exhaustive draws", audit.draws),
                 ("findings", len(audit.findings)), ("final scores", _changes(audit.state.scores))]
    return "".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        f"<title>Dispute package — {_e(game_id)}</title>", _PAGE_CSS, TILE_CSS, _JS, "</head><body>",
        f"<h1>Dispute package 争议材料 — game <code>{_e(game_id)}</code></h1>",
        '<p class="note">Made by paipu from the game\'s event log. Everything on this page is computed from '
        "the events below by the game's ruleset; it reads offline and needs nothing else.</p>",
        _table(("game", ""), info),
        _chain_section(game_id, events, chain),
        _findings_section(audit),
        _rulings_section(events),
        _scores_section(audit, events),
        _whatif_section(whatifs, failed),
        _events_section(events, audit),
        "</body></html>\n",
    ])
