"""At most a few calls wait on the chat model; one more falls back instead of holding a slot."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from api.errors import LLMBusy, LLMError
from api.llm.bounded import BoundedLLM
from tests.fakes import ScriptedLLM

HELLO = [{"role": "user", "content": "hola"}]


def test_a_call_beyond_the_turns_fails_fast_and_a_freed_turn_serves_again() -> None:
    slow = BoundedLLM(ScriptedLLM(["uno", "dos"], delay=0.5), max_running=1, max_wait_s=0.05)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(slow.complete, HELLO)
        threading.Event().wait(0.1)  # the first call holds the only turn
        with pytest.raises(LLMBusy, match="busy") as busy:
            slow.complete(HELLO)
        assert isinstance(busy.value, LLMError)  # the answer falls back like on any LLM error
        assert first.result() == "uno"
    assert slow.complete(HELLO) == "dos"


def test_a_stream_holds_its_turn_until_it_ends_and_a_failure_gives_it_back() -> None:
    llm = BoundedLLM(
        ScriptedLLM(["abcdefgh", LLMError("down"), "ok"], chunk_size=4), 1, max_wait_s=0.01
    )
    pieces = llm.stream(HELLO)
    assert next(pieces) == "abcd"
    with pytest.raises(LLMBusy):
        llm.complete(HELLO)
    assert list(pieces) == ["efgh"]
    with pytest.raises(LLMError, match="down"):
        llm.complete(HELLO)
    assert llm.complete(HELLO) == "ok"  # neither the stream nor the failure kept a turn


def test_the_bound_is_at_least_one_turn() -> None:
    with pytest.raises(ValueError, match="max_running"):
        BoundedLLM(ScriptedLLM([]), 0, 1.0)


def test_a_busy_model_is_named_to_the_client_as_such() -> None:
    from api.services.answer import describe_error

    assert describe_error(LLMBusy("no turn within 1 s")) == "modelo ocupado"
