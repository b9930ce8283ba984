"""The answer with [N] badges, the clickable badge bar and the reference panel."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from dashboard.components import feedback
from dashboard.formatting import (
    chars_span,
    count,
    escape_md,
    lines_span,
    materias_label,
    pct,
    status_text,
    tesis_url,
    tipo_label,
    year,
)

_CITATION = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")


def answer_markdown(answer: str, numbers: set[int]) -> tuple[str, list[int]]:
    """The answer as markdown with each known [N] as a badge; phantom markers are dropped.

    Returns the markdown and the phantom numbers removed.
    """
    phantoms: list[int] = []

    def badge(match: re.Match[str]) -> str:
        out = []
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            n = int(part)
            if n in numbers:
                out.append(f":blue-badge[\\[{n}\\]]")
            elif n not in phantoms:
                phantoms.append(n)
        return " ".join(out)

    text = _CITATION.sub(badge, escape_md(answer, keep_brackets=True))
    return re.sub(r" +([.,;:])", r"\1", text), phantoms


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
    """Rubro, registro (linked to the SJF), época, año, tipo, vigencia, scores, fragments;
    with ``log_id``, buttons to tell the API whether the reference was useful."""
    registro = int(ref["registro"])
    with st.container(border=True, key=f"ref_panel_{registro}"):
        number = f"[{ref['number']}] " if ref.get("number") is not None else ""
        st.markdown(f"##### {number}{escape_md(ref.get('rubro', ''))}")
        url = ref.get("url") or tesis_url(registro)
        clave = f" · Clave: {escape_md(ref['clave'])}" if ref.get("clave") else ""
        st.markdown(f"Registro digital: [{registro}]({url}){clave}")
        facts = [
            f"**Época:** {ref.get('epoca') or '—'}",
            f"**Año:** {year(ref.get('anio'))}",
            f"**Tipo:** {tipo_label(ref.get('tipo'))}",
            f"**Materias:** {materias_label(ref.get('materias'))}",
        ]
        st.markdown(" · ".join(facts))
        _status(ref.get("status"))
        fragments = list(ref.get("fragments") or [])
        cols = st.columns(3)
        cols[0].metric("Similitud", pct(ref.get("similarity")))
        cols[1].metric("Puntuación final", pct(ref.get("finalScore")))
        cols[2].metric("Fragmentos", count(ref.get("chunkCount") or len(fragments)))
        for fragment in fragments:
            _fragment(fragment)
        if log_id:
            st.markdown("**¿Le fue útil esta referencia?**")
            feedback.buttons(log_id, registro)


def _status(status: Mapping[str, Any] | None) -> None:
    text = status_text(status)
    if text == "Vigente":
        st.markdown(":green-badge[Vigente]")
        return
    st.markdown(f":red-badge[No vigente] {escape_md(text)}")
    replacement = (status or {}).get("porRegistro")
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
    st.caption(" · ".join(parts))
    text = str(fragment.get("text") or "").strip()
    if text:
        st.markdown("\n".join(f"> {escape_md(line)}" for line in text.splitlines() if line))


def hit_as_reference(hit: Mapping[str, Any], number: int) -> dict[str, Any]:
    """A search hit in the reference shape (its matched chunk as the one fragment)."""
    chunk = dict(hit.get("chunk") or {})
    fragment = {**chunk, "chunkIndex": chunk.get("index"), "similarity": hit.get("similarity")}
    return {**hit, "number": number, "fragments": [fragment] if chunk else [], "chunkCount": 1}


def first_per_registro(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The first item of each registro, in order (hits may hold several chunks of one tesis)."""
    seen: set[int] = set()
    out = []
    for item in items:
        if item["registro"] not in seen:
            seen.add(item["registro"])
            out.append(item)
    return out
