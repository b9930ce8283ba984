"""A chat answered over GraphQL is logged with its parameters, like a search."""

from __future__ import annotations

import asyncio
import dataclasses

from api.graphql.schema import schema
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import Recorder
from api.services.container import Services
from tests.conftest import context_for

CHAT = """
query C($input: ChatInput!) {
  chat(input: $input) { __typename ... on ChatPayload { id } }
}
"""


def test_a_chat_is_logged_with_its_parameters(bundled: Services) -> None:
    log = EmbeddedSearchLog(None)
    ctx = dataclasses.replace(context_for(bundled), log=log, recorder=Recorder(log))
    question = "¿Procede la suspensión contra el lanzamiento de un inquilino?"
    variables = {"input": {"question": question, "maxReferences": 2, "filters": {"anioMin": 1995}}}
    result = asyncio.run(schema.execute(CHAT, variable_values=variables, context_value=ctx))
    assert result.errors is None, result.errors
    log_id = result.data["chat"]["id"]
    entry = log.get(log_id)
    assert entry is not None and entry.kind == "chat" and entry.question == question
    assert entry.parameters == {"filters": {"anio_min": 1995}, "max_references": 2}
    log.close()
