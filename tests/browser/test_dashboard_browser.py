"""Real browser: Debian's Chromium (headless, via playwright) against the API and the dashboard
on loopback, the API with introspection off and every request leaving loopback refused.

Consulta: an inline [N] opens its reference in place; unticking «Incluir tesis que perdieron
vigencia» takes the superseded tesis out of the answer; a citation is copied; the answer is
exported as Markdown. GraphiQL opens from the API's own files and runs a query.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.servers import CHROMIUM, CHROMIUM_ARGS, Stack, running_stack

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = (
    "¿Son obligatorios los criterios de la Corte Interamericana de Derechos Humanos para los "
    "jueces mexicanos?"
)
SUPERSEDED = 160584  # P. LXVI/2011 (9a.), superada por 2006225 (SJF notes)
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed (scripts/ensure_chromium.sh)")
    pytest.importorskip("playwright.sync_api", reason="playwright not installed")
    off = {"VIGENCIA_GRAPHQL_INTROSPECTION": "false"}
    with running_stack(tmp_path_factory.mktemp("stack"), notes=True, api_env=off) as running:
        yield running


@pytest.fixture
def browser(stack: Stack) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


def offline_context(browser: Any, leaving: list[str]) -> Any:
    """A browser context where only loopback answers (an air-gapped network)."""
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, locale="es-MX", accept_downloads=True
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])

    def route(request_route: Any) -> None:
        if request_route.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1")):
            request_route.continue_()
        else:
            leaving.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    return context


def test_introspection_is_off(stack: Stack) -> None:
    body = httpx.post(stack.api_url, json={"query": "{ __schema { types { name } } }"}).json()
    assert body.get("errors") and not body.get("data")


def test_a_page_url_opens_under_the_router(stack: Stack, browser: Any) -> None:
    """First visit of a fresh server on /busqueda: the app's navigation, not Streamlit's
    legacy pages/ listing."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1440, "height": 1000}, locale="es-MX")
    page.goto(f"{stack.dashboard_url}/busqueda", wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name="Búsqueda y puntuación")).to_be_visible(timeout=TIMEOUT)
    nav = page.get_by_test_id("stSidebarNav")
    expect(nav).to_contain_text("Línea de tiempo")
    expect(nav.get_by_text("app", exact=True)).to_have_count(0)
    expect(page.get_by_text(stack.api_url)).to_be_visible()


def _ask(page: Any, include_superseded: bool) -> None:
    from playwright.sync_api import expect

    box = page.get_by_role("checkbox", name="Incluir tesis que perdieron vigencia")
    if box.is_checked() != include_superseded:
        page.get_by_text("Incluir tesis que perdieron vigencia").click()
    expect(box).to_be_checked(checked=include_superseded)
    page.get_by_role("button", name="Preguntar").click()
    page.wait_for_function(
        '!document.querySelector(\'[data-testid="stStatusWidget"] [data-testid="stSpinner"]\')'
    )
    expect(page.locator("a.vg-cite").first).to_be_visible(timeout=TIMEOUT)


def test_consulta_in_a_real_browser(stack: Stack, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    leaving: list[str] = []
    page = offline_context(browser, leaving).new_page()
    page.goto(stack.dashboard_url, wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name="Consulta")).to_be_visible(timeout=TIMEOUT)
    page.get_by_label("Pregunta").fill(QUESTION)

    # With superseded criteria: P. LXVI/2011 is a reference, marked «no vigente» where cited.
    _ask(page, include_superseded=True)
    superseded = page.locator("details.vg-ref", has_text=f"{SUPERSEDED}")
    expect(superseded).to_have_count(1, timeout=TIMEOUT)
    expect(superseded).to_contain_text("No vigente")
    inline = page.locator(".vg-answer a.vg-cite").first
    number = inline.get_attribute("data-ref")
    ref = page.locator(f"details.vg-ref[data-ref='{number}']")
    expect(ref).not_to_have_attribute("open", "")
    inline.click()  # the [N] inside the answer text
    expect(ref).to_have_attribute("open", "")
    expect(ref.get_by_text("Registro digital:")).to_be_visible()
    # every citation of the superseded reference carries the «no vigente» mark
    cites = page.locator(f".vg-answer a.vg-cite[data-ref='{superseded.get_attribute('data-ref')}']")
    expect(page.locator(".vg-answer .vg-no-vigente")).to_have_count(cites.count())
    page.screenshot(path=str(tmp_path / "inline_reference.png"))

    # Copy the SJF citation of reference [1] from its panel.
    page.get_by_role("button", name="[1]", exact=True).click()
    code = page.locator("[class*='st-key-ref_panel_'] [data-testid='stCode']").first
    expect(code).to_contain_text("Registro digital:", timeout=TIMEOUT)
    code.hover()
    code.get_by_role("button", name="Copy to clipboard").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(code.inner_text().strip()[:40]) and "Registro digital: " in copied
    assert "Fuente: " in copied and "Tipo: " in copied

    # Export the answer as Markdown.
    with page.expect_download() as download:
        page.get_by_role("button", name="Exportar en Markdown").click()
    markdown = Path(download.value.path()).read_text(encoding="utf-8")
    assert markdown.startswith(f"# {QUESTION}") and "## Referencias" in markdown
    assert f"Registro digital: {SUPERSEDED}" in markdown
    assert f"[1] {copied.strip()}" in markdown  # the panel's citation, its Instancia included
    with page.expect_download() as download:
        page.get_by_role("button", name="Exportar referencias (CSV)").click()
    assert Path(download.value.path()).read_bytes().startswith(b"\xef\xbb\xbfN,Registro")

    # Without superseded criteria the same question no longer cites P. LXVI/2011.
    _ask(page, include_superseded=False)
    expect(page.locator("details.vg-ref").first).to_be_visible()
    expect(page.locator("details.vg-ref", has_text=f"{SUPERSEDED}")).to_have_count(0)
    expect(page.locator(".vg-no-vigente")).to_have_count(0)
    assert leaving == []


def test_graphiql_offline_runs_a_query(stack: Stack, browser: Any) -> None:
    from playwright.sync_api import expect

    leaving: list[str] = []
    page = offline_context(browser, leaving).new_page()
    page.goto(stack.api_url, wait_until="domcontentloaded")
    run = page.get_by_role("button", name="Execute query (Ctrl-Enter)")
    expect(run).to_be_visible(timeout=TIMEOUT)
    run.click()
    result = page.locator(".result-window")
    expect(result).to_contain_text('"total": 1060', timeout=TIMEOUT)
    assert leaving == []


def test_filter_lists_hold_no_english(stack: Stack, browser: Any) -> None:
    """The épocas and materias lists come from the corpus, with no «Select all» entry."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1024, "height": 900}, locale="es-MX")
    page.goto(f"{stack.dashboard_url}/busqueda", wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name="Búsqueda y puntuación")).to_be_visible(timeout=TIMEOUT)
    page.get_by_text("Filtros").click()
    options: list[str] = []
    for _ in range(5):  # the list can close again if the page reruns while it opens
        page.get_by_role("combobox", name="Épocas").click()
        try:
            listbox = page.get_by_role("listbox")
            expect(listbox.get_by_role("option").first).to_be_visible()
            options = listbox.get_by_role("option").all_inner_texts()  # read while it is open
        except AssertionError:
            options = []
        if options:
            break
        page.keyboard.press("Escape")
    assert {"Duodécima Época", "Séptima Época"} <= set(options), options
    assert "Primera Época" not in options and not any("Select all" in o for o in options)


def test_streamlit_hints_read_in_spanish(stack: Stack, browser: Any) -> None:
    """«Press Enter to submit form», «No results» and «Choose an option» are Streamlit's own;
    the dashboard's CSS and placeholders say them in Spanish."""
    from playwright.sync_api import expect

    def said(selector: str, words: str) -> None:  # polled: a rerun re-adds the style
        page.wait_for_function(
            """([selector, words]) => [...document.querySelectorAll(selector)].some(e =>
                getComputedStyle(e).fontSize === "0px"
                && getComputedStyle(e, "::after").content === `"${words}"`)""",
            arg=[selector, words],
            timeout=TIMEOUT,
        )

    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale="es-MX")
    page.goto(f"{stack.dashboard_url}/busqueda", wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name="Búsqueda y puntuación")).to_be_visible(timeout=TIMEOUT)
    page.get_by_label("Consulta").fill("arrendamiento")
    said('[data-testid="InputInstructions"] > span:first-child', "Intro para enviar")
    profile = page.get_by_role("combobox", name="Perfil de puntuación")
    assert profile.get_attribute("placeholder") == "Elija una opción"
    page.get_by_text("Filtros").click()
    page.get_by_role("combobox", name="Materias").click()
    page.keyboard.type("zzz")
    said('[role="listbox"][data-empty="true"] [role="option"] > span', "Sin resultados")
