"""The CLI's checks of what a user says about a ruleset — its id, its named options
(``--option NAME=VALUE``, ``--options JSON``) and the tiles it plays with — each refused in one
line that names the flag and lists what would be accepted (from the registry: the options
model of the ruleset, replayer/rules/catalog.py; the tile set, ``PlayRules.tile_copies``).
No ruleset is named here."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from paipu.cli.errors import CliError

__all__ = ["parse_options", "options_error", "build_ruleset", "check_ruleset", "check_options", "check_tiles", "tile_set_words",
           "options_per_ruleset"]


def parse_options(texts: Iterable[str] | None, flag: str = "--option") -> dict[str, Any]:
    """Every ``--option NAME=VALUE`` of a command as a dict, read by the one parser every
    command and the dashboard share (:func:`replayer.rules.catalog.parse_option`: VALUE as
    JSON, else text); CliError naming ``flag`` for text that is not NAME=VALUE."""
    from replayer.findings import RulesetError
    from replayer.rules.catalog import parse_option

    out: dict[str, Any] = {}
    for text in texts or ():
        try:
            name, value = parse_option(text)
        except RulesetError as e:
            raise CliError(f"{flag} {e}") from None
        out[name] = value
    return out


def _known() -> list[str]:
    from replayer.rules.base import known_ids

    return known_ids()


def check_ruleset(ruleset_id: str, flag: str = "--ruleset") -> str:
    """``ruleset_id`` when the registry knows it (a ruleset or a preset); else CliError
    listing the known ones."""
    if ruleset_id not in _known():
        raise CliError(f"{flag} {ruleset_id}: unknown ruleset or preset (known: {', '.join(_known())}; "
                       "`paipu rulesets` describes them)")
    return ruleset_id


def _shown(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def _fits(value: Any, schema: Mapping[str, Any]) -> bool | None:
    """Does ``value`` fit the JSON type of ``schema``? None when the schema says too little
    to judge here (the ruleset's own check decides)."""
    alts = schema.get("anyOf")
    if alts:
        verdicts = [_fits(value, a) for a in alts]
        return True if any(verdicts) else None if None in verdicts else False
    kind = schema.get("type")
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    return None


def _docs(ruleset_id: str) -> dict[str, Any]:
    from replayer.rules.base import base_of, get_spec
    from replayer.rules.catalog import option_docs

    return {d.name: d for d in option_docs(get_spec(base_of(ruleset_id)).options_model)}


def check_options(ruleset_id: str, options: Mapping[str, Any], flag: str = "--option") -> None:
    """Refuse a value not of a listed option's type or not among its allowed values (listing
    them), as CliError naming ``flag``. Names the options model does not list, and values the
    schema cannot judge, are left to the ruleset's own check (:func:`build_ruleset`)."""
    if not options:
        return
    check_ruleset(ruleset_id)
    docs = _docs(ruleset_id)
    for name, value in options.items():
        doc = docs.get(name)
        if doc is None:
            continue
        if doc.allowed is not None and value not in doc.allowed:
            raise CliError(f"{flag} {name}={_shown(value)}: {name} is one of "
                           f"{', '.join(_shown(v) for v in doc.allowed)} (default {doc.default})")
        if doc.allowed is None and _fits(value, doc.schema) is False:
            raise CliError(f"{flag} {name}={_shown(value)}: {name} takes {doc.json_type.replace(' | null', ' or null')} "
                           f"values (default {doc.default})")


def build_ruleset(ruleset_id: str, options: Mapping[str, Any], flag: str = "--option",
                  ruleset_flag: str = "--ruleset") -> Any:
    """The ruleset ``ruleset_id`` (given with ``ruleset_flag``) bound to ``options`` (given
    with ``flag``; :func:`check_options` first). The
    ruleset's own refusal (e.g. a name it does not have) becomes a CliError naming ``flag``
    and listing the options ``paipu rulesets`` documents."""
    from replayer.findings import RulesetError
    from replayer.rules.base import get_ruleset

    check_ruleset(ruleset_id, ruleset_flag)
    check_options(ruleset_id, options, flag)
    try:
        return get_ruleset(ruleset_id, dict(options))
    except RulesetError as e:
        raise options_error(ruleset_id, options, e, flag) from None


def options_per_ruleset(ruleset_ids: list[str], options: Mapping[str, Any], flag: str = "--option",
                        ruleset_flag: str = "--as") -> dict[str, dict[str, Any]]:
    """The options each of several rulesets gets (given together with ``ruleset_flag``): with one
    ruleset, all of them (its own check refuses a name it lacks); with several, each option
    goes to the rulesets whose options model lists its name (``paipu rulesets NAME``) — the
    rulesets' options differ, so one list for all would be refused by every ruleset lacking one.
    Raises CliError for an unknown ruleset, an option none of them lists (naming what each
    documents) or a value a ruleset refuses."""
    for r in ruleset_ids:
        check_ruleset(r, ruleset_flag)
    if len(ruleset_ids) <= 1:
        out = {r: dict(options) for r in ruleset_ids}
    else:
        docs = {r: _docs(r) for r in ruleset_ids}
        for name in options:
            if not any(name in d for d in docs.values()):
                listed = "; ".join(f"{r}: {', '.join(d) or 'none'}" for r, d in docs.items())
                raise CliError(f"{flag} {name}: no option of {', '.join(ruleset_ids)} is called {name} "
                               f"(they have — {listed})")
        out = {r: {k: v for k, v in options.items() if k in docs[r]} for r in ruleset_ids}
    for r, opts in out.items():
        build_ruleset(r, opts, flag, ruleset_flag)
    return out


def options_error(ruleset_id: str, options: Mapping[str, Any], e: Exception, flag: str = "--option") -> CliError:
    """The CliError for a ruleset's refusal ``e`` of ``options``: :func:`check_options`'s
    words when it finds the fault, else the ruleset's (in plain words) with the options
    ``paipu rulesets`` documents when a name given is not among them."""
    check_options(ruleset_id, options, flag)
    unlisted = [n for n in options if n not in _docs(ruleset_id)]
    hint = (f"; the options `paipu rulesets {ruleset_id}` documents: {', '.join(_docs(ruleset_id))}"
            if unlisted else "")
    return CliError(f"{flag}: {e}{hint}")  # the ruleset's words (eventlog.errors.validation_line)


def tile_set_words(tile_copies: tuple[int, ...]) -> str:
    """The tiles a ruleset plays with, in ranges: ``W1-W9, T1-T9, B1-B9``."""
    from eventlog import tiles as T

    groups: list[str] = []
    run: list[str] = []
    for t in T.ALL_TILES:
        if tile_copies[T.index(t)] and run and run[-1][0] == t[0]:
            run.append(t)
            continue
        if run:
            groups.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [t] if tile_copies[T.index(t)] else []
    if run:
        groups.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ", ".join(groups)


def check_tiles(ruleset_id: str, tile_copies: tuple[int, ...], given: Iterable[tuple[str, Iterable[str]]]) -> None:
    """Refuse tiles the ruleset does not play with: ``given`` is (flag, tiles) pairs; CliError
    naming the flag, the tiles and the ruleset's tile set (exit 2: such a hand cannot happen)."""
    from eventlog import tiles as T

    for flag, tiles in given:
        bad = sorted({t for t in tiles if not tile_copies[T.index(t)]}, key=T.index)
        if bad:
            raise CliError(f"{flag}: {ruleset_id} is played without {', '.join(bad)} "
                           f"(its tiles: {tile_set_words(tile_copies)})")
