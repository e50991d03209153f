"""``paipu rulesets``: every ruleset and preset the registry knows (replayer/rules/catalog.py),
with the city names of the presets; ``paipu rulesets NAME`` shows one ruleset's or preset's
options with values, meanings and rule sources (the same data as docs/rulesets.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from paipu.cli.console import say
from paipu.cli.errors import CliError
from paipu.cli.root import command

__all__ = ["rulesets_cmd"]


@command("rulesets")
def rulesets_cmd(
    name: Annotated[str | None, typer.Argument(help="A ruleset or preset id: show its options.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """List the rulesets and their presets, or show one with every option's value, meaning
    and rule source.

    Presets are variants as data, e.g. the Jiangxi cities over nanchang; with --json each
    ruleset's options are listed too. A preset id works wherever a ruleset id does (simulate
    --ruleset, a log's game_started, score --vectors "preset").

    With --json each option has "type" (its JSON type: string, integer, boolean, array,
    object; "integer | null" when it may be null), "allowed" (the values of a fixed set, else
    null) and "schema" (its JSON Schema)."""
    from replayer.rules.catalog import ruleset_docs

    docs = ruleset_docs()

    def plain(text: str):
        return None if text == "(required)" else json.loads(text)

    def option_rows(doc, values: dict) -> list[dict]:
        # "type": the JSON type of the values ("string", "integer", "integer | null" …, never a
        # Python annotation); "allowed": the values of a fixed set, else null; "schema": JSON Schema
        return [{"option": o.name, "type": o.json_type, "allowed": o.allowed, "schema": o.schema,
                 "default": plain(o.default), "value": values.get(o.name, plain(o.default)),
                 "meaning": o.meaning, "source": o.source}
                for o in doc.options]

    if name is None:
        if as_json:
            say(json.dumps([{"id": d.id, "description": d.description, "options": option_rows(d, {}),
                             "presets": [{"id": p.name, "title": p.title, "spec_confidence": p.spec_confidence,
                                          "options": p.options} for p in d.presets]} for d in docs],
                           ensure_ascii=False))
            return
        for d in docs:
            say(f"{d.id}  {d.description}")
            for p in d.presets:
                conf = f"  (spec confidence: {p.spec_confidence})" if p.spec_confidence else ""
                say(f"  {p.name:28} {p.title}{conf}")
        say("paipu rulesets NAME: the options of one; docs/rulesets.md: all of them")
        return
    doc = next((d for d in docs if d.id == name), None)
    preset = next((p for d in docs for p in d.presets if p.name == name), None)
    if doc is None and preset is not None:
        doc = next(d for d in docs if d.id == preset.base)
    if doc is None:
        known = list(dict.fromkeys([d.id for d in docs] + [p.name for d in docs for p in d.presets]))
        raise CliError(f"unknown ruleset or preset {name!r} (known: {', '.join(known)})")
    values = preset.options if preset is not None else {}
    rows = option_rows(doc, values)
    if as_json:
        say(json.dumps({"id": name, "base": doc.id, "title": preset.title if preset else "",
                        "options": rows}, ensure_ascii=False))
        return
    say(f"{name}" + (f"  {preset.title} — preset over {doc.id} ({preset.source})" if preset else f"  {doc.description}"))
    for r in rows:
        mark = "*" if r["option"] in values else " "
        kind = ("one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in r["allowed"])
                if r["allowed"] is not None else r["type"])
        say(f" {mark}{r['option']} = {json.dumps(r['value'], ensure_ascii=False)} ({kind})  — "
            f"{r['meaning'].replace('``', '')}" + (f"  [{r['source']}]" if r["source"] else ""))
    if preset is not None:
        say("* set by the preset; every other option keeps the default of " + doc.id)
