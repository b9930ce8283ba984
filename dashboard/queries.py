"""Selections the dashboard asks for, named as in ``schema.graphql`` and the announced API.

Fields the running API lacks are trimmed before sending (:func:`dashboard.selection.render`).
"""

from __future__ import annotations

from dashboard.selection import on, sel

STATUS = sel("vigente estado parcial porRegistro porClave desde description")
CHUNK = sel("index startChar endChar startLine endLine tokens text")
INTENT = sel(
    "materia materiaTriggers materiaSource temporal temporalTriggers mode cutoffYear "
    "rulesApplied recencyWeight topic"
)
DISCARDED = sel("registro rubro anio epoca tipo code reason similarity finalScore")
HIT = sel(
    "registro rubro clave epoca anio fecha tipo materias instancia similarity relevance "
    "lexicalScore recencyFactor epocaFactor finalScore boost rank rankWithoutRecency",
    chunk=CHUNK,
    status=STATUS,
)
SEARCH_PAYLOAD = sel(
    "logId candidates recencyWeight profile mode",
    hits=HIT,
    timings=sel("embedMs retrieveMs scoreMs"),
    intent=INTENT,
    discarded=DISCARDED,
)
ERRORS = sel("__typename field service message")
"""Applied to every member of a ``Payload | InputError | ServiceError`` union."""
SEARCH_RESPONSE = {
    **ERRORS,
    **SEARCH_PAYLOAD,
    **on(
        SearchPayload=SEARCH_PAYLOAD,
        InputError=sel("field message"),
        ServiceError=sel("service message"),
    ),
}

TESIS = sel(
    "registro rubro texto clave epoca anio fecha tipo materias instancia organo precedentes "
    "partial url",
    chunks=CHUNK,
    status=STATUS,
)

FRAGMENT = sel("chunkIndex startLine endLine startChar endChar similarity finalScore text")
REFERENCE = sel(
    "number registro rubro clave epoca anio fecha tipo materias url similarity avgSimilarity "
    "finalScore chunkCount totalTokens",
    status=STATUS,
    fragments=FRAGMENT,
)
CHAT_PAYLOAD = sel(
    "id answer mode ragUsed llmError model phantomRemoved systemPrompt context",
    references=REFERENCE,
    citationCheck=sel("cited valid phantom uncited coverage"),
    intent=INTENT,
    discarded=DISCARDED,
)
CHAT = {**ERRORS, **CHAT_PAYLOAD}
CHAT_EVENT = {
    **ERRORS,
    **sel(
        "text id mode ragUsed llmError model phantomRemoved",
        references=REFERENCE,
        citationCheck=sel("cited valid phantom uncited coverage"),
    ),
}
"""chatStream: ChatReferences, then ChatDelta (text), then ChatDone (checks)."""

RANKED = sel("registro rank finalScore anio rubro epoca")
COMPARE_PAYLOAD = sel(
    "entered dropped kendallTau",
    a=RANKED,
    b=RANKED,
    rankChanges=sel("registro rankA rankB delta"),
)
COMPARE = {**ERRORS, **COMPARE_PAYLOAD}

TIMELINE_ITEM = sel(
    "registro rubro clave epoca anio fecha tipo materias",
    status=STATUS,
)
TIMELINE = {**ERRORS, **sel("total", items=TIMELINE_ITEM)}

BUCKET = sel("key count")
DISTRIBUTION = BUCKET

ALERT = sel("code severity count firstSeen lastSeen examples message")
SERIES = sel("series total", byYear=BUCKET, byEpoca=BUCKET)
MONITORING = ERRORS | sel(
    "windowHours since until searches hits truncated",
    boostHistogram=sel("profile total", bins=sel("low high count")),
    temporalSeries=SERIES,
    temporal=sel(retrieved=SERIES, cited=SERIES, corpus=SERIES),
    shares=sel("*"),
    byMateria=sel("materia searches hits preReformShare"),
    alerts=ALERT,
    logHealth=sel("status recorded failures lastError"),
)

LOG_ENTRY = sel(
    "id timestamp kind question materia temporal route cutoffYear rulesApplied profile "
    "recencyWeight mode candidates latencyMs cited",
    hits=sel(
        "registro rubro anio epoca tipo estado similarity relevance recencyFactor epocaFactor "
        "finalScore boost rank rankWithoutRecency"
    ),
    discarded=sel("registro anio code reason"),
    feedback=sel("registro useful comment timestamp"),
)
SEARCH_LOG = LOG_ENTRY | sel("total", items=LOG_ENTRY)
FEEDBACK = ERRORS | sel("logId registro useful comment ok")

CORPUS_STATS = ERRORS | sel(
    "total chunks",
    byEpoca=BUCKET,
    byMateria=BUCKET,
    byTipo=BUCKET,
    byYear=BUCKET,
    coverageGaps=sel("materia cutoffYear countSince"),
    lastIngest=sel("finishedAt startedAt read stored unchanged rejected warnings chunks"),
)

DATED_RESPONSE = {**SEARCH_RESPONSE, **sel("total", items=TIMELINE_ITEM)}
"""earliest / latest: a SearchPayload (on a topic) or a TimelinePayload (filters only)."""
