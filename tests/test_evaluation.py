from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from api.core.evaluation import (
    Judgement,
    current_at_1,
    ndcg,
    recall,
    reciprocal_rank,
    share_before,
    vigencia,
)
from api.settings import Settings

J = Judgement("q", {1: 3, 2: 1, 3: 2}, current=(3,))
YEARS = {1: 1975, 2: 2019, 3: 2022, 4: 1980}


def test_ndcg_is_one_for_the_ideal_order_and_lower_otherwise() -> None:
    assert ndcg([1, 3, 2], J.relevant, 10) == pytest.approx(1.0)
    assert 0 < ndcg([4, 2, 3, 1], J.relevant, 10) < 1
    assert ndcg([4], J.relevant, 10) == 0.0


def test_rank_metrics() -> None:
    assert reciprocal_rank([4, 2, 1], J.relevant) == 0.5
    assert recall([1, 4], J.relevant, 2) == pytest.approx(1 / 3)
    assert current_at_1([3, 1], J) == 1.0 and current_at_1([1, 3], J) == 0.0
    assert current_at_1([1], Judgement("q", {1: 1})) is None
    assert share_before([1, 4, 3], YEARS, 1995, 5) == pytest.approx(2 / 3)


def test_vigencia_counts_in_force_among_relevant_hits() -> None:
    # 3 is current; 2 (2019) is older than it, 1 (1975) too: 1 of 3 relevant in force.
    assert vigencia([1, 2, 3, 4], J, YEARS, 10) == pytest.approx(1 / 3)
    assert vigencia([4], J, YEARS, 10) == 0.0
    assert vigencia([1], Judgement("q", {1: 1}), YEARS, 10) is None


def test_eval_command_on_the_shipped_set(
    tmp_path: Path, repo_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    queries = repo_root / "data" / "eval" / "queries.jsonl"
    settings = Settings(data_dir=tmp_path / "var")
    argv = ["eval", str(queries), "--json", "--weight", "0", "--weight", "0.5"]
    assert main(argv, settings) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r["config"]["name"]: r for r in report["rows"]}
    baselines = [r for r in report["rows"] if r["config"]["baseline"]]
    assert {r["config"]["name"] for r in baselines} == {
        "vector only (e5 cosine)", "BM25 only", "seed 000 on raw cosine"
    }  # fmt: skip
    for row in report["rows"]:
        assert row["queries"] == 32
        for metric in ("ndcg", "mrr", "recall", "vigencia", "current_at_1", "pre1995_at_5"):
            assert 0.0 <= row[metric] <= 1.0
    # Computed in this run, not copied: the baselines differ from each other and from ours.
    assert rows["vector only (e5 cosine)"]["ndcg"] != rows["BM25 only"]["ndcg"]
    assert (
        rows["seed 000 on raw cosine"]["current_at_1"] < rows["hybrid a=0.3 w=0.5"]["current_at_1"]
    )
    assert report["best"]["name"] in rows and not report["best"]["baseline"]


def test_eval_rejects_a_bad_query_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"query": "x"}\n', encoding="utf-8")
    assert main(["eval", str(bad)], Settings(data_dir=tmp_path)) == 2
    assert "q.jsonl:1" in capsys.readouterr().err
