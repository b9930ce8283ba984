"""Every error type the service raises on purpose, in one place.

Each names what failed in a sentence a client or an operator can act on; GraphQL turns them
into ``InputError`` / ``ServiceError`` (``api.graphql.errors``), the CLI prints them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class InvalidRequest(ValueError):
    """A search argument is out of range; names the field."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@contextmanager
def argument_names(**names: str) -> Iterator[None]:
    """Re-raise an ``InvalidRequest`` under the name the caller's argument has: a chat's
    ``question`` is the search's ``query``, ``latest``'s ``limit`` its ``topK``."""
    try:
        yield
    except InvalidRequest as exc:
        if exc.field not in names:
            raise
        raise InvalidRequest(names[exc.field], exc.reason) from exc


class InvalidField(ValueError):
    """One field of an ingested record is unusable; the loader adds the record's position."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


class StoreError(RuntimeError):
    """A store operation failed (server unreachable, corrupt file, vendor error)."""


class EmbedderError(RuntimeError):
    """The embedder could not produce vectors (model missing, endpoint down, bad reply)."""


class LLMError(RuntimeError):
    """The model could not answer (endpoint down, HTTP error, malformed reply). ``public``:
    what kind of failure, safe to show a client ("HTTP 500", "respuesta mal formada"); the
    message, with the endpoint's words, is for the server log."""

    def __init__(self, message: str, public: str = "") -> None:
        super().__init__(message)
        self.public = public


class LLMTimeout(LLMError):
    """The model did not answer within the timeout."""


class LLMBusy(LLMError):
    """Every turn at the model was taken for longer than a caller may wait (``BoundedLLM``)."""


def llm_failure(exc: LLMError) -> str:
    """What a client is told of a model failure, in Spanish and without its detail (an
    upstream body can echo keys): "tiempo agotado", "modelo ocupado" or "error del modelo",
    with the kind of error when known ("error del modelo: HTTP 500")."""
    if isinstance(exc, LLMTimeout):
        return "tiempo agotado"
    if isinstance(exc, LLMBusy):
        return "modelo ocupado"
    return f"error del modelo: {exc.public}" if exc.public else "error del modelo"


class JudgeFormatError(ValueError):
    """The reply is not the strict JSON the judge asked for. ``public`` is the short reason a
    client sees; the message (with an excerpt of the reply) is for the server log."""

    def __init__(self, message: str, public: str) -> None:
        super().__init__(message)
        self.public = public


class LogError(RuntimeError):
    """The log could not be read or written (unwritable file, server down, vendor error)."""


class UnknownEntry(LogError):
    """No logged search has this id (never logged, or pruned)."""

    def __init__(self, log_id: str) -> None:
        super().__init__(f"no logged search with id {log_id!r}")
        self.log_id = log_id


class StartupError(RuntimeError):
    """The service cannot start; the message is one sentence for the operator."""
