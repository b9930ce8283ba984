"""The answer with [N] badges, the clickable badge bar and the reference panel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from dashboard import client, export
from dashboard.components import api_status, feedback
from dashboard.formatting import (
    chars_span,
    count,
    escape_md,
    facts_line,
    fecha_label,
    lines_span,
    materias_label,
    pct,
    status_text,
    tesis_url,
    tipo_label,
)
from dashboard.payloads import Status


def badge_bar(numbers: Sequence[int], state_key: str, cited: set[int] | None = None) -> None:
    """One button per reference, labelled [N]; a click opens that reference's panel."""
    selected = st.session_state.get(state_key)
    with st.container(horizontal=True, key=f"{state_key}_bar"):
        for n in numbers:
            st.button(
                f"[{n}]",
                key=f"{state_key}_{n}",
                type="primary" if selected == n else "secondary",
                help="Abrir la referencia"
                + ("" if cited is None or n in cited else " (no citada)"),
                on_click=_select,
                args=(state_key, n),
            )


def _select(state_key: str, n: int) -> None:
    st.session_state[state_key] = None if st.session_state.get(state_key) == n else n


def reference_panel(ref: Mapping[str, Any], log_id: str | None = None) -> None:
    """Rubro, registro (linked to the SJF), época, fecha, tipo, vigencia, scores, fragments,
    the citation to copy and the full text; with ``log_id``, useful / not useful buttons."""
    registro = int(ref["registro"])
    with st.container(border=True, key=f"ref_panel_{registro}"):
        number = f"[{ref['number']}] " if ref.get("number") is not None else ""
        st.markdown(f"##### {number}{escape_md(ref.get('rubro', ''))}")
        url = ref.get("url") or tesis_url(registro)
        clave = f" · Clave: {escape_md(ref['clave'])}" if ref.get("clave") else ""
        st.markdown(f"Registro digital: [{registro}]({url}){clave}")
        st.markdown(
            facts_line(
                f"**Época:** {escape_md(ref.get('epoca') or '—')}",
                f"**Fecha:** {fecha_label(ref)}",
                f"**Tipo:** {tipo_label(ref.get('tipo'))}",
                f"**Materias:** {escape_md(materias_label(ref.get('materias')))}",
            )
        )
        _status(ref.get("status"), warned=bool(ref.get("warning")))
        if ref.get("warning"):
            st.markdown(f":orange-badge[Advertencia] {escape_md(str(ref['warning']))}")
        if ref.get("partial"):
            st.markdown(":orange-badge[Texto incompleto en la fuente]")
        fragments = list(ref.get("fragments") or [])
        cols = st.columns(3)
        cols[0].metric("Similitud", pct(ref.get("similarity")))
        cols[1].metric("Puntuación final", pct(ref.get("finalScore")))
        cols[2].metric("Fragmentos", count(ref.get("chunkCount") or len(fragments)))
        for fragment in fragments:
            _fragment(fragment)
        record = api_status.attempt("Texto completo", client.tesis, registro)
        full: Mapping[str, Any] = record or {}
        st.markdown("**Cita (estilo SJF)** · el botón de la esquina la copia")
        st.code(
            export.citation(export.cited_record(ref, record)),
            language=None,
            wrap_lines=True,
        )
        if full.get("texto"):
            with st.expander("Texto completo de la tesis", icon=":material/article:"):
                if full.get("partial"):
                    st.caption("Texto incompleto en la fuente.")
                st.text(str(full["texto"]))
                if full.get("precedentes"):
                    st.caption("Precedentes")
                    st.text(str(full["precedentes"]))
        if log_id:
            st.markdown("**¿Le fue útil esta referencia?**")
            feedback.buttons(log_id, registro)


def _status(status: Status | None, warned: bool = False) -> None:
    """No SJF note against it: "Vigente", or, beside a warning (a criterion before a reform),
    "Sin nota de pérdida de vigencia": a green "Vigente" beside "verifique su vigencia" read as
    a contradiction."""
    text = status_text(status)
    if text == "Vigente" and warned:
        st.markdown(":orange-badge[Sin nota de pérdida de vigencia]")
        return
    if text == "Vigente":
        st.markdown(":green-badge[Vigente]")
        return
    st.markdown(f":red-badge[No vigente] {escape_md(text)}")
    replacement = status.get("porRegistro") if status else None
    if replacement:
        st.markdown(f"Criterio que la reemplaza: [{replacement}]({tesis_url(int(replacement))})")


def _fragment(fragment: Mapping[str, Any]) -> None:
    index = fragment.get("chunkIndex", fragment.get("index"))
    parts = [
        f"Fragmento {index + 1 if isinstance(index, int) else '—'}",
        lines_span(fragment.get("startLine"), fragment.get("endLine")),
        chars_span(fragment.get("startChar"), fragment.get("endChar")),
    ]
    if fragment.get("similarity") is not None:
        parts.append(f"similitud {pct(fragment['similarity'])}")
    st.caption(facts_line(*parts))
    text = str(fragment.get("text") or "").strip()
    if text:
        st.markdown("\n".join(f"> {escape_md(line)}" for line in text.splitlines() if line))


def group_by_registro(hits: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """Hits grouped per tesis, in the order of each tesis' best hit."""
    groups: dict[int, list[Mapping[str, Any]]] = {}
    for hit in hits:
        groups.setdefault(int(hit["registro"]), []).append(hit)
    return list(groups.values())


def hits_as_reference(group: Sequence[Mapping[str, Any]], number: int) -> dict[str, Any]:
    """The hits of one tesis in the reference shape: the best hit, every chunk a fragment."""
    fragments = []
    for hit in group:
        chunk = dict(hit.get("chunk") or {})
        if chunk:
            fragments.append(
                {**chunk, "chunkIndex": chunk.get("index"), "similarity": hit.get("similarity")}
            )
    return {**group[0], "number": number, "fragments": fragments, "chunkCount": len(group)}


def first_per_registro(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The first item of each registro, in order (hits may hold several chunks of one tesis)."""
    seen: set[int] = set()
    out = []
    for item in items:
        if item["registro"] not in seen:
            seen.add(item["registro"])
            out.append(item)
    return out
