"""Monitoreo: boost histogram, temporal distributions, alerts, search log and feedback."""

from __future__ import annotations

import re

from dashboard.components import monitoring
from tests.dashboard import canned
from tests.dashboard.conftest import assert_api_down, charts, frame, texts
from tests.dashboard.fake_api import FakeApi


def test_histogram_distributions_and_alerts(api: FakeApi, page) -> None:
    at = page("monitoreo")
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("monitoring") == [{"windowHours": 168}]

    titles = [c.get("title") for c in charts(at)]
    assert titles == [
        "Impulso = puntuación final / relevancia",
        "Proporción por año",
        "Opiniones por día",
    ]
    epocas = frame(at, "Recuperadas", "Citadas", "Corpus")
    assert list(epocas.index) == ["Séptima Época", "Undécima Época"]
    materias = frame(at, "Materia", "Búsquedas", "Anteriores a la reforma")
    assert list(materias["Materia"]) == ["Civil", "Sin materia"]

    shown = texts(at)
    assert "Búsquedas y consultas: 12" in shown and "Registro de búsquedas: correcto" in shown
    assert "Sin respuesta: 2" in shown and "Confianza baja: 3" in shown
    assert "Anteriores a 2000: 40.0 %" in shown and "Sin vigencia: 5.0 %" in shown
    assert "Resultados: 96" in shown
    assert ":orange-badge[advertencia] **Hueco de cobertura**\n" in shown + "\n"  # no "0 veces"
    assert "Primera vez: 20 de noviembre de 2026, 10:00" in shown
    assert "COVERAGE_GAP" not in shown and "COVERAGE\\_GAP" not in shown
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
    hits = frame(at, "Pos.", "Sin rec.", "Registro", "Vigencia")
    assert list(hits["Vigencia"]) == ["Vigente", "Superada"]
    shown = texts(at)
    assert "Registro 246545" in shown
    assert "Descartada 240001 (1980): Anterior a la reforma — Anterior a la reforma" in shown
    assert "Gracias: opinión registrada (útil)." in shown  # stored with the log entry
    at.text_input(key="log_comment_log-1").input("La segunda está superada")
    at.button(key="fb_log-1:246545_False").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("feedback") == [
        {
            "logId": "log-1",
            "registro": 246545,
            "useful": False,
            "comment": "La segunda está superada",
        }
    ]
    assert "Gracias: opinión registrada (no útil)." in texts(at)
    # a verdict given can be changed, to the other one only
    (change,) = [b for b in at.button if (b.key or "").startswith("fb_log-1:2031616")]
    assert change.key == "fb_log-1:2031616_False" and change.label == "Cambiar a «no útil»"


def test_feedback_summary(api: FakeApi, page) -> None:
    at = page("monitoreo")
    at.run()
    assert api.called("feedbackSummary") == [{"windowHours": 168}]
    shown = texts(at)
    assert "Útiles: 5" in shown and "No útiles: 2" in shown and "Proporción útil: 71.4 %" in shown
    by_materia = frame(at, "Materia", "Útiles", "No útiles")
    assert list(by_materia["Materia"]) == ["Civil", "Sin materia"]
    days = next(c for c in charts(at) if c.get("title") == "Opiniones por día")
    assert days["mark"]["type"] == "bar"


def test_years_without_data_are_gaps() -> None:
    """Every year between the first and the last gets a row; one without data has no share,
    so the line breaks there instead of drawing a flat segment."""
    rows = monitoring.temporal_rows(canned.MONITORING["temporalSeries"], "byYear")
    cited = {r["key"]: r["share"] for r in rows if r["series"] == "Citadas"}
    assert len(cited) == 2021 - 1987 + 1
    assert cited["1987"] == 4 / 6 and cited["2000"] is None and cited["2021"] == 2 / 6


def test_api_down(api_down, page) -> None:
    at = page("monitoreo")
    at.run()
    assert_api_down(at)


def test_the_feedback_chart_has_one_band_a_day_and_whole_counts() -> None:
    """Its time axis repeated a day between ticks, and its count axis read 0.2, 0.4…"""
    from dashboard.components.charts import feedback_days

    rows = [
        {"dia": "2026-11-25", "opinion": "Útil", "n": 1},
        {"dia": "2026-11-24", "opinion": "No útil", "n": 2},
    ]
    spec = feedback_days(rows, "Opiniones").to_dict()
    encoding = spec["encoding"]
    assert encoding["x"]["type"] == "ordinal" and encoding["x"]["sort"] == [
        "24/11/2026",
        "25/11/2026",
    ]
    assert encoding["y"]["axis"]["tickMinStep"] == 1


def test_a_verdict_given_shows_in_the_counts(api: FakeApi, page) -> None:
    """«Opiniones de los usuarios» had kept «No útiles 2» after a verdict for a minute."""
    verdicts = dict(canned.FEEDBACK_SUMMARY)
    given = api.root["feedback"]

    def feedback(info, **kwargs):
        verdicts["useful" if kwargs["useful"] else "notUseful"] += 1
        return given(info, **kwargs)

    api.root["feedback"] = feedback
    api.root["feedbackSummary"] = lambda info, windowHours=168: verdicts
    at = page("monitoreo")
    at.run()
    assert "No útiles: 2" in texts(at)
    at.button(key="fb_log-1:246545_False").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert "No útiles: 3" in texts(at)


def test_a_logged_answer_numbers_its_tesis_as_the_answer_did(api: FakeApi, page) -> None:
    """A chat whose answer showed [1], [2], [3] had listed «1.», «3.», «5.» (chunk ranks)."""
    entry = canned.SEARCH_LOG[0]
    hits = [
        {**canned._logged(i, 1), "rank": rank, "rankWithoutRecency": without}
        for i, rank, without in ((0, 1, 4), (1, 3, 1), (2, 5, 6))
    ]
    api.root["searchLog"] = lambda info, **kw: [{**entry, "hits": hits, "feedback": []}]
    at = page("monitoreo")
    at.run()
    table = frame(at, "Pos.", "Sin rec.", "Registro", "Vigencia")
    assert list(table["Pos."]) == [1, 2, 3] and list(table["Sin rec."]) == [2, 1, 3]
    assert re.findall(r"^\*\*(\d+)\.\*\* Registro", texts(at), re.M) == ["1", "2", "3"]
