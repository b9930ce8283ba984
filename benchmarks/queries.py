"""The questions every section uses: the labelled evaluation set (real user phrasing)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from api.settings import PROJECT_ROOT

EVAL_QUERIES = PROJECT_ROOT / "data" / "eval" / "queries.jsonl"


def questions(path: Path = EVAL_QUERIES) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["query"] for line in lines if line.strip()]


def query_vectors(n: int, dim: int = 384, seed: int = 7) -> npt.NDArray[np.float32]:
    """Precomputed unit query vectors for the synthetic corpora (no embedder in the loop)."""
    rows = np.random.default_rng(seed).standard_normal((n, dim), dtype=np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows
