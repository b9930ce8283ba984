"""Issue 13, items 10 and 11: the judge skips one bad entry; prompt scores; summary variants."""

from __future__ import annotations

import json

from api.judge.llm_judge import LLMJudge
from tests.fakes import ScriptedLLM
from tests.judge.test_llm_judge import QUERY, entry, hits, spans


def test_one_bad_entry_is_skipped_with_a_warning_and_the_rest_used() -> None:
    reply = {
        "reranked": [
            entry(2006225, 5, 7, 0.9),
            {"registro": 2006225, "startLine": 1},
            {"relevancia": 0.7, "startLine": 1, "endLine": 1},
            entry(160584, 1, 1, 0.4),
        ],
        "summary": "s",
    }
    result = LLMJudge(ScriptedLLM([json.dumps(reply)])).judge(QUERY, hits())
    assert result.error is None
    assert spans(result)[:2] == [(2006225, 5, 7), (160584, 1, 1)]
    skipped = [w for w in result.warnings if "omitida" in w]
    assert len(skipped) == 2
    assert "reranked[1]" in skipped[0] and "relevancia" in skipped[0]
    assert "reranked[2]" in skipped[1] and "registro" in skipped[1]


def test_prompt_shows_each_fragments_original_score() -> None:
    llm = ScriptedLLM([json.dumps({"reranked": [entry(160584, 1, 1, 0.4)], "summary": ""})])
    LLMJudge(llm).judge(QUERY, hits())
    user = llm.last_messages[1]["content"]
    headers = [line for line in user.splitlines() if line.startswith("###")]
    assert len(headers) == 3
    for header, hit in zip(headers, hits(), strict=True):
        assert f"puntuación original {hit.score.final_score:.3f}" in header
    assert "puntuación original" in llm.last_messages[0]["content"]


def test_variant_without_summary_asks_for_none_and_still_names_best_fragments() -> None:
    llm = ScriptedLLM(
        [
            json.dumps(
                {
                    "reranked": [
                        entry(2006225, 1, 2, 0.3),
                        entry(2006225, 5, 7, 0.8),
                        entry(160584, 1, 1, 0.5),
                    ]
                }
            )
        ]
    )
    result = LLMJudge(llm).judge(QUERY, hits(), summary=False)
    system = llm.last_messages[0]["content"]
    assert '"summary"' not in system and "No incluyas summary" in system
    # One paragraph naming each tesis's best fragment by its lines, best tesis first.
    assert "\n" not in result.summary
    assert result.summary == (
        "Mejor fragmento de cada tesis: registro 2006225, líneas 5-7 (0.80); "
        "registro 160584, líneas 1 (0.41)."  # 0.5 x aislada 0.9 x Novena 0.9
    )


def test_summary_variant_puts_the_models_paragraph_first() -> None:
    llm = ScriptedLLM(
        [
            json.dumps(
                {"reranked": [entry(2006225, 5, 7, 0.8)], "summary": "El fragmento 5-7 responde."}
            )
        ]
    )
    result = LLMJudge(llm).judge(QUERY, hits())
    assert '"summary"' in llm.last_messages[0]["content"]
    assert result.summary.startswith("El fragmento 5-7 responde. Mejor fragmento de cada tesis")
