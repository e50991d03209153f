"""Long fuzz run of the importers (issue 12 item 5): mutate the bundled real logs and
count inputs that make ``parse_file`` raise instead of yielding ParseIssues.

    python scripts/fuzz_importers.py [--inputs 20000] [--seed 1]

Mutations: insert/replace hostile tokens (superscript and Arabic-Indic digits,
brackets, quotes, NUL, huge numbers, deep nesting, wrong JSON types), delete spans,
truncate, duplicate spans; JSON files also get structural edits (a value replaced by
a number, a list, null or a deep nest). Seeded: the same seed gives the same inputs.
Prints inputs, games read, issues, uncaught exceptions by (type, file:line) and
inputs/s. Exit 1 when anything was uncaught. The bounded version runs in the test
suite (tests/ingest/test_ingest_fuzz.py)."""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from eventlog.ingest import ImportedGame, ParseIssue, UnknownFormatError, known_formats, parse_file
from paipu.samples import sample_files

HOSTILE = ["²", "٣", "[", "]", "{", "}", '"', "\\", "\x00", "\ufffd", "-", "99999999999999999999",
           "null", "true", "[" * 5000, "\r", "\n", "Match ", "Player 9 ", "http://[", "H", "M0",
           "%", "*", "+", "\t", "é", "中", "Player 0 Gang", "Player 1 Hu", "Huang", "Fan ² x"]
VALUES = [5, -1, 2**70, None, True, "x", [], {}, [1, 2], "²", "[" * 3000 + "]" * 3000]


def _text_mutation(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 6)):
        kind = rng.choice(["insert", "delete", "replace", "truncate", "duplicate"])
        i = rng.randrange(max(len(text), 1))
        if kind == "insert":
            text = text[:i] + rng.choice(HOSTILE) + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + rng.randint(1, 80):]
        elif kind == "replace":
            text = text[:i] + rng.choice(HOSTILE) + text[i + 1:]
        elif kind == "truncate":
            text = text[:i]
        else:
            j = min(len(text), i + rng.randint(1, 600))
            text = text[:j] + text[i:j] + text[j:]
    return text


def _json_mutation(rng: random.Random, text: str) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        return _text_mutation(rng, text)
    for _ in range(rng.randint(1, 4)):
        node, path = data, []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if path:
            parent, key = path[-1]
            parent[key] = rng.choice(VALUES)
    try:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5)
    except (ValueError, RecursionError):
        return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sources = [(p, p.read_text(encoding="utf-8")) for p in sample_files()]
    formats = [None, *known_formats()]
    games = issues = unrecognised = net = 0
    uncaught: Counter[tuple[str, str]] = Counter()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.inputs):
            src, text = rng.choice(sources)
            json_like = text.lstrip().startswith(("{", "["))
            text = _json_mutation(rng, text) if json_like and rng.random() < 0.5 else _text_mutation(rng, text)
            p = Path(tmp) / f"in{n % 8}{src.suffix}"
            p.write_bytes(text.encode("utf-8", errors="surrogatepass"))
            try:
                for it in parse_file(p, rng.choice(formats)):
                    if isinstance(it, ImportedGame):
                        games += 1
                    elif isinstance(it, ParseIssue):
                        issues += 1
                        if "rest of this file was skipped" in it.reason:
                            net += 1  # caught only by parse_file's safety net
            except UnknownFormatError:
                unrecognised += 1
            except Exception as e:
                tb = traceback.extract_tb(e.__traceback__)[-1]
                uncaught[(type(e).__name__, f"{Path(tb.filename).name}:{tb.lineno}")] += 1
    dt = time.perf_counter() - t0
    print(f"inputs {args.inputs}  seed {args.seed}  {args.inputs / dt:.0f} inputs/s  ({dt:.1f} s)")
    print(f"games read {games}  parse issues {issues}  not recognised (format refused) {unrecognised}")
    print(f"caught only by the file-level safety net: {net}")
    print(f"uncaught exceptions: {sum(uncaught.values())} at {len(uncaught)} sites")
    for (name, where), c in uncaught.most_common():
        print(f"  {c:6d}  {name} at {where}")
    return 1 if uncaught else 0


if __name__ == "__main__":
    sys.exit(main())
