"""Línea de tiempo: tesis on a time axis by época and vigencia; earliest/latest shortcuts."""

from __future__ import annotations

import json

from dashboard.components import timeline
from tests.dashboard import canned
from tests.dashboard.conftest import assert_api_down, charts, frame, texts
from tests.dashboard.fake_api import FakeApi


def _show(at, query: str = ""):
    at.run()
    if query:
        at.text_input(key="tiempo_query").input(query)
    at.button(key="tiempo_show").click()
    return at.run()


def test_filters_only_use_the_timeline(api: FakeApi, page) -> None:
    at = page("linea_de_tiempo")
    at.run()
    at.multiselect(key="tiempo_epocas").set_value(["Séptima Época", "Undécima Época"])
    at.radio(key="tiempo_order").set_value("DESC")
    at.button(key="tiempo_show").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    (call,) = api.called("timeline")
    assert call["input"] == {
        "filters": {"epocas": ["Séptima Época", "Undécima Época"]},
        "order": "DESC",
        "limit": 50,
        "offset": 0,
    }

    (chart,) = charts(at)
    encoding = chart["encoding"]
    assert encoding["color"]["field"] == "epoca" and encoding["shape"]["field"] == "vigencia"
    table = frame(at, "Fecha", "Registro", "Vigencia")
    assert list(table["Registro"]) == [
        f"https://sjf2.scjn.gob.mx/detalle/tesis/{r}" for r in (246545, 2023695, 2031616)
    ]
    assert list(table["Fecha"])[:2] == ["1987", "5 de noviembre de 2021"]
    assert list(table["Vigencia"]) == ["No vigente", "Vigente", "Vigente"]
    assert "3 tesis de 120 bajo los filtros" in texts(at)
    assert encoding["href"]["field"] == "url"


def test_a_query_is_date_sorted_over_the_whole_set(api: FakeApi, page) -> None:
    """«Más antiguas primero» on a topic adds ``earliest`` (the whole filtered set, on the
    topic) to the top hits, so it starts where «La más antigua» does."""
    api.root["earliest"] = lambda info, **kw: {
        **canned.search_payload(),
        "hits": [{**canned.hit(2, 1, 1), "registro": 1, "anio": 1917, "fecha": "1917-02-05"}],
    }
    at = _show(page("linea_de_tiempo"), "pensión alimenticia")
    assert not api.called("timeline")
    assert api.called("earliest") == [{"query": "pensión alimenticia", "limit": 50}]
    assert api.called("search")[0]["input"] == {"query": "pensión alimenticia", "topK": 50}
    table = frame(at, "Fecha", "Registro")
    assert table["Fecha"].iloc[0] == "5 de febrero de 1917"
    assert len(table) == len(canned.TESIS) + 1
    assert "sobre «pensión alimenticia»" in texts(at)


def test_year_slider_and_epocas_come_from_the_corpus(api: FakeApi, page) -> None:
    at = page("linea_de_tiempo")
    at.run()
    assert at.slider(key="tiempo_anios").min == 1987
    assert at.multiselect(key="tiempo_epocas").options == [
        "Séptima Época",
        "Novena Época",
        "Undécima Época",
    ]


def test_earliest_and_latest_shortcuts(api: FakeApi, page) -> None:
    at = page("linea_de_tiempo")
    at.run()
    at.button(key="tiempo_earliest").click()
    at.run()
    at.button(key="tiempo_latest").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("earliest") == [{"limit": 5}]
    assert len(frame(at, "Fecha", "Registro", nth=0)) == 3  # a SearchPayload's hits
    assert len(frame(at, "Fecha", "Registro", nth=1)) == 3  # a TimelinePayload's items


def test_shortcuts_say_what_they_answered_and_leave_with_a_new_query(api: FakeApi, page) -> None:
    """The shortcut tables of «arrendamiento» had stayed under a new «suspensión provisional»."""
    at = _show(page("linea_de_tiempo"), "arrendamiento")
    at.button(key="tiempo_earliest").click()
    at.run()
    assert "**La más antigua** sobre «arrendamiento»" in texts(at)
    at.text_input(key="tiempo_query").input("suspensión provisional")
    at.button(key="tiempo_show").click()
    at.run()
    assert not any("La más antigua**" in t for t in texts(at).splitlines())


def test_api_down(api_down, page) -> None:
    at = page("linea_de_tiempo")
    at.run()
    assert_api_down(at)


def test_chart_spec_is_json(api: FakeApi, page) -> None:
    at = _show(page("linea_de_tiempo"))
    assert json.dumps(charts(at))


def test_shortcuts_use_what_is_typed(api: FakeApi, page) -> None:
    """«La más antigua» pressed before «Mostrar» had given the oldest of the whole corpus:
    the buttons sat outside the form and read its last submitted (empty) query."""
    at = page("linea_de_tiempo")
    at.run()
    at.text_input(key="tiempo_query").input("arrendamiento")
    at.multiselect(key="tiempo_epocas").set_value(["Novena Época"])
    at.button(key="tiempo_earliest").click()
    at.run()
    assert not at.exception and not at.error and not api.errors
    assert api.called("earliest") == [
        {"query": "arrendamiento", "filters": {"epocas": ["Novena Época"]}, "limit": 5}
    ]
    assert "**La más antigua** sobre «arrendamiento»" in texts(at)


def test_a_query_asks_for_no_more_than_the_api_gives(api: FakeApi, page) -> None:
    """«Tesis como máximo» 150 with a query had shown «Límite: 150 está fuera del intervalo
    1 a 100.»: on a topic ``earliest``/``latest`` are a search, bounded by its topK."""
    at = page("linea_de_tiempo")
    at.run()
    at.text_input(key="tiempo_query").input("arrendamiento")
    at.number_input(key="tiempo_limit").set_value(150)
    at.button(key="tiempo_show").click()
    at.run()
    assert not at.exception and not at.error and not at.warning and not api.errors
    assert api.called("earliest") == [{"query": "arrendamiento", "limit": 100}]
    assert "(con una consulta, 100 como máximo)" in texts(at)
    at.text_input(key="tiempo_query").input("")
    at.button(key="tiempo_show").click()
    at.run()
    assert api.called("timeline")[0]["input"]["limit"] == 150


def test_the_limits_are_the_apis() -> None:
    from api.services.search import MAX_TOP_K
    from api.services.timeline import MAX_LIMIT

    assert (timeline.MAX_ON_TOPIC, timeline.MAX_LISTED) == (MAX_TOP_K, MAX_LIMIT)


def test_tesis_dated_by_year_only_are_apart_and_each_year_labelled_once(api: FakeApi, page) -> None:
    """50 tesis had drawn as 7 dots (each on 1 July of its year), over an axis reading
    «1969 1970 1970 1971 1971…»."""
    first = canned.TIMELINE["items"][0]
    items = [{**first, "registro": r, "fecha": None, "anio": 1970} for r in (11, 12, 13)]
    items.append({**first, "registro": 14, "fecha": "1974-03-02", "anio": 1974})
    api.root["timeline"] = lambda info, input: {"total": 4, "items": items}
    at = _show(page("linea_de_tiempo"))
    assert not at.exception and not at.error and not api.errors
    (chart,) = charts(at)
    assert chart["encoding"]["x"]["field"] == "punto"
    points = sorted(r["punto"] for r in timeline.chart_rows(items))
    assert points[:3] == ["1970-03-02", "1970-07-02", "1970-11-01"] and points[3] == "1974-03-02"
    assert chart["encoding"]["x"]["axis"]["tickCount"] == {"interval": "year", "step": 1}
    assert "Las tesis fechadas sólo por año se reparten a lo largo de ese año." in texts(at)
    assert list(frame(at, "Fecha", "Registro")["Fecha"])[:3] == ["1970"] * 3  # the table: as is


def test_the_axis_keeps_about_a_dozen_ticks() -> None:
    from dashboard.components.charts import year_step

    assert [year_step(y) for y in ([1970], [1969, 1975], [1969, 2026], [1917, 2026])] == [
        1,
        1,
        5,
        10,
    ]
