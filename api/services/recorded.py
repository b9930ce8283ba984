"""Searches and chat answers that also go into the search log (when logging is on)."""

from __future__ import annotations

from dataclasses import dataclass

from api.monitoring import Recorder
from api.monitoring.recorder import cited_registros
from api.services.answer import Answer
from api.services.chat import ChatRequest, ChatService, Prepared
from api.services.search import SearchRequest, SearchResult, SearchService
from api.structured_log import log_rerank


@dataclass(frozen=True, slots=True)
class LoggedAnswer:
    log_id: str | None  # None when logging is off or failed
    prepared: Prepared
    answer: Answer


def search_and_record(
    search: SearchService, recorder: Recorder | None, request: SearchRequest
) -> tuple[SearchResult, str | None]:
    """Search, then log it (the recorder never raises; a failed write is counted)."""
    result = search.search(request)
    log_rerank(request.query, result)
    log_id = recorder.record_search(request.query, request, result) if recorder else None
    return result, log_id


def record_chat(
    recorder: Recorder | None, question: str, prepared: Prepared, answer: Answer
) -> str | None:
    """Save the exchange in the search log; None when logging is off or failed."""
    if recorder is None:
        return None
    cited = cited_registros(answer.references, answer.citation_check.valid)
    return recorder.record_search(
        question, prepared.request, prepared.search, kind="chat", cited=cited
    )


def answer_and_record(
    chat: ChatService, recorder: Recorder | None, request: ChatRequest
) -> LoggedAnswer:
    """Answer, then log the exchange."""
    prepared, answer = chat.answer(request)
    return LoggedAnswer(record_chat(recorder, request.question, prepared, answer), prepared, answer)
