"""Pieces every dashboard page shares: the data directory, the friendly messages for an
empty data directory or a missing export, the statistics filters and game links."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from dashboard import data as D
from dashboard.tiles import CSS

__all__ = ["start_page", "need_export", "need_games", "read_game_log", "game_links", "stat", "fmt_rate",
           "bad_param"]


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
            st.info(f"The event log in `{D.log_name(data)}` has not been exported for analysis yet. Run:")
            st.code(f"paipu export --data {data}", language="bash")
        else:
            _empty(data, f"No games yet: `{data}` holds no event log.")
        st.stop()
    return v


def need_games(data: Path) -> tuple[tuple[Any, ...], list[dict[str, Any]]]:
    """(log version, games) or a friendly message and ``st.stop()`` for an empty log or one
    that cannot be opened (a ``--store`` with no store, an unreachable server)."""
    from eventlog.store import StoreError, StoreNotFound

    name = D.log_name(data)
    try:
        v = D.log_version(data)
        games = D.list_games(str(data), v)
    except StoreNotFound:
        v, games = None, []
    except StoreError as e:
        st.error(f"The event log `{name}` cannot be read: {e}")
        st.stop()
    if not games:
        _empty(data, f"No games yet: `{name}` holds no event log." if v is None
               else f"The event log in `{name}` holds no games.")
        st.stop()
    return v, games  # type: ignore[return-value]


def read_game_log(game_id: str | None, read: Any, *args: Any, verb: str = "replayed") -> Any:
    """``read(*args)``, a read of game ``game_id`` (None: of several games) from the log —
    every page's reads of games go through here: a game that cannot be read — corrupt
    (CorruptEvent: never replayed, DESIGN.md §5), of a ruleset that cannot replay it
    (RulesetError), gone from the log (GameNotFound), or a log that fails (StoreError) — is
    said in one line with a link to the game's hash-chain check, then the page stops."""
    from eventlog.store import StoreError
    from eventlog.store.base import CorruptEvent, GameNotFound
    from replayer.findings import RulesetError

    try:
        return read(*args)
    except GameNotFound as e:
        game_id = game_id or getattr(e, "game_id", None)
        st.error(f"There is no game `{game_id}` in the event log `{D.log_name(D.data_dir())}`.")
    except RulesetError as e:  # a game stored before game_started was checked: said in one line
        st.error(f"Game `{game_id}` cannot be {verb}: {e}." if game_id else f"A game cannot be {verb}: {e}.")
    except CorruptEvent as e:
        game_id = game_id or e.game_id
        st.error(f"Game `{game_id}` cannot be {verb}: its event {e.seq} is corrupt ({e.reason}).")
    except StoreError as e:
        st.error(f"The event log `{D.log_name(D.data_dir())}` cannot be read: {e}")
    if game_id:
        st.page_link("views/dispute.py", label="Hash-chain check of this game", query_params={"game": game_id})
    st.stop()


def bad_param(game_id: str, what: str, value: str, valid: str, shown: str) -> None:
    """The message for a link's ``?what=value`` that the game does not have (as the Replay
    page's for a bad ``seq``): ``valid`` names the values it has, ``shown`` what the page
    shows instead."""
    st.error(f"Game `{game_id}` has no {what} {value} (its {what}s are {valid}); showing {shown}.")


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
