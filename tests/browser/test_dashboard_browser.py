"""Real browser: Debian's Chromium (headless, via playwright) against the API and the dashboard
on loopback asks a question on Consulta, clicks badge [1] and finds that reference's registro.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.browser.servers import CHROMIUM, CHROMIUM_ARGS, Stack, running_stack

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = "¿Procede modificar la pensión alimenticia provisional?"
# The dashboard's defaults: recency slider 0.5, five references, no filters.
CHAT_INPUT = {"question": QUESTION, "recencyWeight": 0.5, "maxReferences": 5}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed")
    pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    with running_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running


def first_reference(api_url: str) -> int:
    """Registro of reference [1] for the question, asked straight to the API."""
    query = "query($i: ChatInput!) { chat(input: $i) { ... on ChatPayload { references { number registro } } } }"
    body = httpx.post(
        api_url, json={"query": query, "variables": {"i": CHAT_INPUT}}, timeout=60
    ).json()
    refs = {r["number"]: r["registro"] for r in body["data"]["chat"]["references"]}
    return int(refs[1])


def test_a_page_url_opens_under_the_router(stack: Stack, tmp_path: Path) -> None:
    """First visit of a fresh server on /busqueda: the app's navigation, not Streamlit's
    legacy pages/ listing (runs first, while the server is fresh)."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1000}, locale="es-MX")
            page.goto(f"{stack.dashboard_url}/busqueda", wait_until="domcontentloaded")
            heading = page.get_by_role("heading", name="Búsqueda y puntuación")
            expect(heading).to_be_visible(timeout=60_000)
            nav = page.get_by_test_id("stSidebarNav")
            expect(nav).to_contain_text("Línea de tiempo")
            expect(nav.get_by_text("app", exact=True)).to_have_count(0)
            expect(page.get_by_text(stack.api_url)).to_be_visible()
            page.screenshot(path=str(tmp_path / "busqueda.png"))
        finally:
            browser.close()


def test_badge_opens_the_reference_panel(stack: Stack, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    registro = first_reference(stack.api_url)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1000}, locale="es-MX")
            page.goto(stack.dashboard_url, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Consulta")).to_be_visible(timeout=60_000)
            page.get_by_label("Pregunta").fill(QUESTION)
            page.get_by_role("button", name="Preguntar").click()

            badge = page.get_by_role("button", name="[1]", exact=True)
            expect(badge).to_be_visible(timeout=60_000)
            panel = page.locator(f".st-key-ref_panel_{registro}")
            expect(panel).to_have_count(0)
            badge.click()

            expect(panel).to_be_visible(timeout=30_000)
            expect(panel).to_contain_text(f"Registro digital: {registro}")
            link = panel.get_by_role("link", name=str(registro), exact=True)
            expect(link).to_have_attribute(
                "href", f"https://sjf2.scjn.gob.mx/detalle/tesis/{registro}"
            )
            panel.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / "consulta_badge_1.png"), full_page=True)
        finally:
            browser.close()
    assert (tmp_path / "consulta_badge_1.png").stat().st_size > 10_000
