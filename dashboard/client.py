"""The only module that talks to the Vigencia API: GraphQL over HTTP with httpx.

Every call returns the JSON the API sent (camelCase keys, as in ``schema.graphql``) or raises an
:class:`ApiError` subclass the pages render in Spanish. Read results are cached with
``st.cache_data``; the schema is read by introspection so fields the API does not offer yet are
left out of the documents (see :mod:`dashboard.selection`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

import httpx
import streamlit as st

from dashboard.queries import (
    ALERT,
    CHAT,
    CHAT_EVENT,
    COMPARE,
    CORPUS_STATS,
    DATED_RESPONSE,
    DISTRIBUTION,
    FEEDBACK,
    MONITORING,
    SEARCH_LOG,
    SEARCH_RESPONSE,
    TESIS,
    TIMELINE,
)
from dashboard.selection import INTROSPECTION, Operation, Schema, Spec, operation

DEFAULT_API_URL = "http://127.0.0.1:8000/graphql"
CACHE_TTL_S = 60
TIMEOUT = httpx.Timeout(30.0, connect=3.0)
CHAT_TIMEOUT = httpx.Timeout(180.0, connect=3.0)

JSON = dict[str, Any]


class ApiError(Exception):
    """Base of every failure the pages show; ``url`` is the endpoint tried."""

    def __init__(self, url: str, message: str) -> None:
        super().__init__(message)
        self.url = url
        self.message = message


class ApiUnreachable(ApiError):
    """No usable HTTP answer: refused, timed out, or an HTTP error status."""


class ApiNotAvailable(ApiError):
    """The API does not offer this operation (yet)."""

    def __init__(self, url: str, feature: str) -> None:
        super().__init__(url, f"la API no ofrece «{feature}»")
        self.feature = feature


class ApiInputError(ApiError):
    """The API rejected an argument (``InputError``)."""

    def __init__(self, url: str, field: str, message: str) -> None:
        super().__init__(url, message)
        self.field = field


class ApiServiceError(ApiError):
    """A backend of the API (store, embedder, LLM) failed (``ServiceError``)."""

    def __init__(self, url: str, service: str, message: str) -> None:
        super().__init__(url, message)
        self.service = service


class ApiResponseError(ApiError):
    """The API answered with GraphQL errors."""


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
    errors = body.get("errors") or []
    if errors and not body.get("data"):
        messages = "; ".join(str(e.get("message", e)) for e in errors)
        missing = re.search(r"Cannot query field '(\w+)' on type '(Query|Mutation)'", messages)
        if missing:
            raise ApiNotAvailable(url, missing.group(1))
        raise ApiResponseError(url, messages)
    return dict(body.get("data") or {})


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _cached_post(url: str, document: str, variables_json: str) -> JSON:
    return _post(url, document, json.loads(variables_json), TIMEOUT)


@st.cache_data(ttl=30, show_spinner=False)
def _introspect(url: str) -> Schema | None:
    try:
        return Schema.from_introspection(_post(url, INTROSPECTION, {}, TIMEOUT))
    except ApiResponseError:
        return None  # introspection disabled: send documents as written


def capabilities() -> Schema | None:
    """The API's schema (None if it hides it); raises ApiUnreachable when the API is down."""
    return _introspect(api_url())


def _call(
    root: str,
    spec: Spec | None,
    variables: Mapping[str, Any],
    types: Mapping[str, str],
    op: Operation = "query",
    cached: bool = True,
    timeout: httpx.Timeout = TIMEOUT,
) -> Any:
    url = api_url()
    built = operation(capabilities(), root, spec, variables, types, op)
    if built is None:
        raise ApiNotAvailable(url, root)
    document, sent = built
    if cached:
        data = _cached_post(url, document, json.dumps(sent, sort_keys=True))
    else:
        data = _post(url, document, sent, timeout)
    return data.get(root)


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


def search(search_input: Mapping[str, Any]) -> JSON:
    """``search(input)``: SearchPayload (hits, candidates, intent, discarded, ...)."""
    value = _call("search", SEARCH_RESPONSE, {"input": search_input}, {"input": "SearchInput!"})
    return _payload(api_url(), value)


def tesis(registro: int) -> JSON | None:
    """``tesis(registro)``: the full record, or None if it is not stored."""
    value = _call("tesis", TESIS, {"registro": registro}, {"registro": "Int!"})
    return value if isinstance(value, dict) else None


def chat(chat_input: Mapping[str, Any]) -> JSON:
    """``chat(input)``: the answer with its numbered references (never cached)."""
    value = _call(
        "chat", CHAT, {"input": chat_input}, {"input": "ChatInput!"}, op="mutation",
        cached=False, timeout=CHAT_TIMEOUT,
    )  # fmt: skip
    return _payload(api_url(), value)


def chat_stream(chat_input: Mapping[str, Any]) -> Iterator[JSON]:
    """``subscription chatStream(input)``: ChatReferences, ChatDelta..., ChatDone events."""
    url = api_url()
    built = operation(capabilities(), "chatStream", CHAT_EVENT, {"input": chat_input},
                      {"input": "ChatInput!"}, "subscription")  # fmt: skip
    if built is None:
        raise ApiNotAvailable(url, "chatStream")
    for data in _subscribe(url, *built):
        yield _payload(url, data.get("chatStream"))


def _ws_url(url: str) -> str:
    return "ws" + url.removeprefix("http") if url.startswith("http") else url


def _subscribe(url: str, document: str, variables: Mapping[str, Any]) -> Iterator[JSON]:
    """One subscription over ``graphql-transport-ws``; yields each ``data`` object."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    try:
        with connect(_ws_url(url), subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
                     additional_headers=_headers(), open_timeout=3.0) as ws:  # fmt: skip
            ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            if json.loads(ws.recv(timeout=10)).get("type") != "connection_ack":
                raise ApiUnreachable(url, "la API no aceptó la conexión de streaming")
            ws.send(json.dumps({"id": "1", "type": "subscribe",
                                "payload": {"query": document, "variables": dict(variables)}}))  # fmt: skip
            while True:
                message = json.loads(ws.recv(timeout=CHAT_TIMEOUT.read))
                kind = message.get("type")
                if kind == "ping":
                    ws.send(json.dumps({"type": "pong"}))
                elif kind == "next":
                    payload = message.get("payload") or {}
                    if payload.get("errors") and not payload.get("data"):
                        raise ApiResponseError(url, "; ".join(
                            str(e.get("message", e)) for e in payload["errors"]))  # fmt: skip
                    yield dict(payload.get("data") or {})
                elif kind == "error":
                    raise ApiResponseError(
                        url, json.dumps(message.get("payload"), ensure_ascii=False)
                    )
                elif kind == "complete":
                    return
    except (OSError, TimeoutError, WebSocketException) as exc:
        raise ApiUnreachable(url, f"streaming: {type(exc).__name__}: {exc}") from exc


def compare_rankings(compare_input: Mapping[str, Any]) -> JSON:
    """``compareRankings(input)``: two rankings, rank changes, entered/dropped, Kendall tau."""
    value = _call("compareRankings", COMPARE, {"input": compare_input}, {"input": "CompareInput!"})
    return _payload(api_url(), value)


def timeline(timeline_input: Mapping[str, Any]) -> JSON:
    """``timeline(input)``: ``{total, items}`` ordered by date."""
    value = _call("timeline", TIMELINE, {"input": timeline_input}, {"input": "TimelineInput!"})
    return _payload(api_url(), value)


def extreme(which: str, query: str | None, filters: Mapping[str, Any] | None, limit: int) -> JSON:
    """``earliest`` / ``latest``: the oldest or newest tesis, as ``hits`` or ``items``."""
    types = {"query": "String", "filters": "FiltersInput", "limit": "Int"}
    variables = {"query": query or None, "filters": filters or None, "limit": limit}
    return _payload(api_url(), _call(which, DATED_RESPONSE, variables, types))


def distribution(group_by: str, filters: Mapping[str, Any] | None = None) -> list[JSON]:
    """``distribution(groupBy, filters)``: ``[{key, count}]``."""
    types = {"groupBy": "GroupBy!", "filters": "FiltersInput"}
    value = _call("distribution", DISTRIBUTION, {"groupBy": group_by, "filters": filters}, types)
    return list(value or [])


def monitoring(window_hours: int) -> JSON:
    """``monitoring(windowHours)``: boost histogram, temporal series, shares, alerts."""
    value = _call("monitoring", MONITORING, {"windowHours": window_hours}, {"windowHours": "Int"})
    return _payload(api_url(), value)


def alerts(window_hours: int) -> list[JSON]:
    """``alerts(windowHours)``: the window's alerts, most severe first."""
    value = _call("alerts", ALERT, {"windowHours": window_hours}, {"windowHours": "Int"})
    return list(value or [])


def search_log(limit: int, offset: int = 0) -> list[JSON]:
    """``searchLog(limit, offset)``: the most recent logged searches."""
    types = {"limit": "Int", "offset": "Int"}
    value = _call("searchLog", SEARCH_LOG, {"limit": limit, "offset": offset}, types)
    if isinstance(value, dict):  # a page object {total, items}
        value = value.get("items") or []
    return list(value or [])


def feedback(log_id: Any, registro: int, useful: bool, comment: str | None = None) -> Any:
    """``mutation feedback(logId, registro, useful, comment)`` (never cached)."""
    types = {"logId": "String!", "registro": "Int!", "useful": "Boolean!", "comment": "String"}
    variables = {"logId": log_id, "registro": registro, "useful": useful, "comment": comment}
    value = _call("feedback", FEEDBACK, variables, types, op="mutation", cached=False)
    return _payload(api_url(), value) if isinstance(value, dict) else value


def corpus_stats() -> JSON:
    """``corpusStats``: counts by época, materia, tipo, year; coverage gaps; last ingest."""
    return _payload(api_url(), _call("corpusStats", CORPUS_STATS, {}, {}))


def clear_cache() -> None:
    """Forget cached answers (the pages' «Actualizar» button)."""
    _cached_post.clear()
    _introspect.clear()
