"""Numbers, dates and labels as Mexican analysts read them (Spanish, accents, %).

>>> pct(0.8432)
'84.3 %'
>>> year(2011)
'2011'
>>> date_es("2014-04-28")
'28 de abril de 2014'
>>> estado_label("sin_efectos")
'Sin efectos'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

SJF_TESIS_URL = "https://sjf2.scjn.gob.mx/detalle/tesis/{registro}"

EPOCAS: tuple[str, ...] = (
    "Primera Época",
    "Segunda Época",
    "Tercera Época",
    "Cuarta Época",
    "Quinta Época",
    "Sexta Época",
    "Séptima Época",
    "Octava Época",
    "Novena Época",
    "Décima Época",
    "Undécima Época",
    "Duodécima Época",
)
TIPOS: Mapping[str, str] = {"JURISPRUDENCIA": "Jurisprudencia", "AISLADA": "Aislada"}

_MONTHS = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)

_ESTADOS = {
    "vigente": "Vigente",
    "abandonada": "Abandonada",
    "interrumpida": "Interrumpida",
    "modificada": "Modificada",
    "superada": "Superada",
    "sin_efectos": "Sin efectos",
    "sustituida": "Sustituida",
    "texto_sustituido": "Texto sustituido",
    "aclarada": "Aclarada",
    "SUPERSEDED": "Superada",
}

_MODES = {
    "RAG": "RAG (respuesta redactada por el modelo de lenguaje)",
    "EXTRACTIVE": "Extractivo (fragmentos citados, sin modelo de lenguaje)",
    "FULL_TEXT": "Texto completo transcrito por el modelo de lenguaje (verifíquelo en la fuente)",
    "ABSTAINED": "Sin respuesta (la API se abstuvo)",
}

_TEMPORAL_MODES = {
    None: "Según la API",
    "AUTO": "Automático",
    "OFF": "Desactivado (sólo relevancia)",
    "SORT": "Ordenar por fecha",
    "BLEND": "Mezclar fecha y relevancia",
}

_SEVERITY_ES = {
    "critical": "crítica",
    "error": "error",
    "high": "alta",
    "warning": "advertencia",
    "medium": "media",
    "low": "baja",
    "info": "informativa",
}
_SEVERITY = {
    "critical": "red",
    "error": "red",
    "high": "red",
    "warning": "orange",
    "medium": "orange",
}


def pct(value: float | None, digits: int = 1) -> str:
    """A 0..1 fraction as a percentage; '—' when unknown."""
    if value is None:
        return "—"
    return f"{value * 100:.{digits}f} %"


def count(value: int | None) -> str:
    """Thousands with commas, as in Mexico: 1,060."""
    return "—" if value is None else f"{value:,}"


def year(value: int | None) -> str:
    """A year without thousands separator."""
    return "—" if value is None else str(int(value))


def date_es(value: str | date | None) -> str:
    """'2014-04-28' -> '28 de abril de 2014'; partial or odd values are returned as given."""
    if value is None or value == "":
        return "—"
    text = value.isoformat() if isinstance(value, date) else str(value)
    m = re.match(r"^(\d{4})-(\d{2})-(\d{2})", text)
    if not m:
        return text
    y, mo, d = (int(g) for g in m.groups())
    if not 1 <= mo <= 12:
        return text
    return f"{d} de {_MONTHS[mo - 1]} de {y}"


def fecha_label(record: Mapping[str, Any]) -> str:
    """A tesis' ``fecha`` in Spanish, else its year (``anio``)."""
    return date_es(record["fecha"]) if record.get("fecha") else year(record.get("anio"))


def facts_line(*facts: str) -> str:
    """Facts on one line, separated by middle dots."""
    return " · ".join(facts)


def datetime_es(value: str | None) -> str:
    """An ISO timestamp as '28 de abril de 2014, 13:05'."""
    if not value:
        return "—"
    m = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})", value)
    return f"{date_es(m.group(1))}, {m.group(2)}" if m else date_es(value)


def estado_label(estado: str | None) -> str:
    if not estado:
        return "—"
    return _ESTADOS.get(estado, estado.replace("_", " ").capitalize())


def status_text(status: Mapping[str, Any] | None) -> str:
    """'Vigente' or 'Superada por 2006225 (P./J. 21/2014 (10a.)) desde 28 de abril de 2014'."""
    if not status:
        return "Vigencia desconocida"
    if status.get("vigente", True) and status.get("estado") in (None, "vigente"):
        return "Vigente"
    words = [estado_label(status.get("estado"))]
    if status.get("parcial"):
        words.append("parcialmente")
    reg, clave = status.get("porRegistro"), status.get("porClave")
    if reg and clave:
        words.append(f"por {reg} ({clave})")
    elif reg or clave:
        words.append(f"por {reg or clave}")
    if status.get("desde"):
        words.append(f"desde {date_es(status['desde'])}")
    return " ".join(words)


def vigencia_group(status: Mapping[str, Any] | None) -> str:
    """Two-way grouping for charts: 'Vigente' / 'No vigente'."""
    return "Vigente" if not status or status.get("vigente", True) else "No vigente"


def vigencia_short(status: Mapping[str, Any] | None) -> str:
    """A table cell: 'Vigente', or the estado alone ('Superada'); details on the panel."""
    text = status_text(status)
    if text in ("Vigente", "Vigencia desconocida") or not status:
        return text
    return estado_label(status.get("estado")) if status.get("estado") else "No vigente"


def tipo_label(tipo: str | None) -> str:
    if not tipo:
        return "—"
    return TIPOS.get(tipo.upper(), tipo)


def materias_label(materias: Iterable[str] | None) -> str:
    items = list(materias or [])
    return ", ".join(items) if items else "—"


def mode_label(mode: str | None) -> str:
    if not mode:
        return "Modo desconocido"
    return _MODES.get(mode.upper(), mode)


def temporal_mode_label(mode: str | None) -> str:
    return _TEMPORAL_MODES.get(mode, str(mode))


_PROFILES = {
    "DEFAULT": "Predeterminado",
    "SEED": "Semilla (diseño original)",
    "GENERIC": "Genérico",
}
_RETRIEVAL = {
    "HYBRID": "Híbrida (BM25 + vectores)",
    "VECTOR": "Vectorial",
    "LEXICAL": "Léxica (BM25)",
}


def profile_label(profile: str | None) -> str:
    return "—" if not profile else _PROFILES.get(profile.upper(), profile)


def retrieval_label(mode: str | None) -> str:
    return "—" if not mode else _RETRIEVAL.get(mode.upper(), mode)


def severity_badge(severity: str | None) -> str:
    """A coloured markdown badge: red (critical/error/high), orange (warning/medium), blue."""
    level = (severity or "info").lower()
    return f":{_SEVERITY.get(level, 'blue')}-badge[{_SEVERITY_ES.get(level, level)}]"


def tesis_url(registro: int) -> str:
    return SJF_TESIS_URL.format(registro=registro)


def epoca_order(name: str) -> int:
    """Position of an época for sorting; unknown names go last."""
    return EPOCAS.index(name) if name in EPOCAS else len(EPOCAS)


def lines_span(start: int | None, end: int | None) -> str:
    if start is None:
        return "—"
    return f"línea {start}" if end in (None, start) else f"líneas {start}–{end}"


def chars_span(start: int | None, end: int | None) -> str:
    return "—" if start is None else f"caracteres {count(start)}–{count(end)}"


_MD_SPECIAL = re.compile(r"([\\`*_{}<>#+|$~])")
_MD_BRACKETS = re.compile(r"([\[\]])")


def escape_md(text: str, keep_brackets: bool = False) -> str:
    """Text shown literally in ``st.markdown`` (no emphasis, math or links)."""
    out = _MD_SPECIAL.sub(r"\\\1", text)
    return out if keep_brackets else _MD_BRACKETS.sub(r"\\\1", out)
