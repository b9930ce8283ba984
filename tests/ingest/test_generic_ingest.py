"""Generic records beside tesis: no overwrite across kinds, CSV input, strict dates and texts."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from api.ingest.generic import GenericFields
from api.ingest.pipeline import ingest
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder
from tests.ingest.test_ingest import good, write_jsonl

TODAY = date(2026, 11, 22)


def repo(id: object, **overrides: object) -> dict[str, object]:
    record: dict[str, object] = {
        "id": id,
        "name": f"repo-{id}",
        "description": "A small web app.",
        "created_at": "2020-01-01T00:00:00Z",
    }
    return record | overrides


def test_a_generic_record_never_replaces_a_stored_tesis(tmp_path: Path) -> None:
    store = EmbeddedStore(None, dim=32)
    tesis = write_jsonl(tmp_path / "tesis.jsonl", [good(251883)])
    assert ingest([tesis], store, FakeEmbedder(), today=TODAY).stored == 1
    collide = write_jsonl(tmp_path / "collide.jsonl", [repo(251883), repo(7)])
    report = ingest([collide], store, FakeEmbedder(), today=TODAY, generic=GenericFields())
    assert report.stored == 1
    [rejection] = report.rejected
    assert (rejection.source, rejection.line, rejection.registro) == ("collide.jsonl", 1, "251883")
    assert "already stored as a tesis" in rejection.reason
    assert store.get_tesis([251883])[251883].rubro == "AMPARO 251883. IMPROCEDENCIA."
    # and the reverse: a tesis does not replace a stored generic record
    back = write_jsonl(tmp_path / "back.jsonl", [good(7)])
    report = ingest([back], store, FakeEmbedder(), today=TODAY)
    assert report.stored == 0
    assert "already stored as a generic record" in report.rejected[0].reason
    assert store.get_tesis([7])[7].rubro == "repo-7"


def test_a_generic_record_still_updates_itself(tmp_path: Path) -> None:
    store = EmbeddedStore(None, dim=32)
    first = write_jsonl(tmp_path / "a.jsonl", [repo(5)])
    second = write_jsonl(tmp_path / "b.jsonl", [repo(5, name="renamed")])
    ingest([first], store, FakeEmbedder(), today=TODAY, generic=GenericFields())
    report = ingest([second], store, FakeEmbedder(), today=TODAY, generic=GenericFields())
    assert (report.stored, report.rejected) == (1, [])
    assert store.get_tesis([5])[5].rubro == "renamed"
