"""Chat LLM providers behind one protocol (``api.llm.base.LLM``)."""

from api.llm.base import LLM, LLMError, LLMTimeout

__all__ = ["LLM", "LLMError", "LLMTimeout"]
