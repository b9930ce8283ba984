"""Búsqueda y puntuación: breakdown table, intent, discarded, with/without recency."""

from __future__ import annotations

from dashboard.components.scoring import SIDE_COLUMNS
from tests.dashboard import canned
from tests.dashboard.conftest import assert_api_down, frame, texts
from tests.dashboard.fake_api import FakeApi


def _search(at, query: str = "pensión alimenticia", first_run: bool = True):
    if first_run:
        at.run()
    at.text_input(key="busqueda_query").input(query)
    at.button(key="busqueda_search").click()
    return at.run()


def test_breakdown_intent_discarded_and_comparison(api: FakeApi, page) -> None:
    at = _search(page("busqueda"))
    assert not at.exception and not at.error and not api.errors

    breakdown = frame(at, "Factor de recencia")
    for column in ("Similitud", "Factor de recencia", "Factor de época", "Puntuación final",
                   "Pos.", "Pos. sin recencia", "Cambio"):  # fmt: skip
        assert column in breakdown.columns
    assert list(breakdown["Registro"]) == [h[0] for h in canned.TESIS]
    assert list(breakdown["Cambio"]) == ["↑ 1", "↑ 1", "↓ 2"]

    shown = texts(at)
    assert "Materia detectada: Civil" in shown and "Año de corte: 2011" in shown
    assert "Intención temporal: La más reciente" in shown
    discarded = frame(at, "Código")
    assert list(discarded["Código"]) == ["PRE_REFORM"]
    assert "Motivo" in discarded.columns

    side_a = frame(at, *SIDE_COLUMNS, exact=True)
    side_b = frame(at, *SIDE_COLUMNS, exact=True, nth=1)
    assert list(side_a["Registro"]) == [246545, 2031616]
    assert list(side_a["Cambio"]) == ["sale", "↑ 1"]
    assert list(side_b["Registro"]) == [2031616, 2023695]
    assert list(side_b["Cambio"]) == ["↑ 1", "nuevo"]
    assert "τ de Kendall: 0.33" in shown and "Entran con recencia: 1" in shown

    (compare,) = api.called("compareRankings")
    assert compare["input"]["a"] == {"recencyWeight": 0.0, "profile": "DEFAULT"}
    assert compare["input"]["b"] == {"recencyWeight": 0.5, "profile": "DEFAULT"}


def test_settings_reach_search(api: FakeApi, page) -> None:
    at = page("busqueda")
    at.run()
    at.selectbox(key="busqueda_profile").select("SEED")
    at.selectbox(key="busqueda_temporal").select("SORT")
    at.selectbox(key="busqueda_superseded").select(False)
    at.slider(key="busqueda_anios").set_value((1990, 2020))
    _search(at, first_run=False)
    sent = api.called("search")[0]["input"]
    assert sent["profile"] == "SEED" and sent["temporalMode"] == "SORT"
    assert sent["includeSuperseded"] is False and sent["vigenciaRules"] is True
    assert sent["filters"] == {"anioMin": 1990, "anioMax": 2020}


def test_hit_badge_opens_its_panel(api: FakeApi, page) -> None:
    at = _search(page("busqueda"))
    badges = [b for b in at.button if (b.key or "").startswith("busqueda_ref_")]
    assert len(badges) == 3
    at.button(key="busqueda_ref_2").click()
    at.run()
    assert "Registro digital: [2023695](https://sjf2.scjn.gob.mx/detalle/tesis/2023695)" in texts(
        at
    )
    at.button(key="fb_s-1:2023695_True").click()
    at.run()
    assert api.called("feedback") == [{"logId": "s-1", "registro": 2023695, "useful": True}]


def test_without_compare_rankings_two_searches_are_compared(api: FakeApi, page) -> None:
    if "compareRankings" in api.schema.query_type.fields:
        del api.schema.query_type.fields["compareRankings"]
    at = _search(page("busqueda"))
    assert not at.exception and not at.error
    assert "no disponible aún" in texts(at) and "`compareRankings`" in texts(at)
    weights = [c["input"].get("recencyWeight") for c in api.called("search")]
    assert weights == [0.5, 0.0]
    side_b = frame(at, *SIDE_COLUMNS, exact=True, nth=1)
    assert list(side_b["Registro"]) == [h[0] for h in canned.TESIS]
    assert set(side_b["Cambio"]) == {"="}


def test_empty_query_is_not_sent(api: FakeApi, page) -> None:
    at = _search(page("busqueda"), " ")
    assert at.warning[0].value == "Escriba una consulta."
    assert not api.called("search")


def test_api_down(api_down, page) -> None:
    at = page("busqueda")
    at.run()
    assert_api_down(at)
