"""In-memory columns for exact vector search: one matrix row per chunk plus filter columns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from api.core.circuits import circuit_of
from api.core.epocas import epoca_number
from api.core.models import Filters
from api.store.base import VectorQuery
from api.store.embedded_ann import EXACT_MAX_ROWS, AnnIndex

MATERIA_BITS: dict[str, int] = {
    name: 1 << i
    for i, name in enumerate(
        (
            "Administrativa",
            "Agraria",
            "Civil",
            "Común",
            "Constitucional",
            "Electoral",
            "Familiar",
            "Fiscal",
            "Laboral",
            "Mercantil",
            "Penal",
        )
    )
}
TIPO_CODES = {"Jurisprudencia": 1, "Aislada": 2}


def materia_mask(materias: tuple[str, ...] | list[str]) -> int:
    mask = 0
    for name in materias:
        mask |= MATERIA_BITS.get(name, 0)
    return mask


SAMPLE = 16_384  # scores sampled to guess a cut-off before the exact selection
OVERSAMPLE = 4  # expected survivors of the guessed cut-off, per wanted row


def top_positions(
    scores: npt.NDArray[np.floating], limit: int, positive: bool = False
) -> npt.NDArray[np.int64]:
    """Positions of the ``limit`` highest scores, best first, ties by position. Exact.

    A cut-off guessed from a strided sample keeps ~``OVERSAMPLE x limit`` rows, so the
    selection sorts hundreds of values instead of partitioning all of them; if fewer than
    ``limit`` pass it, every row is considered. ``positive`` drops scores <= 0.
    """
    n = len(scores)
    candidates: npt.NDArray[np.int64] | None = None
    if n > SAMPLE and limit * OVERSAMPLE < n:
        sample = scores[:: n // SAMPLE]
        above = max(1, len(sample) * OVERSAMPLE * limit // n)
        cut = np.partition(sample, len(sample) - above)[len(sample) - above]
        passed = scores >= cut if not positive or cut > 0 else scores > 0
        found = np.flatnonzero(passed)
        if len(found) >= limit:
            candidates = found
    if candidates is None:
        candidates = np.flatnonzero(scores > 0) if positive else np.arange(n)
    values = scores[candidates]
    if limit < len(values):  # keep every row tied with the limit-th, then sort and cut
        kth = np.partition(values, len(values) - limit)[len(values) - limit]
        kept = values >= kth
        candidates, values = candidates[kept], values[kept]
    return candidates[np.lexsort((candidates, -values))[:limit]].astype(np.int64, copy=False)


@dataclass(slots=True)
class VectorIndex:
    """Columns aligned by position; ``rowids`` are the SQLite chunk rowids."""

    rowids: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]
    registro: npt.NDArray[np.int64]
    anio: npt.NDArray[np.int16]
    epoca: npt.NDArray[np.int8]
    tipo: npt.NDArray[np.int8]
    materias: npt.NDArray[np.int32]
    instancia: npt.NDArray[np.int32]
    instancia_codes: dict[str, int]
    organo: npt.NDArray[np.int32]
    organo_codes: dict[str, int]
    ann: AnnIndex | None = None  # approximate shortlist, re-scored exactly (large stores)
    shortlist: int = 3000  # rows the ANN shortlist re-scores exactly

    @classmethod
    def empty(cls, dim: int) -> VectorIndex:
        return cls.build([], np.zeros((0, dim), np.float32), [], [], [], [], [], [], [])

    @classmethod
    def build(
        cls,
        rowids: list[int],
        vectors: npt.NDArray[np.float32],
        registro: list[int],
        anio: list[int],
        epocas: list[str],
        tipos: list[str],
        materias: list[int],
        instancias: list[str],
        organos: list[str],
    ) -> VectorIndex:
        codes: dict[str, int] = {}
        organo_codes: dict[str, int] = {}
        numbers = {e: epoca_number(e) for e in set(epocas)}  # distinct names: parsed once
        return cls(
            rowids=np.asarray(rowids, dtype=np.int64),
            vectors=np.ascontiguousarray(vectors, dtype=np.float32),
            registro=np.asarray(registro, dtype=np.int64),
            anio=np.asarray(anio, dtype=np.int16),
            epoca=np.asarray([numbers[e] for e in epocas], dtype=np.int8),
            tipo=np.asarray([TIPO_CODES.get(t, 0) for t in tipos], dtype=np.int8),
            materias=np.asarray(materias, dtype=np.int32),
            instancia=np.asarray([codes.setdefault(i, len(codes)) for i in instancias], np.int32),
            instancia_codes=codes,
            organo=np.asarray(
                [organo_codes.setdefault(o, len(organo_codes)) for o in organos], np.int32
            ),
            organo_codes=organo_codes,
        )

    def __len__(self) -> int:
        return len(self.rowids)

    def _circuit_codes(self, circuit: int) -> list[int]:
        """The codes of the organos of ``circuit``'s collegiate courts."""
        return [code for name, code in self.organo_codes.items() if circuit_of(name) == circuit]

    def mask(self, filters: Filters) -> npt.NDArray[np.bool_] | None:
        """Boolean row mask for ``filters``; None when nothing is filtered."""
        mask: npt.NDArray[np.bool_] | None = None

        def narrow(condition: npt.NDArray[np.bool_]) -> None:
            nonlocal mask
            mask = condition if mask is None else mask & condition

        if filters.anio_min is not None:
            narrow(self.anio >= filters.anio_min)
        if filters.anio_max is not None:
            narrow(self.anio <= filters.anio_max)
        if filters.materias:
            narrow((self.materias & materia_mask(filters.materias)) != 0)
        if filters.tipo is not None:
            narrow(self.tipo == TIPO_CODES.get(filters.tipo, -1))
        if filters.epocas:
            narrow(np.isin(self.epoca, [epoca_number(e) for e in filters.epocas]))
        if filters.instancia is not None:
            narrow(self.instancia == self.instancia_codes.get(filters.instancia, -1))
        if filters.organo is not None:
            narrow(self.organo == self.organo_codes.get(filters.organo, -1))
        if filters.circuito is not None:
            narrow(np.isin(self.organo, self._circuit_codes(filters.circuito)))
        if filters.registros:
            narrow(np.isin(self.registro, np.asarray(filters.registros, dtype=np.int64)))
        return mask

    def search(self, request: VectorQuery) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """(rowids, cosines) best first. Exact (every filtered row scored) unless the store
        has an ANN index and the question wants a top-k: then the ANN shortlist re-scored."""
        if len(self) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        mask = self.mask(request.filters)
        query = request.vector.astype(np.float32, copy=False)
        limit, min_similarity = request.limit, request.min_similarity
        if self.ann is not None and limit is not None and min_similarity is None:
            found = self._approximate(query, mask, limit)
            if found is not None:
                return found
        positions = np.flatnonzero(mask) if mask is not None else None
        if positions is None:
            scores = self.vectors @ query
        elif len(positions) * 3 > len(self):
            scores = (self.vectors @ query)[positions]  # cheaper than copying most rows
        else:
            scores = self.vectors[positions] @ query
        if min_similarity is not None:
            keep = np.flatnonzero(scores >= min_similarity)
            scores = scores[keep]
            positions = keep if positions is None else positions[keep]
        if limit is not None and limit < len(scores):
            order = top_positions(scores, limit)
        else:
            order = np.argsort(-scores, kind="stable")
        chosen = order if positions is None else positions[order]
        return self.rowids[chosen], scores[order]

    def _approximate(
        self, query: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_] | None, limit: int
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]] | None:
        """The ANN shortlist (widened by the filters' share), re-scored exactly; None when
        the exact scan is the better choice (a narrow filter, or a limit near the shortlist)."""
        assert self.ann is not None
        kept = len(self) if mask is None else int(np.count_nonzero(mask))
        if kept < EXACT_MAX_ROWS or limit * 4 > self.shortlist or self.ann.rows != len(self):
            return None
        share = kept / len(self)
        positions = self.ann.candidates(query, int(self.shortlist / share))
        if mask is not None:
            positions = positions[mask[positions]]
        scores = np.asarray(self.vectors[positions] @ query, dtype=np.float32)
        if limit < len(scores):
            order = top_positions(scores, limit)
        else:
            order = np.argsort(-scores, kind="stable")
        return self.rowids[positions[order]], scores[order]
