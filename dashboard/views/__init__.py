"""The dashboard pages, one Streamlit script each (run by st.navigation in dashboard/app.py)."""
