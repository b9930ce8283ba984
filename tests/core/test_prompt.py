from __future__ import annotations

import re
from datetime import date

from api.core.models import Validity
from api.core.prompt import build_context, build_messages, build_system_prompt
from api.core.references import consolidate
from tests.fakes import make_hit, three_tesis_hits

SUPERADA = Validity("superada", por_registro=2006225, desde=date(2014, 4, 28))


def test_valid_list_is_exactly_the_reference_numbers() -> None:
    refs = consolidate(three_tesis_hits())
    prompt = build_system_prompt(refs)

    (line,) = [ln for ln in prompt.splitlines() if ln.startswith("Referencias válidas:")]
    assert line == "Referencias válidas: [1], [2], [3]"
    # No other number appears as a citation marker anywhere in the prompt.
    assert set(re.findall(r"\[(\d+)\]", prompt)) <= {"1", "2", "3"}


def test_system_prompt_carries_the_rules() -> None:
    prompt = build_system_prompt(consolidate([make_hit(1)]))

    assert "prohibido citar cualquier otro número" in prompt
    assert "únicamente con la información de las referencias" in prompt
    assert "No tengo información sobre" in prompt
    for rule in (
        "Duodécima, Undécima y Décima Época",
        "jurisprudencia",
        "época y el año",
        "anteriores a 2000",
        "superada",
    ):
        assert rule in prompt


def test_system_prompt_alerts_on_superseded_and_old_sources() -> None:
    refs = consolidate([make_hit(1, anio=1980), make_hit(2, anio=1995, status=SUPERADA)])
    prompt = build_system_prompt(refs)

    assert "La referencia [2] está superada por 2006225 desde 2014-04-28" in prompt
    assert "Todas las referencias son anteriores a 2000" in prompt


def test_no_alerts_for_recent_vigente_sources() -> None:
    prompt = build_system_prompt(consolidate([make_hit(1, anio=2020)]))
    assert "Advertencias" not in prompt


def test_system_prompt_without_references() -> None:
    prompt = build_system_prompt([])
    assert "Referencias válidas: ninguna" in prompt
    assert "No tengo información sobre" in prompt


def test_full_text_prompt_asks_for_a_literal_transcription() -> None:
    refs = consolidate([make_hit(1)])
    assert "transcribe literalmente" in build_system_prompt(refs, full_text=True)
    assert "transcribe literalmente" not in build_system_prompt(refs)


def test_context_block_per_reference() -> None:
    hits = [
        make_hit(
            160584,
            0,
            "Primer fragmento.",
            anio=2011,
            tipo="Aislada",
            similarity=0.83,
            final_score=0.7,
            rubro="CRITERIOS EMITIDOS.",
            status=SUPERADA,
            clave="P. LXVI/2011 (9a.)",
            materias=("Común", "Constitucional"),
        ),
        make_hit(
            160584,
            1,
            "Segundo\nfragmento.",
            anio=2011,
            tipo="Aislada",
            similarity=0.81,
            final_score=0.65,
            rubro="CRITERIOS EMITIDOS.",
            status=SUPERADA,
        ),
        make_hit(2006225, 0, "Jurisprudencia nueva.", anio=2014, rubro="CRITERIO NUEVO."),
    ]
    context = build_context(consolidate(hits))

    first, second = context.split("\n\n")
    assert first.splitlines() == [
        "=== [Referencia 1] CRITERIOS EMITIDOS. ===",
        "Registro digital: 160584 · Clave: P. LXVI/2011 (9a.)",
        "Tipo: Aislada",
        "Época: Novena Época",
        "Año: 2011",
        "Materias: Común, Constitucional",
        "Similitud semántica: 83.0 % (máxima; promedio 82.0 % en 2 fragmento(s))",
        "Puntuación final (con recencia): 0.700 · relevancia sin recencia: 0.830 · impulso: -16 %",
        "Vigencia: superada por 2006225 desde 2014-04-28",
        "--- Fragmento (líneas 1) · similitud 83.0 % ---",
        "Primer fragmento.",
        "--- Fragmento (líneas 3-4) · similitud 81.0 % ---",
        "Segundo",
        "fragmento.",
    ]
    assert second.startswith("=== [Referencia 2] CRITERIO NUEVO. ===")
    assert "Vigencia: vigente" in second


def test_messages_system_then_user_with_context_and_question() -> None:
    refs = consolidate([make_hit(1, text="Texto uno.")])
    system, user = build_messages("  ¿Qué dice?  ", refs)

    assert system == {"role": "system", "content": build_system_prompt(refs)}
    assert user["role"] == "user"
    assert build_context(refs) in user["content"]
    assert user["content"].endswith("Pregunta: ¿Qué dice?")
