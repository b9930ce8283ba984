"""AppTest fixtures: a fake API behind ``httpx.post``, caches cleared, no network."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from dashboard import client
from tests.dashboard import canned
from tests.dashboard.fake_api import FakeApi, refused

PAGES = Path(__file__).resolve().parents[2] / "dashboard" / "pages"
API_URL = "http://127.0.0.1:59999/graphql"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("VIGENCIA_API_URL", API_URL)
    monkeypatch.delenv("VIGENCIA_API_KEY", raising=False)
    st.cache_data.clear()
    yield
    st.cache_data.clear()


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> FakeApi:
    """The API as schema.graphql declares it, over canned data."""
    fake = FakeApi(canned.root())
    monkeypatch.setattr(httpx, "post", fake.post)
    monkeypatch.setattr(client, "_subscribe", fake.subscribe)
    return fake


@pytest.fixture
def api_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(httpx, "post", refused)


@pytest.fixture
def page() -> Callable[[str], AppTest]:
    def make(name: str) -> AppTest:
        return AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=30)

    return make


def assert_api_down(at: AppTest) -> None:
    """The page ran without an exception and says the API is down, naming the URL tried."""
    assert not at.exception
    assert len(at.error) == 1
    message = at.error[0].value
    assert "No se pudo conectar con la API" in message
    assert API_URL in message


def texts(at: AppTest) -> str:
    """Everything the page wrote as markdown, captions, notes and metrics, one per line."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for kind in (at.info, at.warning, at.success) for e in kind]
    parts += [f"{m.label}: {m.value}" for m in at.metric]
    return "\n".join(parts)


def frame(at: AppTest, *columns: str, nth: int = 0, exact: bool = False):
    """The ``nth`` dataframe having all ``columns`` (only them if ``exact``); AppTest has no
    dataframe keys."""
    found = [
        d.value
        for d in at.dataframe
        if (set(columns) == set(d.value.columns) if exact else set(columns) <= set(d.value.columns))
    ]
    assert len(found) > nth, f"no dataframe with columns {columns}"
    return found[nth]


def charts(at: AppTest) -> list[dict]:
    """The Vega-Lite specs of the page's Altair charts."""
    import json

    return [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]
