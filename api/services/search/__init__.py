"""Search: request and config, planning, retrieval, gating, rules, and the service that runs them."""

from api.core.search_defaults import RULES_MODES, RulesMode
from api.core.search_result import Route, SearchIntent, SearchResult
from api.services.search.config import SearchConfig
from api.services.search.plan import Plan
from api.services.search.ranking import (
    best_chunk_per_tesis,
    cap_chunks_per_tesis,
    on_topic_with_replacement,
    relevance_ranking,
)
from api.services.search.request import (
    MAX_CHUNKS_PER_TESIS,
    MAX_QUERY_CHARS,
    MAX_TOP_K,
    TEMPORAL_MODES,
    SearchRequest,
    TemporalMode,
)
from api.services.search.service import SearchService

__all__ = [
    "MAX_CHUNKS_PER_TESIS",
    "MAX_QUERY_CHARS",
    "MAX_TOP_K",
    "RULES_MODES",
    "TEMPORAL_MODES",
    "Plan",
    "Route",
    "RulesMode",
    "SearchConfig",
    "SearchIntent",
    "SearchRequest",
    "SearchResult",
    "SearchService",
    "TemporalMode",
    "best_chunk_per_tesis",
    "cap_chunks_per_tesis",
    "on_topic_with_replacement",
    "relevance_ranking",
]
