"""Consulta: the answer's [N] links, the reference panel, the citation check, the mode."""

from __future__ import annotations

import pytest

from tests.dashboard import canned
from tests.dashboard.conftest import assert_api_down, texts


def _ask(at, question: str = "¿Procede modificar la pensión provisional?", first_run=True):
    if first_run:
        at.run()
    at.text_area(key="consulta_question").input(question)
    at.button(key="consulta_ask").click()
    return at.run()


def _badges(at):
    return [b for b in at.button if (b.key or "").startswith("consulta_ref_")]


def _html(at) -> str:
    return "\n".join(e.proto.body for e in at.get("html"))


def test_inline_links_open_their_reference_in_place(api, page) -> None:
    at = _ask(page("consulta"))
    assert not at.exception and not at.error and not api.errors
    html = _html(at)
    assert 'href="#ref-1"' in html and 'href="#ref-2"' in html
    assert "#ref-7" not in html and "[7]" not in html  # the phantom [7] is removed
    for n in (1, 2, 3):
        assert f'<details class="vg-ref" data-ref="{n}"' in html and f'id="ref-{n}"' in html
    assert "https://sjf2.scjn.gob.mx/detalle/tesis/246545" in html
    assert "Respuesta a: «¿Procede modificar la pensión provisional?»" in texts(at)


def test_a_superseded_reference_is_marked_on_every_bullet(api, page) -> None:
    api.root["chat"] = lambda info, input: {
        **canned.CHAT,
        "answer": "- Primero [3].\n- Segundo [1].\n- Tercero [3][1].",
        "citationCheck": {**canned.CHAT["citationCheck"], "valid": [1, 3], "cited": [1, 3]},
    }
    at = _ask(page("consulta"))
    answer = next(e.proto.body for e in at.get("html") if "vg-answer" in e.proto.body)
    bullets = answer.split("<li>")[1:]
    assert len(bullets) == 3
    assert ["vg-no-vigente" in b for b in bullets] == [True, False, True]


def test_text_from_the_api_is_never_markup(api, page) -> None:
    hostile = (
        "![x](http://evil.example/p.png) [entre](http://evil.example/) "
        ":red-badge[NO VIGENTE] <img src=http://evil.example/i.png> [1]"
    )
    ref = {
        **canned.reference(0),
        "fragments": [{**canned.reference(0)["fragments"][0], "text": hostile}],
    }
    api.root["chat"] = lambda info, input: {**canned.CHAT, "answer": hostile, "references": [ref]}
    at = _ask(page("consulta"))
    assert not at.exception
    html = _html(at)
    assert "<img" not in html and 'href="http://evil' not in html
    assert "&lt;img" in html and 'href="#ref-1"' in html
    markdown = "\n".join(m.value for m in at.markdown)
    assert "evil.example" not in markdown and ":red-badge[NO" not in markdown


def test_badges_open_the_panel_with_citation_and_full_text(api, page) -> None:
    at = _ask(page("consulta"))
    assert [b.label for b in _badges(at)] == ["[1]", "[2]", "[3]"]
    assert "Registro digital: [" not in texts(at)  # no panel until a badge is clicked

    at.button(key="consulta_ref_3").click()
    at.run()
    shown = texts(at)
    assert "Registro digital: [246545](https://sjf2.scjn.gob.mx/detalle/tesis/246545)" in shown
    assert "Superada por 2006225 (P./J. 21/2014 (10a.)) desde 28 de abril de 2014" in shown
    assert "**Época:** Séptima Época · **Fecha:** 1987 · **Tipo:** Aislada" in shown
    (citation,) = [c.value for c in at.code if "Registro digital: 246545" in c.value]
    assert citation.startswith("ALIMENTOS. UNA VEZ FIJADA LA PENSIÓN PROVISIONAL")
    assert "Instancia: Primera Sala; Séptima Época" in citation
    assert "Fuente: Semanario Judicial de la Federación" in citation
    assert api.called("tesis") == [{"registro": 246545}]
    assert "Texto completo de la tesis" in [e.label for e in at.expander]


def test_exports(api, page) -> None:
    at = _ask(page("consulta"))
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert set(buttons) == {"Exportar en Markdown", "Exportar referencias (CSV)"}


def test_reference_feedback(api, page) -> None:
    at = _ask(page("consulta"))
    at.button(key="consulta_ref_3").click()
    at.run()
    at.button(key="fb_c-1:246545_False").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("feedback") == [{"logId": "c-1", "registro": 246545, "useful": False}]
    assert "Gracias: opinión registrada (no útil)." in texts(at)


def test_mode_and_citation_check_are_shown(api, page) -> None:
    at = _ask(page("consulta"))
    shown = texts(at)
    assert "Extractivo (fragmentos citados, sin modelo de lenguaje)" in shown
    assert "sin clave de LLM" in at.warning[0].value
    # it had read «la respuesta es extractivo»
    assert at.warning[0].value.endswith(
        "; la respuesta es extractiva (fragmentos citados de las tesis)."
    )
    assert "Cobertura de citas: 67 %" in shown
    assert "Citas fantasma eliminadas: 1" in shown
    assert "Referencias sin citar: 1" in shown
    assert "Referencias citadas: 2" in shown
    assert "Peso de la recencia aplicado: 50 %" in shown


def test_an_answer_citing_nothing_is_flagged(api, page) -> None:
    api.root["chat"] = lambda info, input: {
        **canned.CHAT,
        "mode": "FULL_TEXT",
        "ragUsed": True,
        "model": "m",
        "llmError": None,
        "answer": "Texto sin citas.",
        "citationCheck": {
            "cited": [],
            "valid": [],
            "phantom": [],
            "uncited": [1, 2, 3],
            "coverage": 0.0,
        },
    }
    at = _ask(page("consulta"))
    assert "no cita ninguna referencia" in at.warning[0].value
    assert "transcrito por el modelo de lenguaje" in texts(at)


def test_settings_reach_chat(api, page) -> None:
    at = page("consulta")
    at.run()
    at.multiselect(key="consulta_materias").set_value(["Civil"])
    _ask(at, first_run=False)
    (call,) = api.called("chat")
    sent = call["input"]
    assert sent == {
        "question": "¿Procede modificar la pensión provisional?",
        "filters": {"materias": ["Civil"]},
        "maxReferences": 5,
        "includeSuperseded": False,
    }  # no recencyWeight: «Automático»
    at.select_slider(key="consulta_recency").set_value(0.8)
    at.checkbox(key="consulta_superseded").check()
    _ask(at, first_run=False)
    sent = api.called("chat")[-1]["input"]
    assert sent["recencyWeight"] == 0.8 and sent["includeSuperseded"] is True


def test_empty_question_is_not_sent(api, page) -> None:
    at = _ask(page("consulta"), "  ")
    assert at.warning[0].value == "Escriba una pregunta."
    assert not api.called("chat")


def test_service_failure_is_spanish(api, page) -> None:
    api.root["chat"] = lambda info, input: {
        "__typename": "ServiceError",
        "service": "llm",
        "message": "upstream 500 at http://u:p@h/",
    }
    at = _ask(page("consulta"))
    assert not at.exception
    assert at.error[0].value == (
        "Falló el modelo de lenguaje de la API. Intente de nuevo en unos momentos."
    )


def test_api_down(api_down, page) -> None:
    at = page("consulta")
    at.run()
    assert_api_down(at)


def test_an_abstention_is_said_and_not_flagged_as_uncited(api, page) -> None:
    api.root["chat"] = lambda info, input: {
        **canned.CHAT,
        "mode": "ABSTAINED",
        "abstained": True,
        "references": [],
        "abstainReason": "Ninguna tesis del corpus responde a la pregunta.",
        "answer": "No encontré tesis que respondan a la pregunta.",
        "llmError": None,
        "citationCheck": {"cited": [], "valid": [], "phantom": [], "uncited": [], "coverage": 0.0},
    }
    at = _ask(page("consulta"))
    assert not at.exception and not at.error
    assert at.info[0].value == "Ninguna tesis del corpus responde a la pregunta."
    assert not at.warning
    assert "Sin respuesta (la API se abstuvo)" in texts(at)


def test_reference_warning_and_partial_text_are_marked(api, page) -> None:
    warned = {
        **canned.reference(2),
        "partial": True,
        "warning": "criterio anterior a la reforma: verifique su vigencia",
    }
    api.root["chat"] = lambda info, input: {
        **canned.CHAT,
        "references": [canned.reference(0), canned.reference(1), warned],
    }
    at = _ask(page("consulta"))
    html = _html(at)
    assert "criterio anterior a la reforma: verifique su vigencia" in html
    assert "texto incompleto en la fuente" in html
    at.button(key="consulta_ref_3").click()
    at.run()
    assert ":orange-badge[Texto incompleto en la fuente]" in texts(at)


def test_a_reference_without_a_note_but_with_a_warning_is_not_a_green_vigente(api, page) -> None:
    """A green "Vigente" stood beside "verifique su vigencia" (a pre-reform criterion)."""
    warned = {**canned.reference(0), "warning": "criterio anterior a la reforma laboral de 2019"}
    api.root["chat"] = lambda info, input: {**canned.CHAT, "references": [warned]}
    at = _ask(page("consulta"))
    at.button(key="consulta_ref_1").click()
    at.run()
    assert ":orange-badge[Sin nota de pérdida de vigencia]" in texts(at)
    assert ":green-badge[Vigente]" not in texts(at)


def test_without_a_model_the_context_is_what_would_be_sent(api, page) -> None:
    api.root["chat"] = lambda info, input: {
        **canned.CHAT,
        "ragUsed": False,
        "context": "[1] ...",
        "systemPrompt": "Responde...",
    }
    at = _ask(page("consulta"))
    labels = [e.proto.label for e in at.get("expander")]
    assert "Contexto e instrucciones que se enviarían a un modelo" in labels


def test_a_range_of_citations_links_each_number() -> None:
    """«[1-2]» had stayed as text, not two links."""
    from dashboard.export import answer_markdown
    from dashboard.rendering import answer_html

    refs = {n: {"rubro": f"R{n}", "status": {"vigente": True}} for n in (1, 2, 3)}
    html, phantoms = answer_html("Procede [1-2] y [2, 3–4].", refs)
    for n in (1, 2, 3):
        assert f'href="#ref-{n}"' in html
    assert phantoms == [4] and "[1-2]" not in html
    result = {"answer": "Procede [1-2].", "references": []}
    assert "[1-2]" not in answer_markdown("¿?", result)  # unknown numbers: dropped, not a crash


@pytest.mark.parametrize(
    "answer",
    [
        "Procede [1 y 2].",
        "Según [Ref. 3] y [Referencia 1], procede.",
        "Procede [ref 2; 3] pero no [4 y 9].",
        "Ver [1][2], [1–3] y [ 2 ].",
        "Mezcla [1, 9] y [Ref. 9 y 2].",
        "Una lista [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21] larga.",
    ],
)
def test_the_panel_links_every_citation_the_api_counts(answer: str) -> None:
    """The API's citation check (``api.core.citations``) counted «[1 y 2]» and «[Ref. 2]» while
    the panel left them as plain text: the [N] a reader sees must be the [N] the API checked."""
    from api.core.citations import check_citations, strip_phantoms
    from dashboard.export import answer_markdown
    from dashboard.rendering import answer_html

    refs = {n: {"rubro": f"R{n}", "status": {"vigente": True}} for n in (1, 2, 3)}
    html, phantoms = answer_html(answer, refs)
    linked = {n for n in refs if f'href="#ref-{n}"' in html}
    check = check_citations(answer, len(refs))
    assert linked == set(check.valid) and sorted(phantoms) == sorted(check.phantom)
    # the export keeps what the API keeps of each marker ("[4 y 9]" gone, "[1, 9]" as "[1]")
    listed = [{"number": n, "registro": 250000 + n, "rubro": f"R{n}"} for n in refs]
    exported = answer_markdown("¿?", {"answer": answer, "references": listed}).splitlines()[2]
    kept = strip_phantoms(answer, len(refs))
    assert check_citations(exported, len(refs)).cited == check_citations(kept, len(refs)).cited


def test_the_panel_reads_citation_markers_with_the_api_s_grammar() -> None:
    from api.core.citations import MARKER
    from api.core.citations import MAX_MARKER_CHARS as API_MAX
    from dashboard.rendering import CITATION, MAX_MARKER_CHARS

    assert (CITATION.pattern, CITATION.flags) == (MARKER.pattern, MARKER.flags)
    assert MAX_MARKER_CHARS == API_MAX


def test_the_markdown_export_cites_as_the_panel(api, page) -> None:
    """The export had left out the Instancia that the panel's «Cita (estilo SJF)» gives."""
    from dashboard import export
    from dashboard.components.answer import _records

    at = _ask(page("consulta"))
    at.button(key="consulta_ref_3").click()
    at.run()
    (citation,) = [c.value for c in at.code if "Registro digital: 246545" in c.value]
    result = at.session_state["consulta_result"]  # as the API sends it: no instancia
    assert all("instancia" not in r for r in result["references"])
    refs = {int(r["number"]): r for r in result["references"]}
    markdown = export.answer_markdown("¿Procede?", result, _records(refs))
    assert f"[3] {citation} Vigencia:" in markdown and "Instancia: Primera Sala" in citation


def test_the_csv_export_opens_in_excel() -> None:
    """UTF-8 without a byte-order mark: Excel read «Época» as «Ã‰poca»."""
    from dashboard.export import references_csv

    data = references_csv([canned.reference(0)])
    assert data.startswith(b"\xef\xbb\xbf") and "Época,Año" in data.decode("utf-8-sig")


def test_a_lookup_says_which_cited_tesis_the_corpus_lacks(api, page) -> None:
    """A reviewer's find: the API said "tesis 2a./J. 12/2019" was not in the corpus and the
    dashboard did not ask for it."""
    intent = {**canned.INTENT, "cited": [160584], "notFound": ["tesis 2a./J. 12/2019"]}
    api.root["chat"] = lambda info, input: {**canned.CHAT, "intent": intent}
    at = _ask(page("consulta"))
    assert not at.exception
    shown = [w.value for w in at.warning]
    assert any("No está en el corpus: tesis 2a./J. 12/2019" in w for w in shown), shown


LOW = {
    "level": "LOW",
    "lead": 0.01,
    "floorMargin": 0.03,
    "reasons": ["La primera tesis apenas aventaja a la siguiente en relevancia (0.01)."],
}


def test_the_answer_says_when_the_api_is_unsure_of_its_first_reference(api, page) -> None:
    api.root["chat"] = lambda info, input: {**canned.CHAT, "confidence": LOW}
    at = _ask(page("consulta"))
    assert not at.exception and not api.errors
    [warning] = [w.value for w in at.warning if "Confianza baja" in w.value]
    assert "apenas aventaja a la siguiente" in warning
    high = {**LOW, "level": "HIGH", "lead": 0.3, "reasons": []}
    api.root["chat"] = lambda info, input: {**canned.CHAT, "confidence": high}
    at = _ask(at, first_run=False)
    assert not [w for w in at.warning if "Confianza" in w.value]
    assert any("Confianza alta en el primer resultado" in c.value for c in at.caption)
