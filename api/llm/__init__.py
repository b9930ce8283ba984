"""Chat LLM providers behind one protocol (``api.llm.base.LLM``)."""

from api.errors import LLMError, LLMTimeout
from api.llm.base import LLM

__all__ = ["LLM", "LLMError", "LLMTimeout"]
