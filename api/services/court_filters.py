"""Court filters spelled as the store spells them: "segunda sala" asks for "Segunda Sala".

The stores match an instancia or organo exactly, so a filter in another case or without its
accents found nothing and read as an empty result. A name the store does not hold at all is
refused, naming what it holds ("Pleno" is an organo, not an instancia), and so is any court
over a corpus of records that name none (a generic one's).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from threading import Lock
from weakref import WeakKeyDictionary

from api.core.models import Filters
from api.core.text import fold
from api.errors import InvalidRequest
from api.store.base import GroupBy, VectorStore

SHOWN_NAMES = 6  # stored names an error lists


@dataclass(frozen=True, slots=True)
class CourtNames:
    """The names one field takes in a store, and the first of them under each ``_key``."""

    names: tuple[str, ...]
    by_key: dict[str, str]

    @classmethod
    def of(cls, names: tuple[str, ...]) -> CourtNames:
        by_key: dict[str, str] = {}
        for name in names:
            by_key.setdefault(_key(name), name)
        return cls(names, by_key)


# store -> (its generation, the names of each field asked): a GROUP BY over the whole store
# on every filtered request otherwise; read again after any write (``generation``)
_NAMES: WeakKeyDictionary[VectorStore, tuple[int, dict[GroupBy, CourtNames]]]
_NAMES = WeakKeyDictionary()
_NAMES_LOCK = Lock()


def stored_courts(store: VectorStore, filters: Filters) -> Filters:
    """``filters`` with its instancia and organo as the store spells them."""
    instancia = _stored(store, "instancia", filters.instancia)
    organo = _stored(store, "organo", filters.organo)
    if (instancia, organo) == (filters.instancia, filters.organo):
        return filters
    return replace(filters, instancia=instancia, organo=organo)


def court_names(store: VectorStore, group: GroupBy) -> CourtNames:
    """The names ``group`` takes in ``store`` (none in a generic corpus), read once per write
    generation of the store."""
    generation = store.generation()  # before the names: a write between them reads again
    with _NAMES_LOCK:
        known = _NAMES.get(store)
        if known is None or known[0] != generation:
            known = (generation, {})
            _NAMES[store] = known
        names = known[1].get(group)
    if names is None:
        names = CourtNames.of(tuple(n for n in store.count_by(group, Filters()) if n.strip()))
        with _NAMES_LOCK:
            known[1][group] = names
    return names


def _stored(store: VectorStore, field: GroupBy, value: str | None) -> str | None:
    if value is None:
        return None
    stored = court_names(store, field)
    names = stored.names
    if value in names:
        return value
    wanted = _key(value)
    if wanted in stored.by_key:  # in another case or without its accents
        return stored.by_key[wanted]
    if not names and store.count()[0] == 0:  # an empty store: nothing to match, nothing found
        return value
    if not names:
        raise InvalidRequest(field, f"no record of this corpus has an {field}: none to filter by")
    other: GroupBy = "organo" if field == "instancia" else "instancia"
    if wanted in court_names(store, other).by_key:
        raise InvalidRequest(field, f"{value!r} is an {other}, not an {field}: filter by {other}")
    shown = ", ".join(sorted(names)[:SHOWN_NAMES]) + (", …" if len(names) > SHOWN_NAMES else "")
    raise InvalidRequest(field, f"{value[:80]!r} is no {field} of this corpus: {shown}")


def _key(name: str) -> str:
    return " ".join(fold(name).replace(".", " ").split())
