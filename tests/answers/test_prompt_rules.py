"""Issue 13, items 1, 2 and 12: what the system prompt and context ask and show."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from api.core.models import Validity
from api.core.prompt import build_context, build_messages, build_system_prompt
from api.core.references import consolidate
from tests.fakes import assert_no_legal_words, make_hit


def mixed_refs():  # type: ignore[no-untyped-def]
    return consolidate(
        [
            make_hit(2006225, 0, "Nuevo criterio.", anio=2014, tipo="Jurisprudencia"),
            make_hit(
                160584,
                0,
                "Criterio anterior.",
                anio=2011,
                tipo="Aislada",
                status=Validity("superada", por_registro=2006225, desde=date(2014, 4, 28)),
            ),
            make_hit(250001, 0, "Criterio antiguo.", anio=1988, tipo="Jurisprudencia"),
        ]
    )


def test_prompt_asks_to_compare_dates_name_contradictions_and_trace_the_evolution() -> None:
    prompt = build_system_prompt(mixed_refs()).lower()
    assert "compara las fechas" in prompt
    # A contradiction between pre- and post-reform criteria (or épocas) is named, with which
    # one stands and why.
    assert "contradicción" in prompt and "reforma" in prompt and "prevalece" in prompt
    assert "por qué" in prompt
    assert "evolucionó el criterio" in prompt
    # Every source of a fact is cited, several together.
    assert "cita todas las referencias" in prompt and "[1][2]" in prompt


def test_prompt_lists_the_source_hierarchy_in_order() -> None:
    prompt = build_system_prompt(mixed_refs())
    hierarchy = prompt[prompt.index("Jerarquía de fuentes") :]
    steps = [
        "Jurisprudencia reciente",
        "Tesis aislada reciente",
        "Jurisprudencia antigua, solo si no hay un criterio reciente",
        "Tesis aislada antigua, solo con la advertencia",
    ]
    positions = [hierarchy.index(step) for step in steps]
    assert positions == sorted(positions)


def test_prompt_lists_the_reference_dates_oldest_first() -> None:
    prompt = build_system_prompt(mixed_refs())
    (line,) = [ln for ln in prompt.splitlines() if ln.startswith("Fechas de las referencias")]
    years = [int(y) for y in re.findall(r"\] (\d{4}) \(", line)]
    assert years == [1988, 2011, 2014]
    assert "de 1988 a 2014" in line and "3 épocas" in line
    markers = re.findall(r"(\[\d\]) \d{4}", line)
    assert markers == ["[3]", "[2]", "[1]"]


def test_context_shows_final_score_beside_similarity_boost_and_fragment_similarity() -> None:
    hits = [
        make_hit(7, 0, "Primero.", similarity=0.84, final_score=0.92, anio=2020),
        make_hit(7, 1, "Segundo.", similarity=0.80, final_score=0.5, anio=2020),
    ]
    hits = [replace(h, score=replace(h.score, relevance=0.8)) for h in hits]
    context = build_context(consolidate(hits))
    assert "Similitud semántica: 84.0 %" in context
    assert "Puntuación final (con recencia): 0.920" in context
    assert "impulso: +15 %" in context  # 0.92 / 0.80
    assert "--- Fragmento (líneas 1) · similitud 84.0 % ---" in context
    assert "--- Fragmento (líneas 3) · similitud 80.0 % ---" in context


def generic_refs():  # type: ignore[no-untyped-def]
    refs = consolidate(
        [
            make_hit(1, 0, "A raffle web app.", anio=2024, epoca="", rubro="raffle"),
            make_hit(2, 0, "Link checker.", anio=2024, epoca="", rubro="checker"),
        ]
    )
    return [
        replace(refs[0], epoca="", fecha=date(2024, 1, 17), extra=(("language", "Python"),)),
        replace(
            refs[1], epoca="", fecha=date(2024, 10, 26), dates=(("pushed_at", date(2025, 2, 1)),)
        ),
    ]


def test_generic_prompt_has_no_legal_words_full_dates_and_the_order() -> None:
    system, user = build_messages("What was the first repository?", generic_refs())
    assert_no_legal_words(system["content"], user["content"])
    assert "2024-01-17" in system["content"] and "2024-10-26" in system["content"]
    assert "pushed_at 2025-02-01" in system["content"]
    assert "in date order, oldest first" in system["content"]
    assert "Valid references: [1], [2]" in system["content"]
    assert "language: Python" in user["content"]


def test_generic_prompt_says_nothing_about_order_when_unordered() -> None:
    refs = generic_refs()
    shuffled = [
        replace(refs[1], number=1),
        replace(refs[0], number=2),
        replace(refs[0], number=3, fecha=date(2024, 12, 1)),
    ]
    assert "date order" not in build_system_prompt(shuffled)
    newest_first = [replace(refs[1], number=1), replace(refs[0], number=2)]
    assert "newest first" in build_system_prompt(newest_first)


def test_a_low_confidence_search_asks_the_answer_to_hedge() -> None:
    from api.core.confidence import Confidence

    refs = mixed_refs()
    plain = build_system_prompt(refs)
    close = build_system_prompt(refs, confidence=Confidence("low", 0.02, 0.03, ("…",)))
    near = build_system_prompt(refs, confidence=Confidence("low", 0.4, -0.004, ("…",)))
    high = build_system_prompt(refs, confidence=Confidence("high", 0.4, 0.03))
    assert "no destaca con claridad" not in plain and high == plain
    assert "La referencia [1] no destaca con claridad" in close
    assert "ninguna referencia responda de lleno" not in close
    assert "ninguna referencia responda de lleno" in near and "no destaca" not in near
    messages = build_messages("¿?", refs, confidence=Confidence("low", 0.02, 0.03, ("…",)))
    assert "no destaca con claridad" in messages[0]["content"]


def test_the_cautions_fit_the_answer_asked_for() -> None:
    """One reference leads nothing to compare; a transcription compares nothing."""
    from api.core.confidence import Confidence

    close = Confidence("low", 0.02, 0.03, ("…",))
    one = build_system_prompt(mixed_refs()[:1], confidence=close)
    assert "no destaca con claridad" not in one
    transcription = build_system_prompt(mixed_refs(), full_text=True, confidence=close)
    assert "no destaca con claridad" not in transcription
