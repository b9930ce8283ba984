"""Búsqueda y puntuación: breakdown table, intent, discarded, with/without recency."""

from __future__ import annotations

from dashboard.components.scoring import BREAKDOWN_COLUMNS, SIDE_COLUMNS
from tests.dashboard import canned
from tests.dashboard.conftest import assert_api_down, frame, texts
from tests.dashboard.fake_api import FakeApi


def url(registro: int) -> str:
    return f"https://sjf2.scjn.gob.mx/detalle/tesis/{registro}"


def _search(at, query: str = "pensión alimenticia", first_run: bool = True):
    if first_run:
        at.run()
    at.text_input(key="busqueda_query").input(query)
    at.button(key="busqueda_search").click()
    return at.run()


def test_breakdown_intent_discarded_and_comparison(api: FakeApi, page) -> None:
    at = _search(page("busqueda"))
    assert not at.exception and not at.error and not api.errors
    (call,) = api.called("search")  # one search: the API returns the ranking without recency
    assert "recencyWeight" not in call["input"]  # «Automático»: the API decides

    breakdown = frame(at, "Cambio", "Vigencia", "Rubro")
    assert list(breakdown.columns) == list(BREAKDOWN_COLUMNS)
    # one row per tesis: the fourth hit is a second fragment of the first tesis
    assert list(breakdown["Registro"]) == [url(h[0]) for h in canned.TESIS]
    factors = frame(at, "Frag.", "Factor de época", "Impulso", "BM25", "Similitud")
    assert list(factors["Frag."]) == [2, 1, 1]
    assert list(breakdown["Cambio"]) == ["↑ 1", "↑ 1", "↓ 2"]
    assert list(breakdown["Vigencia"]) == ["Vigente", "Vigente", "Superada"]

    shown = texts(at)
    assert "Materia detectada: Civil" in shown and "Año de corte: 2011" in shown
    assert "Intención temporal: La más reciente" in shown
    assert "Peso de la recencia aplicado: 50 %" in shown
    assert "Tesis: 3" in shown and "Fragmentos: 4" in shown
    assert "Resultados de: «pensión alimenticia»" in shown
    assert "tema: «pensión, alimentos»" in shown  # the words, not the stems «pension, alimen»
    discarded = frame(at, "Regla")
    assert list(discarded["Regla"]) == ["Anterior a la reforma"]

    side_a = frame(at, *SIDE_COLUMNS, exact=True)
    side_b = frame(at, *SIDE_COLUMNS, exact=True, nth=1)
    assert list(side_a["Registro"]) == [url(246545), url(2031616), url(2023695)]
    assert list(side_a["Cambio"]) == ["↓ 2", "↑ 1", "↑ 1"]
    assert list(side_b["Registro"]) == [url(2031616), url(2023695), url(246545)]
    assert "Entran con recencia: 0" in shown


def test_a_lookup_says_which_tesis_were_cited(api: FakeApi, page) -> None:
    payload = canned.search_payload()
    api.root["search"] = lambda *a, **k: {
        **payload,
        "intent": {**canned.INTENT, "mode": "relevance", "cited": [2024502, 160584]},
    }
    at = _search(page("busqueda"), "tesis 2024502 y 160584")
    assert not at.exception and not at.error and not api.errors
    assert "Búsqueda por registro o clave: 2024502, 160584, en el orden citado." in texts(at)


def test_words_read_as_filters_or_excluded_are_shown_with_the_triggers(api: FakeApi, page) -> None:
    payload = canned.search_payload()
    api.root["search"] = lambda *a, **k: {
        **payload,
        "intent": {
            **canned.INTENT,
            "namedFilters": ["décima época"],
            "topic": [],
            "excluded": ["aislada"],
        },
    }
    at = _search(page("busqueda"), "la primera tesis de la Décima Época -aislada")
    assert not at.exception and not at.error and not api.errors
    shown = texts(at)
    assert "filtros: «décima época»" in shown and "excluidas: «aislada»" in shown


def test_a_moved_weight_is_sent(api: FakeApi, page) -> None:
    at = page("busqueda")
    at.run()
    at.select_slider(key="busqueda_recency").set_value(0.8)
    _search(at, first_run=False)
    assert api.called("search")[0]["input"]["recencyWeight"] == 0.8


def test_an_input_error_is_spanish_and_clears_nothing_stale(api: FakeApi, page) -> None:
    at = _search(page("busqueda"))
    api.root["search"] = lambda *a, **k: {
        "__typename": "InputError",
        "field": "topK",
        "message": "60 is outside 1..50",
    }
    _search(at, "otra consulta", first_run=False)
    assert not at.exception
    assert at.warning[0].value == "Resultados: 60 está fuera del intervalo 1 a 50."
    assert not [d for d in at.dataframe if "Cambio" in d.value.columns]


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
    at.button(key="busqueda_ref_1").click()
    at.run()
    assert "Fragmento 2 · líneas 1–2" in texts(at)  # both fragments of the first tesis
    at.button(key="busqueda_ref_2").click()
    at.run()
    assert "Registro digital: [2023695](https://sjf2.scjn.gob.mx/detalle/tesis/2023695)" in texts(
        at
    )
    at.button(key="fb_s-1:2023695_True").click()
    at.run()
    assert api.called("feedback") == [{"logId": "s-1", "registro": 2023695, "useful": True}]


def test_empty_query_is_not_sent(api: FakeApi, page) -> None:
    at = _search(page("busqueda"), " ")
    assert at.warning[0].value == "Escriba una consulta."
    assert not api.called("search")


def test_api_down(api_down, page) -> None:
    at = page("busqueda")
    at.run()
    assert_api_down(at)


def test_abstention_warning_and_partial_text(api: FakeApi, page) -> None:
    flagged = {
        **canned.hit(2, 1, 1),
        "warning": "criterio anterior a la reforma penal de 2016: verifique su vigencia",
        "partial": True,
        "onTopic": False,
        "gate": 0.31,
    }
    api.root["search"] = lambda *a, **k: {
        **canned.search_payload(),
        "hits": [flagged],
        "withoutRecency": [flagged],
        "abstained": True,
        "abstainReason": "Ninguna tesis del corpus trata la pregunta; se muestran las más cercanas.",
    }
    at = _search(page("busqueda"))
    assert not at.exception and not at.error and not api.errors
    assert at.info[0].value.startswith("Ninguna tesis del corpus trata la pregunta")
    breakdown = frame(at, "Cambio", "Vigencia", "Rubro")
    assert list(breakdown["Vigencia"]) == ["Superada ⚠ (parcial)"]
    factors = frame(at, "Frag.", "Pertinencia")
    assert list(factors["Pertinencia"]) == ["31 % fuera de tema"]
    at.button(key="busqueda_ref_1").click()
    at.run()
    shown = texts(at)
    assert ":orange-badge[Advertencia] criterio anterior a la reforma penal de 2016" in shown
    assert ":orange-badge[Texto incompleto en la fuente]" in shown


def test_a_listing_under_filters_is_not_called_a_request_for_the_latest(api: FakeApi, page) -> None:
    """ "tesis del Sexto Circuito" had read «Intención temporal: La más reciente»."""
    listing = {**canned.INTENT, "temporalTriggers": [], "namedFilters": ["sexto circuito"]}
    payload = canned.search_payload()
    api.root["search"] = lambda *a, **k: {**payload, "intent": listing}
    at = _search(page("busqueda"), "tesis del Sexto Circuito")
    assert "Intención temporal: Listado, más recientes primero" in texts(at)


def test_an_off_topic_tesis_is_marked_in_the_main_table() -> None:
    """Only the collapsed factors table had said «fuera de tema»."""
    from dashboard.components.scoring import breakdown_frame

    off = {**canned.hit(0, 1, 1), "onTopic": False}
    frame = breakdown_frame([[off], [canned.hit(1, 2, 2)]])
    first, second = list(frame["Rubro"])
    assert first.startswith("(fuera de tema) ") and not second.startswith("(fuera de tema)")


def test_a_busy_api_is_told_as_busy(api: FakeApi, page, monkeypatch) -> None:
    """A 503 OVERLOADED had read «La API rechazó la petición… revise la versión»."""
    import httpx

    def busy(url: str, *, json, **kwargs):
        if "search(" not in json["query"]:
            return api.post(url, json=json, **kwargs)
        body = {"errors": [{"message": "busy", "extensions": {"code": "OVERLOADED"}}]}
        request = httpx.Request("POST", url)
        return httpx.Response(503, json=body, headers={"retry-after": "2"}, request=request)

    monkeypatch.setattr(httpx, "post", busy)
    at = _search(page("busqueda"))
    assert not at.exception and not at.error
    (warning,) = at.warning
    assert warning.value == "La API está ocupada; reintente en unos segundos (pide esperar 2 s)."
    assert "versión" not in texts(at)


def test_one_tesis_position_and_the_score_each_side_is_ordered_by(api: FakeApi, page) -> None:
    """«Todos los factores» had numbered the tesis by their chunks' rank (1, 3, 5) where the
    breakdown said 1, 2, 3; «Sin recencia» had shown the with-recency final score."""
    payload = canned.search_payload()
    chunk_ranks = (1, 3, 5, 2)  # the fourth hit is a second chunk of the first tesis
    without = [
        {**h, "relevance": r}
        for h, r in zip(payload["withoutRecency"], (0.95, 0.9, 0.8), strict=True)
    ]
    api.root["search"] = lambda *a, **k: {
        **payload,
        "hits": [{**h, "rank": r} for h, r in zip(payload["hits"], chunk_ranks, strict=True)],
        "withoutRecency": without,
    }
    at = _search(page("busqueda"))
    assert not at.exception and not at.error and not api.errors
    assert list(frame(at, "Frag.", "Impulso")["Pos."]) == [1, 2, 3]
    assert list(frame(at, "Cambio", "Rubro")["Pos."]) == [1, 2, 3]
    side_a = frame(at, *SIDE_COLUMNS, exact=True)
    side_b = frame(at, *SIDE_COLUMNS, exact=True, nth=1)
    assert list(side_a["Puntuación"]) == [0.95, 0.9, 0.8]  # relevance, what orders it
    assert list(side_b["Puntuación"]) == [h["finalScore"] for h in payload["hits"][:3]]


def test_an_abstention_without_hits_shows_no_empty_tables(api: FakeApi, page) -> None:
    """Each table had read «empty», in English, when a search (an emoji) abstained."""
    api.root["search"] = lambda *a, **k: {
        **canned.search_payload(),
        "hits": [],
        "withoutRecency": [],
        "discarded": [],
        "abstained": True,
        "abstainReason": "La consulta no tiene palabras que buscar.",
    }
    at = _search(page("busqueda"), "🙂")
    assert not at.exception and not at.error and not api.errors
    assert not at.dataframe
    shown = texts(at)
    assert "Ninguna tesis que desglosar." in shown and "Ninguna tesis que comparar." in shown


def test_selectboxes_say_choose_in_spanish(api: FakeApi, page) -> None:
    """A selectbox emptied while typing had read «Choose an option»."""
    for name in ("busqueda", "monitoreo"):
        at = page(name)
        at.run()
        assert at.selectbox and {s.proto.placeholder for s in at.selectbox} == {
            "Elija una opción"
        }, name


def test_streamlit_hints_are_restyled_in_spanish(api: FakeApi, page) -> None:
    """«Press Enter to submit form» and «No results» are Streamlit's; CSS says them in
    Spanish (the browser test checks it applies)."""
    from dashboard.components import style

    at = page("busqueda")
    at.run()
    assert any(style.CSS in h.proto.body for h in at.get("html"))
    assert '"Intro para enviar"' in style.CSS and '"Sin resultados"' in style.CSS


def test_a_search_says_how_far_to_trust_its_first_result(api: FakeApi, page) -> None:
    low = {
        "level": "LOW",
        "lead": 0.2,
        "floorMargin": 0.002,
        "reasons": ["El pasaje más parecido queda cerca del umbral de abstención (+0.002)."],
    }
    api.root["search"] = lambda *a, **k: {**canned.search_payload(), "confidence": low}
    at = _search(page("busqueda"))
    assert not at.exception and not api.errors
    [warning] = [w.value for w in at.warning if "Confianza baja" in w.value]
    assert "umbral de abstención" in warning
    api.root["search"] = lambda *a, **k: {**canned.search_payload(), "confidence": None}
    at = _search(at, first_run=False)  # a date order: nothing said
    assert not [w for w in at.warning if "Confianza" in w.value]
    assert not [c for c in at.caption if "Confianza" in c.value]
