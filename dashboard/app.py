"""The paipu dashboard: a Streamlit multipage app (shared/DESIGN.md §8), read-only.

Run it with ``paipu dashboard [--data DIR] [--port 8501]`` (or
``python -m streamlit run dashboard/app.py -- --data DIR``). Pages (dashboard/views/):
overview, fans, players, replay (step-through, ``?game=ID&seq=N`` links), dispute
review (``?game=ID``, with what-if scoring), decision review (``?game=ID&seat=N``: the
rules-based efficiency review of a seat's discards) and tournament (``?tournament=NAME``). docs/dashboard.md describes each page.
"""

from __future__ import annotations

import streamlit as st

st.set_page_config(page_title="paipu 牌谱", page_icon="🀄", layout="wide")

# Streamlit serves the default page at the root and only there; the documented
# /overview (docs/dashboard.md) is a second route to the same script, kept out of the menu.
HOME = st.Page("views/overview.py", title="Overview", icon="📊", url_path="home", default=True)
OVERVIEW = st.Page("views/overview.py", title="Overview", icon="📊", url_path="overview")
PAGES = [
    HOME,
    st.Page("views/fans.py", title="Fans", icon="🀄", url_path="fans"),
    st.Page("views/players.py", title="Players", icon="👤", url_path="players"),
    st.Page("views/replay.py", title="Replay", icon="▶️", url_path="replay"),
    st.Page("views/dispute.py", title="Dispute review", icon="⚖️", url_path="dispute"),
    st.Page("views/review.py", title="Decision review", icon="📐", url_path="review"),
    st.Page("views/tournament.py", title="Tournament", icon="🏆", url_path="tournament"),
]

page = st.navigation([*PAGES, OVERVIEW], position="hidden")
with st.sidebar:
    for p in PAGES:
        st.page_link(p)
page.run()
