"""Monitoreo: boost histogram, temporal distributions, alerts, search log and feedback."""

from __future__ import annotations

from tests.dashboard import canned
from tests.dashboard.conftest import assert_api_down, charts, frame, texts
from tests.dashboard.fake_api import FakeApi


def test_histogram_distributions_and_alerts(api: FakeApi, page) -> None:
    at = page("monitoreo")
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("monitoring") == [{"windowHours": 168}]

    titles = [c.get("title") for c in charts(at)]
    assert titles == ["Impulso = puntuación final / relevancia", "Proporción por año"]
    epocas = frame(at, "Recuperadas", "Citadas", "Corpus")
    assert list(epocas.index) == ["Séptima Época", "Undécima Época"]
    materias = frame(at, "Materia", "Búsquedas", "Anteriores a la reforma")
    assert list(materias["Materia"]) == ["Civil", "Sin materia"]

    shown = texts(at)
    assert "Búsquedas y consultas: 12" in shown and "Registro de búsquedas: ok" in shown
    assert "Anteriores a 2000: 40.0 %" in shown and "Sin vigencia: 5.0 %" in shown
    assert "Resultados: 96" in shown
    for alert in canned.MONITORING["alerts"]:
        assert f"**{alert['code']}**".replace("_", "\\_") in shown
    assert ":red-badge[crítica] **SUPERSEDED\\_TOP1** · 1 veces" in shown
    assert "Primera vez: 20 de noviembre de 2026, 10:00" in shown
    assert ":orange-badge[advertencia] **COVERAGE\\_GAP**\n" in shown + "\n"  # no "0 veces"
    assert "ninguna tesis de Agraria desde 1992 (corte de la reforma)" in shown
    assert [e.label for e in at.expander] == ["Consultas de ejemplo (1)"] * 2


def test_window_is_sent(api: FakeApi, page) -> None:
    at = page("monitoreo")
    at.run()
    at.selectbox(key="monitoreo_window").select(24)
    at.run()
    assert api.called("monitoring")[-1] == {"windowHours": 24}


def test_log_drill_down_and_feedback(api: FakeApi, page) -> None:
    at = page("monitoreo")
    at.run()
    log = frame(at, "Fecha", "Pregunta", "Peso de la recencia")
    assert list(log["Pregunta"]) == ["pensión alimenticia", "amparo directo"]
    hits = frame(at, "Pos.", "Registro", "Vigencia", "Factor de recencia")
    assert list(hits["Vigencia"]) == ["Vigente", "Superada"]
    shown = texts(at)
    assert "Registro 246545" in shown
    assert "Descartada 240001 (1980): PRE_REFORM — Anterior a la reforma" in shown
    assert "Gracias: opinión registrada (útil)." in shown  # stored with the log entry
    at.text_input(key="log_comment_log-1").input("La segunda está superada")
    at.button(key="fb_log-1:246545_False").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("feedback") == [
        {"logId": "log-1", "registro": 246545, "useful": False,
         "comment": "La segunda está superada"}
    ]  # fmt: skip
    assert "Gracias: opinión registrada (no útil)." in texts(at)
    assert not [b for b in at.button if (b.key or "").startswith("fb_log-1:2031616")]


def test_without_monitoring_the_page_says_so(api: FakeApi, page) -> None:
    for name in ("monitoring", "searchLog"):
        api.schema.query_type.fields.pop(name, None)
    at = page("monitoreo")
    at.run()
    assert not at.exception and not at.error
    shown = texts(at)
    assert "`monitoring`" in shown and "`searchLog`" in shown and "no disponible aún" in shown


def test_api_down(api_down, page) -> None:
    at = page("monitoreo")
    at.run()
    assert_api_down(at)
