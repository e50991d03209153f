"""Every section a ruleset cites — in its findings' rule sources, its options' sources and its
winning shapes' sources (what ``paipu verify``, ``paipu rulesets`` and ``paipu review``
print) — exists in the rules text it names (docs/reference/rules/*.md: a heading ``## 5.``,
``### 5.1``, ``## A6.``, or a numbered item ``13.`` under one, as in ``§12.13``), and names
what it is cited for: of the words in brackets after a cite, some appear in the cited
sections' text (a Chinese term, compared by two-character pieces, or an English word of four
letters or more)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from replayer.rules import base, catalog
from replayer.rules.base import get_ruleset
from replayer.state import TableState

RULES = Path(__file__).resolve().parents[2] / "docs" / "reference" / "rules"
RULESETS = ("mcr", "cjm_chips", "sichuan", "changsha", "nanchang")
_HEAD = re.compile(r"(#+)\s+(?:Part [AB] — )?([A-Z]?\d+(?:\.\d+)*)\.?\s")
_CITES = re.compile(r"(?:§\s?|Part )([A-Z]?\d+(?:\.\d+)*)(?:[–-]([A-Z]?\d+(?:\.\d+)*))?")
# a run of cites and the words in brackets after it: "§2 (缺一门, 定缺)", "§4, §8.17 (…)"
_RUN = re.compile(r"((?:(?:§\s?|Part )[A-Z]?\d+(?:\.\d+)*(?:[–-][A-Z]?\d+(?:\.\d+)*)?[,\s]*)+)\(([^()]*)\)")
_COMMON = {"with", "that", "this", "from", "each", "only", "when", "they", "their", "more", "than", "none",
           "also", "after", "before", "into", "have", "must", "same", "other", "rules", "rule", "default", "option"}


def _sections(md: Path) -> dict[str, str]:
    """Section number → its text: a heading's with what it holds (subsections included), a
    numbered item's line."""
    lines = md.read_text(encoding="utf-8").splitlines()
    heads = [(i, len(m.group(1)), m.group(2)) for i, ln in enumerate(lines) if (m := _HEAD.match(ln))]
    out: dict[str, str] = {}
    for k, (i, level, sec) in enumerate(heads):
        end = next((j for j, lv, _ in heads[k + 1:] if lv <= level), len(lines))
        out[sec] = "\n".join(lines[i:end])
        own_end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        for ln in lines[i + 1:own_end]:
            m = re.match(r"(\d+)\.\s", ln)
            if m:
                out.setdefault(f"{sec}.{m.group(1)}", ln)
    return out


DOCS = {p.name: _sections(p) for p in sorted(RULES.glob("*.md"))}


def _sources(ruleset: str) -> list[str]:
    """What the ruleset cites: its rule ids' sources, its options' sources and its winning
    shapes' sources (each once, in order)."""
    rs = get_ruleset(ruleset)
    play = importlib.import_module(f"replayer.rules.{ruleset}.play")
    out = [rs.rule_source(k) for k in (*getattr(play, "SOURCES", {}), *base.MECHANICS_SOURCES)]
    out += [o.source for d in catalog.ruleset_docs() if d.id == ruleset for o in d.options]
    out += list(rs.winning_shapes(TableState(), 0).sources)
    return list(dict.fromkeys(s for s in out if s))


def _cites(source: str):
    """(rules file, the cited sections, the words in brackets after them) of each run of
    cites in ``source``; a part (between ``;``) that names no file keeps the last one named,
    and cites of the seeds themselves ("seed 000 §38") are not the rules text's."""
    doc = None
    for part in re.split(r";\s*", source):
        m = re.search(r"(\w+)\.md", part)
        if m:
            doc = f"{m.group(1)}.md"
        elif re.search(r"\bseed\b", part):
            continue
        if doc not in DOCS:
            continue
        for run in _RUN.finditer(part):
            yield doc, [s for c in _CITES.finditer(run.group(1)) for s in c.groups() if s], run.group(2)
        bare = _RUN.sub("", part)
        secs = [s for c in _CITES.finditer(bare) for s in c.groups() if s]
        if secs:
            yield doc, secs, ""


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_cited_section_exists(ruleset):
    cited = [(src, doc, sec) for src in _sources(ruleset) for doc, secs, _ in _cites(src) for sec in secs]
    assert len(cited) >= 10  # the ruleset's sources were read
    missing = [c for c in cited if c[2] not in DOCS[c[1]]]
    assert not missing, missing


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_cited_section_names_what_it_is_cited_for(ruleset):
    wrong = []
    for src in _sources(ruleset):
        for doc, secs, words in _cites(src):
            cjk = [t[i:i + 2] for t in re.findall(r"[\u4e00-\u9fff]{2,}", words) for i in range(len(t) - 1)]
            latin = [w.lower() for w in re.findall(r"[A-Za-z]{4,}", words) if w.lower() not in _COMMON]
            text = "\n".join(DOCS[doc].get(s, "") for s in secs)
            if (cjk or latin) and not any(t in text for t in cjk) and not any(w in text.lower() for w in latin):
                wrong.append((doc, secs, words))
    assert not wrong, wrong


def test_sichuan_winning_shapes_are_section_5_1():
    """sichuan.md §5.1 "Shapes" holds the winning shapes (四 sets + a pair, 七对); §4 is the
    血战 flow (what ``paipu review`` printed as the shapes' source)."""
    (src,) = get_ruleset("sichuan").winning_shapes(TableState(), 0).sources
    cited = [s for doc, secs, _ in _cites(src) for s in secs]
    assert "5.1" in cited and "4" not in cited
    assert DOCS["sichuan.md"]["5.1"].startswith("### 5.1 Shapes")
