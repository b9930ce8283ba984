"""A generic corpus of news (no época, no materias) worded like law: no legal materia, reform
rule, warning, coverage gap or pre-reform share speaks of it (a tester's hist.jsonl)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from api.core.intent import MateriaIntent
from api.core.models import Filters
from api.core.monitoring import MonitoringThresholds
from api.core.reform import DEFAULT_CUTOFFS
from api.errors import InvalidRequest
from api.ingest.generic import GenericFields
from api.ingest.pipeline import ingest
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.services.chat import ChatRequest, ChatService
from api.services.container import Services
from api.services.corpus import corpus_stats
from api.services.monitoring import MonitoringScope, alerts, coverage_counts
from api.services.search import SearchConfig, SearchRequest, SearchService
from api.services.search.rules import legal_materia
from api.settings import Settings
from api.store.embedded import EmbeddedStore
from tests.fakes import make_hit

NEWS = [
    (1, "Reforma electoral aprobada por el Congreso", "crea un nuevo instituto", "1990-08-15"),
    (2, "Reforma electoral aprobada por el Congreso", "modifica el instituto", "2023-03-01"),
    (3, "Huelga de trabajadores petroleros", "exigen aumento salarial", "1985-05-01"),
    (4, "Huelga de trabajadores petroleros", "exigen mejores condiciones", "2022-06-01"),
    (5, "Festival de cine en Guadalajara", "películas mexicanas", "2010-03-01"),
    (6, "Robo de combustible en ductos", "el delito de robo será juzgado", "1993-02-01"),
    (7, "Robo de combustible en ductos", "el delito de robo será juzgado", "2021-09-01"),
]
FIELDS = GenericFields(title="titulo", text="cuerpo", date="published")


@dataclass(frozen=True)
class News:
    search: SearchService
    store: EmbeddedStore


@pytest.fixture(scope="module")
def news(tmp_path_factory: pytest.TempPathFactory) -> Iterator[News]:
    folder = tmp_path_factory.mktemp("news")
    source = folder / "hist.jsonl"
    rows = [
        {"id": i, "titulo": t, "cuerpo": f"{t}: {body}.", "published": day}
        for i, t, body, day in NEWS
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    embedder = Services.build(Settings(data_dir=folder), store=EmbeddedStore(None)).embedder
    store = EmbeddedStore(None)
    report = ingest([source], store, embedder, today=date(2026, 1, 1), generic=FIELDS)
    assert (report.stored, report.rejected) == (7, [])
    yield News(SearchService(store, embedder, SearchConfig()), store)
    store.close()


@pytest.mark.parametrize(
    ("question", "old", "new"),
    [
        ("reforma electoral aprobada por el Congreso", 1, 2),
        ("huelga de trabajadores petroleros", 3, 4),
        ("robo de combustible", 6, 7),
    ],
)
def test_news_worded_like_law_keep_their_old_articles(
    news: News, question: str, old: int, new: int
) -> None:
    result = news.search.search(SearchRequest(query=question, top_k=5))
    assert result.intent.materia.materia is None
    assert result.intent.cutoff_year is None and not result.intent.rules_applied
    assert result.discarded == []
    assert {old, new} <= {h.registro for h in result.hits}
    assert all(h.warning is None for h in result.hits)


def test_a_chat_over_news_cites_no_reform(news: News) -> None:
    chat = ChatService(news.search, None, max_references=3)
    prepared = chat.prepare(ChatRequest("reforma electoral aprobada por el Congreso"))
    assert {1, 2} <= {r.registro for r in prepared.references}
    assert all(r.warning is None for r in prepared.references)


def test_the_materia_is_legal_only_where_tesis_answer(news: News) -> None:
    electoral = MateriaIntent("Electoral", ("electoral",), "question")
    record = news.search.search(SearchRequest(query="reforma electoral", top_k=2)).hits[0]
    tesis = make_hit(9, materias=("Electoral",), anio=2022)
    holds_tesis = news.search.corpus.holds_tesis
    assert not holds_tesis()

    def unasked() -> bool:  # a page with hits decides: the store is not read
        raise AssertionError("the store's kind was read")

    assert legal_materia(electoral, [record], unasked).materia is None
    assert legal_materia(electoral, [record, tesis], unasked) == electoral  # a mixed page
    assert legal_materia(electoral, [], holds_tesis).materia is None  # no tesis stored at all
    assert legal_materia(electoral, [], lambda: True) == electoral  # tesis, none of it
    asked = MateriaIntent("Electoral", (), "filter")
    assert legal_materia(asked, [record], unasked) == asked


def test_an_electoral_question_over_the_tesis_keeps_its_materia_for_monitoring(
    bundled: Services,
) -> None:
    """The bundled corpus has no Electoral tesis: the question abstains, and its materia is
    what the coverage-gap alert counts."""
    result = bundled.search.search(
        SearchRequest(query="reforma electoral 2021 paridad de género en candidaturas")
    )
    assert result.intent.materia.materia == "Electoral"


def test_a_news_archives_own_nouns_are_document_nouns_only_there(
    news: News, bundled: Services
) -> None:
    """ "la primera nota sobre …" asks for a news archive's first record; over the tesis,
    "notas de crédito" is law ("nota" had been dropped there too)."""
    over_news = news.search.search(SearchRequest(query="la primera nota sobre las elecciones"))
    assert over_news.intent.topic == ("elecci",)
    over_tesis = bundled.search.search(
        SearchRequest(query="¿Cuál es la primera tesis sobre notas de crédito?")
    )
    assert over_tesis.intent.topic == ("nota", "credit")


def test_a_news_store_has_no_reform_coverage_tipo_or_epoca(news: News, tmp_path: Path) -> None:
    assert coverage_counts(news.store, DEFAULT_CUTOFFS) == []
    stats = corpus_stats(news.store, DEFAULT_CUTOFFS, tmp_path)
    assert (stats.total, stats.coverage, stats.by_tipo, stats.by_epoca) == (7, [], [], [])
    assert sum(n for _, n in stats.by_year) == 7
    log = EmbeddedSearchLog(None)
    scope = MonitoringScope(log, news.store, 24, MonitoringThresholds())
    assert alerts(scope) == []


def test_a_materia_filter_is_read_in_any_spelling(news: News) -> None:
    request = SearchRequest(query="despido", filters=Filters(materias=("laboral", "AMPARO")))
    assert request.filters.materias == ("Laboral", "Común")
    with pytest.raises(InvalidRequest, match="'Astrología' is not a materia: one of Laboral"):
        news.search.search(SearchRequest(query="x", filters=Filters(materias=("Astrología",))))


def test_a_current_question_over_news_reads_the_archives_nouns(news: News) -> None:
    """ "la nota actual": 'current' with no topic once "nota" is a document noun, so the
    newest record (it had been a relevance search, and abstained)."""
    result = news.search.search(SearchRequest(query="la nota actual", top_k=3))
    assert result.intent.route == "date_sorted" and not result.abstained
    assert result.intent.topic == ()


def test_corpus_stats_reads_each_breakdown_once(bundled: Services, tmp_path: Path) -> None:
    """Every breakdown is a scan of the store (0.5 s at 560k records): the épocas had been
    read three times and the size twice for one dashboard load."""

    class Counting:
        def __init__(self, inner: object) -> None:
            self.inner, self.calls = inner, []

        def count_by(self, group_by: str, filters: Filters) -> dict[str, int]:
            self.calls.append(group_by)
            return self.inner.count_by(group_by, filters)  # type: ignore[attr-defined,no-any-return]

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

    store = Counting(bundled.store)
    stats = corpus_stats(store, DEFAULT_CUTOFFS, tmp_path)  # type: ignore[arg-type]
    assert stats.coverage and stats.by_epoca and stats.by_tipo
    assert store.calls.count("epoca") == 1


def test_filters_that_leave_nothing_over_news_speak_of_records(news: News) -> None:
    result = news.search.search(SearchRequest(query="la última noticia de 1950", top_k=3))
    assert result.abstain_reason == "No hay registros que cumplan los filtros."


def test_an_api_ingest_makes_the_store_read_its_kind_again() -> None:
    """The kind was kept for 30 s: the first tesis ingested into an empty store had read as a
    generic corpus's until then."""
    from api.services.writes import ingest_batch
    from tests.fakes import FakeEmbedder
    from tests.ingest.test_ingest import good

    store = EmbeddedStore(None)
    search = SearchService(store, FakeEmbedder(64), SearchConfig())
    assert not search.corpus.holds_tesis()
    report = ingest_batch(store, search, [good(1)])
    assert report.stored == 1 and search.corpus.holds_tesis()
