"""The embedder protocol every backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
TextKind = Literal["query", "passage"]


class Embedder(Protocol):
    """Turns text into L2-normalized float32 vectors."""

    @property
    def model_id(self) -> str:
        """Identifies model and weights; part of every cache key."""
        ...

    @property
    def dim(self) -> int:
        """Vector length."""
        ...

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        """One row per text; ``kind`` selects the query or passage encoding (e5 prefixes)."""
        ...


def normalize_rows(vectors: npt.NDArray[np.floating]) -> Vectors:
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalized: Vectors = array / norms
    return normalized
