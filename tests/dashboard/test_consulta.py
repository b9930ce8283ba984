"""Consulta: the answer's [N] badges, the reference panel, the citation check, the mode."""

from __future__ import annotations

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


def test_badges_open_the_reference_panel(api, page) -> None:
    at = _ask(page("consulta"))
    assert not at.exception and not at.error and not api.errors

    badges = _badges(at)
    assert len(badges) == len(canned.CHAT["references"])
    assert [b.label for b in badges] == ["[1]", "[2]", "[3]"]
    answer = next(m.value for m in at.markdown if "pensión provisional" in m.value)
    assert ":blue-badge[\\[1\\]]" in answer and ":blue-badge[\\[2\\]]" in answer
    assert "7" not in answer  # the phantom [7] is removed
    assert "Registro digital" not in texts(at)  # no panel until a badge is clicked

    at.button(key="consulta_ref_3").click()
    at.run()
    shown = texts(at)
    assert "Registro digital: [246545](https://sjf2.scjn.gob.mx/detalle/tesis/246545)" in shown
    assert "Superada por 2006225 (P./J. 21/2014 (10a.)) desde 28 de abril de 2014" in shown
    assert "[2006225](https://sjf2.scjn.gob.mx/detalle/tesis/2006225)" in shown
    assert "Fragmento 1 · líneas 1–2 · caracteres 0–" in shown
    assert "Similitud: 84.0 %" in shown and "Puntuación final: 40.0 %" in shown
    assert "**Época:** Séptima Época · **Año:** 1987 · **Tipo:** Aislada" in shown


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
    assert "Cobertura de citas: 67 %" in shown
    assert "Citas fantasma eliminadas: 1" in shown
    assert "Referencias sin citar: 1" in shown
    assert "[7]" in shown  # listed as removed
    assert "Referencias citadas: 2" in shown


def test_question_and_settings_reach_chat(api, page) -> None:
    at = page("consulta")
    at.run()
    at.multiselect(key="consulta_materias").set_value(["Civil"])
    at.slider(key="consulta_recency").set_value(0.8)
    _ask(at, first_run=False)
    (call,) = api.called("chatStream")  # the API streams: the page subscribes
    sent = call["input"]
    assert sent["question"] == "¿Procede modificar la pensión provisional?"
    assert sent["recencyWeight"] == 0.8 and sent["maxReferences"] == 5
    assert sent["filters"] == {"materias": ["Civil"]}


def test_empty_question_is_not_sent(api, page) -> None:
    at = _ask(page("consulta"), "  ")
    assert at.warning[0].value == "Escriba una pregunta."
    assert not api.called("chat") and not api.called("chatStream")


def test_without_streaming_the_page_calls_chat(api, page) -> None:
    api.schema.subscription_type = None  # an API that does not stream
    at = _ask(page("consulta"))
    assert not at.exception and not at.error and not api.errors
    assert len(api.called("chat")) == 1 and not api.called("chatStream")
    assert len(_badges(at)) == len(canned.CHAT["references"])


def test_stream_failure_is_shown(api, page) -> None:
    async def broken(info, input):
        yield {"chatStream": {"__typename": "ServiceError", "service": "llm", "message": "caído"}}

    api.root["chatStream"] = broken
    at = _ask(page("consulta"))
    assert not at.exception
    assert "El servicio «llm» de la API falló: caído" in at.error[0].value


def test_without_chat_the_page_lists_search_hits(api, page) -> None:
    del api.schema.query_type.fields["chat"]  # as before chat landed
    at = _ask(page("consulta"))
    assert not at.exception and not at.error
    assert "no disponible aún" in texts(at) and "`chat`" in texts(at)
    assert len(_badges(at)) == 3


def test_api_down(api_down, page) -> None:
    at = page("consulta")
    at.run()
    assert_api_down(at)
