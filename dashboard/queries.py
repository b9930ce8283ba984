"""Every GraphQL document the dashboard sends, written out in full.

Static text, validated against ``schema.graphql`` by the tests (``tests/dashboard/test_queries``):
no introspection at run time, so the dashboard works the same with
``VIGENCIA_GRAPHQL_INTROSPECTION=false``. Fragments are appended by :func:`document`, which
adds exactly the ones a body spreads (GraphQL refuses unused fragments).
"""

from __future__ import annotations

import re

FRAGMENTS: dict[str, str] = {
    "Status": "fragment Status on ValidityStatus "
    "{ vigente estado parcial porRegistro porClave desde description }",
    "Chunk": "fragment Chunk on ChunkSpan { index startChar endChar startLine endLine tokens text }",
    "IntentFields": "fragment IntentFields on Intent { materia materiaTriggers materiaSource "
    "temporal temporalTriggers mode cutoffYear rulesApplied recencyWeight topic topicWords language cited "
    "namedFilters excluded notFound }",
    "Hit": "fragment Hit on SearchHit { registro rubro clave epoca anio fecha tipo materias "
    "instancia similarity relevance lexicalScore recencyFactor epocaFactor finalScore boost "
    "rank rankWithoutRecency onTopic gate warning partial chunk { ...Chunk } status { ...Status } }",
    "Discarded": "fragment Discarded on DiscardedHit "
    "{ registro rubro anio epoca tipo code reason similarity finalScore }",
    "Reference": "fragment Reference on ReferenceType { number registro rubro clave epoca anio "
    "fecha tipo materias url similarity avgSimilarity finalScore chunkCount totalTokens "
    "partial warning "
    "status { ...Status } fragments { chunkIndex startLine endLine startChar endChar "
    "similarity finalScore text } }",
    "Check": "fragment Check on CitationCheckType { cited valid phantom uncited coverage }",
    "Errors": "fragment Errors on InputError { field message }",
    "Failure": "fragment Failure on ServiceError { service message }",
    "Item": "fragment Item on TimelineItem "
    "{ registro rubro clave epoca anio fecha tipo materias instancia status { ...Status } }",
    "Series": "fragment Series on TemporalSeries "
    "{ series total byYear { key count } byEpoca { key count } }",
}
_SPREAD = re.compile(r"\.\.\.([A-Z]\w*)")


def document(body: str) -> str:
    """``body`` followed by every fragment it spreads, directly or through other fragments."""
    needed: list[str] = []
    pending = _SPREAD.findall(body)
    while pending:
        name = pending.pop()
        if name not in needed:
            needed.append(name)
            pending += _SPREAD.findall(FRAGMENTS[name])
    return "\n".join([body.strip(), *(FRAGMENTS[n] for n in sorted(needed))])


_UNION_ERRORS = "... on InputError { ...Errors } ... on ServiceError { ...Failure }"


def _union(operation: str, call: str, payload: str, fields: str) -> str:
    """``operation { call }`` where ``call`` answers ``payload | InputError | ServiceError``."""
    return document(
        f"{operation} {{\n  {call} {{\n"
        f"    __typename ... on {payload} {{ {fields} }} {_UNION_ERRORS}\n  }}\n}}"
    )


_CONFIDENCE = "confidence { level lead floorMargin reasons } "

SEARCH_PAYLOAD = (
    "logId candidates recencyWeight profile mode abstained abstainReason "
    + _CONFIDENCE
    + "hits { ...Hit } "
    "withoutRecency { ...Hit } "
    "discarded { ...Discarded } intent { ...IntentFields } timings { embedMs retrieveMs scoreMs }"
)

SEARCH = _union(
    "query Search($input: SearchInput!)", "search(input: $input)", "SearchPayload", SEARCH_PAYLOAD
)

TESIS = document("""
query Tesis($registro: Int!) {
  tesis(registro: $registro) {
    registro rubro texto clave epoca anio fecha tipo materias instancia organo precedentes
    partial url status { ...Status } chunks { ...Chunk }
  }
}""")

_CHAT_PAYLOAD = (
    "id answer mode ragUsed llmError model phantomRemoved systemPrompt context abstained "
    "abstainReason "
    + _CONFIDENCE
    + "references { ...Reference } citationCheck { ...Check } intent { ...IntentFields } "
    "discarded { ...Discarded }"
)

CHAT = _union("query Chat($input: ChatInput!)", "chat(input: $input)", "ChatPayload", _CHAT_PAYLOAD)

CHAT_STREAM = document(f"""
subscription ChatStream($input: ChatInput!) {{
  chatStream(input: $input) {{
    __typename
    ... on ChatReferences {{ references {{ ...Reference }} }}
    ... on ChatDelta {{ text }}
    ... on ChatDone {{ id mode ragUsed llmError citationCheck {{ ...Check }} {_CONFIDENCE}}}
    {_UNION_ERRORS}
  }}
}}""")
"""ChatReferences, then ChatDelta (text) events, then ChatDone (checks)."""

TIMELINE = _union(
    "query Timeline($input: TimelineInput!)",
    "timeline(input: $input)",
    "TimelinePayload",
    "total items { ...Item }",
)

_DATED = (
    f"__typename ... on SearchPayload {{ {SEARCH_PAYLOAD} }} ... on TimelinePayload {{ total items "
    f"{{ ...Item }} }} {_UNION_ERRORS}"
)

EARLIEST = document(f"""
query Earliest($query: String, $filters: FiltersInput, $limit: Int!) {{
  earliest(query: $query, filters: $filters, limit: $limit) {{ {_DATED} }}
}}""")
LATEST = document(f"""
query Latest($query: String, $filters: FiltersInput, $limit: Int!) {{
  latest(query: $query, filters: $filters, limit: $limit) {{ {_DATED} }}
}}""")

MONITORING = document(f"""
query Monitoring($windowHours: Int!) {{
  monitoring(windowHours: $windowHours) {{
    __typename
    ... on MonitoringReport {{
      windowHours since until searches hits truncated abstentions lowConfidence
      boostHistogram {{ profile total bins {{ low high count }} }}
      temporalSeries {{ ...Series }}
      shares {{ preBefore2000 preReform superseded hits reformHits }}
      byMateria {{ materia searches hits preReformShare }}
      alerts {{ code severity count firstSeen lastSeen examples message }}
      logHealth {{ status recorded failures lastError }}
    }}
    {_UNION_ERRORS}
  }}
}}""")

SEARCH_LOG = document("""
query SearchLog($limit: Int!, $offset: Int!) {
  searchLog(limit: $limit, offset: $offset) {
    id timestamp kind question materia temporal route cutoffYear rulesApplied profile
    recencyWeight mode candidates latencyMs cited abstainReason
    hits { registro rubro anio epoca tipo estado similarity relevance recencyFactor epocaFactor
           finalScore boost rank rankWithoutRecency }
    discarded { registro anio code reason }
    feedback { registro useful comment timestamp }
  }
}""")

FEEDBACK = _union(
    "mutation Feedback($logId: String!, $registro: Int!, $useful: Boolean!, $comment: String)",
    "feedback(logId: $logId, registro: $registro, useful: $useful, comment: $comment)",
    "FeedbackResult",
    "logId registro useful comment",
)

CORPUS_STATS = document("""
query CorpusStats {
  corpusStats {
    __typename
    ... on CorpusStatsType {
      total chunks
      byEpoca { key count } byMateria { key count } byTipo { key count }
      byYear { key count }
      coverageGaps { materia cutoffYear countSince }
      lastIngest { finishedAt startedAt read stored unchanged rejected warnings chunks }
    }
    ... on ServiceError { ...Failure }
  }
}""")

FEEDBACK_SUMMARY = document(f"""
query FeedbackSummary($windowHours: Int!) {{
  feedbackSummary(windowHours: $windowHours) {{
    __typename
    ... on FeedbackSummary {{
      windowHours useful notUseful
      byDay {{ key useful notUseful }} byMateria {{ key useful notUseful }}
    }}
    {_UNION_ERRORS}
  }}
}}""")

ALL: dict[str, str] = {
    "search": SEARCH,
    "tesis": TESIS,
    "chat": CHAT,
    "chatStream": CHAT_STREAM,
    "timeline": TIMELINE,
    "earliest": EARLIEST,
    "latest": LATEST,
    "monitoring": MONITORING,
    "searchLog": SEARCH_LOG,
    "feedback": FEEDBACK,
    "corpusStats": CORPUS_STATS,
    "feedbackSummary": FEEDBACK_SUMMARY,
}
"""Root field -> document; the tests validate each against ``schema.graphql``."""
