"""Why the results are what they are: detected intent, discarded hits, citation check."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from dashboard.components.scoring import LINK
from dashboard.formatting import escape_md, facts_line, pct, tesis_url, year
from dashboard.payloads import CitationCheck, Confidence, Discarded, Intent
from dashboard.spanish import CODES, code_label


def intent_summary(intent: Intent | None) -> None:
    """The materia and temporal intent the API detected, with the words that triggered it."""
    if not intent:
        return
    if missing := intent.get("notFound"):
        st.warning(
            f"No está en el corpus: {escape_md(', '.join(missing))}; "
            "se respondió con las demás citadas."
        )
    temporal = intent.get("temporal")
    # a request of filters alone ("tesis del Sexto Circuito") is listed newest first: no
    # temporal word asked for the latest
    listing = temporal == "latest" and not intent.get("temporalTriggers")
    wanted = "Listado, más recientes primero" if listing else TEMPORAL.get(temporal or "", temporal)
    st.markdown(
        facts_line(
            f"Materia detectada: {escape_md(str(intent.get('materia') or 'Ninguna'))}",
            f"Intención temporal: {wanted or 'Ninguna'}",
            f"Año de corte: {year(intent.get('cutoffYear'))}",
            f"Peso de la recencia aplicado: {pct(intent.get('recencyWeight'), 0)}",
        )
    )
    triggers = [
        ("materia", intent.get("materiaTriggers")),
        ("temporal", intent.get("temporalTriggers")),
        ("tema", intent.get("topicWords") or intent.get("topic") or []),  # words, not stems
        ("filtros", intent.get("namedFilters")),
        ("excluidas", intent.get("excluded")),
    ]
    words = [f"{kind}: «{', '.join(t)}»" for kind, t in triggers if t]
    notes = [f"Ordenación: {INTENT_MODES.get(intent.get('mode') or '', intent.get('mode'))}."]
    if cited := intent.get("cited"):
        listed = ", ".join(str(r) for r in cited)
        notes.insert(0, f"Búsqueda por registro o clave: {listed}, en el orden citado.")
    if source := intent.get("materiaSource"):
        notes.append(f"Materia tomada de: {SOURCES.get(source, source)}.")
    if intent.get("rulesApplied"):
        notes.append("Reglas de vigencia aplicadas.")
    elif intent.get("rulesApplied") is not None:
        why = (
            "no se aplican a preguntas por lo más antiguo (la historia del criterio)"
            if temporal == "earliest"
            else "ninguna tesis afectada, o desactivadas en la búsqueda"
        )
        notes.append(f"Reglas de vigencia no aplicadas: {why}.")
    notes.append(
        "Disparadores — " + "; ".join(words) if words else "Sin disparadores en la pregunta."
    )
    st.caption(" ".join(n for n in notes if not n.startswith("Ordenación: None")))


INTENT_MODES = {
    "relevance": "por relevancia",
    "date_sorted": "por fecha",
    "blend": "mezcla de fecha y relevancia",
}
SOURCES = {"filter": "los filtros", "question": "la pregunta", "hits": "los resultados"}
TEMPORAL = {"earliest": "La más antigua", "latest": "La más reciente", "current": "Vigente hoy"}


DISCARDED_COLUMNS = [
    "Registro",
    "Año",
    "Regla",
    "Motivo",
    "Rubro",
]
RULES_HELP = " · ".join(
    f"{label}: {text}"
    for label, text in CODES.values()
    if label in ("Anterior a la reforma", "Anterior a la Novena Época", "Perdió vigencia")
)
DISCARDED_CONFIG = {
    "Registro": LINK,
    "Año": st.column_config.Column(width=45),
    "Regla": st.column_config.Column(width=120, help=RULES_HELP),
    "Motivo": st.column_config.Column(width=150),
    "Rubro": st.column_config.Column(width=170),
}


def discarded_frame(discarded: Sequence[Discarded]) -> pd.DataFrame:
    """One row per tesis and reason (the API lists every discarded chunk)."""
    unique = {(d.get("registro"), d.get("code")): d for d in reversed(list(discarded))}
    discarded = list(reversed(unique.values()))
    rows = [
        [
            tesis_url(int(d["registro"])),
            year(d.get("anio")),
            code_label(d.get("code")),
            d.get("reason"),
            d.get("rubro"),
        ]
        for d in discarded
    ]
    return pd.DataFrame(rows, columns=DISCARDED_COLUMNS)


def discarded_table(discarded: Sequence[Discarded] | None, key: str) -> None:
    if discarded is None:
        return
    if not discarded:
        st.caption("Ningún resultado descartado.")
        return
    st.dataframe(
        discarded_frame(discarded),
        hide_index=True,
        key=key,
        width="stretch",
        column_config=DISCARDED_CONFIG,
    )


def citation_check(check: CitationCheck | None, phantoms_removed: Sequence[int]) -> None:
    """Coverage, cited, phantom (removed) and uncited references."""
    if not check:
        return
    phantoms = sorted({*map(int, check.get("phantom") or []), *phantoms_removed})
    valid = check.get("valid")
    cited = len(valid if valid is not None else check.get("cited") or [])
    st.markdown(
        facts_line(
            f"Cobertura de citas: {pct(check.get('coverage'), 0)}",
            f"Referencias citadas: {cited}",
            f"Citas fantasma eliminadas: {len(phantoms)}",
            f"Referencias sin citar: {len(check.get('uncited') or [])}",
        )
    )
    if phantoms:
        listed = ", ".join(f"[{n}]" for n in phantoms)
        st.caption(f"Citas a referencias inexistentes, quitadas de la respuesta: {listed}")


def confidence(level: Confidence | None) -> None:
    """How far the API trusts the first result of a relevance ranking: a line when high, a
    warning with its reasons when low, nothing for a date order or a lookup (none given)."""
    if not level:
        return
    if level.get("level") == "HIGH":
        st.caption(
            f"Confianza alta en el primer resultado: aventaja a los demás en "
            f"{float(level.get('lead') or 0):.2f} de relevancia."
        )
        return
    reasons = " ".join(escape_md(str(r)) for r in level.get("reasons") or [])
    st.warning(f"Confianza baja en el primer resultado. {reasons}", icon=":material/help:")
