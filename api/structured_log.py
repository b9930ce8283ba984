"""Structured log lines of the re-ranking and of reference consolidation.

Two loggers, one line per event: ``vigencia.rerank`` (question, materia, cutoff, the hits'
year range and gap, each discard with its reason, sources before and after) and
``vigencia.references`` ("N references consolidated from M chunks"). With
``VIGENCIA_LOG_FORMAT=json`` each line is one JSON object (``event``, ``message`` and the
fields); otherwise ``message key=value ...``.

Example::

    configure("json")
    log_rerank("¿Procede la suspensión?", result)
    # {"event": "vigencia.rerank", "message": "2 of 10 sources discarded", "materia": ...}
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, Literal

from api.core.references import Reference
from api.core.search_result import SearchResult

LogFormat = Literal["text", "json"]
RERANK = logging.getLogger("vigencia.rerank")
REFERENCES = logging.getLogger("vigencia.references")
_HANDLER_NAME = "vigencia-structured"


class StructuredFormatter(logging.Formatter):
    """Renders a record's ``fields`` (passed as ``extra``) as JSON or key=value text."""

    def __init__(self, fmt: LogFormat = "text") -> None:
        super().__init__()
        self.fmt = fmt

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", {})
        if self.fmt == "json":
            body = {
                "event": record.name,
                "level": record.levelname,
                "message": record.getMessage(),
                **fields,
            }
            return json.dumps(body, ensure_ascii=False, default=str)
        pairs = " ".join(
            f"{k}={json.dumps(v, ensure_ascii=False, default=str)}" for k, v in fields.items()
        )
        return f"{record.name} {record.getMessage()} {pairs}".rstrip()


def configure(fmt: LogFormat, stream: Any = None) -> logging.Handler:
    """Send both loggers, one line per event, to ``stream`` (stderr) in ``fmt``; idempotent."""
    handler = logging.StreamHandler(stream)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(StructuredFormatter(fmt))
    for logger in (RERANK, REFERENCES):
        for old in [h for h in logger.handlers if h.get_name() == _HANDLER_NAME]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return handler


def rerank_fields(question: str, result: SearchResult) -> dict[str, Any]:
    """What the re-ranking did: the fields of one ``vigencia.rerank`` line."""
    before = [d.hit for d in result.discarded] + list(result.hits)
    years = [h.passage.anio for h in before]
    return {
        "question": question,
        "materia": result.intent.materia.materia,
        "cutoff": result.intent.cutoff_year,
        "rules_applied": result.intent.rules_applied,
        "year_min": min(years) if years else None,
        "year_max": max(years) if years else None,
        "year_gap": max(years) - min(years) if years else None,
        "discarded": [
            {
                "registro": d.hit.registro,
                "anio": d.hit.passage.anio,
                "code": d.code,
                "reason": d.reason,
            }
            for d in result.discarded
        ],
        "sources_before": len({h.registro for h in before}),
        "sources_after": len({h.registro for h in result.hits}),
    }


def log_rerank(question: str, result: SearchResult) -> None:
    fields = rerank_fields(question, result)
    RERANK.info(
        "%d of %d sources discarded",
        fields["sources_before"] - fields["sources_after"],
        fields["sources_before"],
        extra={"fields": fields},
    )


def log_references(question: str, refs: Sequence[Reference]) -> None:
    chunks = sum(r.chunk_count for r in refs)
    fields = {
        "question": question,
        "references": len(refs),
        "chunks": chunks,
        "registros": [r.registro for r in refs],
    }
    REFERENCES.info(
        "%d references consolidated from %d chunks", len(refs), chunks, extra={"fields": fields}
    )
