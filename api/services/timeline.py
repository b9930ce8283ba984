"""Tesis on a time axis and counts by property, straight from the store."""

from __future__ import annotations

from dataclasses import dataclass

from api.core.models import VIGENTE, Filters, Tesis, Validity
from api.errors import InvalidRequest
from api.services.court_filters import stored_courts
from api.services.search.request import canonical_filters, check_filters
from api.store.base import GroupBy, ListQuery, SortOrder, VectorStore

MAX_LIMIT = 200
MAX_OFFSET = 100_000


@dataclass(frozen=True, slots=True)
class TimelinePage:
    items: list[tuple[Tesis, Validity]]
    total: int
    order: SortOrder = "ASC"
    date_field: str | None = None


def timeline(
    store: VectorStore,
    filters: Filters,
    order: SortOrder,
    limit: int,
    offset: int,
    date_field: str | None = None,
) -> TimelinePage:
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest("limit", f"{limit} is outside 1..{MAX_LIMIT}")
    if not 0 <= offset <= MAX_OFFSET:
        raise InvalidRequest("offset", f"{offset} is outside 0..{MAX_OFFSET}")
    if date_field is not None and date_field not in store.date_fields():
        raise InvalidRequest("dateField", f"{date_field[:80]!r} is not a stored extra date field")
    check_filters(filters)
    filters = stored_courts(store, canonical_filters(filters))
    tesis = store.list_tesis(ListQuery(filters, order, limit, offset, date_field))
    statuses = store.get_validity([t.registro for t in tesis])
    total = sum(store.count_by("tipo", filters).values())
    items = [(t, statuses.get(t.registro, VIGENTE)) for t in tesis]
    return TimelinePage(items, total, order, date_field)


def distribution(store: VectorStore, group_by: GroupBy, filters: Filters) -> list[tuple[str, int]]:
    """Counts sorted by key (years and épocas read in order)."""
    check_filters(filters)
    counts = store.count_by(group_by, stored_courts(store, canonical_filters(filters)))
    return sorted(counts.items(), key=lambda kv: (len(kv[0]), kv[0]) if group_by == "anio" else kv)
