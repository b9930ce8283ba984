"""A date order read as a description keeps the tesis filed under its best hit's voz."""

from __future__ import annotations

from dataclasses import replace

from api.core.models import Hit
from api.core.topic import with_the_best_heading
from tests.fakes import make_hit

OFFER = "DESPIDO, NEGATIVA DEL, Y OFRECIMIENTO DEL TRABAJO"


def hit(registro: int, rubro: str, gate: float, on_topic: bool) -> Hit:
    return replace(make_hit(registro, rubro=rubro), gate=gate, on_topic=on_topic)


def test_a_tesis_under_the_best_hit_s_voz_is_on_topic_below_the_gate() -> None:
    hits = [
        hit(1, f"{OFFER}. OPORTUNIDAD.", 1.0, True),
        hit(2, f"{OFFER}. CARGA DE LA PRUEBA.", 0.76, False),  # 1979, worded apart
        hit(3, "DESPIDO INJUSTIFICADO DEL TRABAJADOR. ANTIGÜEDAD.", 0.7, False),
    ]
    kept = with_the_best_heading(hits, ("patron", "niega", "despid"))
    assert [h.on_topic for h in kept] == [True, True, False]


def test_a_bare_voz_or_one_the_question_does_not_name_extends_nothing() -> None:
    bare = [hit(1, "AMPARO. PROCEDENCIA.", 1.0, True), hit(2, "AMPARO. PLAZO.", 0.5, False)]
    assert with_the_best_heading(bare, ("amparo",)) == bare  # one term: no point
    other = [hit(1, f"{OFFER}. OPORTUNIDAD.", 1.0, True), hit(2, f"{OFFER}.", 0.5, False)]
    assert with_the_best_heading(other, ("prescr", "accion")) == other
    assert with_the_best_heading([], ("despid",)) == []
