"""Twenty real searches (one of them a chat) over the bundled corpus, logged by a Recorder."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from api.core.models import Filters
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import Recorder, cited_registros
from api.services.chat import ChatRequest
from api.services.container import Services
from api.services.search import SearchRequest, SearchResult

# A question about 1970s procedure, filtered to tesis up to 1990: every hit predates 2000.
OLD_PROCEDURE = "emplazamiento y notificación personal en el juicio de amparo en los años setenta"
QUESTIONS: tuple[str, ...] = (
    "improcedencia del amparo indirecto por actos de la junta",
    "suspensión provisional del acto reclamado en amparo",
    "despido injustificado y carga de la prueba del patrón",
    "requisitos actuales de la constancia de representatividad sindical",
    "prescripción de la acción de cobro de salarios caídos",
    "pensión alimenticia y proporcionalidad de los alimentos",
    "competencia del tribunal federal de justicia administrativa",
    "defensa adecuada del imputado en el sistema acusatorio",
    "cadena de custodia de la evidencia en materia penal",
    "control difuso de convencionalidad por los jueces",
    "remate y adjudicación de bienes embargados",
    "lanzamiento en juicio de desahucio",
    "impuesto predial y principio de proporcionalidad tributaria",
    "contrato colectivo de trabajo y titularidad sindical",
    "agravios inoperantes en el recurso de revisión",
    "interés jurídico y legítimo para promover el amparo",
    "cuotas del seguro social en ascensos temporales",
    "prueba pericial en el juicio laboral",
)
CHAT_QUESTION = "¿Procede la suspensión contra el lanzamiento de un inquilino?"


@dataclass
class Recorded:
    """What the twenty searches returned and where they were logged."""

    services: Services
    log: EmbeddedSearchLog
    recorder: Recorder
    results: list[SearchResult] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    cited: tuple[int, ...] = ()

    @property
    def hits(self) -> int:
        return sum(len(r.hits) for r in self.results)


@pytest.fixture(scope="module")
def recorded(bundled: Services, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    log = EmbeddedSearchLog(tmp_path_factory.mktemp("monitoring") / "search_log.sqlite")
    run = Recorded(bundled, log, Recorder(log, retention_days=30))
    for question in QUESTIONS:
        request = SearchRequest(query=question, top_k=8)
        result = bundled.search.search(request)
        run.results.append(result)
        run.ids.append(run.recorder.record_search(question, request, result) or "")

    chat = ChatRequest(question=CHAT_QUESTION, max_references=3)
    prepared, answer = bundled.chat.answer(chat)
    run.cited = cited_registros(prepared.references, answer.citation_check.valid)
    run.results.append(prepared.search)
    log_id = run.recorder.record_search(CHAT_QUESTION, chat, prepared.search, "chat", run.cited)
    run.ids.append(log_id or "")

    old = SearchRequest(query=OLD_PROCEDURE, top_k=8, filters=Filters(anio_max=1990))
    result = bundled.search.search(old)
    run.results.append(result)
    run.ids.append(run.recorder.record_search(OLD_PROCEDURE, old, result) or "")
    yield run
    log.close()
