"""Court filters spelled as the store spells them: "segunda sala" asks for "Segunda Sala".

The stores match an instancia or organo exactly, so a filter in another case or without its
accents found nothing and read as an empty result. A name the store does not hold at all is
refused, naming what it holds ("Pleno" is an organo, not an instancia).
"""

from __future__ import annotations

from dataclasses import replace

from api.core.models import Filters
from api.core.text import fold
from api.errors import InvalidRequest
from api.store.base import GroupBy, VectorStore

SHOWN_NAMES = 6  # stored names an error lists


def stored_courts(store: VectorStore, filters: Filters) -> Filters:
    """``filters`` with its instancia and organo as the store spells them."""
    instancia = _stored(store, "instancia", filters.instancia)
    organo = _stored(store, "organo", filters.organo)
    if (instancia, organo) == (filters.instancia, filters.organo):
        return filters
    return replace(filters, instancia=instancia, organo=organo)


def _stored(store: VectorStore, field: GroupBy, value: str | None) -> str | None:
    if value is None:
        return None
    names = [n for n in store.count_by(field, Filters()) if n.strip()]  # a generic corpus: none
    if value in names:
        return value
    wanted = _key(value)
    match = next((n for n in names if _key(n) == wanted), None)
    if match is not None:
        return match
    if not names:  # an empty store: nothing to match, nothing found
        return value
    other: GroupBy = "organo" if field == "instancia" else "instancia"
    if any(n.strip() and _key(n) == wanted for n in store.count_by(other, Filters())):
        raise InvalidRequest(field, f"{value!r} is an {other}, not an {field}: filter by {other}")
    shown = ", ".join(sorted(names)[:SHOWN_NAMES]) + (", …" if len(names) > SHOWN_NAMES else "")
    raise InvalidRequest(field, f"{value[:80]!r} is no {field} of this corpus: {shown}")


def _key(name: str) -> str:
    return " ".join(fold(name).replace(".", " ").split())
