"""The router: every page is registered, the default one renders; formatting doctests."""

from __future__ import annotations

import doctest
from pathlib import Path

from streamlit.testing.v1 import AppTest

from dashboard import errors, export, formatting, rendering, spanish
from dashboard.components import timeline
from tests.dashboard.conftest import API_URL, assert_api_down
from tests.dashboard.fake_api import FakeApi

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def test_router_opens_consulta_and_shows_the_api_url(api: FakeApi) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    assert not at.exception and not at.error
    assert at.title[0].value == "Consulta"
    assert API_URL in at.sidebar.caption[0].value


def test_router_switches_pages(api: FakeApi) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    for page, title in (
        ("pages/busqueda.py", "Búsqueda y puntuación"),
        ("pages/linea_de_tiempo.py", "Línea de tiempo"),
        ("pages/monitoreo.py", "Monitoreo"),
        ("pages/corpus.py", "Corpus"),
    ):
        at.switch_page(page)
        at.run()
        assert not at.exception and not at.error, page
        assert at.title[0].value == title


def test_router_with_the_api_down(api_down) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    assert_api_down(at)


def test_doctests() -> None:
    for module in (formatting, spanish, rendering, export, errors, timeline):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_a_page_load_notices_the_api_went_down(api: FakeApi, monkeypatch) -> None:
    """With the API stopped, a reload (a new session) or another page of the same session had
    shown the corpus statistics of a minute before, with no error."""
    from tests.dashboard.fake_api import refused

    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    at.switch_page("pages/corpus.py")
    at.run()
    assert not at.exception and not at.error
    monkeypatch.setattr("httpx.post", refused)
    at.switch_page("pages/busqueda.py")
    at.run()
    assert_api_down(at)
    reloaded = AppTest.from_file(str(APP), default_timeout=30)
    reloaded.run()
    assert_api_down(reloaded)
