"""Synthetic corpora of N chunks in an EmbeddedStore, built once under var/bench/ and reused.

Vectors are random unit float32 rows (dim 384). Metadata is realistic: years 1917-2026 skewed
old, the época in force on the publication date, tipo, instancia, 1-2 materias. Chunk texts are
word windows cut from the bundled corpus, so FTS5 indexes real Spanish legal vocabulary with
realistic term frequencies, and no two chunks are copies.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt

from api.core.chunking import chunk_tesis
from api.core.epocas import epoca_for_date
from api.core.models import Chunk, Tesis
from api.ingest.loaders import read_records
from api.ingest.records import Parsed, parse_record
from api.settings import PROJECT_ROOT
from api.store.base import TesisEntry
from api.store.embedded import EmbeddedStore

GENERATOR_VERSION = 1  # bump when the generated data changes; stale stores are rebuilt
BENCH_DIR = PROJECT_ROOT / "var" / "bench"
CORPUS = PROJECT_ROOT / "data" / "tesis.jsonl"
DIM = 384
SEED = 20260
BATCH_TESIS = 2000
FIRST_REGISTRO = 10_000_000
MATERIAS = (
    "Administrativa",
    "Común",
    "Civil",
    "Laboral",
    "Penal",
    "Constitucional",
    "Fiscal",
    "Agraria",
    "Familiar",
    "Mercantil",
    "Electoral",
)
MATERIA_WEIGHTS = np.array([0.26, 0.24, 0.17, 0.15, 0.10, 0.03, 0.02, 0.01, 0.01, 0.005, 0.005])
SCJN = "Suprema Corte de Justicia de la Nación"
TCC = "Tribunales Colegiados de Circuito"
PLENOS = "Plenos Regionales"
SALAS = ("Pleno", "Primera Sala", "Segunda Sala", "Tercera Sala", "Cuarta Sala")
LAST_DAY = date(2026, 6, 30)


def bundled_tesis(corpus: Path = CORPUS) -> list[Tesis]:
    """The valid records of the bundled corpus, in file order."""
    tesis: list[Tesis] = []
    for item in read_records(corpus):
        if isinstance(item, tuple):
            parsed = parse_record(item[1], corpus.name, item[0], LAST_DAY)
            if isinstance(parsed, Parsed):
                tesis.append(parsed.tesis)
    return tesis


@dataclass(frozen=True, slots=True)
class Sample:
    """What the generator draws from: the bundled corpus' words and shapes."""

    words: list[str]  # every chunk's words, concatenated
    chunk_words: npt.NDArray[np.int64]  # words per bundled chunk
    chunks_per_tesis: npt.NDArray[np.int64]
    rubros: list[str]
    organos: list[str]

    @classmethod
    def bundled(cls, corpus: Path = CORPUS) -> Sample:
        tesis = bundled_tesis(corpus)
        chunks = [chunk_tesis(t) for t in tesis]
        bodies = [c.text.split() for cs in chunks for c in cs]
        return cls(
            words=[w for body in bodies for w in body],
            chunk_words=np.array([len(b) for b in bodies]),
            chunks_per_tesis=np.array([len(cs) for cs in chunks]),
            rubros=[t.rubro for t in tesis],
            organos=sorted({t.organo for t in tesis if t.instancia == TCC}),
        )


def unit_vectors(rng: np.random.Generator, n: int) -> npt.NDArray[np.float32]:
    rows = rng.standard_normal((n, DIM), dtype=np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


def publication_date(rng: np.random.Generator) -> date:
    """Skewed old: most of the Semanario is Quinta and Sexta Época."""
    span = (LAST_DAY - date(1917, 6, 1)).days
    return date(1917, 6, 1) + timedelta(days=int(span * rng.beta(1.2, 1.8)))


def _instancia(rng: np.random.Generator, year: int, sample: Sample) -> tuple[str, str]:
    roll = rng.random()
    if year >= 2021 and roll < 0.05:
        return PLENOS, "PLENO REGIONAL EN MATERIA ADMINISTRATIVA DE LA REGIÓN CENTRO-NORTE."
    if year >= 1951 and roll < 0.8:
        return TCC, sample.organos[int(rng.integers(len(sample.organos)))]
    return SCJN, SALAS[int(rng.integers(len(SALAS)))]


def _tesis(rng: np.random.Generator, i: int, sample: Sample) -> tuple[Tesis, list[Chunk]]:
    fecha = publication_date(rng)
    epoca = epoca_for_date(fecha)
    assert epoca is not None  # 1917-06-01 onward is always covered
    instancia, organo = _instancia(rng, fecha.year, sample)
    n_materias = 1 if rng.random() < 0.7 else 2
    materias = rng.choice(len(MATERIAS), n_materias, replace=False, p=MATERIA_WEIGHTS)
    rubro = sample.rubros[int(rng.integers(len(sample.rubros)))]
    n_chunks = int(sample.chunks_per_tesis[rng.integers(len(sample.chunks_per_tesis))])
    registro = FIRST_REGISTRO + i
    chunks: list[Chunk] = []
    full = ""  # rubro, blank line, then the chunk bodies joined by spaces
    for index in range(n_chunks):
        length = int(sample.chunk_words[rng.integers(len(sample.chunk_words))])
        start = int(rng.integers(len(sample.words) - length))
        text = " ".join(sample.words[start : start + length])
        if index == 0:
            text = f"{rubro}\n\n{text}"
        else:
            full += " "
        begin = len(full)
        full += text
        line = 1 if index == 0 else 3
        chunks.append(Chunk(registro, index, text, begin, len(full), line, 3, length))
    tesis = Tesis(
        registro=registro,
        rubro=rubro,
        texto=full[len(rubro) + 2 :],
        epoca=epoca,
        anio=fecha.year,
        tipo="Jurisprudencia" if rng.random() < 0.12 else "Aislada",
        materias=tuple(MATERIAS[m] for m in materias),
        instancia=instancia,
        organo=organo,
        clave=f"SYN/{registro}",
        fecha=fecha,
    )
    return tesis, chunks


def entries(n_chunks: int, sample: Sample, seed: int = SEED) -> Iterator[list[TesisEntry]]:
    """Batches of synthetic tesis totalling exactly ``n_chunks`` chunks (deterministic)."""
    rng = np.random.default_rng([seed, n_chunks])
    made, i = 0, 0
    while made < n_chunks:
        batch: list[tuple[Tesis, list[Chunk]]] = []
        while made < n_chunks and len(batch) < BATCH_TESIS:
            tesis, chunks = _tesis(rng, i, sample)
            chunks = chunks[: n_chunks - made]
            batch.append((tesis, chunks))
            made += len(chunks)
            i += 1
        vectors = unit_vectors(rng, sum(len(c) for _, c in batch))
        out, offset = [], 0
        for tesis, chunks in batch:
            rows = vectors[offset : offset + len(chunks)]
            offset += len(chunks)
            out.append(TesisEntry(tesis, chunks, rows, f"synthetic-{GENERATOR_VERSION}"))
        yield out


@dataclass(frozen=True, slots=True)
class BuiltStore:
    path: Path
    chunks: int
    tesis: int
    build_s: float  # when it was built (a reused store reports its original build time)
    reused: bool
    file_bytes: int


def store_path(n_chunks: int, directory: Path = BENCH_DIR) -> Path:
    return directory / f"synthetic-{n_chunks}.sqlite"


def ensure_store(n_chunks: int, directory: Path = BENCH_DIR, log: bool = True) -> BuiltStore:
    """The store for ``n_chunks``: reused when its metadata matches, else built (atomically)."""
    path = store_path(n_chunks, directory)
    meta_path = path.with_suffix(".json")
    if path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if meta.get("version") == GENERATOR_VERSION and meta.get("chunks") == n_chunks:
            return BuiltStore(
                path, n_chunks, meta["tesis"], meta["build_s"], True, path.stat().st_size
            )
    partial = path.with_suffix(".building")
    for stale in directory.glob(f"{partial.name}*"):
        stale.unlink()
    sample = Sample.bundled()
    started = time.perf_counter()
    store = EmbeddedStore(partial, dim=DIM)
    tesis = chunks = 0
    for batch in entries(n_chunks, sample):
        result = store.upsert(batch)
        tesis += result.written
        chunks += result.chunks
        if log and tesis % (BATCH_TESIS * 25) < BATCH_TESIS:
            elapsed = time.perf_counter() - started
            print(f"  synthetic-{n_chunks}: {chunks:,} chunks in {elapsed:.0f} s", flush=True)
    store.close()
    build_s = time.perf_counter() - started
    partial.replace(path)
    meta = {"version": GENERATOR_VERSION, "chunks": chunks, "tesis": tesis, "build_s": build_s}
    meta_path.write_text(json.dumps(meta))
    return BuiltStore(path, chunks, tesis, build_s, False, path.stat().st_size)


@dataclass(frozen=True, slots=True)
class Columns:
    """A store's chunks as plain arrays, in rowid order (what the peer is given)."""

    ids: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]
    years: npt.NDArray[np.int64]
    texts: list[str]


def read_columns(path: Path) -> Columns:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (n,) = db.execute("SELECT COUNT(*) FROM chunk").fetchone()
        ids = np.empty(n, np.int64)
        years = np.empty(n, np.int64)
        vectors = np.empty((n, DIM), np.float32)
        texts: list[str] = []
        rows = db.execute(
            "SELECT c.id, c.vector, t.anio, c.text FROM chunk c "
            "JOIN tesis t ON t.registro = c.registro ORDER BY c.id"
        )
        for i, (rowid, blob, year, text) in enumerate(rows):
            ids[i], years[i] = rowid, year
            vectors[i] = np.frombuffer(blob, np.float32)
            texts.append(text)
    finally:
        db.close()
    return Columns(ids, vectors, years, texts)
