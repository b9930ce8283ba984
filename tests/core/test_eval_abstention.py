"""Abstention scores of a set with no abstain question are not measured (a tester saw abstP
and abstR 100.0 for such a set)."""

from __future__ import annotations

from api.core.evaluation import abstention_scores
from api.services.evaluation import EvalConfig, EvalRow, Scores, format_table


def test_no_abstain_question_measures_nothing() -> None:
    assert abstention_scores([False, False], [False, False]) == (None, None)
    assert abstention_scores([True, False], [False, False]) == (0.0, None)  # abstained anyway
    assert abstention_scores([False, False], [True, False]) == (1.0, 0.0)
    assert abstention_scores([True, True], [True, False]) == (0.5, 1.0)


def test_the_table_says_n_a() -> None:
    scores = Scores(
        questions=2, ndcg=0.5, current_at_1=0.5, abstain_precision=None, abstain_recall=None
    )
    row = format_table([EvalRow(EvalConfig("configured"), "dev", scores)]).splitlines()[2]
    assert row.split()[3:6] == ["50.0", "n/a", "n/a"]
