"""The shapes of the search, chat, tesis and timeline answers, as :mod:`dashboard.queries`
selects them (the monitoring, log, feedback and corpus ones: :mod:`dashboard.stats_payloads`).

Keys are the schema's camelCase field names; ``Date`` and ``DateTime`` arrive as ISO strings.
Types only: :mod:`dashboard.client` casts the decoded JSON to these at its boundary (the API
answers what ``schema.graphql`` says; the tests validate every document against it).
"""

from __future__ import annotations

from typing import TypedDict


class Status(TypedDict):
    vigente: bool
    estado: str
    parcial: bool
    porRegistro: int | None
    porClave: str | None
    desde: str | None
    description: str


class Chunk(TypedDict):
    index: int
    startChar: int
    endChar: int
    startLine: int
    endLine: int
    tokens: int
    text: str


class Intent(TypedDict):
    materia: str | None
    materiaTriggers: list[str]
    materiaSource: str | None
    temporal: str | None
    temporalTriggers: list[str]
    mode: str
    cutoffYear: int | None
    rulesApplied: bool
    recencyWeight: float
    topic: list[str]
    topicWords: list[str]
    language: str
    cited: list[int]
    namedFilters: list[str]
    excluded: list[str]
    notFound: list[str]  # cited tesis the corpus lacks, when it holds others cited


class TesisFields(TypedDict):
    """What every tesis-shaped answer carries: its metadata and its vigencia."""

    registro: int
    rubro: str
    clave: str
    epoca: str
    anio: int
    fecha: str | None
    tipo: str
    materias: list[str]
    status: Status


class TimelineItem(TesisFields):
    instancia: str


class Scores(TypedDict):
    """How a hit was ranked (also logged with each search)."""

    similarity: float
    relevance: float
    recencyFactor: float
    epocaFactor: float
    finalScore: float
    boost: float
    rank: int
    rankWithoutRecency: int


class Hit(TimelineItem, Scores):
    lexicalScore: float
    onTopic: bool
    gate: float
    warning: str | None
    partial: bool
    chunk: Chunk


class Discarded(TypedDict):
    registro: int
    rubro: str
    anio: int
    epoca: str
    tipo: str
    code: str
    reason: str
    similarity: float
    finalScore: float


class Timings(TypedDict):
    embedMs: float
    retrieveMs: float
    scoreMs: float


class Confidence(TypedDict):
    level: str  # HIGH or LOW
    lead: float
    floorMargin: float | None
    reasons: list[str]


class SearchPayload(TypedDict):
    logId: str | None
    candidates: int
    recencyWeight: float
    profile: str
    mode: str
    abstained: bool
    abstainReason: str | None
    confidence: Confidence | None
    hits: list[Hit]
    withoutRecency: list[Hit]
    discarded: list[Discarded]
    intent: Intent
    timings: Timings


class Fragment(TypedDict):
    chunkIndex: int
    startLine: int
    endLine: int
    startChar: int
    endChar: int
    similarity: float
    finalScore: float
    text: str


class CitationCheck(TypedDict):
    cited: list[int]
    valid: list[int]
    phantom: list[int]
    uncited: list[int]
    coverage: float


class ChatPayload(TypedDict):
    id: str | None
    answer: str
    mode: str
    ragUsed: bool
    llmError: str | None
    model: str | None
    phantomRemoved: list[int]
    systemPrompt: str
    context: str
    abstained: bool
    abstainReason: str | None
    confidence: Confidence | None
    references: list[Reference]
    citationCheck: CitationCheck
    intent: Intent
    discarded: list[Discarded]


class ChatEvent(TypedDict, total=False):
    """One ``chatStream`` event: ChatReferences, ChatDelta or ChatDone (by ``__typename``)."""

    references: list[Reference]
    text: str
    id: str | None
    mode: str
    ragUsed: bool
    llmError: str | None
    citationCheck: CitationCheck
    confidence: Confidence | None


class TimelinePayload(TypedDict):
    total: int
    items: list[TimelineItem]


class DatedPayload(TypedDict, total=False):
    """``earliest`` / ``latest``: a SearchPayload (``hits``) or a TimelinePayload (``items``)."""

    hits: list[Hit]
    items: list[TimelineItem]
    total: int


class Reference(TesisFields):
    number: int
    url: str
    similarity: float
    avgSimilarity: float
    finalScore: float
    chunkCount: int
    totalTokens: int
    partial: bool
    warning: str | None
    fragments: list[Fragment]


class TesisRecord(TimelineItem):
    texto: str
    organo: str
    precedentes: str
    partial: bool
    url: str
    chunks: list[Chunk]
