from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from api.core.models import Hit, Validity
from api.errors import LLMBusy, LLMError, LLMTimeout
from api.judge.llm_judge import LLMJudge, build_judge_messages, parse_reply
from api.judge.models import SUPERSEDED_CAP, JudgeResult
from tests.fakes import ScriptedLLM, make_hit

QUERY = "suspensión provisional en amparo indirecto"
SUPERADA = Validity("superada", por_registro=2006225, desde=date(2014, 4, 28))


def hits() -> list[Hit]:
    """Two fragments of tesis 2006225 (lines 1-2 and 5-7) and one of 160584."""
    return [
        make_hit(2006225, 0, "Rubro y primer párrafo.\nSigue.", start_line=1, anio=2014),
        make_hit(2006225, 2, "La suspensión provisional procede.\nA\nB", start_line=5, anio=2014),
        make_hit(160584, 0, "Criterio antiguo.", start_line=1, anio=2011, tipo="Aislada"),
    ]


def entry(
    registro: int, start: int | None, end: int | None, rel: float, **extra: Any
) -> dict[str, Any]:
    item: dict[str, Any] = {"registro": registro, "relevancia": rel, "razon": f"r{registro}"}
    if start is not None:
        item["startLine"] = start
    if end is not None:
        item["endLine"] = end
    return item | extra


def judge_with(reply: object, hit_list: list[Hit] | None = None) -> JudgeResult:
    text = reply if isinstance(reply, str) else json.dumps(reply)
    return LLMJudge(ScriptedLLM([text]), timeout=5).judge(QUERY, hit_list or hits())


def spans(result: JudgeResult) -> list[tuple[int, int, int]]:
    return [(i.registro, i.start_line, i.end_line) for i in result.items]


def test_two_fragments_of_one_tesis_are_matched_by_span_and_scored_apart() -> None:
    result = judge_with(
        {
            "reranked": [
                entry(2006225, 1, 2, 0.2),
                entry(2006225, 5, 7, 0.9),
                entry(160584, 1, 1, 0.5),
            ],
            "summary": "El fragmento de 2006225, líneas 5-7, responde la consulta.",
        }
    )

    assert result.error is None
    assert result.warnings == []
    assert result.judge == "llm"
    assert spans(result) == [(2006225, 5, 7), (160584, 1, 1), (2006225, 1, 2)]
    best, _, worst = result.items
    assert best.score == pytest.approx(0.9)
    assert worst.score == pytest.approx(0.2)
    assert (best.chunk_index, worst.chunk_index) == (2, 0)
    assert {i.matched_by for i in result.items} == {"span"}
    assert best.reason == "r2006225"
    assert best.raw_score == pytest.approx(0.9)
    assert "registro 2006225, líneas 5-7 (0.90)" in result.summary
    assert result.summary.startswith("El fragmento de 2006225")


def test_reply_without_lines_falls_back_to_registro_with_a_warning() -> None:
    result = judge_with(
        {"reranked": [entry(2006225, None, None, 0.6), entry(160584, 1, 1, 0.5)], "summary": ""}
    )

    assert result.error is None
    by_span = {(i.registro, i.start_line): i for i in result.items}
    assert by_span[(2006225, 1)].matched_by == "registro"
    assert by_span[(2006225, 5)].matched_by == "registro"
    assert by_span[(2006225, 1)].score == pytest.approx(0.6)
    assert by_span[(160584, 1)].matched_by == "span"
    (warning,) = result.warnings
    assert "registro 2006225" in warning
    assert "sin startLine/endLine" in warning
    assert "2 fragmento(s)" in warning


def test_span_entries_win_over_a_registro_fallback() -> None:
    result = judge_with(
        {
            "reranked": [
                entry(2006225, 5, 7, 0.9),
                entry(2006225, None, None, 0.1),
                entry(160584, 1, 1, 0.5),
            ]
        }
    )
    by_span = {(i.registro, i.start_line): i for i in result.items}
    assert by_span[(2006225, 5)].matched_by == "span"
    assert by_span[(2006225, 1)].matched_by == "registro"
    assert by_span[(2006225, 1)].score == pytest.approx(0.1)


def test_overlapping_lines_match_the_fragment_with_a_warning() -> None:
    result = judge_with({"reranked": [entry(2006225, 6, 9, 0.8)]})
    item = next(i for i in result.items if i.start_line == 5)
    assert item.matched_by == "span"
    assert any("no coinciden exactamente" in w for w in result.warnings)


def test_lines_matching_nothing_fall_back_to_registro() -> None:
    result = judge_with({"reranked": [entry(160584, 40, 41, 0.7)]})
    item = next(i for i in result.items if i.registro == 160584)
    assert item.matched_by == "registro"
    assert any("40-41 no coinciden con ningún fragmento" in w for w in result.warnings)


def test_unknown_registros_and_keys_are_ignored_with_warnings() -> None:
    result = judge_with(
        {
            "reranked": [entry(999, 1, 1, 1.0), entry(160584, 1, 1, 0.5, confianza="alta")],
            "summary": "s",
            "modelo": "x",
        }
    )

    assert result.error is None
    assert 999 not in {i.registro for i in result.items}
    joined = " | ".join(result.warnings)
    assert "registro 999 no está entre los fragmentos enviados" in joined
    assert "clave desconocida ignorada: 'modelo'" in joined
    assert "reranked[1]: 'confianza'" in joined


def test_unjudged_fragments_go_last_with_zero_and_a_warning() -> None:
    result = judge_with({"reranked": [entry(160584, 1, 1, 0.1)]})
    assert spans(result)[0] == (160584, 1, 1)
    assert [i.matched_by for i in result.items[1:]] == ["none", "none"]
    assert [i.score for i in result.items[1:]] == [0.0, 0.0]
    assert any("2 fragmento(s) sin valoración" in w for w in result.warnings)


def test_legal_rules_apply_after_the_llm() -> None:
    hit_list = [
        make_hit(1, 0, "a", anio=2015, tipo="Jurisprudencia"),
        make_hit(2, 0, "b", anio=2015, tipo="Aislada"),
        make_hit(3, 0, "c", anio=1980, tipo="Jurisprudencia"),
        make_hit(4, 0, "d", anio=2015, status=SUPERADA),
    ]
    result = judge_with({"reranked": [entry(r, 1, 1, 0.9) for r in (4, 3, 2, 1)]}, hit_list)

    assert [i.registro for i in result.items] == [1, 2, 3, 4]
    scores = {i.registro: i.score for i in result.items}
    assert scores[1] == pytest.approx(0.9)
    assert scores[2] < scores[1]
    assert scores[3] < scores[1]
    assert scores[4] == SUPERSEDED_CAP
    assert "superada" in result.items[-1].reason


def test_ten_point_scale_is_rescaled_with_a_warning() -> None:
    result = judge_with({"reranked": [entry(2006225, 5, 7, 9), entry(160584, 1, 1, 4)]})
    assert result.items[0].score == pytest.approx(0.9)
    assert any("escala 0-10" in w for w in result.warnings)


def test_code_fences_and_surrounding_prose_are_tolerated() -> None:
    body = json.dumps({"reranked": [entry(160584, 1, 1, 0.5)], "summary": ""})
    fenced = judge_with(f"```json\n{body}\n```")
    assert fenced.error is None
    assert fenced.warnings[-1].startswith("2 fragmento(s)")
    prose = judge_with(f"Aquí está el JSON: {body} Espero que sirva.")
    assert prose.error is None
    assert "se ignoró texto fuera del objeto JSON" in prose.warnings


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("Los fragmentos más relevantes son los de 2006225.", "no es JSON válido"),
        ('{"reranked": [', "no es JSON válido"),
        ('{"reranked": "todos"}', "no sigue el esquema"),
        ('{"summary": "sin lista"}', "no sigue el esquema"),
        ('{"reranked": [{"registro": 1, "relevancia": 11}]}', "no sigue el esquema"),
        ('{"reranked": [{"registro": "x", "relevancia": 0.5}]}', "no sigue el esquema"),
        ("[1, 2, 3]", "no sigue el esquema"),
    ],
)
def test_malformed_replies_return_the_input_order_with_the_error(reply: str, error: str) -> None:
    result = judge_with(reply)

    assert result.error is not None
    assert error in result.error
    assert spans(result) == [(2006225, 1, 2), (2006225, 5, 7), (160584, 1, 1)]
    assert [i.matched_by for i in result.items] == ["none"] * 3
    assert [i.score for i in result.items] == [h.score.final_score for h in hits()]


@pytest.mark.parametrize(
    ("exc", "prefix"),
    [
        (LLMTimeout("lento"), "tiempo agotado"),
        (LLMError("500"), "error"),
        (LLMBusy("no turn"), "modelo ocupado"),  # the chat's bound, shared with the judge
    ],
)
def test_llm_failures_return_the_input_order(exc: Exception, prefix: str) -> None:
    result = LLMJudge(ScriptedLLM([exc])).judge(QUERY, hits())
    assert result.error is not None
    assert result.error.startswith(prefix)
    assert spans(result) == [(2006225, 1, 2), (2006225, 5, 7), (160584, 1, 1)]


def test_slow_llm_times_out() -> None:
    result = LLMJudge(ScriptedLLM(["{}"], delay=10), timeout=0.01).judge(QUERY, hits())
    assert result.error is not None
    assert result.error.startswith("tiempo agotado")


def test_no_hits_no_call() -> None:
    llm = ScriptedLLM([])
    result = LLMJudge(llm).judge(QUERY, [])
    assert result.items == []
    assert llm.calls == []


def test_prompt_sends_each_fragment_with_registro_and_span() -> None:
    llm = ScriptedLLM(['{"reranked": []}'])
    LLMJudge(llm, timeout=3).judge(QUERY, [*hits(), make_hit(7, 0, "x", status=SUPERADA)])

    system, user = llm.last_messages
    assert '"startLine"' in system["content"]
    assert "entre 0 y 1" in system["content"]
    assert "jurisprudencia va por encima de la tesis aislada" in system["content"]
    assert f"no puede pasar de {SUPERSEDED_CAP}" in system["content"]
    assert "registro=2006225 startLine=5 endLine=7" in user["content"]
    assert "registro=2006225 startLine=1 endLine=2" in user["content"]
    assert "La suspensión provisional procede." in user["content"]
    assert "superada por 2006225 desde 2014-04-28" in user["content"]
    assert user["content"].startswith(f"Consulta: {QUERY}")
    assert llm.timeouts == [3]


def test_long_fragments_are_truncated_in_the_prompt() -> None:
    (_, user) = build_judge_messages(QUERY, [make_hit(1, 0, "x" * 5000)], max_chars=100)
    assert "x" * 100 + " …" in user["content"]
    assert "x" * 101 not in user["content"]


def test_parse_reply_accepts_the_strict_schema() -> None:
    reply, warnings = parse_reply(json.dumps({"reranked": [entry(1, 1, 2, 0.5)], "summary": "s"}))
    assert warnings == []
    assert reply.reranked[0].start_line == 1
    assert reply.summary == "s"


def test_invalid_timeout_is_refused() -> None:
    with pytest.raises(ValueError, match="timeout must be > 0 seconds or None, got -1"):
        LLMJudge(ScriptedLLM([]), timeout=-1)
