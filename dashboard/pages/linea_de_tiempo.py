"""Línea de tiempo: tesis for a query or filters on a time axis, by época and vigencia."""

import streamlit as st

from dashboard import client
from dashboard.components import api_status, charts, filters, page, timeline
from dashboard.formatting import count, escape_md
from dashboard.payloads import DatedPayload, Hit, TimelineItem

stats = page.start(
    "Línea de tiempo",
    "Cada punto es una tesis: color por época, forma por vigencia (cruz = ya no vigente).",
)
SHORTCUTS = {
    "earliest": ("La más antigua", ":material/first_page:"),
    "latest": ("La más reciente", ":material/last_page:"),
}

# The shortcuts submit the form: outside it they read its last submitted query and filters.
with st.form("tiempo_form"):
    query = st.text_input(
        "Consulta (opcional: sin consulta se usan sólo los filtros)",
        key="tiempo_query",
        max_chars=2000,
    )
    chosen = filters.filters("tiempo", stats, expanded=True)
    left, right = st.columns(2)
    limit = left.number_input(
        "Tesis como máximo",
        5,
        timeline.MAX_LISTED,
        50,
        5,
        key="tiempo_limit",
        help=f"Hasta {timeline.MAX_LISTED} con sólo filtros; con una consulta, hasta {timeline.MAX_ON_TOPIC}.",
    )
    order = right.radio(
        "Orden",
        ["ASC", "DESC"],
        horizontal=True,
        key="tiempo_order",
        format_func={"ASC": "Más antiguas primero", "DESC": "Más recientes primero"}.get,
    )
    with st.container(horizontal=True):
        shown = st.form_submit_button("Mostrar", type="primary", key="tiempo_show")
        clicked = {
            w: st.form_submit_button(
                label,
                key=f"tiempo_{w}",
                icon=icon,
                help=f"{label} de las tesis sobre la consulta escrita (o bajo los filtros).",
            )
            for w, (label, icon) in SHORTCUTS.items()
        }

if shown:
    st.session_state["tiempo_asked"] = query.strip()
    st.session_state["tiempo_capped"] = bool(query.strip()) and limit > timeline.MAX_ON_TOPIC
    for stale in ("tiempo_earliest_hits", "tiempo_latest_hits"):  # answers to the old query
        st.session_state.pop(stale, None)
    if query.strip():
        limit = min(limit, timeline.MAX_ON_TOPIC)
        # The best hits by relevance, and the oldest (or newest) on the topic over the whole
        # filtered set: the first point is the one «La más antigua» would give.
        which = "earliest" if order == "ASC" else "latest"
        ask = {"query": query, "filters": chosen, "topK": min(int(limit), 50)}
        found = api_status.attempt("Búsqueda", client.search, ask)
        dated = api_status.attempt(
            "Línea de tiempo", client.extreme, which, query, chosen, int(limit)
        )
        extremes = dated or DatedPayload()
        gathered: list[Hit | TimelineItem] = [
            *(extremes.get("hits") or extremes.get("items") or []),
            *((found.get("hits") if found else None) or []),
        ]
        st.session_state["tiempo_items"] = gathered if found is not None else None
        st.session_state["tiempo_sort"] = order
        st.session_state["tiempo_total"] = None
    else:
        ask = {"filters": chosen, "order": order, "limit": int(limit), "offset": 0}
        got = api_status.attempt("Línea de tiempo", client.timeline, ask)
        st.session_state["tiempo_items"] = got and got.get("items")
        st.session_state["tiempo_total"] = got and got.get("total")
        st.session_state["tiempo_sort"] = None  # already in date order

items = st.session_state.get("tiempo_items")
if items:
    rows = timeline.chart_rows(items, st.session_state.get("tiempo_sort"))
    total = st.session_state.get("tiempo_total")
    asked = st.session_state.get("tiempo_asked")
    about = f" sobre «{escape_md(asked)}»" if asked else " bajo los filtros"
    if st.session_state.get("tiempo_capped"):
        about += f" (con una consulta, {timeline.MAX_ON_TOPIC} como máximo)"
    st.caption(f"{count(len(rows))} tesis" + (f" de {count(total)}" if total else "") + about)
    st.altair_chart(charts.timeline(rows), key="tiempo_chart")
    if timeline.year_only(rows):
        st.caption("Las tesis fechadas sólo por año se reparten a lo largo de ese año.")
    st.dataframe(
        timeline.table(rows),
        hide_index=True,
        key="tiempo_table",
        column_config=timeline.TABLE_CONFIG,
    )
elif items is not None:
    st.info("Ninguna tesis coincide.")

for which, (label, _) in SHORTCUTS.items():
    if clicked[which]:
        typed = query.strip()
        ends = api_status.attempt(label, client.extreme, which, typed or None, chosen, 5)
        st.session_state[f"tiempo_{which}_hits"] = ends and (ends.get("hits") or ends.get("items"))
        about = f" sobre «{escape_md(typed)}»" if typed else " bajo los filtros" if chosen else ""
        st.session_state[f"tiempo_{which}_about"] = about
    if hits := st.session_state.get(f"tiempo_{which}_hits"):
        st.markdown(f"**{label}**{st.session_state.get(f'tiempo_{which}_about') or ''}")
        frame = timeline.table(timeline.chart_rows(hits, "ASC" if which == "earliest" else "DESC"))
        st.dataframe(
            frame, hide_index=True, key=f"tiempo_{which}_table", column_config=timeline.TABLE_CONFIG
        )
