"""The context block and the Spanish system prompt sent to the LLM; both are returned by the API.

Example::

    messages = build_messages("¿Procede la suspensión?", refs)
    # [{"role": "system", "content": "...Referencias válidas: [1], [2]..."},
    #  {"role": "user", "content": "Referencias:\\n\\n=== [Referencia 1] ... Pregunta: ..."}]
"""

from __future__ import annotations

from collections.abc import Sequence

from api.core.references import MODERN_YEAR, Reference, all_predate
from api.core.validity import describe


def valid_numbers(refs: Sequence[Reference]) -> str:
    """'[1], [2], [3]', or 'ninguna' when there are no references."""
    return ", ".join(ref.marker for ref in refs) or "ninguna"


def _percent(value: float) -> str:
    return f"{value * 100:.1f} %"


def build_context(refs: Sequence[Reference]) -> str:
    """One block per reference: header, metadata, vigencia, then its fragments with line spans."""
    blocks = []
    for ref in refs:
        lines = [
            f"=== [Referencia {ref.number}] {ref.rubro} ===",
            f"Registro digital: {ref.registro}" + (f" · Clave: {ref.clave}" if ref.clave else ""),
            f"Tipo: {ref.tipo}",
            f"Época: {ref.epoca}",
            f"Año: {ref.anio}",
            f"Materias: {', '.join(ref.materias) or 'no indicadas'}",
            f"Similitud: {_percent(ref.max_similarity)} (máxima; promedio "
            f"{_percent(ref.avg_similarity)} en {ref.chunk_count} fragmento(s))",
            f"Puntuación final: {ref.final_score:.3f}",
            f"Vigencia: {describe(ref.status)}",
        ]
        for fragment in ref.fragments:
            lines.append(f"--- Fragmento (líneas {fragment.lines}) ---")
            lines.append(fragment.text)
        blocks.append("\n".join(lines))
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


def _alerts(refs: Sequence[Reference]) -> list[str]:
    alerts = [
        f"- La referencia {ref.marker} está {describe(ref.status)}: adviértelo al citarla."
        for ref in refs
        if not ref.status.vigente
    ]
    if all_predate(refs):
        alerts.append(
            f"- Todas las referencias son anteriores a {MODERN_YEAR}: advierte que pueden no "
            "reflejar el criterio vigente."
        )
    return alerts


def build_system_prompt(refs: Sequence[Reference], full_text: bool = False) -> str:
    """Spanish instructions: valid numbers, answer only from the references, seed 000's rules.

    ``full_text`` asks for a literal transcription of the fragments instead of a synthesis.
    """
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
        _PRIORITY_RULES.format(year=MODERN_YEAR),
    ]
    alerts = _alerts(refs)
    if alerts:
        parts.append("Advertencias sobre estas referencias:\n" + "\n".join(alerts))
    return "\n\n".join(parts)


def build_user_message(question: str, refs: Sequence[Reference]) -> str:
    context = build_context(refs) or "(sin referencias)"
    return f"Referencias:\n\n{context}\n\nPregunta: {question.strip()}"


def build_messages(
    question: str, refs: Sequence[Reference], full_text: bool = False
) -> list[dict[str, str]]:
    """System prompt, then a user message with the context and the question."""
    return [
        {"role": "system", "content": build_system_prompt(refs, full_text)},
        {"role": "user", "content": build_user_message(question, refs)},
    ]
