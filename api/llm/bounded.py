"""At most a few requests wait on the chat model at once (any ``LLM``).

A chat holds one of the API's request slots (``api.admission``) for as long as the model takes:
with a slow or hung endpoint, eight chats took every slot and even a registro lookup was shed
with 503 while the process sat idle. ``BoundedLLM`` lets ``max_running`` calls reach the model;
one more waits up to ``max_wait_s`` for a turn, then fails with ``LLMBusy`` (an ``LLMError``):
the answer falls back to the extractive one and says why, and the slot is free again.

Example::

    llm = BoundedLLM(OpenAIChat(endpoint), max_running=4, max_wait_s=1.0)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from api.errors import LLMBusy
from api.llm.base import LLM, Message


class BoundedLLM:
    """``inner`` with at most ``max_running`` calls (or streams) in flight."""

    def __init__(self, inner: LLM, max_running: int, max_wait_s: float) -> None:
        if max_running < 1:
            raise ValueError(f"max_running must be >= 1, got {max_running}")
        self.inner = inner
        self.max_running = max_running
        self.max_wait_s = max_wait_s
        self._turns = threading.BoundedSemaphore(max_running)

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def _turn(self) -> None:
        if not self._turns.acquire(timeout=self.max_wait_s):
            raise LLMBusy(f"the chat model is busy: no turn within {self.max_wait_s:g} s")

    def complete(self, messages: list[Message], timeout: float | None = None) -> str:
        self._turn()
        try:
            return self.inner.complete(messages, timeout)
        finally:
            self._turns.release()

    def stream(self, messages: list[Message], timeout: float | None = None) -> Iterator[str]:
        self._turn()
        try:
            yield from self.inner.stream(messages, timeout)
        finally:
            self._turns.release()

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
