"""The embedded store's search columns saved beside its SQLite file, opened memory-mapped.

Building the vector matrix and the BM25 postings from SQLite reads every row (162 s at 1M
chunks); these files hold the built arrays, so opening a store maps them instead (seconds, and
the pages are shared by every process that maps them). SQLite stays the source of truth: the
files carry the store's *state* (its write generation, chunk count and largest chunk id) and are
used only while that state is the store's; a stale directory is rebuilt and replaced whole.

Layout: ``<store>.index/`` with one ``.npy`` per array, ``meta.json`` (state, the instancia
codes, the vocabulary, FTS5's token totals) and, when the store has an ANN index,
``ann.faiss``. Written into a sibling directory, then renamed into place.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from api.store.embedded_ann import AnnIndex
from api.store.embedded_index import VectorIndex
from api.store.embedded_lexical import LexicalIndex

FORMAT = 3  # 2: BM25 saturations as codes into a table of their distinct values; 3: organo
_VECTOR_ARRAYS = (
    "rowids",
    "vectors",
    "registro",
    "anio",
    "epoca",
    "tipo",
    "materias",
    "instancia",
    "organo",
)
_LEXICAL_ARRAYS = ("starts", "docs", "saturation_codes", "saturation_values")

State = tuple[int, int, int]  # (write generation, chunks, largest chunk id)


def index_dir(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".index")


def save(
    directory: Path,
    state: State,
    index: VectorIndex,
    lexical: LexicalIndex | None,
    ann: AnnIndex | None,
) -> None:
    """Write the arrays for ``state``; replaces an older directory atomically."""
    staging = directory.with_name(f"{directory.name}.{uuid.uuid4().hex[:8]}.tmp")
    staging.mkdir(parents=True)
    try:
        for name in _VECTOR_ARRAYS:
            np.save(staging / f"{name}.npy", getattr(index, name))
        meta: dict[str, Any] = {
            "format": FORMAT,
            "state": list(state),
            "instancia_codes": index.instancia_codes,
            "organo_codes": index.organo_codes,
            "lexical": None,
            "ann": ann is not None,
        }
        if lexical is not None:
            np.save(staging / "lexical_rowids.npy", lexical.rowids)
            for name in _LEXICAL_ARRAYS:
                np.save(staging / f"lexical_{name}.npy", getattr(lexical, name))
            terms = sorted(lexical.vocab, key=lexical.vocab.__getitem__)
            meta["lexical"] = {"terms": terms, "column_tokens": list(lexical.column_tokens)}
        if ann is not None:
            ann.save(staging / "ann.faiss")
        (staging / "meta.json").write_text(json.dumps(meta, ensure_ascii=False))
        old = directory.with_name(f"{directory.name}.{uuid.uuid4().hex[:8]}.old")
        if directory.exists():
            os.replace(directory, old)
        os.replace(staging, directory)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def load(
    directory: Path, state: State
) -> tuple[VectorIndex, LexicalIndex | None, AnnIndex | None] | None:
    """The saved columns, memory-mapped, if they were saved for ``state``; else None."""
    try:
        meta = json.loads((directory / "meta.json").read_text())
        if meta.get("format") != FORMAT or tuple(meta["state"]) != state:
            return None

        def array(name: str) -> Any:
            # a plain ndarray view of the map: np.memmap's Python-level slicing costs ~0.1 ms
            # a call, and a BM25 query slices two arrays per term
            return np.load(directory / f"{name}.npy", mmap_mode="r").view(np.ndarray)

        index = VectorIndex(
            **{name: array(name) for name in _VECTOR_ARRAYS},
            instancia_codes=dict(meta["instancia_codes"]),
            organo_codes=dict(meta["organo_codes"]),
        )
        lexical = None
        if meta["lexical"] is not None:
            lexical = LexicalIndex(
                rowids=array("lexical_rowids"),
                vocab={t: i for i, t in enumerate(meta["lexical"]["terms"])},
                **{name: array(f"lexical_{name}") for name in _LEXICAL_ARRAYS},
                column_tokens=tuple(meta["lexical"]["column_tokens"]),
            )
        ann = AnnIndex.load(directory / "ann.faiss") if meta.get("ann") else None
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing, partial or foreign: rebuilt from SQLite
    prefetch(sorted(directory.glob("*.npy")))
    return index, lexical, ann


def prefetch(paths: list[Path]) -> threading.Thread | None:
    """Ask the kernel to read the mapped files into its page cache, in a background thread.

    A map is read on first touch: after a restart (or once the OS has dropped the pages) the
    first questions at 1M chunks read vectors and postings from disk, one page fault at a time
    (an exact scan of a cold 10% filter took 325 ms here). Read-ahead fills the cache at disk
    speed instead while the store already serves; it adds nothing to resident memory until a
    search touches the pages."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None or not paths:  # not on this platform: pages are read on demand
        return None

    def read_ahead() -> None:
        for path in paths:
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue  # replaced by a rebuild meanwhile: the new files are read on demand
            try:
                advise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
            except OSError:
                pass
            finally:
                os.close(fd)

    thread = threading.Thread(target=read_ahead, name="vigencia-prefetch", daemon=True)
    thread.start()
    return thread
