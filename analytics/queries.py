"""The analytics queries (shared/DESIGN.md §7): DuckDB over the exported Parquet facts.

One module, used by ``paipu stats`` and by the dashboard::

    from analytics.queries import Analytics
    with Analytics.open("paipu-data/parquet") as a:
        a.seat_stats(by="player", ruleset="mcr")
        a.fan_frequency()
        a.fan_cooccurrence(limit=20)
        a.hand_lengths()

Every query reads only the part files the export manifest lists, after checking their
size and SHA-256 (analytics/export.py), so a damaged or missing file raises
:class:`analytics.export.DamagedExport` naming the file and the command that rebuilds it.

Every rate comes with its sample size (the denominator) and a 95 % Wilson score interval
(:func:`wilson`). Results are lists of plain dicts (JSON-ready: dates as ISO text) in a
fixed order.

Filters shared by the queries: ``ruleset``, ``player`` (exact name), ``date_from`` /
``date_to`` (inclusive, ``datetime.date`` or ``YYYY-MM-DD``; the game's date, see
analytics/schema.py), ``dealer`` (True: only hands the seat dealt; False: only hands it
did not).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from analytics.export import Export, ExportError, open_export
from analytics.schema import TABLES

__all__ = ["Analytics", "wilson", "Z95", "GROUPS", "MEMORY_LIMIT", "MAX_THREADS"]

#: The two-sided 95 % standard normal quantile.
Z95 = 1.959963984540054

#: DuckDB memory limit of a query connection: the dashboard queries on 1 M hands peak
#: well below it (benchmarks/analytics.py), and a dashboard process holds one connection
#: per export version.
MEMORY_LIMIT = "512MB"

#: Most DuckDB threads per connection (the queries are small scans; more threads mostly
#: cost memory).
MAX_THREADS = 4

#: Grouping keys of :meth:`Analytics.seat_stats` → the seat_results column.
GROUPS: dict[str, str] = {
    "player": "player",
    "seat": "seat",
    "ruleset": "ruleset",
    "dealer": "is_dealer",
    "seat_wind": "seat_wind",
}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The Wilson score interval of ``successes`` out of ``n`` (default 95 %).

    (Wilson 1927; the interval recommended by Brown, Cai & DasGupta 2001 for small n.)
    Returns (None, None) when ``n`` is 0. Raises ValueError when successes is outside
    0..n."""
    if n == 0:
        return None, None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _rate(row: dict[str, Any], name: str, k: int, n: int) -> None:
    low, high = wilson(k, n)
    row[name] = k / n if n else None
    row[f"{name}_ci_low"] = low
    row[f"{name}_ci_high"] = high


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _read_aliases(out: Path) -> dict[str, str]:
    """``{alias: player}`` from ``<out>/player_aliases.parquet`` ({} without one)."""
    import pyarrow.parquet as pq

    from analytics.export.writer import ALIASES_FILE

    path = Path(out) / ALIASES_FILE
    if not path.is_file():
        return {}
    try:
        tab = pq.read_table(path)
    except (OSError, pa.ArrowInvalid) as e:
        raise ExportError(f"{path} cannot be read ({e}); `paipu export` writes it again") from None
    return dict(zip(tab.column("alias").to_pylist(), tab.column("player").to_pylist()))


def _as_date(v: date | str | None) -> date | None:
    if v is None or isinstance(v, date):
        return v
    return date.fromisoformat(v)


class Analytics:
    """DuckDB views over one committed export (``games``, ``hands``, ``seat_results``,
    ``wins``, ``fans``, ``fan_pairs``, ``actions``, each with the ``ruleset`` partition
    column).

    The files are verified once, when the object is made; keep one object per export
    version (the dashboard caches it by the manifest's checkpoint).

    ``memory_limit`` (DuckDB size text, default :data:`MEMORY_LIMIT`) caps the
    connection's buffer memory (DuckDB's own default is 80 % of the machine's RAM); a
    query that needs more spills to a temporary directory or raises duckdb.OutOfMemoryException.
    ``threads`` defaults to the machine's cores, at most :data:`MAX_THREADS`."""

    def __init__(self, exp: Export, *, tables: Sequence[str] | None = None,
                 memory_limit: str = MEMORY_LIMIT, threads: int | None = None) -> None:
        self.export = exp
        n = threads if threads is not None else min(os.cpu_count() or 1, MAX_THREADS)
        # parquet_metadata_cache: keep the part files' footers between queries (DuckDB
        # checks the file's modification time before using a cached footer)
        self.con = duckdb.connect(":memory:", config={"memory_limit": memory_limit, "threads": max(1, n)})
        self.con.execute("SET parquet_metadata_cache = true")
        for t in TABLES:
            if tables is not None and t.name not in tables:
                continue
            files = exp.files(t.name)
            if files:
                paths = ", ".join("'" + str(p).replace("'", "''") + "'" for p in files)
                self.con.execute(
                    f"CREATE VIEW {t.name} AS SELECT * FROM read_parquet([{paths}], "
                    "hive_partitioning = true, hive_types = {'ruleset': VARCHAR})"
                )
            else:
                empty = pa.Table.from_pylist([], schema=t.schema.append(pa.field("ruleset", pa.string())))
                self.con.register(f"_{t.name}_empty", empty)
                self.con.execute(f"CREATE VIEW {t.name} AS SELECT * FROM _{t.name}_empty")
        self.aliases = _read_aliases(exp.out)
        if self.aliases:
            self._apply_aliases(tables)

    def _apply_aliases(self, tables: Sequence[str] | None) -> None:
        """Every view shows each player under one name: ``player`` columns and the
        ``games.players`` lists mapped through the export's player aliases
        (player_aliases.parquet, eventlog/players.py) by the macro ``canon(name)``."""
        cases = " ".join(f"WHEN {_lit(a)} THEN {_lit(p)}" for a, p in sorted(self.aliases.items()))
        self.con.execute(f"CREATE MACRO canon(x) AS CASE x {cases} ELSE x END")
        for t in TABLES:
            if tables is not None and t.name not in tables:
                continue
            names = t.schema.names
            if "player" not in names and "players" not in names:
                continue
            self.con.execute(f"ALTER VIEW {t.name} RENAME TO _raw_{t.name}")
            repl = ("canon(player) AS player" if "player" in names
                    else "list_transform(players, lambda x: canon(x)) AS players")
            self.con.execute(f"CREATE VIEW {t.name} AS SELECT * REPLACE ({repl}) FROM _raw_{t.name}")

    def canonical(self, player: str) -> str:
        """The name statistics use for ``player`` (itself unless it is an alias)."""
        return self.aliases.get(player, player)

    @classmethod
    def open(cls, out_dir: Path | str, data_dir: Path | str | None = None,
             *, tables: Sequence[str] | None = None, memory_limit: str = MEMORY_LIMIT,
             threads: int | None = None) -> Analytics:
        """Open the export in ``out_dir``; ``tables`` limits the views (and the files
        checked) to those tables; ``memory_limit`` and ``threads`` as for the class.
        Raises ExportError / DamagedExport."""
        return cls(open_export(out_dir, data_dir), tables=tables, memory_limit=memory_limit,
                   threads=threads)

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Analytics:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ helpers

    def _where(self, *, ruleset: str | None = None, player: str | None = None,
               date_from: date | str | None = None, date_to: date | str | None = None,
               dealer: bool | None = None, prefix: str = "") -> tuple[str, list[Any]]:
        conds: list[str] = []
        params: list[Any] = []
        if ruleset is not None:
            conds.append(f"{prefix}ruleset = ?")
            params.append(ruleset)
        if player is not None:
            conds.append(f"{prefix}player = ?")
            params.append(self.canonical(player))
        if date_from is not None:
            conds.append(f"{prefix}date >= ?")
            params.append(_as_date(date_from))
        if date_to is not None:
            conds.append(f"{prefix}date <= ?")
            params.append(_as_date(date_to))
        if dealer is not None:
            conds.append(f"{prefix}is_dealer = ?")
            params.append(dealer)
        return (" WHERE " + " AND ".join(conds)) if conds else "", params

    def _per_ruleset(self, ruleset: str | None, **filters: Any) -> list[tuple[str, str, list[Any]]]:
        """(ruleset as an SQL literal, WHERE clause, its parameters) for each ruleset of the
        export (or just ``ruleset``). A query run once per ruleset, each over that
        ruleset's files only (the partition filter prunes the others), need not group by
        the hive ``ruleset`` column: on 1 M hands that grouping costs as much as the rest."""
        out = []
        for r in [ruleset] if ruleset is not None else self.export.rulesets():
            where, params = self._where(**filters)
            lit = "'" + r.replace("'", "''") + "'"
            out.append((lit, (where + " AND " if where else " WHERE ") + f"ruleset = {lit}", params))
        return out

    def _rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        try:
            cur = self.con.execute(sql, params)
        except duckdb.IOException as e:
            # files of a superseded export version are deleted once a new export commits
            raise ExportError(f"the export in {self.export.out} changed or lost a file while it was "
                              f"read ({e}); open it again") from None
        names = [d[0] for d in cur.description]
        out = []
        for rec in cur.fetchall():
            row = {}
            for k, v in zip(names, rec):
                row[k] = v.isoformat() if isinstance(v, date) else v
            out.append(row)
        return out

    # ------------------------------------------------------------------ queries

    def summary(self) -> dict[str, Any]:
        """Games, hands, wins and the date range per ruleset, the export checkpoint and
        ``damaged``: the ids of the games the log could not serve intact, so not in these
        numbers (the manifest's, docs/analytics.md), sorted."""
        rows = self._rows(
            "SELECT g.ruleset, count(*) AS games, sum(g.hands)::BIGINT AS hands, "
            "min(g.date) AS date_from, max(g.date) AS date_to FROM games g "
            "GROUP BY g.ruleset ORDER BY g.ruleset", [])
        return {"checkpoint": self.export.checkpoint, "rulesets": rows,
                "damaged": sorted(self.export.damaged_games)}

    def seat_stats(
        self,
        by: str | Sequence[str] = "player",
        *,
        ruleset: str | None = None,
        player: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
        dealer: bool | None = None,
    ) -> list[dict[str, Any]]:
        """Win, self-draw and deal-in rates and average points per group of seat results.

        ``by``: one or more of :data:`GROUPS` (player, seat, ruleset, dealer, seat_wind);
        ``()`` for one overall row. One dict per group, ordered by the group keys, with the
        keys: the group keys; ``hands`` (seat-hands: the sample size of every rate);
        ``wins``, ``self_draws``, ``deal_ins``; ``win_rate``, ``self_draw_rate``
        (self-drawn wins per hand), ``deal_in_rate`` (hands in which the seat discarded a
        winning tile, per hand), each with ``_ci_low``/``_ci_high``; ``avg_points_won``
        (mean score change over the hands won, sample ``wins``); ``hands_lost`` and
        ``avg_points_lost`` (mean points lost, positive, over the hands with a negative
        score change); ``avg_score_change``; ``rulesets`` (the group's rulesets, sorted) — the
        three averages are None for a group of several rulesets, whose scores are in different
        units or scales (docs/analytics.md). Raises ValueError for an unknown group."""
        dims = [by] if isinstance(by, str) else list(by)
        for d in dims:
            if d not in GROUPS:
                raise ValueError(f"unknown grouping {d!r} (use one of {', '.join(GROUPS)})")
        where, params = self._where(ruleset=ruleset, player=player, date_from=date_from,
                                    date_to=date_to, dealer=dealer)
        cols = [f"{GROUPS[d]} AS {d}" for d in dims]
        group = f" GROUP BY {', '.join(GROUPS[d] for d in dims)} ORDER BY {', '.join(GROUPS[d] for d in dims)}" if dims else ""
        sql = (
            f"SELECT {''.join(c + ', ' for c in cols)}"
            "count(*) AS hands, count(*) FILTER (WHERE won) AS wins, "
            "count(*) FILTER (WHERE self_drawn) AS self_draws, "
            "count(*) FILTER (WHERE dealt_in) AS deal_ins, "
            "avg(score_change) FILTER (WHERE won) AS avg_points_won, "
            "count(*) FILTER (WHERE score_change < 0) AS hands_lost, "
            "-avg(score_change) FILTER (WHERE score_change < 0) AS avg_points_lost, "
            "avg(score_change) AS avg_score_change, "
            "list_sort(list(DISTINCT ruleset)) AS rulesets "
            f"FROM seat_results{where}{group}"
        )
        out = []
        for row in self._rows(sql, params):
            n = row["hands"]
            if not n:
                continue
            _rate(row, "win_rate", row["wins"], n)
            _rate(row, "self_draw_rate", row["self_draws"], n)
            _rate(row, "deal_in_rate", row["deal_ins"], n)
            if len(row["rulesets"]) > 1:
                row["avg_points_won"] = row["avg_points_lost"] = row["avg_score_change"] = None
            out.append(row)
        return out

    def fan_frequency(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
    ) -> list[dict[str, Any]]:
        """Share of legal wins that contain each fan, per ruleset.

        One dict per (ruleset, fan): ``ruleset``, ``name_en``, ``name_zh``,
        ``wins_with_fan``, ``wins`` (the ruleset's wins under the filters: the sample size),
        ``share_of_wins`` with ``_ci_low``/``_ci_high``, ``points`` (of one instance),
        ``times_counted`` (sum of counts). Ordered by ruleset, share (highest first),
        name_en. A fan is listed once per win (the ruleset's explained score gives each
        fan once, with a count)."""
        parts, params = [], []
        for lit, where, p in self._per_ruleset(ruleset, player=player, date_from=date_from, date_to=date_to):
            parts.append(
                f"SELECT * FROM (WITH w AS (SELECT count(*) AS wins FROM wins{where}), "
                f"f AS (SELECT name_en, min(name_zh) AS name_zh, count(*) AS wins_with_fan, "
                f"min(points) AS points, sum(count)::BIGINT AS times_counted FROM fans{where} "
                "GROUP BY name_en) "
                f"SELECT {lit} AS ruleset, f.name_en, f.name_zh, f.wins_with_fan, w.wins, f.points, "
                "f.times_counted FROM f CROSS JOIN w)")
            params += p * 2
        if not parts:
            return []
        sql = " UNION ALL ".join(parts) + " ORDER BY ruleset, wins_with_fan DESC, name_en"
        out = []
        for row in self._rows(sql, params):
            _rate(row, "share_of_wins", row["wins_with_fan"], row["wins"])
            out.append(row)
        return out

    def fan_cooccurrence(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
        min_wins: int = 1,
        limit: int | None = 50,
    ) -> list[dict[str, Any]]:
        """Pairs of fans found in the same win.

        One dict per (ruleset, fan_a, fan_b) with fan_a < fan_b (English names) and at
        least ``min_wins`` wins with both: ``wins_with_both``, ``wins`` (sample size),
        ``share_of_wins`` (+ CI), ``wins_with_a``, ``wins_with_b``, ``p_b_given_a`` =
        both / wins_with_a (+ CI), ``lift`` = share_of_wins / (share_a × share_b).
        Ordered by wins_with_both (highest first), then names; at most ``limit`` rows.
        Reads the ``fan_pairs`` table the export writes (one row per pair per win)."""
        lim = f" LIMIT {int(limit)}" if limit is not None else ""
        parts, params = [], []
        for lit, where, p in self._per_ruleset(ruleset, player=player, date_from=date_from, date_to=date_to):
            parts.append(
                f"SELECT * FROM (WITH w AS (SELECT count(*) AS wins FROM wins{where}), "
                f"one AS (SELECT name_en, count(*) AS n FROM fans{where} GROUP BY name_en), "
                "pairs AS (SELECT fan_a, fan_b, count(*) AS wins_with_both "
                f"FROM fan_pairs{where} GROUP BY fan_a, fan_b HAVING count(*) >= ?) "
                f"SELECT {lit} AS ruleset, p.fan_a, p.fan_b, p.wins_with_both, w.wins, "
                "oa.n AS wins_with_a, ob.n AS wins_with_b FROM pairs p CROSS JOIN w "
                "JOIN one oa ON oa.name_en = p.fan_a JOIN one ob ON ob.name_en = p.fan_b)")
            params += p * 3 + [min_wins]
        if not parts:
            return []
        sql = (" UNION ALL ".join(parts)
               + f" ORDER BY wins_with_both DESC, ruleset, fan_a, fan_b{lim}")
        out = []
        for row in self._rows(sql, params):
            n = row["wins"]
            _rate(row, "share_of_wins", row["wins_with_both"], n)
            _rate(row, "p_b_given_a", row["wins_with_both"], row["wins_with_a"])
            row["lift"] = (row["wins_with_both"] * n) / (row["wins_with_a"] * row["wins_with_b"])
            out.append(row)
        return out

    def hand_lengths(
        self,
        *,
        ruleset: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
        outcome: str | None = None,
    ) -> list[dict[str, Any]]:
        """Distribution of hand length in turns (hands.turns), per ruleset.

        One dict per (ruleset, turns): ``hands`` with that length, ``total`` (the ruleset's
        hands: sample size), ``share`` (+ CI), ``cumulative_share``. ``outcome``: only
        hands ending in 'win', 'draw' or 'other'."""
        where, params = self._where(ruleset=ruleset, date_from=date_from, date_to=date_to)
        if outcome is not None:
            where = (where + " AND " if where else " WHERE ") + "outcome = ?"
            params.append(outcome)
        sql = (
            f"WITH h AS (SELECT ruleset, turns, count(*) AS hands FROM hands{where} GROUP BY ruleset, turns) "
            "SELECT ruleset, turns, hands, sum(hands) OVER (PARTITION BY ruleset) AS total, "
            "sum(hands) OVER (PARTITION BY ruleset ORDER BY turns) AS cumulative "
            "FROM h ORDER BY ruleset, turns"
        )
        out = []
        for row in self._rows(sql, params):
            total = int(row["total"])
            row["total"] = total
            cum = int(row.pop("cumulative"))
            _rate(row, "share", row["hands"], total)
            row["cumulative_share"] = cum / total
            out.append(row)
        return out

    def points_distribution(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
    ) -> list[dict[str, Any]]:
        """Legal wins by computed total (wins.total), per ruleset: ``ruleset``, ``total``,
        ``wins`` with that total, ``all_wins`` (sample size), ``share`` (+ CI). ``player``
        filters on the winner. Ordered by ruleset, total."""
        where, params = self._where(ruleset=ruleset, player=player, date_from=date_from, date_to=date_to)
        sql = (
            f"WITH t AS (SELECT ruleset, total, count(*) AS wins FROM wins{where} GROUP BY ruleset, total) "
            "SELECT ruleset, total, wins, sum(wins) OVER (PARTITION BY ruleset) AS all_wins "
            "FROM t ORDER BY ruleset, total"
        )
        out = []
        for row in self._rows(sql, params):
            row["all_wins"] = int(row["all_wins"])
            _rate(row, "share", row["wins"], row["all_wins"])
            out.append(row)
        return out

    def player_history(
        self,
        player: str,
        *,
        ruleset: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
    ) -> list[dict[str, Any]]:
        """One player's results game by game, in log order (game_ended position):
        ``game_id``, ``ruleset``, ``date``, ``seat`` (first seat held), ``hands``, ``wins``,
        ``self_draws``, ``deal_ins``, ``score_change`` (sum over the game's hands)."""
        where, params = self._where(ruleset=ruleset, player=player, date_from=date_from,
                                    date_to=date_to, prefix="s.")
        sql = (
            "SELECT s.game_id, s.ruleset, min(s.date) AS date, min(s.seat) AS seat, count(*) AS hands, "
            "count(*) FILTER (WHERE s.won) AS wins, count(*) FILTER (WHERE s.self_drawn) AS self_draws, "
            "count(*) FILTER (WHERE s.dealt_in) AS deal_ins, sum(s.score_change)::BIGINT AS score_change "
            "FROM seat_results s JOIN games g ON g.ruleset = s.ruleset AND g.game_id = s.game_id"
            f"{where} GROUP BY s.game_id, s.ruleset, g.end_position ORDER BY g.end_position, s.game_id"
        )
        return self._rows(sql, params)

    def claim_rates(
        self,
        by: str = "player",
        *,
        ruleset: str | None = None,
        player: str | None = None,
    ) -> list[dict[str, Any]]:
        """Claims per opportunity (seat_results action counts): ``discards_seen`` (discards
        by the other seats: sample size), ``chows``, ``pungs``, ``melded_kongs``, ``claims``
        and ``claim_rate`` = claims / discards_seen (+ CI), per ``by`` (player, seat or
        ruleset)."""
        if by not in ("player", "seat", "ruleset"):
            raise ValueError(f"unknown grouping {by!r} (use player, seat or ruleset)")
        where, params = self._where(ruleset=ruleset, player=player)
        sql = (
            f"SELECT {by}, sum(discards_seen)::BIGINT AS discards_seen, sum(chows)::BIGINT AS chows, "
            "sum(pungs)::BIGINT AS pungs, sum(melded_kongs)::BIGINT AS melded_kongs "
            f"FROM seat_results{where} GROUP BY {by} ORDER BY {by}"
        )
        out = []
        for row in self._rows(sql, params):
            row["claims"] = row["chows"] + row["pungs"] + row["melded_kongs"]
            _rate(row, "claim_rate", row["claims"], row["discards_seen"])
            out.append(row)
        return out

    # ------------------------------------------------------------------ placements, points, turns

    def player_games(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
    ) -> list[dict[str, Any]]:
        """One row per player per finished game, in log order (game_ended position): ``game_id``,
        ``ruleset``, ``date``, ``seat``, ``player``, ``points`` (final − initial score),
        ``final_score`` and ``placement`` 1–4 = 1 + the seats of the game with a strictly higher
        final score (tied seats share the better place, "1-2-2-4")."""
        where, params = self._where(ruleset=ruleset, player=player, date_from=date_from,
                                    date_to=date_to, prefix="x.")
        sql = (
            "SELECT * FROM (SELECT g.game_id, g.ruleset, g.date, g.end_position, s.seat::INT AS seat, "
            "g.players[s.seat + 1] AS player, "
            "(g.final_scores[s.seat + 1] - g.initial_scores[s.seat + 1])::BIGINT AS points, "
            "g.final_scores[s.seat + 1]::BIGINT AS final_score, "
            "(1 + len(list_filter(g.final_scores, lambda v: v > g.final_scores[s.seat + 1])))::INT AS placement "
            "FROM games g, range(4) s(seat)) x"
            f"{where} ORDER BY x.end_position, x.game_id, x.seat"
        )
        rows = self._rows(sql, params)
        for r in rows:
            r.pop("end_position", None)
        return rows

    def placements(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
    ) -> list[dict[str, Any]]:
        """Per player (sorted by name): ``games`` (the sample size), ``first`` … ``fourth`` (games
        finished in that place, see :meth:`player_games`; ties share the better place),
        ``avg_placement`` (mean place, 1.0 best), ``first_rate`` = first / games with its 95 %
        Wilson interval, ``rulesets`` (the rulesets of the player's games, sorted),
        ``points_per_game`` (mean final − initial score) and ``points`` — both None when the
        player's games are of several rulesets: their scores are in different units (MCR
        points, chips, Sichuan fan …) or scales and never add up (give ``ruleset``)."""
        out: dict[str, dict[str, Any]] = {}
        for g in self.player_games(ruleset=ruleset, player=player, date_from=date_from, date_to=date_to):
            r = out.setdefault(g["player"], {"player": g["player"], "games": 0, "first": 0, "second": 0,
                                             "third": 0, "fourth": 0, "_place": 0, "points": 0,
                                             "rulesets": set()})
            r["games"] += 1
            r[("first", "second", "third", "fourth")[g["placement"] - 1]] += 1
            r["_place"] += g["placement"]
            r["points"] += g["points"]
            r["rulesets"].add(g["ruleset"])
        rows = []
        for name in sorted(out):
            r = out[name]
            r["avg_placement"] = r.pop("_place") / r["games"]
            r["rulesets"] = sorted(r["rulesets"])
            if len(r["rulesets"]) > 1:
                r["points"] = None
            r["points_per_game"] = None if r["points"] is None else r["points"] / r["games"]
            _rate(r, "first_rate", r["first"], r["games"])
            rows.append(r)
        return rows

    def deal_in_by_turn(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        last: int = 18,
    ) -> list[dict[str, Any]]:
        """Deal-in rate by turn of the hand (巡目): for the k-th discard of a seat in a hand
        (k = 1, 2 …; ``last`` and later together, shown as ``turn`` = ``last``), ``discards``
        (the sample size), ``deal_ins`` (those discards a win was declared on — several winners
        on one discard count once; a robbed kong is not a discard) and ``deal_in_rate`` with its
        95 % Wilson interval. ``player``: the discarder. From the ``actions`` table."""
        where, params = self._where(ruleset=ruleset, player=player)
        sql = (
            "WITH d AS (SELECT game_id, ruleset, hand_number, seat, seq, "
            "row_number() OVER (PARTITION BY ruleset, game_id, hand_number, seat ORDER BY seq) AS k "
            f"FROM actions{(where + ' AND ') if where else ' WHERE '}action = 'discard'), "
            "w AS (SELECT DISTINCT game_id, ruleset, hand_number, from_seat, seq FROM actions "
            "WHERE action = 'win' AND detail = 'discard'), "
            "hit AS (SELECT DISTINCT w.game_id, w.ruleset, w.hand_number, "
            "(SELECT max(a.seq) FROM actions a WHERE a.game_id = w.game_id AND a.ruleset = w.ruleset "
            "AND a.hand_number = w.hand_number AND a.seat = w.from_seat AND a.action = 'discard' "
            "AND a.seq < w.seq) AS dseq FROM w) "
            f"SELECT least(d.k, {int(last)})::INT AS turn, count(*) AS discards, count(h.dseq) AS deal_ins "
            "FROM d LEFT JOIN hit h ON h.game_id = d.game_id AND h.ruleset = d.ruleset "
            "AND h.hand_number = d.hand_number AND h.dseq = d.seq GROUP BY 1 ORDER BY 1"
        )
        rows = self._rows(sql, params)
        for r in rows:
            _rate(r, "deal_in_rate", r["deal_ins"], r["discards"])
        return rows

    def player_aliases(self) -> list[dict[str, Any]]:
        """The export's player aliases: ``alias``, ``player`` (sorted by alias)."""
        return [{"alias": a, "player": p} for a, p in sorted(self.aliases.items())]
