"""Generic records beside tesis: no overwrite across kinds, CSV input, strict dates and texts."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from api.ingest.generic import GenericFields, labels
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


def test_a_generic_csv_is_read_by_its_own_columns(tmp_path: Path) -> None:
    path = tmp_path / "repos.csv"
    path.write_text(
        "id,name,description,created_at,pushed_at\n"
        "1,alpha,First CSV repo,2020-01-01T00:00:00Z,2021-01-01T00:00:00Z\n"
        "2,beta,Second CSV repo,2021-01-01T00:00:00Z,2022-01-01T00:00:00Z\n",
        encoding="utf-8",
    )
    store = EmbeddedStore(None, dim=32)
    fields = GenericFields.of("id", "name", "description", ["created_at", "pushed_at:updated"])
    report = ingest([path], store, FakeEmbedder(), today=TODAY, generic=fields)
    assert (report.stored, report.rejected) == (2, [])
    beta = store.get_tesis([2])[2]
    assert (beta.rubro, beta.fecha, beta.dates) == (
        "beta",
        date(2021, 1, 1),
        (("pushed_at", date(2022, 1, 1)),),
    )


def test_a_generic_csv_without_its_id_column_says_which(tmp_path: Path) -> None:
    path = tmp_path / "repos.csv"
    path.write_text("key,name,created_at\n1,a,2020-01-01\n", encoding="utf-8")
    report = ingest([path], EmbeddedStore(None, dim=32), FakeEmbedder(), generic=GenericFields())
    assert [(r.field, r.reason) for r in report.rejected] == [
        ("header", "CSV without an 'id' column")
    ]


def test_dates_titles_and_ids_are_checked(tmp_path: Path) -> None:
    records = [
        repo(11, pushed_at="2021-01-01T00:00:00Z"),
        repo(12, pushed_at="yesterday"),  # bad secondary date: left out, with a warning
        repo(13),  # no secondary date: fine
        repo(14, created_at="2020-01-01garbage", pushed_at="2021-01-01"),
        repo(19, created_at="2999-01-01"),
        repo(20, name=["list"]),
        repo(21, pushed_at="2999-01-01"),
        repo(22, description=42),
        repo("elecciones-2024"),
        repo(True),
    ]
    path = write_jsonl(tmp_path / "dates.jsonl", records)
    store = EmbeddedStore(None, dim=32)
    fields = GenericFields.of("id", "name", "description", ["created_at", "pushed_at"])
    report = ingest([path], store, FakeEmbedder(), today=TODAY, generic=fields)
    rejected = {(r.line, r.field): r.reason for r in report.rejected}
    assert rejected == {
        (4, "created_at"): "not an ISO date: '2020-01-01garbage'",
        (5, "created_at"): "2999 is outside 1871..2027",
        (6, "name"): "expected text, got list: ['list']",
        (8, "description"): "expected text, got int: 42",
        (9, "id"): rejected[(9, "id")],
        (10, "id"): rejected[(10, "id")],
    }
    assert "generic ids must be whole numbers" in rejected[(9, "id")]
    assert [(w.line, w.field) for w in report.warnings] == [(2, "pushed_at"), (7, "pushed_at")]
    assert all(w.message.endswith("left out") for w in report.warnings)
    kept = store.get_tesis([11, 12, 13, 21])
    assert kept[11].dates == (("pushed_at", date(2021, 1, 1)),)
    assert kept[12].dates == kept[13].dates == kept[21].dates == ()


def test_short_labels_are_written_into_the_text_urls_slugs_and_prose_are_not() -> None:
    extra = (
        ("language", "Python"),
        ("owner", "Ana Ruiz"),
        ("url", "https://github.com/jakub/x"),
        ("slug", "final-de-liga"),
        ("description", "A long description that is the record's own text."),
        ("stars", 4),
        ("forks_count", "56"),  # a CSV's cells are all strings
        ("archived", "false"),
        ("node_id", "MDEwOlJlcG9zaXRvcnkxMjM0NTY="),
    )
    assert labels(extra, "description") == "Language: Python. Owner: Ana Ruiz."
