"""Behaviour every ``VectorStore`` must show. Backends subclass ``StoreContract`` and provide a
``store`` fixture returning a fresh, empty store (dim 4)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from api.core.models import Chunk, Filters, Tesis, Validity
from api.errors import StoreError
from api.store.base import ListQuery, TesisEntry, VectorQuery, VectorStore

DIM = 4


def unit(*values: float) -> np.ndarray:
    vector = np.asarray(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def entry(
    registro: int,
    anio: int,
    vectors: list[np.ndarray],
    *,
    epoca: str = "Séptima Época",
    tipo: str = "Aislada",
    materias: tuple[str, ...] = ("Común",),
    rubro: str = "AMPARO INDIRECTO. IMPROCEDENCIA.",
    texts: list[str] | None = None,
    fecha: date | None = None,
    fingerprint: str = "v1",
    clave: str = "",
    organo: str = "PRIMER TRIBUNAL",
) -> TesisEntry:
    texts = texts or [f"texto {registro} parte {i}" for i in range(len(vectors))]
    tesis = Tesis(
        registro=registro,
        rubro=rubro,
        texto=" ".join(texts),
        epoca=epoca,
        anio=anio,
        tipo=tipo,  # type: ignore[arg-type]
        materias=materias,
        instancia="Tribunales Colegiados de Circuito",
        organo=organo,
        clave=clave,
        fecha=fecha,
    )
    chunks = [
        Chunk(registro, i, text, i * 100, i * 100 + len(text), i + 1, i + 1, len(text.split()))
        for i, text in enumerate(texts)
    ]
    return TesisEntry(tesis, chunks, np.vstack(vectors), fingerprint)


class StoreContract:
    """Mixin of contract tests; the subclass supplies the ``store`` fixture."""

    @pytest.fixture
    def corpus(self) -> list[TesisEntry]:
        return [
            entry(
                100,
                1975,
                [unit(1, 0, 0, 0), unit(1, 1, 0, 0)],
                texts=["la demanda de amparo es improcedente", "sobreseimiento del juicio"],
            ),
            entry(
                200,
                1980,
                [unit(0, 1, 0, 0)],
                materias=("Laboral",),
                texts=["junta de conciliación y arbitraje laudo"],
            ),
            entry(
                300,
                2015,
                [unit(0, 0, 1, 0)],
                epoca="Décima Época",
                tipo="Jurisprudencia",
                materias=("Común", "Constitucional"),
                fecha=date(2015, 3, 6),
                organo="Segunda Sala",
                texts=["interés legítimo en el amparo indirecto"],
            ),
            entry(
                400,
                2023,
                [unit(0, 0, 0, 1)],
                epoca="Undécima Época",
                tipo="Jurisprudencia",
                materias=("Penal",),
                texts=["prisión preventiva oficiosa"],
            ),
        ]

    def test_generation_changes_with_every_write(
        self, store: VectorStore, corpus: list[TesisEntry]
    ) -> None:
        # caches of the stored content (the court names) are keyed on it
        seen = [store.generation()]
        store.upsert(corpus[:1])
        seen.append(store.generation())
        store.upsert(corpus[:1])  # the same tesis again, as a reload writes it
        seen.append(store.generation())
        store.delete([corpus[0].tesis.registro])
        seen.append(store.generation())
        assert len(set(seen)) == len(seen)

    def test_empty_store_counts_zero(self, store: VectorStore) -> None:
        assert store.count() == (0, 0)
        assert store.vector_search(VectorQuery(unit(1, 0, 0, 0), Filters(), 5)) == []

    def test_upsert_counts_tesis_and_chunks(self, store: VectorStore, corpus) -> None:
        result = store.upsert(corpus)
        assert (result.written, result.chunks) == (4, 5)
        assert store.count() == (4, 5)

    def test_upsert_is_idempotent_and_replaces_chunks(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        store.upsert(corpus)
        assert store.count() == (4, 5)
        store.upsert([entry(100, 1975, [unit(1, 0, 0, 0)], fingerprint="v2")])
        assert store.count() == (4, 4)
        assert [c.index for c in store.get_chunks(100)] == [0]
        assert store.fingerprints([100, 200, 999]) == {100: "v2", 200: "v1"}

    def test_vector_search_orders_by_cosine(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        hits = store.vector_search(VectorQuery(unit(1, 0.1, 0, 0), Filters(), 3))
        assert [(h.passage.registro, h.passage.chunk.index) for h in hits[:2]] == [
            (100, 0),
            (100, 1),
        ]
        assert hits[0].similarity == pytest.approx(float(unit(1, 0.1, 0, 0) @ unit(1, 0, 0, 0)))
        assert hits[0].similarity >= hits[1].similarity >= hits[2].similarity

    @pytest.mark.parametrize(
        ("filters", "expected"),
        [
            (Filters(anio_min=2000), {300, 400}),
            (Filters(anio_max=1980), {100, 200}),
            (Filters(materias=("Laboral",)), {200}),
            (Filters(materias=("Constitucional", "Penal")), {300, 400}),
            (Filters(tipo="Jurisprudencia"), {300, 400}),
            (Filters(epocas=("Décima Época",)), {300}),
            (Filters(registros=(100, 400)), {100, 400}),
            (Filters(anio_min=1976, anio_max=2020, tipo="Aislada"), {200}),
            (Filters(organo="Segunda Sala"), {300}),
            (Filters(organo="Tercera Sala"), set()),
        ],
    )
    def test_vector_search_filters(self, store: VectorStore, corpus, filters, expected) -> None:
        store.upsert(corpus)
        hits = store.vector_search(VectorQuery(unit(1, 1, 1, 1), filters, 10))
        assert {h.passage.registro for h in hits} == expected

    def test_unlimited_search_returns_whole_filtered_set_above_threshold(
        self, store: VectorStore, corpus
    ) -> None:
        store.upsert(corpus)
        every = store.vector_search(VectorQuery(unit(1, 1, 1, 1), Filters(), None))
        assert len(every) == 5
        above = store.vector_search(
            VectorQuery(unit(1, 0, 0, 0), Filters(), None, min_similarity=0.5)
        )
        assert {(h.passage.registro, h.passage.chunk.index) for h in above} == {(100, 0), (100, 1)}

    def test_lexical_search_matches_words_and_carries_cosine(
        self, store: VectorStore, corpus
    ) -> None:
        store.upsert(corpus)
        hits = store.lexical_search("laudo de la junta", unit(0, 1, 0, 0), Filters(), 5)
        assert hits[0].passage.registro == 200
        assert hits[0].lexical > 0
        assert hits[0].similarity == pytest.approx(1.0, abs=1e-5)
        assert (
            store.lexical_search("laudo", unit(0, 1, 0, 0), Filters(materias=("Penal",)), 5) == []
        )

    def test_lexical_search_reads_across_accents_and_word_forms(self, store: VectorStore) -> None:
        # the 1970s write "SUSPENSION" without its accent; users write "suspensión", "actos"
        old = entry(1, 1977, [unit(1, 0, 0, 0)], rubro="SUSPENSION DEL ACTO RECLAMADO.")
        other = entry(2, 1980, [unit(0, 1, 0, 0)], rubro="LAUDOS. CONGRUENCIA.")
        store.upsert([old, other])
        hits = store.lexical_search("¿Suspensión de los actos?", unit(1, 0, 0, 0), Filters(), 5)
        assert [h.passage.registro for h in hits] == [1] and hits[0].lexical > 0

    def test_passages_carry_tesis_metadata(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        passage = store.vector_search(VectorQuery(unit(0, 0, 1, 0), Filters(), 1))[0].passage
        assert (passage.registro, passage.anio, passage.epoca, passage.tipo) == (
            300,
            2015,
            "Décima Época",
            "Jurisprudencia",
        )
        assert passage.materias == ("Común", "Constitucional")
        assert passage.fecha == date(2015, 3, 6)
        assert passage.chunk.text == "interés legítimo en el amparo indirecto"

    def test_find_claves_reads_a_clave_as_people_write_it(self, store: VectorStore) -> None:
        store.upsert(
            [
                entry(1, 2022, [unit(1, 0, 0, 0)], clave="2a./J. 64/2022 (11a.)"),
                entry(2, 2022, [unit(0, 1, 0, 0)], clave="2a./J. 164/2022 (11a.)"),
                entry(3, 2021, [unit(0, 0, 1, 0)], clave="XXV.2o.4 L (11a.)"),
            ]
        )
        asked = ["2a/j 64/2022", "XXV.2O.4 L", "2a./J. 12/2019"]
        assert store.find_claves(asked) == {"2a/j 64/2022": 1, "XXV.2O.4 L": 3}
        assert store.find_claves([]) == {}

    def test_get_tesis_roundtrips_the_record(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        assert store.get_tesis([300, 999]) == {300: corpus[2].tesis}

    def test_list_tesis_sorted_by_date_both_ways(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        asc = [t.registro for t in store.list_tesis(ListQuery(Filters(), "ASC", 10))]
        assert asc == [100, 200, 300, 400]
        desc = [
            t.registro
            for t in store.list_tesis(ListQuery(Filters(tipo="Jurisprudencia"), "DESC", 10))
        ]
        assert desc == [400, 300]
        assert [t.registro for t in store.list_tesis(ListQuery(Filters(), "ASC", 2, offset=1))] == [
            200,
            300,
        ]

    def test_an_organo_filters_lists_and_lexical_search(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        chamber = Filters(organo="Segunda Sala")
        assert [t.registro for t in store.list_tesis(ListQuery(chamber, "DESC", 10))] == [300]
        found = store.lexical_search("amparo", unit(1, 0, 0, 0), chamber, 10)
        assert {c.passage.registro for c in found} == {300}  # 100 says amparo too

    def test_a_circuit_filters_by_the_organo_s_words(self, store: VectorStore) -> None:
        courts = {
            1: "TRIBUNAL COLEGIADO DEL SEXTO CIRCUITO.",
            2: "Primer Tribunal Colegiado en Materia Civil del Sexto Circuito",
            3: "SEGUNDO TRIBUNAL COLEGIADO DEL DÉCIMO SEXTO CIRCUITO.",  # 16, not 6
            4: "TRIBUNAL COLEGIADO DEL DECIMO SEXTO CIRCUITO.",  # 16, unaccented
            5: "Segunda Sala",
        }
        store.upsert(
            [
                entry(n, 1970 + n, [unit(1, n, 0, 0)], organo=organo, texts=[f"amparo {n}"])
                for n, organo in courts.items()
            ]
        )
        for circuit, expected in ((6, {1, 2}), (16, {3, 4}), (7, set())):
            only = Filters(circuito=circuit)
            hits = store.vector_search(VectorQuery(unit(1, 1, 0, 0), only, 10))
            assert {h.passage.registro for h in hits} == expected, circuit
            listed = store.list_tesis(ListQuery(only, "ASC", 10))
            assert [t.registro for t in listed] == sorted(expected), circuit
            found = store.lexical_search("amparo", unit(1, 0, 0, 0), only, 10)
            assert {c.passage.registro for c in found} == expected, circuit

    def test_count_by_groups(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        assert store.count_by("tipo", Filters()) == {"Aislada": 2, "Jurisprudencia": 2}
        assert store.count_by("materias", Filters()) == {
            "Común": 2,
            "Laboral": 1,
            "Constitucional": 1,
            "Penal": 1,
        }
        assert store.count_by("anio", Filters(anio_min=2000)) == {"2015": 1, "2023": 1}

    def test_delete_removes_tesis_and_chunks(self, store: VectorStore, corpus) -> None:
        store.upsert(corpus)
        assert store.delete([100, 999]) == 1
        assert store.count() == (3, 3)
        assert all(
            h.passage.registro != 100
            for h in store.vector_search(VectorQuery(unit(1, 0, 0, 0), Filters(), 10))
        )

    def test_validity_notes_roundtrip(self, store: VectorStore) -> None:
        note = Validity("superada", False, 2006225, "P./J. 21/2014 (10a.)", date(2014, 4, 28))
        assert store.upsert_validity({160584: note}) == 1
        assert store.get_validity([160584, 1]) == {160584: note}

    def test_health_reports_ok(self, store: VectorStore) -> None:
        assert store.health()["status"] == "ok"

    def test_mismatched_vectors_raise_store_error(self, store: VectorStore) -> None:
        bad = entry(500, 2020, [unit(1, 0, 0, 0)], texts=["uno", "dos"])
        with pytest.raises((StoreError, ValueError)):
            store.upsert([TesisEntry(bad.tesis, bad.chunks, bad.vectors[:1], "v1")])
