"""A log saved as UTF-16 with a byte order mark (Windows Notepad's "Unicode") or UTF-8 with
one imports as the same games as the UTF-8 original; the encoding is told (the shared
decoding of eventlog/ingest/base.py, for every text importer)."""

from __future__ import annotations

import codecs

import pytest
from ingest_helpers import TEXT_SAMPLE, load

from eventlog.ingest.base import decode_text, fingerprint, sniff


@pytest.mark.parametrize("encoding, bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                                           ("utf-8", codecs.BOM_UTF8)])
def test_a_log_with_a_byte_order_mark_imports_as_its_utf8_original(tmp_path, encoding, bom):
    text = TEXT_SAMPLE.read_text(encoding="utf-8")
    p = tmp_path / "log.txt"
    p.write_bytes(bom + text.encode(encoding))
    assert sniff(p) == "botzone-text"
    games, issues = load(p, "botzone-text")
    want, want_issues = load(TEXT_SAMPLE, "botzone-text")
    assert [i.reason for i in issues] == [i.reason for i in want_issues]
    assert games and [fingerprint(g.events) for g in games] == [fingerprint(g.events) for g in want]


def test_decode_text_names_utf16():
    assert decode_text(codecs.BOM_UTF16_LE + "Match 1\n".encode("utf-16-le")) == ("Match 1\n", "utf-16")
    assert decode_text(codecs.BOM_UTF16_BE + "中".encode("utf-16-be")) == ("中", "utf-16")
