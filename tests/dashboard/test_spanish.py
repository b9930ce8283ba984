"""No English in the Spanish UI: every page, after its main action, is searched for English
words and the API's codes (words and codes must reach the analyst translated)."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.dashboard import canned
from tests.dashboard.fake_api import FakeApi

ENGLISH = re.compile(
    r"\b(Select all|None|null|true|false|default|earliest|latest|relevance|date_sorted|blend|"
    r"hybrid|search|chat|characters|at most|outside|must|not|warning|critical|info|ok|"
    r"degraded|error|seed|Unexpected|required)\b"
)
CODE = re.compile(r"\b[A-Z]+(?:_[A-Z0-9]+)+\b")  # PRE_REFORM, SUPERSEDED_CITED, FULL_TEXT...
TAG = re.compile(r"<[^>]+>")
STYLE = re.compile(r"<style>.*?</style>", re.S)  # CSS, not text (its own words are Spanish)


def _strings(at: AppTest) -> list[str]:
    out: list[str] = []
    for kind in (
        "markdown",
        "caption",
        "info",
        "warning",
        "error",
        "success",
        "title",
        "subheader",
        "header",
    ):
        out += [str(e.value) for e in at.get(kind)]
    out += [f"{m.label} {m.value} {m.help or ''}" for m in at.metric]
    out += [TAG.sub(" ", STYLE.sub(" ", e.proto.body)) for e in at.get("html")]
    out += [e.proto.label for e in at.get("expander")]
    out += [e.proto.label for e in at.get("download_button")]
    for widget in (
        *at.button,
        *at.selectbox,
        *at.multiselect,
        *at.radio,
        *at.checkbox,
        *at.text_input,
        *at.text_area,
        *at.slider,
        *at.select_slider,
        *at.number_input,
    ):
        out += [str(widget.label), str(getattr(widget, "help", "") or "")]
        out += [str(o) for o in getattr(widget, "options", [])]
    for frame in at.dataframe:
        df = frame.value
        out += [str(c) for c in df.columns]
        out += [str(v) for col in df.columns for v in df[col] if isinstance(v, str) or v is None]
    return out


def _run(at: AppTest, name: str) -> AppTest:
    at.run()
    if name == "consulta":
        at.text_area(key="consulta_question").input("¿Procede modificar la pensión?")
        at.button(key="consulta_ask").click()
        at.run()
        at.button(key="consulta_ref_3").click()
    elif name == "busqueda":
        at.text_input(key="busqueda_query").input("pensión alimenticia")
        at.button(key="busqueda_search").click()
        at.run()
        at.button(key="busqueda_ref_3").click()
    elif name == "linea_de_tiempo":
        at.button(key="tiempo_show").click()
        at.run()
        at.button(key="tiempo_earliest").click()
    return at.run()


@pytest.mark.parametrize("name", ["consulta", "busqueda", "linea_de_tiempo", "monitoreo", "corpus"])
def test_no_english_words_or_codes(api: FakeApi, page, name: str) -> None:
    at = _run(page(name), name)
    assert not at.exception and not at.error and not api.errors
    found = {m.group(0) for s in _strings(at) for m in (*ENGLISH.finditer(s), *CODE.finditer(s))}
    assert not found, f"{name}: {sorted(found)}"


def test_api_input_errors_are_spanish(api: FakeApi, page) -> None:
    api.root["search"] = lambda *a, **k: {
        "__typename": "InputError",
        "field": "query",
        "message": "5000 characters, at most 2000",
    }
    at = page("busqueda")
    at.run()
    at.text_input(key="busqueda_query").input("x")
    at.button(key="busqueda_search").click()
    at.run()
    # named as the page labels the field (it had said «Pregunta» under «Consulta»)
    assert at.warning[0].value == "Consulta: tiene 5000 caracteres; el máximo es 2000."
    assert canned  # the canned API answers the rest


@pytest.mark.parametrize(
    ("field", "message", "spanish"),
    [
        ("query", "~433 tokens, at most 256", "Consulta: es demasiado larga (unos 433"),
        ("question", "contains a NUL character", "Pregunta: contiene un carácter nulo."),
    ],
)
def test_a_long_question_is_told_why_in_spanish(field: str, message: str, spanish: str) -> None:
    """A 1,695-character story had been answered "valor no aceptado por la API"."""
    from dashboard.spanish import error_es

    said = error_es(field, message)
    assert said.startswith(spanish) and not ENGLISH.search(said)


def test_only_a_schema_mismatch_blames_the_versions() -> None:
    from dashboard.spanish import REFUSALS, refusal_es

    blamed = [code for code in [*REFUSALS, None] if "versi" in refusal_es(code)]
    assert blamed == ["SCHEMA_MISMATCH"]
    assert refusal_es("RATE_LIMITED", 7).endswith("(pide esperar 7 s).")
