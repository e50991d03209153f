"""Pieces every dashboard page shares: the data directory, the friendly messages for an
empty data directory or a missing export, the statistics filters and game links."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from dashboard import data as D
from dashboard.tiles import CSS

__all__ = ["start_page", "need_export", "need_games", "game_links", "stat", "fmt_rate"]


def start_page(title: str, *, compact: bool = False) -> Path:
    """Title (a smaller one when ``compact``), tile stylesheet; returns the data directory."""
    if compact:
        st.subheader(title)
    else:
        st.title(title)
    st.markdown(CSS, unsafe_allow_html=True)
    return D.data_dir()


def _empty(data: Path, what: str) -> None:
    st.info(f"{what} Import something first:")
    st.code(D.IMPORT_HELP(data), language="bash")


def need_export(data: Path) -> tuple[int, int]:
    """The export version, or a friendly message and ``st.stop()`` when there is none."""
    v = D.export_version(data)
    if v is None:
        if D.has_log(data):
            st.info(f"The event log in `{data}` has not been exported for analysis yet. Run:")
            st.code(f"paipu export --data {data}", language="bash")
        else:
            _empty(data, f"No games yet: `{data}` holds no event log.")
        st.stop()
    return v


def need_games(data: Path) -> tuple[tuple[int, ...], list[dict[str, Any]]]:
    """(log version, games) or a friendly message and ``st.stop()`` for an empty log."""
    v = D.log_version(data)
    games = D.list_games(str(data), v)
    if not games:
        _empty(data, f"No games yet: `{data}` holds no event log." if v is None
               else f"The event log in `{data}` holds no games.")
        st.stop()
    return v, games  # type: ignore[return-value]


def game_links(games: list[dict[str, Any]], page: str, *, limit: int = 200) -> None:
    """One link per game to ``page`` (views/replay.py or views/dispute.py)."""
    for g in games[:limit]:
        st.page_link(page, label=f"{g['game_id']}  ({g['ruleset']}, {g['events']} events)",
                     query_params={"game": g["game_id"]})
    if len(games) > limit:
        st.caption(f"… and {len(games) - limit} more")


def stat(data: Path, version: tuple[int, int], name: str, *args: Any, **kwargs: Any) -> Any:
    """A cached :class:`analytics.queries.Analytics` query (see dashboard.data.query). A
    damaged or unreadable export is said in one message with the command that repairs it
    (analytics.export.DamagedExport), then the page stops."""
    from analytics.export import ExportError

    try:
        return D.query(str(data), version, name, args, tuple(sorted(kwargs.items())))
    except ExportError as e:
        st.error(f"The analytics export cannot be read: {e}")
        st.stop()


def fmt_rate(rate: float | None, low: float | None, high: float | None) -> str:
    """``25.0 % (12.1–44.6)``; ``–`` without a sample."""
    if rate is None:
        return "–"
    return f"{100 * rate:.1f} % ({100 * (low or 0):.1f}–{100 * (high or 0):.1f})"


def exported_summary(data: Path, v: tuple[int, int]) -> tuple[dict, list[str]]:
    """The export summary and its rulesets, or a message and ``st.stop()`` when the export
    holds no finished game yet."""
    summary = stat(data, v, "summary")
    rulesets = [r["ruleset"] for r in summary["rulesets"]]
    if not rulesets:
        st.info(f"The export in `{data}/parquet` holds no finished game yet.")
        st.stop()
    return summary, rulesets
