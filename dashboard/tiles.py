"""Tiles as HTML for the dashboard (shared/DESIGN.md §3: "the dashboard draws tiles as
images or Unicode (U+1F000 block), never as bare codes only").

Each tile is a ``<span class="pp-tile">`` holding its Unicode glyph (eventlog.tiles
``to_unicode``) over its canonical code in small print, with the Chinese name as tooltip,
so a tile reads right even where the browser lacks a mahjong font. Pure functions
returning HTML strings; the pages pass them to ``st.markdown(..., unsafe_allow_html=True)``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

from eventlog import tiles as T

__all__ = ["CSS", "BACK", "tile_html", "tiles_html", "hidden_html", "pond_html", "meld_html", "WIND_ZH",
           "WIND_EN"]

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
.pp-tile{position:relative}
.pp-tile .m{font-size:.62em;color:#a33;font-weight:600;line-height:1.1}
.pp-tile .b{position:absolute;top:-6px;right:-5px;font-size:.6em;background:#c9302c;color:#fff;
  border-radius:6px;padding:0 2px;line-height:1.2}
.pp-tile.wild{background:#fff3c4;border-color:#c9a400}
.pp-tile.flower{background:#f3ecff;border-color:#9a7fd1}
.pp-tile.flower .b{background:#7a5cc4}
.pp-tile.side{transform:rotate(-90deg);margin:0 .45em}
.pp-pond{display:grid;grid-template-columns:repeat(6,max-content);gap:2px;margin:2px 0 6px 0}
.pp-win{display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap;border:2px solid #1a7f37;border-radius:8px;
  padding:6px 10px;margin:6px 0;background:#f6fff6}
.pp-win .apart{margin-left:14px}
.pp-win>div{flex:1 1 380px;min-width:0}
.pp-win>table{flex:0 0 auto}
.pp-win table{border-collapse:collapse;font-size:.9em}
.pp-win td{padding:1px 8px;border-bottom:1px solid #e3e3e3}
.pp-words{font-size:1.15em;font-weight:600}
.pp-words-zh{font-size:1.05em;color:#333}
.pp-timeline{position:relative;height:34px;border-bottom:2px solid #999;margin:18px 8px 6px 8px}
.pp-timeline a,.pp-timeline span{position:absolute;bottom:-1px;transform:translateX(-50%);text-decoration:none;
  font-size:.95em;line-height:1}
.pp-timeline .now{bottom:auto;top:-20px;font-size:1.1em;color:#d33}
.pp-timeline .tick{color:#555}
.pp-glyph{font-family:"Symbola","Noto Sans Symbols 2","Segoe UI Symbol",sans-serif;font-size:1.9em;
  vertical-align:middle;line-height:1}
[data-testid="stMainBlockContainer"]{padding-top:2.5rem}
</style>"""


def tile_html(tile: str | None, *, css: str = "", title: str = "", mark: str = "",
              wild: Mapping[str, str] | None = None) -> str:
    """One tile: glyph and code (``None``: a hidden tile, drawn as a back); ``mark``: a note
    under it (e.g. ``→南`` on a claimed discard); ``wild``: the hand's wild tiles (code →
    name, e.g. 正精) — a wild tile is drawn gold with a 精 badge, a flower (H1–H8) violet with
    a 花 badge. Raises :class:`eventlog.tiles.TileError` for a code that is not a tile."""
    if tile is None:
        return f'<span class="pp-tile back {css}" title="hidden tile"><span class="g">{BACK}</span><span class="c">?</span></span>'
    T.check(tile)
    tip = title or f"{tile} {T.CHINESE_NAMES.get(tile, '')}"
    badge = ""
    if wild and tile in wild:
        css = f"{css} wild".strip()
        tip += f" · wildcard {wild[tile]}"
        badge = f'<span class="b">{html.escape(wild[tile][-1])}</span>'
    elif T.is_flower(tile):
        css = f"{css} flower".strip()
        tip += " · flower"
        badge = '<span class="b">花</span>'
    under = f'<span class="m">{html.escape(mark)}</span>' if mark else ""
    return (
        f'<span class="pp-tile {css}" title="{html.escape(tip)}"><span class="g">{T.to_unicode(tile)}</span>'
        f'<span class="c">{tile}</span>{under}{badge}</span>'
    )


def tiles_html(tiles: Iterable[str | None], *, classes: Iterable[str] | None = None, empty: str = "–",
               wild: Mapping[str, str] | None = None) -> str:
    """A row of tiles; ``classes`` gives an extra CSS class per tile (claimed, last, win);
    ``wild`` marks the wild tiles (see :func:`tile_html`)."""
    ts = list(tiles)
    cs = list(classes) if classes is not None else [""] * len(ts)
    if not ts:
        return f'<div class="pp-tiles"><span class="pp-label">{html.escape(empty)}</span></div>'
    return '<div class="pp-tiles">' + "".join(tile_html(t, css=c, wild=wild) for t, c in zip(ts, cs)) + "</div>"


def pond_html(tiles: Sequence[str], *, classes: Sequence[str], marks: Sequence[str],
              wild: Mapping[str, str] | None = None, empty: str = "no discards") -> str:
    """A seat's discards as a pond 河: rows of six in the order played, each tile with its CSS
    class (claimed, last) and its mark (who took a claimed tile)."""
    if not tiles:
        return f'<div class="pp-tiles"><span class="pp-label">{html.escape(empty)}</span></div>'
    return '<div class="pp-pond">' + "".join(
        tile_html(t, css=c, mark=m, wild=wild) for t, c, m in zip(tiles, classes, marks)) + "</div>"


def hidden_html(n: int) -> str:
    """``n`` tile backs (a concealed hand not shown)."""
    return tiles_html([None] * n, empty="no tiles")


def meld_html(tiles: Iterable[str], label: str, *, claimed: str | None = None, side: int | None = None,
              wild: Mapping[str, str] | None = None) -> str:
    """A declared set as a group of tiles with a label (e.g. ``pung ← seat 2``). The claimed
    tile, when given, is turned sideways as on a real table and placed by where it came from
    (``side``: 1 上家 left, 2 对家 middle, 3 下家 right — the position of the discarder seen from
    the claimant, (claimant − discarder) mod 4)."""
    ts = list(tiles)
    at = None
    if claimed is not None and claimed in ts:
        ts.remove(claimed)
        at = {1: 0, 2: 1, 3: len(ts)}.get(side or 1, 0)
        ts.insert(at, claimed)
    parts = [tile_html(t, css="last side" if k == at else "", wild=wild) for k, t in enumerate(ts)]
    return f'<span class="pp-meld">{"".join(parts)}<span class="src">{html.escape(label)}</span></span>'
