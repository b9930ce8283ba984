"""``vigencia search``: one question, ranked hits as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from datetime import date
from typing import TYPE_CHECKING

from api.core.models import Filters, Hit
from api.core.search_result import SearchResult
from api.settings import Settings

if TYPE_CHECKING:
    from api.services.container import Services

OVERRIDES = ("top_k", "recency_weight", "profile", "mode")  # SearchRequest fields set by options


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from api.services.container import Services

    services = Services.build(settings)
    try:
        return _search(args, services)
    finally:
        services.close()


def _search(args: argparse.Namespace, services: Services) -> int:
    from api.errors import InvalidRequest
    from api.services.search import SearchRequest

    if services.store.count()[0] == 0:
        print(
            f"error: the store in {services.settings.data_dir} has no tesis: load them with "
            "`vigencia ingest data/tesis.jsonl` (or start with `make run`)",
            file=sys.stderr,
        )
        return 1
    filters = Filters(tuple(args.materia or ()), anio_min=args.anio_min, anio_max=args.anio_max)
    overrides = {name: getattr(args, name) for name in OVERRIDES}  # same names as the options
    request = SearchRequest(args.question, filters, **overrides)
    try:
        result = services.search.search(request)
    except InvalidRequest as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    used = _dates_used(result, services)
    if args.json:
        print(json.dumps(_result_json(result, used), ensure_ascii=False, indent=1))
        return 0
    intent = result.intent
    print(
        f"intent: materia={intent.materia.materia} temporal={intent.temporal.kind} "
        f"route={intent.route} w={result.recency_weight:g} rules={intent.rules_applied}"
        + (f" date={intent.date_field}" if intent.date_field else "")
    )
    if result.abstain_reason is not None:
        print(f"sin respuesta: {result.abstain_reason}")
        return 0
    if result.hits and all(h.passage.generic for h in result.hits):
        _print_records(result, used)
    else:
        _print_tesis(result)
    for d in result.discarded:
        print(f"  descartada {d.hit.registro} ({d.hit.passage.anio}): {d.code} {d.reason}")
    if (confidence := result.confidence) is not None:
        said = " ".join(confidence.reasons) or f"ventaja de {confidence.lead:.2f}"
        print(f"confianza {'alta' if confidence.level == 'high' else 'baja'}: {said}")
    return 0


def _dates_used(result: SearchResult, services: Services) -> dict[int, date]:
    """Each hit's date the answer went by: the extra date a date-sorted question used
    (``intent.date_field``, read from the stored records), else its primary date."""
    field = result.intent.date_field
    records = services.store.get_tesis([h.registro for h in result.hits]) if field else {}
    used: dict[int, date] = {}
    for h in result.hits:
        record = records.get(h.registro)
        day = record.date_of(field) if record is not None else h.passage.fecha
        if day is not None:
            used[h.registro] = day
    return used


def _print_tesis(result: SearchResult) -> None:
    print(
        f"{'#':>3} {'w/o':>4} {'registro':>9} {'año':>4} {'época':<16} {'sim':>6} "
        f"{'rec':>5} {'ép':>5} {'final':>6}  {'vigencia':<10} rubro"
    )
    for h in result.hits:
        s, p = h.score, h.passage
        print(
            f"{h.rank:>3} {h.rank_without_recency:>4} {p.registro:>9} {p.anio:>4} "
            f"{p.epoca:<16} {s.similarity:6.3f} {s.recency_factor:5.2f} {s.epoca_factor:5.2f} "
            f"{s.final_score:6.3f}  {h.status.estado:<10} {p.rubro[:60]}"
        )
        if h.warning:
            print(f"{'':>9}{h.warning}")


def _print_records(result: SearchResult, used: dict[int, date]) -> None:
    """A generic corpus's records: no época, validity or rubro; the date each was read by
    (the one a date-sorted question used, named in the header)."""
    label = result.intent.date_field or "date"
    print(f"{'#':>3} {'w/o':>4} {'id':>9} {label:<10} {'sim':>6} {'rec':>5} {'final':>6}  title")
    for h in result.hits:
        s, p = h.score, h.passage
        day = used.get(p.registro)
        shown = day.isoformat() if day else str(p.anio)
        print(
            f"{h.rank:>3} {h.rank_without_recency:>4} {p.registro:>9} {shown:<10} "
            f"{s.similarity:6.3f} {s.recency_factor:5.2f} {s.final_score:6.3f}  {p.rubro[:60]}"
        )


def _result_json(result: SearchResult, used: dict[int, date]) -> dict[str, object]:
    intent = result.intent
    return {
        "abstained": result.abstain_reason is not None,
        "abstain_reason": result.abstain_reason,
        "confidence": None if result.confidence is None else asdict(result.confidence),
        "intent": {
            "route": intent.route,
            "temporal": intent.temporal.kind,
            "materia": intent.materia.materia,
            "language": intent.language,
            "topic": list(intent.topic),
            "date_field": intent.date_field,
        },
        "hits": [_hit_json(h, used.get(h.registro)) for h in result.hits],
        "discarded": [
            {"registro": d.hit.registro, "code": d.code, "reason": d.reason}
            for d in result.discarded
        ],
    }


def _hit_json(hit: Hit, used: date | None) -> dict[str, object]:
    """One hit; a generic record has no época, tipo, materias or validity (null)."""
    p, s = hit.passage, hit.score
    legal = not p.generic
    return {
        "rank": hit.rank,
        "rank_without_recency": hit.rank_without_recency,
        "registro": p.registro,
        "rubro": p.rubro,
        "epoca": p.epoca if legal else None,
        "anio": p.anio,
        "date": used.isoformat() if used else None,
        "tipo": p.tipo if legal else None,
        "materias": list(p.materias),
        "similarity": s.similarity,
        "relevance": s.relevance,
        "recency_factor": s.recency_factor,
        "epoca_factor": s.epoca_factor,
        "final_score": s.final_score,
        "chunk": {
            "index": p.chunk.index,
            "start_line": p.chunk.start_line,
            "end_line": p.chunk.end_line,
        },
        "status": hit.status.estado if legal else None,
        "on_topic": hit.on_topic,
        "warning": hit.warning,
    }
