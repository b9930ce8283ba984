"""What every ``SearchLog`` backend must do; a backend's test class subclasses ``LogContract``
and provides a ``log`` fixture (an empty log)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from api.core.monitoring import Feedback
from api.errors import UnknownEntry
from api.monitoring.log_base import SearchLog
from tests.monitoring.builders import NOW, log_entry, logged_hit


def fill(log: SearchLog, n: int = 3) -> list[str]:
    """``n`` entries an hour apart, the newest at NOW; returns their ids oldest first."""
    ids = []
    for i in reversed(range(n)):
        entry = log_entry(
            [logged_hit(100 + i, 2000 + i), logged_hit(200 + i, 1980, rank=2)],
            log_id=f"id-{i}",
            question=f"pregunta {i}",
            at=NOW - timedelta(hours=i),
        )
        ids.append(log.append(entry))
    return ids


class LogContract:
    def test_append_then_get_roundtrips(self, log: SearchLog) -> None:
        entry = log_entry([logged_hit(1, 2021)], log_id="abc", cited=[1], kind="chat")
        assert log.append(entry) == "abc"
        assert log.get("abc") == entry
        assert log.get("missing") is None

    def test_recent_is_newest_first_with_paging_and_since(self, log: SearchLog) -> None:
        fill(log, 4)
        assert [e.id for e in log.recent(10)] == ["id-0", "id-1", "id-2", "id-3"]
        assert [e.id for e in log.recent(2, 1)] == ["id-1", "id-2"]
        since = NOW - timedelta(hours=1)
        assert [e.id for e in log.recent(10, 0, since)] == ["id-0", "id-1"]

    @pytest.mark.parametrize(("limit", "offset"), [(0, 0), (1001, 0), (5, -1)])
    def test_recent_refuses_bad_pages(self, log: SearchLog, limit: int, offset: int) -> None:
        with pytest.raises(ValueError, match=r"limit|offset"):
            log.recent(limit, offset)

    def test_feedback_is_attached_and_the_latest_verdict_wins(self, log: SearchLog) -> None:
        fill(log, 2)
        first = log.add_feedback(Feedback("id-1", 101, True, "útil", NOW))
        assert first == Feedback("id-1", 101, True, "útil", NOW)
        log.add_feedback(Feedback("id-1", 101, False, None, NOW + timedelta(minutes=1)))
        log.add_feedback(Feedback("id-0", 100, True, None, NOW + timedelta(minutes=2)))
        entry = log.get("id-1")
        assert entry is not None
        assert entry.feedback == (Feedback("id-1", 101, False, None, NOW + timedelta(minutes=1)),)
        assert [(f.log_id, f.useful) for f in log.feedback_for(None)] == [
            ("id-1", False),
            ("id-0", True),
        ]
        assert [f.log_id for f in log.feedback_for(["id-0"])] == ["id-0"]
        assert log.feedback_for([]) == []
        assert [len(e.feedback) for e in log.recent(5)] == [1, 1]

    def test_feedback_on_an_unknown_entry_raises(self, log: SearchLog) -> None:
        with pytest.raises(UnknownEntry, match="nope"):
            log.add_feedback(Feedback("nope", 1, True, None, NOW))

    def test_prune_removes_old_entries_and_their_feedback(self, log: SearchLog) -> None:
        fill(log, 3)
        log.add_feedback(Feedback("id-2", 102, True, None, NOW))
        log.add_feedback(Feedback("id-0", 100, True, None, NOW))
        assert log.prune(NOW - timedelta(minutes=90)) == 1  # id-2, two hours old
        assert [e.id for e in log.recent(10)] == ["id-0", "id-1"]
        assert [f.log_id for f in log.feedback_for(None)] == ["id-0"]
        assert log.prune(NOW - timedelta(days=1)) == 0

    def test_health_is_ok(self, log: SearchLog) -> None:
        assert log.health()["status"] == "ok"
