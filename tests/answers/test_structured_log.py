"""Issue 13, item 9: one `vigencia.rerank` and one `vigencia.references` line per chat."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from api import structured_log
from api.services.chat import ChatRequest
from api.services.container import Services


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = structured_log.configure("json", stream)
    yield stream
    for logger in (structured_log.RERANK, structured_log.REFERENCES):
        logger.removeHandler(handler)


def test_chat_logs_rerank_and_references_as_json_lines(
    bundled: Services, captured: io.StringIO
) -> None:
    question = "despido injustificado y salarios caídos después de la reforma laboral"
    prepared = bundled.chat.prepare(ChatRequest(question=question))
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    assert [line["event"] for line in lines] == ["vigencia.rerank", "vigencia.references"]
    rerank, refs = lines
    result = prepared.search
    assert rerank["question"] == question
    assert rerank["materia"] == result.intent.materia.materia
    assert rerank["cutoff"] == result.intent.cutoff_year
    assert rerank["year_gap"] == rerank["year_max"] - rerank["year_min"]
    assert len(rerank["discarded"]) == len(result.discarded)
    for logged, discard in zip(rerank["discarded"], result.discarded, strict=True):
        assert (logged["registro"], logged["code"], logged["reason"]) == (
            discard.hit.registro,
            discard.code,
            discard.reason,
        )
    assert rerank["sources_after"] == len({h.registro for h in result.hits})
    assert rerank["sources_before"] >= rerank["sources_after"]
    n, m = len(prepared.references), sum(r.chunk_count for r in prepared.references)
    assert refs["message"] == f"{n} references consolidated from {m} chunks"


def test_text_format_is_one_line_of_key_values() -> None:
    record = logging.LogRecord("vigencia.references", logging.INFO, "", 0, "%d refs", (2,), None)
    record.fields = {"chunks": 5, "question": "¿qué?"}
    line = structured_log.StructuredFormatter("text").format(record)
    assert line == 'vigencia.references 2 refs chunks=5 question="¿qué?"'
