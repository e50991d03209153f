"""Tiles as HTML for the dashboard (shared/DESIGN.md §3: "the dashboard draws tiles as
images or Unicode (U+1F000 block), never as bare codes only").

Each tile is a ``<span class="pp-tile">`` holding its Unicode glyph (eventlog.tiles
``to_unicode``) over its canonical code in small print, with the Chinese name as tooltip,
so a tile reads right even where the browser lacks a mahjong font. Pure functions
returning HTML strings; the pages pass them to ``st.markdown(..., unsafe_allow_html=True)``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from eventlog import tiles as T

__all__ = ["CSS", "BACK", "tile_html", "tiles_html", "hidden_html", "WIND_ZH", "WIND_EN"]

#: Unicode tile back (U+1F02B), drawn for concealed tiles of the seats not shown.
BACK = "\U0001F02B"
WIND_ZH = {"F1": "东", "F2": "南", "F3": "西", "F4": "北"}
WIND_EN = {"F1": "East", "F2": "South", "F3": "West", "F4": "North"}

#: Stylesheet every page that draws tiles emits once.
CSS = """<style>
.pp-tiles{display:flex;flex-wrap:wrap;gap:2px;align-items:flex-end;margin:2px 0 6px 0}
.pp-tile{display:inline-flex;flex-direction:column;align-items:center;min-width:1.9em;
  border:1px solid #b9b3a3;border-radius:4px;background:#fffdf6;padding:0 1px;line-height:1}
.pp-tile .g{font-size:1.9em;font-family:"Symbola","Noto Sans Symbols 2","Segoe UI Symbol",
  "Segoe UI Emoji",sans-serif;line-height:1.05}
.pp-tile .c{font-size:0.62em;color:#555;font-family:monospace;padding-bottom:1px}
.pp-tile.claimed{opacity:.38}
.pp-tile.last{border:2px solid #d33}
.pp-tile.win{border:2px solid #1a7f37;background:#eaffea}
.pp-tile.back .g{color:#2c5d8a}
.pp-meld{display:inline-flex;gap:1px;margin-right:10px;padding:2px;border-radius:5px;
  background:#eef2f7;align-items:flex-end}
.pp-meld .src{font-size:.7em;color:#333;align-self:center;padding:0 3px}
.pp-grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:6px}
.pp-seat{border:1px solid #ddd;border-radius:6px;padding:4px 8px}
.pp-seat.turn{border-color:#d33;box-shadow:0 0 0 1px #d33}
.pp-seat h4{margin:0 0 2px 0;font-size:1em}
.pp-label{font-size:.75em;color:#666;margin-right:4px}
.pp-finding{color:#b00;font-weight:600}
.pp-event{font-family:monospace;background:#f4f4f4;border-radius:4px;padding:3px 6px}
.pp-glyph{font-family:"Symbola","Noto Sans Symbols 2","Segoe UI Symbol",sans-serif;font-size:1.9em;
  vertical-align:middle;line-height:1}
[data-testid="stMainBlockContainer"]{padding-top:2.5rem}
</style>"""


def tile_html(tile: str | None, *, css: str = "", title: str = "") -> str:
    """One tile: glyph and code (``None``: a hidden tile, drawn as a back). Raises
    :class:`eventlog.tiles.TileError` for a code that is not a tile."""
    if tile is None:
        return f'<span class="pp-tile back {css}" title="hidden tile"><span class="g">{BACK}</span><span class="c">?</span></span>'
    T.check(tile)
    tip = html.escape(title or f"{tile} {T.CHINESE_NAMES.get(tile, '')}")
    return (
        f'<span class="pp-tile {css}" title="{tip}"><span class="g">{T.to_unicode(tile)}</span>'
        f'<span class="c">{tile}</span></span>'
    )


def tiles_html(tiles: Iterable[str | None], *, classes: Iterable[str] | None = None, empty: str = "–") -> str:
    """A row of tiles; ``classes`` gives an extra CSS class per tile (claimed, last, win)."""
    ts = list(tiles)
    cs = list(classes) if classes is not None else [""] * len(ts)
    if not ts:
        return f'<div class="pp-tiles"><span class="pp-label">{html.escape(empty)}</span></div>'
    return '<div class="pp-tiles">' + "".join(tile_html(t, css=c) for t, c in zip(ts, cs)) + "</div>"


def hidden_html(n: int) -> str:
    """``n`` tile backs (a concealed hand not shown)."""
    return tiles_html([None] * n, empty="no tiles")


def meld_html(tiles: Iterable[str], label: str, *, claimed: str | None = None) -> str:
    """A declared set as a group of tiles with a label (e.g. ``← seat 2``); the claimed
    tile, when given, is drawn rotated in spirit: marked with the ``last`` border."""
    marked = False
    parts = []
    for t in tiles:
        css = ""
        if claimed is not None and t == claimed and not marked:
            css, marked = "last", True
        parts.append(tile_html(t, css=css))
    return f'<span class="pp-meld">{"".join(parts)}<span class="src">{html.escape(label)}</span></span>'
