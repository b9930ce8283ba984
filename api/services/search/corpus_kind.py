"""Whether a store holds tesis, or only a generic corpus's records (no época)."""

from __future__ import annotations

import time
from threading import Lock

from api.core.epocas import EPOCA_NAMES
from api.core.models import Filters
from api.store.base import ListQuery, VectorStore

RECHECK_S = 30.0  # how stale the view of the store's size may get (as the abstention floor's)


class CorpusKind:
    """``holds_tesis``, read once per store size: a search asks it on every question, and
    on a large generic store the query scans every record. A question worded like law over a
    news archive has no legal materia; a news archive's "nota" is a document noun."""

    def __init__(self, store: VectorStore) -> None:
        self.store = store
        self._known: tuple[float, tuple[int, int], bool] | None = None  # checked, size, value
        self._lock = Lock()
        self._checking = False  # a search is reading the store's kind now

    def forget(self) -> None:
        """Read the store's kind again at the next search (after this process wrote to it;
        another process's writes are seen within ``RECHECK_S``)."""
        with self._lock:
            self._known = None

    def holds_tesis(self) -> bool:
        now = time.monotonic()
        with self._lock:
            known = self._known
            if known is not None and (now - known[0] < RECHECK_S or self._checking):
                return known[2]  # fresh, or another search is rechecking (single flight)
            self._checking = True
        try:
            size = self.store.count()
            if known is not None and known[1] == size:
                value = known[2]
            else:
                tesis = ListQuery(Filters(epocas=EPOCA_NAMES), "ASC", 1)
                value = bool(self.store.list_tesis(tesis))
            with self._lock:
                self._known = (now, size, value)
            return value
        finally:
            with self._lock:
                self._checking = False
