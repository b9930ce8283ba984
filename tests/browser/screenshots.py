"""Screenshots of every dashboard page for the README: ``python -m tests.browser.screenshots``.

Starts the API (bundled corpus and validity notes) and the dashboard on loopback, drives Debian's
Chromium headless and writes ``docs/img/<page>.png`` (1400 px wide) and
``docs/img/<page>_1024.png`` (1024 px, a small laptop), each as tall as the page.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tests.browser.servers import CHROMIUM, CHROMIUM_ARGS, ROOT, running_stack

if TYPE_CHECKING:
    from playwright.sync_api import Page

QUESTION = "¿Cuál es el criterio vigente sobre la suspensión provisional en el amparo?"
WIDTHS = {"": 1400, "_1024": 1024}
SEARCH = "suspensión provisional en el amparo"
TIMELINE = "interés superior del menor"
TIMEOUT = 60_000


def _settle(page: Page) -> None:
    """Wait until Streamlit is idle and charts have drawn."""
    page.wait_for_function(
        '!document.querySelector(\'[data-testid="stStatusWidget"] [data-testid="stSpinner"]\')'
    )
    page.wait_for_timeout(2000)


def _fit_height(page: Page, width: int) -> None:
    """Grow the viewport to the page's content (Streamlit scrolls inside its main area)."""
    page.mouse.move(5, 5)
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(1000)
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(int(height) + 40, 9000)})
    page.wait_for_timeout(1500)
    page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
    page.wait_for_timeout(300)


def consulta(page: Page) -> None:
    page.get_by_label("Pregunta").fill(QUESTION)
    page.get_by_role("button", name="Preguntar").click()
    page.locator(".vg-answer a.vg-cite").first.click(timeout=TIMEOUT)  # opens in place
    page.get_by_role("button", name="[1]", exact=True).click(timeout=TIMEOUT)
    page.locator("[class*='st-key-ref_panel_']").wait_for(timeout=TIMEOUT)


def busqueda(page: Page) -> None:
    page.get_by_label("Consulta").fill(SEARCH)
    page.get_by_role("button", name="Buscar").click()
    page.get_by_text("Sin y con recencia").wait_for(timeout=TIMEOUT)
    page.get_by_role("button", name="[1]", exact=True).click()


def linea_de_tiempo(page: Page) -> None:
    page.get_by_label("Consulta (opcional").fill(TIMELINE)
    page.get_by_role("button", name="Mostrar").click()
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for(timeout=TIMEOUT)
    page.get_by_role("button", name="La más reciente").click()


def idle(page: Page) -> None:
    page.wait_for_timeout(500)


PAGES: dict[str, tuple[str, Callable[..., None]]] = {
    "consulta": ("", consulta),
    "busqueda": ("busqueda", busqueda),
    "linea_de_tiempo": ("linea_de_tiempo", linea_de_tiempo),
    "monitoreo": ("monitoreo", idle),
    "corpus": ("corpus", idle),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "img"))
    parser.add_argument("--pages", nargs="*", default=list(PAGES))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_stack(Path(tmp), notes=True) as stack,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            for name in args.pages:
                path, act = PAGES[name]
                page = browser.new_page(viewport={"width": 1400, "height": 900}, locale="es-MX")
                page.goto(f"{stack.dashboard_url}/{path}", wait_until="domcontentloaded")
                page.get_by_role("heading").first.wait_for(timeout=TIMEOUT)
                _settle(page)
                act(page)
                _settle(page)
                for suffix, width in WIDTHS.items():
                    _fit_height(page, width)
                    page.screenshot(path=str(out / f"{name}{suffix}.png"))
                    print(f"wrote {out / name}{suffix}.png", file=sys.stderr)
                page.close()
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
