"""The only module that talks to the Vigencia API: GraphQL over HTTP with httpx.

Every call sends one of the static documents of :mod:`dashboard.queries` and returns the JSON
the API sent, typed by :mod:`dashboard.payloads` and :mod:`dashboard.stats_payloads` (camelCase
keys, as in ``schema.graphql``), or raises an :class:`ApiError` subclass the pages render in
Spanish (:mod:`dashboard.components.api_status`). The cheap reads are remembered for the
browser session, briefly (:mod:`dashboard.session_cache`); searches, chats and the earliest or
latest on a topic never are: each is a logged event with its own ``logId``. Nothing is introspected: the documents are checked against the schema by the
tests, so the dashboard works the same with introspection off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any, cast

import httpx

from dashboard import queries, session_cache
from dashboard.errors import ApiError as ApiError
from dashboard.errors import ApiInputError as ApiInputError
from dashboard.errors import ApiResponseError as ApiResponseError
from dashboard.errors import ApiServiceError as ApiServiceError
from dashboard.errors import ApiUnreachable as ApiUnreachable
from dashboard.errors import refusal
from dashboard.payloads import (
    ChatEvent,
    ChatPayload,
    DatedPayload,
    SearchPayload,
    TesisRecord,
    TimelinePayload,
)
from dashboard.stats_payloads import (
    CorpusStats,
    FeedbackResult,
    FeedbackSummary,
    LogEntry,
    MonitoringReport,
)

DEFAULT_API_URL = "http://127.0.0.1:8000/graphql"
# Reads remembered for the session; ACTIVITY, those that every logged call or verdict changes.
REMEMBERED = frozenset(
    {"corpusStats", "tesis", "timeline", "monitoring", "searchLog", "feedbackSummary"}
)
ACTIVITY = ("monitoring", "searchLog", "feedbackSummary")
_FAILURES = {"InputError", "ServiceError"}  # answered, but not to be remembered
TIMEOUT = httpx.Timeout(30.0, connect=3.0)
CHAT_TIMEOUT = httpx.Timeout(180.0, connect=3.0)

JSON = dict[str, Any]


def api_url(environ: Mapping[str, str] | None = None) -> str:
    """``VIGENCIA_API_URL``, else the documented default."""
    env = os.environ if environ is None else environ
    return env.get("VIGENCIA_API_URL") or DEFAULT_API_URL


def _headers(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    env = os.environ if environ is None else environ
    key = env.get("VIGENCIA_API_KEY")
    return {"X-API-Key": key} if key else {}


def _post(url: str, document: str, variables: Mapping[str, Any], timeout: httpx.Timeout) -> JSON:
    """POST one GraphQL document; the ``data`` object, or an ApiError."""
    try:
        response = httpx.post(
            url,
            json={"query": document, "variables": dict(variables)},
            headers=_headers(),
            timeout=timeout,
        )
    except httpx.TimeoutException as exc:
        raise ApiUnreachable(url, f"tiempo de espera agotado ({type(exc).__name__})") from exc
    except httpx.HTTPError as exc:
        raise ApiUnreachable(url, f"{type(exc).__name__}: {exc}") from exc
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or ("data" not in body and "errors" not in body):
        raise ApiUnreachable(url, f"HTTP {response.status_code}: la respuesta no es GraphQL")
    errors, data = body.get("errors") or [], body.get("data") or {}
    if errors and all(v is None for v in data.values()):  # nothing answered: why not
        raise refusal(url, errors, response.status_code, response.headers.get("retry-after"))
    return dict(data)


def _call(root: str, variables: Mapping[str, Any], timeout: httpx.Timeout = TIMEOUT) -> Any:
    """Send ``queries.ALL[root]``; the value of ``root`` in the answer."""
    url = api_url()
    document, sent = queries.ALL[root], _prune(variables)
    if root not in REMEMBERED:
        value = _post(url, document, sent, timeout).get(root)
        session_cache.forget(*ACTIVITY)  # a search, chat or verdict changes what they report
        return value
    key = json.dumps([url, root, sent], sort_keys=True)
    value = session_cache.recall(key)
    if value is None:
        value = _post(url, document, sent, timeout).get(root)
        if not (isinstance(value, dict) and value.get("__typename") in _FAILURES):
            session_cache.keep(key, root, value)
    return value


def _prune(value: Any) -> Any:
    """Variables without None values (an omitted input field takes the API's default)."""
    if isinstance(value, Mapping):
        return {k: _prune(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_prune(v) for v in value]
    return value


def _payload(url: str, value: Any) -> JSON:
    """Unwrap a ``Payload | InputError | ServiceError`` union."""
    if not isinstance(value, dict):
        raise ApiResponseError(url, "respuesta vacía")
    kind = value.get("__typename", "")
    if kind == "InputError":
        raise ApiInputError(url, value.get("field", ""), value.get("message", ""))
    if kind == "ServiceError":
        raise ApiServiceError(url, value.get("service", ""), value.get("message", ""))
    return value


def search(search_input: Mapping[str, Any]) -> SearchPayload:
    """``search(input)``: SearchPayload (hits, withoutRecency, intent, discarded, ...); never
    remembered: each search is logged, with its own ``logId``."""
    return cast(SearchPayload, _payload(api_url(), _call("search", {"input": search_input})))


def tesis(registro: int) -> TesisRecord | None:
    """``tesis(registro)``: the full record, or None if it is not stored."""
    value = _call("tesis", {"registro": registro})
    return cast(TesisRecord, value) if isinstance(value, dict) else None


def chat(chat_input: Mapping[str, Any]) -> ChatPayload:
    """``chat(input)``: the answer with its numbered references (never remembered)."""
    value = _call("chat", {"input": chat_input}, timeout=CHAT_TIMEOUT)
    return cast(ChatPayload, _payload(api_url(), value))


def chat_stream(chat_input: Mapping[str, Any]) -> Iterator[ChatEvent]:
    """``subscription chatStream(input)``: ChatReferences, ChatDelta..., ChatDone events."""
    url = api_url()
    for data in _subscribe(url, queries.CHAT_STREAM, {"input": _prune(chat_input)}):
        yield cast(ChatEvent, _payload(url, data.get("chatStream")))
    session_cache.forget(*ACTIVITY)


def _ws_url(url: str) -> str:
    return "ws" + url.removeprefix("http") if url.startswith("http") else url


def _subscribe(url: str, document: str, variables: Mapping[str, Any]) -> Iterator[JSON]:
    """One subscription over ``graphql-transport-ws``; yields each ``data`` object."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect
    from websockets.typing import Subprotocol

    try:
        with connect(
            _ws_url(url),
            subprotocols=[Subprotocol("graphql-transport-ws")],
            additional_headers=_headers(),
            open_timeout=3.0,
        ) as ws:
            ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            if json.loads(ws.recv(timeout=10)).get("type") != "connection_ack":
                raise ApiUnreachable(url, "la API no aceptó la conexión de streaming")
            ws.send(
                json.dumps(
                    {
                        "id": "1",
                        "type": "subscribe",
                        "payload": {"query": document, "variables": dict(variables)},
                    }
                )
            )
            while True:
                message = json.loads(ws.recv(timeout=CHAT_TIMEOUT.read))
                kind = message.get("type")
                if kind == "ping":
                    ws.send(json.dumps({"type": "pong"}))
                elif kind == "next":
                    payload = message.get("payload") or {}
                    if payload.get("errors") and not payload.get("data"):
                        raise refusal(url, payload["errors"])
                    yield dict(payload.get("data") or {})
                elif kind == "error":
                    errors = message.get("payload")
                    raise refusal(url, errors if isinstance(errors, list) else [errors])
                elif kind == "complete":
                    return
    except (OSError, TimeoutError, WebSocketException) as exc:
        raise ApiUnreachable(url, f"streaming: {type(exc).__name__}: {exc}") from exc


def timeline(timeline_input: Mapping[str, Any]) -> TimelinePayload:
    """``timeline(input)``: ``{total, items}`` ordered by date."""
    value = _call("timeline", {"input": timeline_input})
    return cast(TimelinePayload, _payload(api_url(), value))


def extreme(
    which: str, query: str | None, filters: Mapping[str, Any] | None, limit: int
) -> DatedPayload:
    """``earliest`` / ``latest``: the oldest or newest tesis, as ``hits`` or ``items`` (never
    remembered: on a topic it is a logged search)."""
    variables = {"query": query or None, "filters": filters or None, "limit": limit}
    return cast(DatedPayload, _payload(api_url(), _call(which, variables)))


def monitoring(window_hours: int) -> MonitoringReport:
    """``monitoring(windowHours)``: boost histogram, temporal series, shares, alerts."""
    value = _call("monitoring", {"windowHours": window_hours})
    return cast(MonitoringReport, _payload(api_url(), value))


def search_log(limit: int, offset: int = 0) -> list[LogEntry]:
    """``searchLog(limit, offset)``: the most recent logged searches."""
    return list(_call("searchLog", {"limit": limit, "offset": offset}) or [])


def feedback(
    log_id: str, registro: int, useful: bool, comment: str | None = None
) -> FeedbackResult:
    """``mutation feedback(logId, registro, useful, comment)`` (never remembered)."""
    variables = {"logId": log_id, "registro": registro, "useful": useful, "comment": comment}
    return cast(FeedbackResult, _payload(api_url(), _call("feedback", variables)))


def feedback_summary(window_hours: int) -> FeedbackSummary:
    """``feedbackSummary(windowHours)``: useful / not useful per day and per materia."""
    value = _call("feedbackSummary", {"windowHours": window_hours})
    return cast(FeedbackSummary, _payload(api_url(), value))


def corpus_stats() -> CorpusStats:
    """``corpusStats``: counts by época, materia, tipo, year; coverage gaps; last ingest."""
    return cast(CorpusStats, _payload(api_url(), _call("corpusStats", {})))


def clear_cache() -> None:
    """Forget the session's remembered answers (a page load, the «Actualizar» button)."""
    session_cache.forget()
