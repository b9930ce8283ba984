"""Records of a generic corpus (no época) are not law: no reform rule speaks of them."""

from __future__ import annotations

from api.core.models import Chunk, Hit, Passage
from api.core.reform import (
    ReformConfig,
    apply_reform_rules,
    apply_same_point_rules,
    discard_reason,
    rules_apply,
)
from api.core.scoring import breakdown, rank

CONFIG = ReformConfig()


def record(registro: int, anio: int, epoca: str = "", materias: tuple[str, ...] = ()) -> Hit:
    """A generic record by default (no época, no materias); a tesis when given an época."""
    passage = Passage(
        chunk=Chunk(registro, 0, "", 0, 0, 1, 1, 0),
        rubro=f"Documento {registro}",
        epoca=epoca,
        anio=anio,
        tipo="Aislada",
        materias=materias,
    )
    return Hit(passage, breakdown(0.8, anio, epoca, 0.3, profile="seed"))


def always(_old: Hit, _new: Hit) -> bool:
    return True


def test_a_generic_record_is_never_discarded_nor_flagged() -> None:
    old_news, new_news = record(1, 1990), record(2, 2023)
    assert discard_reason(old_news, "Electoral", 2021, CONFIG) is None
    outcome = apply_same_point_rules([new_news, old_news], "Electoral", CONFIG, always, top_k=5)
    assert [h.registro for h in outcome.kept] == [2, 1]
    assert outcome.discarded == [] and not outcome.applied
    assert all(h.warning is None for h in outcome.kept)
    literal = apply_reform_rules(rank([new_news, old_news]), "Electoral", CONFIG)
    assert [h.registro for h in literal.kept] == [2, 1] and not literal.applied


def test_generic_records_neither_trigger_nor_replace_a_tesis() -> None:
    old_tesis = record(3, 1990, "Octava Época", ("Electoral",))
    news = record(4, 2023)
    # a 2023 news article is no newer criterion: the 1990 tesis stays, flagged only
    outcome = apply_same_point_rules([news, old_tesis], "Electoral", CONFIG, always, top_k=5)
    assert [h.registro for h in outcome.kept] == [4, 3] and outcome.discarded == []
    assert outcome.kept[1].warning is not None and outcome.kept[0].warning is None
    # nor do news years open the literal rules' span over a lone old tesis
    assert not rules_apply([news, old_tesis], CONFIG)
    assert rules_apply([record(5, 2023, "Undécima Época"), old_tesis], CONFIG)
