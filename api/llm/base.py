"""The chat-model protocol every provider implements, and its errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

Message = dict[str, str]


class LLM(Protocol):
    """A chat model: ``messages`` are ``{"role": ..., "content": ...}`` dicts, OpenAI-style.

    Implementations raise ``LLMError`` (``LLMTimeout`` on timeouts) and nothing else for
    provider failures. ``timeout`` (seconds) overrides the provider's default for one call.
    """

    @property
    def model_id(self) -> str:
        """Identifies provider and model, e.g. 'openai/gpt-4o-mini'."""
        ...

    def complete(self, messages: list[Message], timeout: float | None = None) -> str:
        """The whole reply text."""
        ...

    def stream(self, messages: list[Message], timeout: float | None = None) -> Iterator[str]:
        """The reply in pieces as they arrive; ``timeout`` bounds the whole stream."""
        ...
