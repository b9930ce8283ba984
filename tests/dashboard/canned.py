"""Canned API answers for the AppTests (shapes as in schema.graphql)."""

from __future__ import annotations

from typing import Any

VIGENTE = {
    "vigente": True,
    "estado": "vigente",
    "parcial": False,
    "porRegistro": None,
    "porClave": None,
    "desde": None,
    "description": "vigente",
}
SUPERADA = {
    "vigente": False,
    "estado": "superada",
    "parcial": False,
    "porRegistro": 2006225,
    "porClave": "P./J. 21/2014 (10a.)",
    "desde": "2014-04-28",
    "description": "superada por 2006225 (P./J. 21/2014 (10a.)) desde 2014-04-28",
}

TESIS = [
    # registro, rubro, epoca, anio, fecha, tipo, status
    (
        2031616,
        "INTERÉS SUSPENSIONAL. LO TIENEN LAS ESCUELAS.",
        "Duodécima Época",
        2025,
        "2025-10-10",
        "Jurisprudencia",
        VIGENTE,
    ),
    (
        2023695,
        "DERECHO DE ALIMENTOS (HABITACIÓN) DE LAS PERSONAS MENORES DE EDAD.",
        "Undécima Época",
        2021,
        "2021-11-05",
        "Aislada",
        VIGENTE,
    ),
    (
        246545,
        "ALIMENTOS. UNA VEZ FIJADA LA PENSIÓN PROVISIONAL NO PROCEDE SU MODIFICACIÓN.",
        "Séptima Época",
        1987,
        None,
        "Aislada",
        SUPERADA,
    ),
]


def _record(i: int) -> dict[str, Any]:
    registro, rubro, epoca, anio, fecha, tipo, status = TESIS[i]
    return {
        "registro": registro,
        "rubro": rubro,
        "clave": f"1a./J. {i + 1}/{anio}",
        "epoca": epoca,
        "anio": anio,
        "fecha": fecha,
        "tipo": tipo,
        "materias": ["Civil"],
        "instancia": "Primera Sala",
        "status": status,
    }


def chunk(i: int) -> dict[str, Any]:
    text = f"{TESIS[i][1]}\nTexto del fragmento {i + 1} con $5,000 y *asteriscos*."
    return {
        "index": 0,
        "startChar": 0,
        "endChar": len(text),
        "startLine": 1,
        "endLine": 2,
        "tokens": 40,
        "text": text,
    }


def hit(i: int, rank: int, rank_without: int) -> dict[str, Any]:
    return {
        **_record(i),
        "similarity": 0.86 - 0.01 * i,
        "relevance": 0.9 - 0.1 * i,
        "lexicalScore": 7.5 - i,
        "recencyFactor": 1.0 - 0.3 * i,
        "epocaFactor": 1.0,
        "finalScore": 0.8 - 0.2 * i,
        "boost": 1.0 - 0.3 * i,
        "rank": rank,
        "rankWithoutRecency": rank_without,
        "chunk": chunk(i),
        "onTopic": True,
        "gate": 1.0 - 0.1 * i,
        "warning": None,
        "partial": False,
    }


INTENT = {
    "materia": "Civil",
    "materiaTriggers": ["pensión"],
    "materiaSource": "question",
    "temporal": "latest",
    "temporalTriggers": ["más reciente"],
    "mode": "blend",
    "cutoffYear": 2011,
    "rulesApplied": True,
    "recencyWeight": 0.5,
    "topic": ["pension", "alimen"],
    "topicWords": ["pensión", "alimentos"],
    "language": "es",
    "cited": [],
    "namedFilters": [],
    "excluded": [],
    "notFound": [],
}
DISCARDED = [
    {
        **_record(2),
        "registro": 240001,
        "code": "PRE_REFORM",
        "reason": "Anterior a la reforma de 2011 en materia civil",
        "similarity": 0.8,
        "finalScore": 0.12,
        "hit": hit(2, 4, 4),
    }
]


def search_payload(*_: Any, **__: Any) -> dict[str, Any]:
    return {
        "__typename": "SearchPayload",
        "logId": "s-1",
        "hits": [
            hit(0, 1, 2),
            hit(1, 2, 3),
            hit(2, 3, 1),
            {
                **hit(0, 1, 2),
                "chunk": {**chunk(0), "index": 1, "text": "Segundo fragmento de la misma tesis."},
            },
        ],
        "withoutRecency": [hit(2, 1, 1), hit(0, 2, 2), hit(1, 3, 3)],
        "discarded": DISCARDED,
        "abstained": False,
        "abstainReason": None,
        "intent": INTENT,
        "candidates": 106,
        "recencyWeight": 0.5,
        "profile": "default",
        "mode": "hybrid",
        "timings": {"embedMs": 5.0, "retrieveMs": 3.0, "scoreMs": 1.0},
    }


def reference(i: int) -> dict[str, Any]:
    rec = _record(i)
    frag = {**chunk(i), "chunkIndex": 0, "similarity": 0.86 - 0.01 * i, "finalScore": 0.8 - 0.2 * i}
    return {
        **rec,
        "number": i + 1,
        "url": f"https://sjf2.scjn.gob.mx/detalle/tesis/{rec['registro']}",
        "similarity": 0.86 - 0.01 * i,
        "avgSimilarity": 0.85 - 0.01 * i,
        "finalScore": 0.8 - 0.2 * i,
        "chunkCount": 1,
        "totalTokens": 40,
        "fragments": [frag],
        "partial": False,
        "warning": None,
    }


CHAT = {
    "id": "c-1",
    "mode": "EXTRACTIVE",
    "ragUsed": False,
    "llmError": "sin clave de LLM",
    "model": None,
    "systemPrompt": "Responda sólo con las tesis citadas.",
    "context": "[1] INTERÉS SUSPENSIONAL…",
    "phantomRemoved": [7],
    "answer": "La pensión provisional puede revisarse [1]. El derecho de alimentos incluye "
    "la habitación [2][7].",
    "references": [reference(0), reference(1), reference(2)],
    "citationCheck": {
        "cited": [1, 2, 7],
        "valid": [1, 2],
        "phantom": [7],
        "uncited": [3],
        "coverage": 0.67,
    },
    "intent": INTENT,
    "discarded": DISCARDED,
    "abstained": False,
    "abstainReason": None,
}

# A = without recency, B = with it (the API's convention: entered = in B only).
COMPARE = {
    "a": [
        {"registro": 246545, "rank": 1, "finalScore": 0.9, "anio": 1987},
        {"registro": 2031616, "rank": 2, "finalScore": 0.7, "anio": 2025},
    ],
    "b": [
        {"registro": 2031616, "rank": 1, "finalScore": 0.8, "anio": 2025},
        {"registro": 2023695, "rank": 2, "finalScore": 0.6, "anio": 2021},
    ],
    "rankChanges": [
        {"registro": 2031616, "rankA": 2, "rankB": 1, "delta": 1},
        {"registro": 2023695, "rankA": None, "rankB": 2, "delta": None},
        {"registro": 246545, "rankA": 1, "rankB": None, "delta": None},
    ],
    "entered": [2023695],
    "dropped": [246545],
    "kendallTau": 0.33,
}

TIMELINE = {"total": 120, "items": [_record(2), _record(1), _record(0)]}


def _series(name: str) -> dict[str, Any]:
    return {
        "series": name,
        "total": 6,
        "byYear": [{"key": "1987", "count": 4}, {"key": "2021", "count": 2}],
        "byEpoca": [{"key": "Séptima Época", "count": 4}, {"key": "Undécima Época", "count": 2}],
    }


MONITORING = {
    "windowHours": 168,
    "since": "2026-11-15T02:00:00",
    "until": "2026-11-22T02:00:00",
    "searches": 12,
    "hits": 96,
    "truncated": False,
    "abstentions": 2,
    "lowConfidence": 3,
    "boostHistogram": [
        {
            "profile": "default",
            "total": 8,
            "bins": [{"low": 0.2, "high": 0.4, "count": 3}, {"low": 0.4, "high": 0.6, "count": 5}],
        }
    ],
    "temporal": {s: _series(s) for s in ("retrieved", "cited", "corpus")},
    "temporalSeries": [_series(s) for s in ("retrieved", "cited", "corpus")],
    "shares": {
        "preBefore2000": 0.4,
        "preReform": 0.25,
        "superseded": 0.05,
        "hits": 96,
        "reformHits": 40,
    },
    "byMateria": [
        {"materia": "Civil", "searches": 5, "hits": 40, "preReformShare": 0.25},
        {"materia": None, "searches": 7, "hits": 56, "preReformShare": None},
    ],
    "alerts": [
        {
            "code": "MANY_PRE_REFORM",
            "severity": "warning",
            "count": 3,
            "firstSeen": "2026-11-20T10:00:00",
            "lastSeen": "2026-11-21T12:30:00",
            "examples": ["pensión alimenticia 1987"],
            "message": "Se citaron tesis anteriores a la reforma",
        },
        {
            "code": "SUPERSEDED_CITED",
            "severity": "critical",
            "count": 1,
            "firstSeen": "2026-11-21T09:00:00",
            "lastSeen": "2026-11-21T09:00:00",
            "examples": ["amparo directo"],
            "message": "Una tesis superada quedó primera",
        },
        {
            "code": "COVERAGE_GAP",
            "severity": "warning",
            "count": 0,
            "firstSeen": "2026-11-22T02:19:23+00:00",
            "lastSeen": "2026-11-22T02:19:23+00:00",
            "examples": [],
            "message": "ninguna tesis de Agraria desde 1992 (corte de la reforma)",
        },
    ],
    "logHealth": {"status": "ok", "recorded": 12, "failures": 0, "lastError": None},
}


def _logged(i: int, rank: int) -> dict[str, Any]:
    h = hit(i, rank, rank)
    return {
        **{
            k: h[k]
            for k in (
                "registro",
                "rubro",
                "anio",
                "epoca",
                "tipo",
                "materias",
                "similarity",
                "relevance",
                "recencyFactor",
                "epocaFactor",
                "finalScore",
                "boost",
                "rank",
                "rankWithoutRecency",
            )
        },
        "estado": h["status"]["estado"],
    }


_ENTRY = {
    "kind": "search",
    "route": "relevance",
    "cutoffYear": None,
    "rulesApplied": True,
    "abstainReason": None,
    "mode": "hybrid",
    "parameters": {},
    "candidates": 100,
    "latencyMs": 42.0,
    "discarded": [],
    "cited": [],
    "feedback": [],
}
SEARCH_LOG = [
    {
        **_ENTRY,
        "id": "log-1",
        "timestamp": "2026-11-21T12:30:00",
        "question": "pensión alimenticia",
        "materia": "Civil",
        "temporal": None,
        "profile": "default",
        "recencyWeight": 0.5,
        "hits": [_logged(0, 1), _logged(2, 2)],
        "discarded": [
            {
                "registro": 240001,
                "anio": 1980,
                "code": "PRE_REFORM",
                "reason": "Anterior a la reforma",
            }
        ],
        "feedback": [
            {
                "registro": 2031616,
                "useful": True,
                "comment": None,
                "timestamp": "2026-11-21T12:31:00",
            }
        ],
    },
    {
        **_ENTRY,
        "id": "log-2",
        "timestamp": "2026-11-21T13:00:00",
        "question": "amparo directo",
        "materia": None,
        "temporal": "latest",
        "profile": "seed",
        "recencyWeight": 0.2,
        "hits": [],
    },
]

BUCKETS = {
    "EPOCA": [
        {"key": "Séptima Época", "count": 998},
        {"key": "Novena Época", "count": 21},
        {"key": "Undécima Época", "count": 19},
    ],
    "MATERIA": [{"key": "Administrativa", "count": 295}, {"key": "Civil", "count": 195}],
    "TIPO": [{"key": "Aislada", "count": 981}, {"key": "Jurisprudencia", "count": 79}],
    "YEAR": [{"key": "1987", "count": 40}, {"key": "2021", "count": 9}],
}

CORPUS = {
    "total": 1060,
    "chunks": 1931,
    "byEpoca": BUCKETS["EPOCA"],
    "byMateria": BUCKETS["MATERIA"],
    "byTipo": BUCKETS["TIPO"],
    "byYear": BUCKETS["YEAR"],
    "coverageGaps": [
        {"materia": "Penal", "cutoffYear": 2016, "countSince": 0},
        {"materia": "Laboral", "cutoffYear": 2019, "countSince": 2},
    ],
    "lastIngest": {
        "finishedAt": "2026-11-22T01:51:04",
        "startedAt": "2026-11-22T01:51:03",
        "read": 1060,
        "stored": 1060,
        "unchanged": 0,
        "chunks": 1931,
        "rejected": 0,
        "warnings": 1,
    },
}


FEEDBACK_SUMMARY = {
    "windowHours": 168,
    "useful": 5,
    "notUseful": 2,
    "byDay": [
        {"key": "2026-11-20", "useful": 3, "notUseful": 0},
        {"key": "2026-11-22", "useful": 2, "notUseful": 2},
    ],
    "byMateria": [
        {"key": "Civil", "useful": 4, "notUseful": 1},
        {"key": "", "useful": 1, "notUseful": 1},
    ],
}


async def chat_stream(info: Any, input: Any) -> Any:
    """chatStream: the references, the answer in two pieces, then the checks."""
    yield {"chatStream": {"__typename": "ChatReferences", "references": CHAT["references"]}}
    half = len(CHAT["answer"]) // 2
    for piece in (CHAT["answer"][:half], CHAT["answer"][half:]):
        yield {"chatStream": {"__typename": "ChatDelta", "text": piece}}
    done = ("id", "mode", "ragUsed", "llmError", "model", "citationCheck", "phantomRemoved")
    yield {"chatStream": {"__typename": "ChatDone", **{k: CHAT[k] for k in done}}}


def root() -> dict[str, Any]:
    """Resolvers for every root field the dashboard calls."""
    return {
        "search": search_payload,
        "tesis": lambda info, registro: {
            **_record(0),
            "registro": registro,
            "texto": "Texto.",
            "organo": "Pleno",
            "precedentes": "",
            "partial": False,
            "url": f"https://sjf2.scjn.gob.mx/detalle/tesis/{registro}",
            "chunks": [chunk(0)],
        },
        "chat": lambda info, input: CHAT,
        "chatStream": chat_stream,
        "compareRankings": lambda info, input: COMPARE,
        "feedbackSummary": lambda info, windowHours=168: FEEDBACK_SUMMARY,
        "timeline": lambda info, input: TIMELINE,
        "earliest": lambda info, **kw: search_payload(),
        "latest": lambda info, **kw: TIMELINE,
        "distribution": lambda info, groupBy, filters=None: BUCKETS.get(groupBy, []),
        "monitoring": lambda info, windowHours=168: MONITORING,
        "searchLog": lambda info, limit=20, offset=0: SEARCH_LOG,
        "alerts": lambda info, windowHours=168: MONITORING["alerts"],
        "feedback": lambda info, logId, registro, useful, comment=None: {
            "logId": logId,
            "registro": registro,
            "useful": useful,
            "comment": comment,
            "ok": True,
        },
        "corpusStats": lambda info: CORPUS,
    }
