"""The context block and the system prompt sent to the LLM; both are returned by the API.

Tesis get a Spanish legal prompt (dates compared, contradictions named, the source hierarchy);
records of a generic dated corpus (no época: ``Reference.generic``) get a plain prompt with no
legal vocabulary, each record's full date and its own fields.

Example::

    messages = build_messages("¿Procede la suspensión?", refs)
    # [{"role": "system", "content": "...Referencias válidas: [1], [2]..."},
    #  {"role": "user", "content": "Referencias:\\n\\n=== [Referencia 1] ... Pregunta: ..."}]
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from api.core.confidence import Confidence
from api.core.references import MODERN_YEAR, Reference, all_predate, in_date_order
from api.core.validity import describe

# From the Décima Época on (2011: human-rights and amparo reforms) a criterion is "recent".
RECENT_YEAR = 2011


def valid_numbers(refs: Sequence[Reference]) -> str:
    """'[1], [2], [3]', or 'ninguna' when there are no references."""
    return ", ".join(ref.marker for ref in refs) or "ninguna"


def _percent(value: float) -> str:
    return f"{value * 100:.1f} %"


def boost_percent(ref: Reference) -> str:
    """The boost (final ÷ relevance) as a signed percentage: '+12 %', '-30 %', '+0 %'."""
    return f"{(ref.boost - 1) * 100:+.0f} %"


def is_generic(refs: Sequence[Reference]) -> bool:
    """True for references of a generic (non-legal) corpus."""
    return bool(refs) and all(ref.generic for ref in refs)


def _scores(ref: Reference, spanish: bool) -> list[str]:
    if spanish:
        return [
            f"Similitud semántica: {_percent(ref.max_similarity)} (máxima; promedio "
            f"{_percent(ref.avg_similarity)} en {ref.chunk_count} fragmento(s))",
            f"Puntuación final (con recencia): {ref.final_score:.3f} · relevancia sin "
            f"recencia: {ref.relevance:.3f} · impulso: {boost_percent(ref)}",
        ]
    return [
        f"Semantic similarity: {_percent(ref.max_similarity)} (best; mean "
        f"{_percent(ref.avg_similarity)} over {ref.chunk_count} fragment(s))",
        f"Final score (with recency): {ref.final_score:.3f} · relevance without recency: "
        f"{ref.relevance:.3f} · boost: {boost_percent(ref)}",
    ]


def _fragments(ref: Reference, spanish: bool) -> list[str]:
    lines = []
    for fragment in ref.fragments:
        if spanish:
            lines.append(
                f"--- Fragmento (líneas {fragment.lines}) · similitud "
                f"{_percent(fragment.similarity)} ---"
            )
        else:
            lines.append(
                f"--- Fragment (lines {fragment.lines}) · similarity "
                f"{_percent(fragment.similarity)} ---"
            )
        lines.append(fragment.text)
    return lines


def _legal_block(ref: Reference) -> list[str]:
    return [
        f"=== [Referencia {ref.number}] {ref.rubro} ===",
        f"Registro digital: {ref.registro}" + (f" · Clave: {ref.clave}" if ref.clave else ""),
        f"Tipo: {ref.tipo}",
        f"Época: {ref.epoca}",
        f"Año: {ref.anio}" + (f" (fecha: {ref.fecha.isoformat()})" if ref.fecha else ""),
        f"Materias: {', '.join(ref.materias) or 'no indicadas'}",
        *_scores(ref, spanish=True),
        f"Vigencia: {describe(ref.status)}",
        *([f"Advertencia: {ref.warning}"] if ref.warning else []),
        *(
            ["Texto incompleto: el registro guardado no tiene el texto íntegro."]
            if ref.partial
            else []
        ),
        *_fragments(ref, spanish=True),
    ]


def _generic_block(ref: Reference) -> list[str]:
    day = ref.fecha.isoformat() if ref.fecha else str(ref.anio)
    lines = [f"=== [Reference {ref.number}] {ref.rubro} ===", f"ID: {ref.registro}", f"Date: {day}"]
    lines += [f"{name}: {value.isoformat()}" for name, value in ref.dates]
    lines += [f"{name}: {value}" for name, value in ref.extra]
    return [*lines, *_scores(ref, spanish=False), *_fragments(ref, spanish=False)]


def build_context(refs: Sequence[Reference]) -> str:
    """One block per reference: header, metadata, scores (similarity, final with recency,
    boost), vigencia, then its fragments with line spans and their own similarity."""
    generic = is_generic(refs)
    blocks = ["\n".join(_generic_block(ref) if generic else _legal_block(ref)) for ref in refs]
    return "\n\n".join(blocks)


_ROLE = (
    "Eres un asistente de investigación jurídica sobre tesis del Semanario Judicial de la "
    "Federación (Suprema Corte de Justicia de la Nación, México). Respondes en español."
)

_PRIORITY_RULES = "\n".join(
    [
        "Reglas de prioridad:",
        "1. Prefiere las épocas recientes: Duodécima, Undécima y Décima Época antes que la "
        "Novena y las anteriores.",
        "2. Prefiere la jurisprudencia (obligatoria) sobre las tesis aisladas (orientadoras) y "
        "dilo al citarlas.",
        "3. En cada cita indica explícitamente la época y el año, por ejemplo: "
        "(Décima Época, 2014) [1].",
        "4. Si todas las fuentes son anteriores a {year}, advierte que pueden no reflejar el "
        "criterio vigente.",
        "5. Si una fuente está superada, sustituida o abandonada, adviértelo y nombra el "
        "criterio que la reemplaza.",
    ]
)

_HIERARCHY = "\n".join(
    [
        f"Jerarquía de fuentes (reciente = desde {RECENT_YEAR}, Décima Época o posterior):",
        "1. Jurisprudencia reciente.",
        "2. Tesis aislada reciente.",
        "3. Jurisprudencia antigua, solo si no hay un criterio reciente sobre el punto.",
        "4. Tesis aislada antigua, solo con la advertencia de que puede no reflejar el criterio "
        "vigente.",
    ]
)

_ANALYSIS = "\n".join(
    [
        "Antes de responder:",
        "- Compara las fechas (año y época) de las referencias listadas abajo.",
        "- Si un criterio anterior a una reforma contradice uno posterior (o uno de una época "
        "contradice a otro de otra época), nombra la contradicción, di cuál prevalece y por "
        "qué (el posterior a la reforma, la jurisprudencia frente a la aislada, o la nota de "
        "vigencia que lo supera).",
        "- Si las referencias abarcan varias épocas, describe cómo evolucionó el criterio, de "
        "la más antigua a la más reciente.",
        "- Cita todas las referencias de las que procede cada dato: si un dato está en varias, "
        "cítalas juntas, por ejemplo [1][2].",
    ]
)


def _dates_line(refs: Sequence[Reference]) -> str:
    """Each reference's year, época and tipo, oldest first (what the model must compare)."""
    ordered = sorted(refs, key=lambda r: (r.fecha or date(r.anio, 7, 1), r.number))
    items = [f"{r.marker} {r.anio} ({r.epoca or 'sin época'}, {r.tipo.lower()})" for r in ordered]
    first, last = ordered[0], ordered[-1]
    span = f"de {first.anio} a {last.anio}"
    epocas = {r.epoca for r in refs if r.epoca}
    eras = f"; abarcan {len(epocas)} épocas" if len(epocas) > 1 else ""
    return f"Fechas de las referencias, de la más antigua a la más reciente ({span}{eras}): " + (
        "; ".join(items)
    )


def _alerts(refs: Sequence[Reference], confidence: Confidence | None = None) -> list[str]:
    alerts = _cautions(refs, confidence)
    alerts += [
        f"- La referencia {ref.marker} está {describe(ref.status)}: adviértelo al citarla."
        for ref in refs
        if not ref.status.vigente
    ]
    alerts += [
        f"- La referencia {ref.marker}: {ref.warning} Dilo al citarla."
        for ref in refs
        if ref.warning
    ]
    alerts += [
        f"- La referencia {ref.marker} tiene el texto incompleto: no cites como completa una "
        "frase cortada."
        for ref in refs
        if ref.partial
    ]
    if all_predate(refs):
        alerts.append(
            f"- Todas las referencias son anteriores a {MODERN_YEAR}: advierte que pueden no "
            "reflejar el criterio vigente."
        )
    return alerts


def _cautions(refs: Sequence[Reference], confidence: Confidence | None) -> list[str]:
    """What a low confidence of the search asks of the answer (``api.core.confidence``)."""
    if confidence is None or not refs:
        return []
    cautions = []
    if confidence.close_race and len(refs) > 1:
        cautions.append(
            f"- La referencia {refs[0].marker} no destaca con claridad sobre las demás: no la "
            "presentes como la única respuesta; compara lo que dicen las referencias "
            "pertinentes."
        )
    if confidence.near_floor:
        cautions.append(
            "- Puede que ninguna referencia responda de lleno a la pregunta: si no la "
            "responden, dilo en lugar de forzar una respuesta."
        )
    return cautions


def build_system_prompt(
    refs: Sequence[Reference], full_text: bool = False, confidence: Confidence | None = None
) -> str:
    """Instructions: valid numbers, answer only from the references, compare dates, name
    contradictions, the source hierarchy, cite every source of a fact.

    ``full_text`` asks for a literal transcription of the fragments instead of a synthesis;
    ``confidence``, the search's, adds its cautions when low. Generic corpora get
    ``build_generic_prompt``.
    """
    if is_generic(refs):
        return build_generic_prompt(refs, full_text)
    if not refs:
        return (
            f"{_ROLE}\n\nReferencias válidas: ninguna\n"
            'No se recuperó ninguna referencia. Responde exactamente: "No tengo información '
            'sobre ese tema en las tesis recuperadas." No uses conocimiento externo ni cites '
            "números entre corchetes."
        )
    task = (
        "El usuario pide el texto completo: transcribe literalmente los fragmentos de las "
        "referencias pertinentes, sin resumirlos ni completarlos, e indica que solo dispones "
        "de los fragmentos recuperados."
        if full_text
        else "Responde de forma clara y breve con base en las referencias."
    )
    parts = [
        _ROLE,
        f"Referencias válidas: {valid_numbers(refs)}",
        "- Cita cada afirmación con el número de su referencia entre corchetes, por ejemplo "
        f"{refs[0].marker}. Usa solo los números de la lista anterior; está prohibido citar "
        "cualquier otro número.",
        "- Responde únicamente con la información de las referencias del contexto; no uses "
        'conocimiento externo. Si las referencias no contienen la respuesta, di: "No tengo '
        'información sobre …" e indica el tema.',
        f"- {task}",
        _dates_line(refs),
        _ANALYSIS,
        _HIERARCHY,
        _PRIORITY_RULES.format(year=MODERN_YEAR),
    ]
    alerts = _alerts(refs, None if full_text else confidence)  # a transcription compares nothing
    if alerts:
        parts.append("Advertencias sobre estas referencias:\n" + "\n".join(alerts))
    return "\n\n".join(parts)


_GENERIC_ROLE = (
    "You are a research assistant answering questions about a collection of dated records. "
    "Answer in the language of the question."
)


def _order_note(refs: Sequence[Reference]) -> str | None:
    order = in_date_order(refs)
    if order == "ASC":
        return "The references are listed in date order, oldest first."
    if order == "DESC":
        return "The references are listed in date order, newest first."
    return None


def build_generic_prompt(refs: Sequence[Reference], full_text: bool = False) -> str:
    """The prompt for a non-legal corpus: each record's full date, its fields, and whether
    the references come in date order."""
    if not refs:
        return (
            f"{_GENERIC_ROLE}\n\nValid references: none\n"
            'No record was retrieved. Reply exactly: "I have no information about that in the '
            'retrieved records." Do not use outside knowledge or cite bracketed numbers.'
        )
    task = (
        "The user asks for the full text: copy the fragments of the relevant references "
        "verbatim, and say that only the retrieved fragments are available."
        if full_text
        else "Answer clearly and briefly from the references."
    )
    dated = "; ".join(
        f"{r.marker} {r.fecha.isoformat() if r.fecha else r.anio}"
        + "".join(f", {name} {value.isoformat()}" for name, value in r.dates)
        for r in refs
    )
    parts = [
        _GENERIC_ROLE,
        f"Valid references: {', '.join(r.marker for r in refs)}",
        "- Cite every statement with the number of its reference in brackets, for example "
        f"{refs[0].marker}; when a fact comes from several references cite them all, e.g. "
        "[1][2]. Use only the numbers listed above.",
        "- Answer only from the references; do not use outside knowledge. If they do not "
        'contain the answer, say "I have no information about …" and name the topic.',
        f"- {task}",
        f"- Give dates in full (year, month and day) as listed. Dates: {dated}.",
        "- For questions about the first, earliest, latest or most recent record, compare the "
        "dates of the references and use the date the question refers to.",
    ]
    note = _order_note(refs)
    if note:
        parts.append(note)
    return "\n\n".join(parts)


def build_user_message(question: str, refs: Sequence[Reference]) -> str:
    if is_generic(refs):
        context = build_context(refs)
        return f"References:\n\n{context}\n\nQuestion: {question.strip()}"
    context = build_context(refs) or "(sin referencias)"
    return f"Referencias:\n\n{context}\n\nPregunta: {question.strip()}"


def build_messages(
    question: str,
    refs: Sequence[Reference],
    full_text: bool = False,
    confidence: Confidence | None = None,
) -> list[dict[str, str]]:
    """System prompt, then a user message with the context and the question."""
    return [
        {"role": "system", "content": build_system_prompt(refs, full_text, confidence)},
        {"role": "user", "content": build_user_message(question, refs)},
    ]
