"""What an analyst takes away: a citation in SJF style, the answer as Markdown, references as CSV.

Pure: no Streamlit.

>>> citation({"rubro": "PENSIÓN ALIMENTICIA.", "registro": 2006225, "clave": "P./J. 21/2014 (10a.)",
...           "epoca": "Décima Época", "instancia": "Pleno", "tipo": "JURISPRUDENCIA", "anio": 2014})
'PENSIÓN ALIMENTICIA. Registro digital: 2006225; Instancia: Pleno; Décima Época; Tesis: P./J. 21/2014 (10a.); Fuente: Gaceta del Semanario Judicial de la Federación; Año: 2014; Tipo: Jurisprudencia.'
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.formatting import (
    date_es,
    epoca_order,
    fecha_label,
    materias_label,
    status_text,
    tesis_url,
    tipo_label,
    year,
)
from dashboard.rendering import CITATION, MAX_MARKER_CHARS, cited_numbers


def fuente(epoca: str | None) -> str:
    """The SJF publication of an época: the Gaceta from the Décima on, 'y su Gaceta' in the
    Novena, the Semanario alone before."""
    order = epoca_order(epoca or "")
    if order >= 12:  # unknown época
        return "Semanario Judicial de la Federación"
    if order >= 9:
        return "Gaceta del Semanario Judicial de la Federación"
    if order == 8:
        return "Semanario Judicial de la Federación y su Gaceta"
    return "Semanario Judicial de la Federación"


def citation(ref: Mapping[str, Any]) -> str:
    """Rubro, registro digital, instancia, época, clave, fuente, date and tipo, SJF style."""
    rubro = str(ref.get("rubro") or "").strip()
    parts = [f"Registro digital: {ref.get('registro')}"]
    if ref.get("instancia"):
        parts.append(f"Instancia: {ref['instancia']}")
    if ref.get("epoca"):
        parts.append(str(ref["epoca"]))
    if ref.get("materias"):
        parts.append(f"Materia(s): {materias_label(ref['materias'])}")
    if ref.get("clave"):
        parts.append(f"Tesis: {ref['clave']}")
    parts.append(f"Fuente: {fuente(ref.get('epoca'))}")
    parts.append(f"{'Fecha' if ref.get('fecha') else 'Año'}: {fecha_label(ref)}")
    parts.append(f"Tipo: {tipo_label(ref.get('tipo'))}")
    return f"{rubro} {'; '.join(parts)}."


def cited_record(ref: Mapping[str, Any], record: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a reference is cited from: the reference, with the tesis' stored ``record`` (when
    read) for what the reference lacks, its instancia first, as the SJF names it."""
    full = record or {}
    instancia = sjf_instancia(full.get("instancia") or ref.get("instancia"), full.get("organo"))
    return {**full, **ref, "instancia": instancia}


# The Court's chambers: the SJF's «Instancia» of a Supreme Court tesis is the one that issued it.
_CHAMBERS = (
    "Pleno",
    "Primera Sala",
    "Segunda Sala",
    "Tercera Sala",
    "Cuarta Sala",
    "Sala Auxiliar",
)


def sjf_instancia(instancia: str | None, organo: str | None) -> str | None:
    """The «Instancia» of an SJF citation: a Supreme Court tesis names its chamber («Pleno»,
    «Segunda Sala»), others their kind of court («Tribunales Colegiados de Circuito»).

    >>> sjf_instancia("Suprema Corte de Justicia de la Nación", "Segunda Sala")
    'Segunda Sala'
    >>> sjf_instancia("Tribunales Colegiados de Circuito", "PRIMER TRIBUNAL COLEGIADO DEL SEXTO CIRCUITO.")
    'Tribunales Colegiados de Circuito'
    """
    if instancia and instancia.startswith("Suprema Corte") and organo in _CHAMBERS:
        return organo
    return instancia


def answer_markdown(
    question: str,
    result: Mapping[str, Any],
    records: Mapping[int, Mapping[str, Any]] | None = None,
) -> str:
    """The question, the answer (its [N] kept) and each reference with citation and link;
    ``records``, the tesis read by registro, complete each citation as the panel's."""
    refs = list(result.get("references") or [])
    records = records or {}
    known = {int(r["number"]) for r in refs}
    answer = CITATION.sub(lambda m: _known_cites(m, known), str(result.get("answer") or ""))
    lines = [f"# {question.strip()}", "", answer.strip() or "_Sin respuesta redactada._", ""]
    lines += ["## Referencias", ""]
    for ref in refs:
        registro = int(ref["registro"])
        url = ref.get("url") or tesis_url(registro)
        lines.append(
            f"[{ref['number']}] {citation(cited_record(ref, records.get(registro)))} "
            f"Vigencia: {status_text(ref.get('status'))}. <{url}>"
        )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


CSV_COLUMNS = [
    "N",
    "Registro digital",
    "Rubro",
    "Clave",
    "Época",
    "Año",
    "Fecha",
    "Tipo",
    "Materias",
    "Vigencia",
    "Similitud",
    "Puntuación final",
    "Enlace SJF",
]


def references_csv(refs: Sequence[Mapping[str, Any]]) -> bytes:
    """UTF-8 with a byte-order mark: without one Excel reads «Época» as «Ã‰poca»."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for r in refs:
        registro = int(r["registro"])
        writer.writerow(
            [
                r.get("number"),
                registro,
                r.get("rubro"),
                r.get("clave"),
                r.get("epoca"),
                year(r.get("anio")),
                date_es(r.get("fecha")) if r.get("fecha") else "",
                tipo_label(r.get("tipo")),
                materias_label(r.get("materias")),
                status_text(r.get("status")),
                "" if r.get("similarity") is None else f"{r['similarity']:.4f}",
                "" if r.get("finalScore") is None else f"{r['finalScore']:.4f}",
                r.get("url") or tesis_url(registro),
            ]
        )
    return out.getvalue().encode("utf-8-sig")


def _known_cites(marker: re.Match[str], known: set[int]) -> str:
    """A citation marker as the API keeps it: whole when it cites only known references,
    rewritten to the known ones when it mixes in others ("[1, 9]" is "[1]"), gone when it
    cites none; a bracket too long to be a marker stays text."""
    if len(marker.group(0)) > MAX_MARKER_CHARS:
        return marker.group(0)
    numbers = cited_numbers(marker.group(1))
    if set(numbers) <= known:
        return marker.group(0)
    kept = [str(n) for n in numbers if n in known]
    return f"[{', '.join(kept)}]" if kept else ""
