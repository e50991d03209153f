"""Overview page: games, hands, wins and exhaustive draws by ruleset; win, self-draw and
deal-in rates by seat and by player, each with its sample size and 95 % Wilson interval
(shared/DESIGN.md §7-§8). Every number comes from analytics.queries."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics.export.reader import damaged_note
from dashboard.charts import rate_chart, rates_long
from dashboard.common import exported_summary, fmt_rate, need_export, start_page, stat

data = start_page("paipu 牌谱 — overview")
v = need_export(data)

summary, rulesets = exported_summary(data, v)
if summary.get("damaged"):  # games the log could not serve intact: not in any number here
    st.warning(damaged_note(len(summary["damaged"])) + ".")
choice = st.sidebar.selectbox("Ruleset", ["all"] + rulesets, key="ov_ruleset")
ruleset = None if choice == "all" else choice

by_rs = {r["ruleset"]: r for r in stat(data, v, "seat_stats", "ruleset")}
draws: dict[str, int] = {}
for r in stat(data, v, "hand_lengths", outcome="draw"):
    draws[r["ruleset"]] = r["total"]
table = []
for r in summary["rulesets"]:
    if ruleset is not None and r["ruleset"] != ruleset:
        continue
    s = by_rs.get(r["ruleset"], {})
    table.append({
        "ruleset": r["ruleset"], "games": r["games"], "hands": r["hands"],
        "wins": s.get("wins", 0), "self-drawn wins": s.get("self_draws", 0),
        "exhaustive draws": draws.get(r["ruleset"], 0),
        "dates": f"{r['date_from'] or '?'} … {r['date_to'] or '?'}",
    })

m = st.columns(4)
m[0].metric("games", sum(r["games"] for r in table))
m[1].metric("hands", sum(r["hands"] for r in table))
m[2].metric("wins", sum(r["wins"] for r in table))
m[3].metric("exhaustive draws", sum(r["exhaustive draws"] for r in table))
st.subheader("By ruleset")
st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch")
st.caption(f"Export checkpoint: log position {summary['checkpoint']}. Wins count every legal win "
           "(a hand won by two players on one discard counts two).")


def _rates_table(rows: list[dict], group: str) -> pd.DataFrame:
    return pd.DataFrame([
        {group: r[group], "hands (sample)": r["hands"], "wins": r["wins"],
         "win rate (95 % CI)": fmt_rate(r["win_rate"], r["win_rate_ci_low"], r["win_rate_ci_high"]),
         "self-draws": r["self_draws"],
         "self-draw rate": fmt_rate(r["self_draw_rate"], r["self_draw_rate_ci_low"], r["self_draw_rate_ci_high"]),
         "deal-ins": r["deal_ins"],
         "deal-in rate": fmt_rate(r["deal_in_rate"], r["deal_in_rate_ci_low"], r["deal_in_rate_ci_high"]),
         "avg points won": None if r["avg_points_won"] is None else round(r["avg_points_won"], 1)}
        for r in rows
    ])


for group, title in (("seat", "By seat"), ("player", "By player")):
    rows = stat(data, v, "seat_stats", group, ruleset=ruleset)
    st.subheader(title)
    st.altair_chart(rate_chart(rates_long(rows, group), f"Rates {title.lower()} (dot: rate; line: 95 % interval)"),
                    width="stretch")
    st.dataframe(_rates_table(rows, group), hide_index=True, width="stretch")
st.caption("Rates are per seat-hand: a seat's wins, self-drawn wins and deal-ins (discarding a "
           "winning tile) over the hands it played; intervals are 95 % Wilson score intervals.")
