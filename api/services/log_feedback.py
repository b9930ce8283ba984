"""Feedback on logged searches: store a user's verdict, export verdicts as labelled queries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from api.core.monitoring import Feedback, LogEntry
from api.errors import InvalidRequest, UnknownEntry
from api.monitoring.log_base import SearchLog
from api.services.monitoring import require_log

MAX_COMMENT_CHARS = 2000
MAX_LOG_ID_CHARS = 64
# Export grades: a search result marked useful is relevant (2); one an answer also cited is
# the answer itself (3). Grade 1 is left to hand labelling ("related, not the answer").
USEFUL_GRADE = 2
CITED_USEFUL_GRADE = 3


def submit_feedback(
    log: SearchLog | None,
    log_id: str,
    registro: int,
    useful: bool,
    comment: str | None = None,
    now: datetime | None = None,
) -> Feedback:
    """Store a verdict on one registro of a logged search. The registro must be one the
    search showed, discarded or cited. Raises ``InvalidRequest`` or ``LogError``."""
    log = require_log(log)
    log_id = log_id.strip()
    if not log_id or len(log_id) > MAX_LOG_ID_CHARS:
        raise InvalidRequest("logId", f"must be 1..{MAX_LOG_ID_CHARS} characters")
    if registro <= 0:
        raise InvalidRequest("registro", f"{registro} is not a registro digital")
    text = comment.strip() if comment is not None else None
    if text is not None and len(text) > MAX_COMMENT_CHARS:
        raise InvalidRequest("comment", f"{len(text)} characters, at most {MAX_COMMENT_CHARS}")
    if text is not None and "\x00" in text:
        raise InvalidRequest("comment", "contains a NUL character")
    entry = log.get(log_id)
    if entry is None:
        raise InvalidRequest("logId", f"no logged search with id {log_id!r}")
    shown = {h.registro for h in entry.hits} | {d.registro for d in entry.discarded}
    if registro not in shown | set(entry.cited):
        raise InvalidRequest("registro", f"{registro} is not among the results of {log_id}")
    try:
        return log.add_feedback(
            Feedback(log_id, registro, useful, text or None, now or datetime.now(UTC))
        )
    except UnknownEntry as exc:  # pruned in between
        raise InvalidRequest("logId", str(exc)) from exc


def export_feedback(log: SearchLog) -> list[dict[str, Any]]:
    """Feedback as labelled queries for ``vigencia eval``: one line per question.

    ``{"query", "relevant": {registro: grade}, "current": [], "note"}``. Grades:
    ``USEFUL_GRADE`` (2) for a registro marked useful, ``CITED_USEFUL_GRADE`` (3) when an
    answer also cited it. Registros marked not useful are left out (grade 0). Searches of the
    same question (whitespace and case folded) are merged, the latest verdict per registro
    winning; questions without any useful registro are skipped. ``current`` is left empty:
    which criterion is in force is for a person to decide.
    """
    verdicts: dict[str, dict[int, tuple[datetime, int]]] = {}
    questions: dict[str, str] = {}
    searches: dict[str, set[str]] = {}
    entries: dict[str, LogEntry | None] = {}
    for item in log.feedback_for(None):
        if item.log_id not in entries:
            entries[item.log_id] = log.get(item.log_id)
        entry = entries[item.log_id]
        if entry is None:
            continue
        key = " ".join(entry.question.lower().split())
        questions.setdefault(key, entry.question)
        searches.setdefault(key, set()).add(entry.id)
        grade = 0
        if item.useful:
            grade = CITED_USEFUL_GRADE if item.registro in entry.cited else USEFUL_GRADE
        previous = verdicts.setdefault(key, {}).get(item.registro)
        if previous is None or previous[0] <= item.timestamp:
            verdicts[key][item.registro] = (item.timestamp, grade)
    lines = []
    for key, graded in verdicts.items():
        relevant = {str(r): g for r, (_, g) in sorted(graded.items()) if g > 0}
        if relevant:
            lines.append(
                {
                    "query": questions[key],
                    "relevant": relevant,
                    "current": [],
                    "note": f"from feedback on {len(searches[key])} logged searches",
                }
            )
    return lines
