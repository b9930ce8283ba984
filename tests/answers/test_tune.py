"""Issue 13, item 7: `vigencia tune` fits weight and alpha per materia, guarded by the test split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli.main import main
from api.core.tune import Fitted, Point, QuestionScore, fit, objective
from api.services import tune as tune_module
from api.services.container import Services
from api.services.tune import SplitScores, TuneResult, report, snippet, tune
from api.settings import Settings

D = Point(0.5, 0.3)
HIGH = Point(1.0, 0.3)
Q = QuestionScore


def test_objective_is_current_then_ndcg() -> None:
    assert objective([Q(1.0, 0.5), Q(0.0, None), Q(None, 0.7)]) == (0.5, 0.6)
    assert objective([Q(None, None)]) == (-1.0, -1.0)


def test_fit_moves_a_materia_only_when_its_dev_questions_improve() -> None:
    table = {
        D: [Q(0.0, 0.4), Q(0.0, 0.5), Q(1.0, 0.9), Q(1.0, 0.8), Q(1.0, 0.8), Q(1.0, 0.8)],
        HIGH: [Q(1.0, 0.4), Q(1.0, 0.5), Q(1.0, 0.9), Q(0.0, 0.8), Q(0.0, 0.8), Q(0.0, 0.8)],
    }
    groups = {"Laboral": [0, 1, 2], "Penal": [3, 4, 5], "Fiscal": [0]}
    fitted = fit(groups, table, D, min_questions=2)
    assert fitted["Laboral"].point == HIGH and fitted["Laboral"].changed
    assert fitted["Laboral"].dev_after[0] == 1.0
    assert fitted["Penal"].point == D and not fitted["Penal"].changed
    assert fitted["Fiscal"].point == D  # one question is not enough


def test_ties_keep_the_defaults() -> None:
    table = {D: [Q(1.0, 0.5)] * 3, HIGH: [Q(1.0, 0.5)] * 3}
    assert fit({"Civil": [0, 1, 2]}, table, D)["Civil"].point == D


def result(before: float, after: float) -> TuneResult:
    fitted = {"Laboral": Fitted("Laboral", 5, HIGH, (0.4, 0.5), (0.8, 0.6))}
    return TuneResult(
        5, 2, (D, HIGH), D, fitted, SplitScores(10, before, 0.5), SplitScores(10, after, 0.5), {}
    )


def test_a_fit_that_lowers_test_current_at_1_is_refused() -> None:
    assert result(0.8, 0.8).accepted and result(0.8, 0.9).accepted
    refused = result(0.8, 0.7)
    assert not refused.accepted
    assert "Refused" in report(refused, "vigencia tune")
    assert json.loads(snippet(refused).splitlines()[1].split("=", 1)[1].strip("'")) == {
        "Laboral": 1.0
    }


def test_cli_refuses_to_write_the_snippet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tune_module, "tune", lambda *a, **k: result(0.8, 0.6))
    out, doc = tmp_path / "tune.env", tmp_path / "TUNE.md"
    settings = Settings(data_dir=tmp_path / "var")
    status = main(
        ["tune", "data/eval/queries.jsonl", "-o", str(out), "--report", str(doc)], settings
    )
    assert status == 1 and not out.exists()
    assert "Refused" in doc.read_text(encoding="utf-8")


def test_tune_on_the_bundled_corpus_with_feedback(bundled: Services, tmp_path: Path) -> None:
    lines = [json.loads(x) for x in Path("data/eval/queries.jsonl").read_text().splitlines()]
    laboral = [x for x in lines if x.get("materia") == "Laboral" and "abstain" not in x["classes"]]
    small = tmp_path / "queries.jsonl"
    small.write_text("".join(json.dumps(x) + "\n" for x in laboral), encoding="utf-8")
    feedback = tmp_path / "feedback.jsonl"
    first = laboral[0]
    feedback.write_text(
        json.dumps(
            {
                "query": first["query"] + " trabajador despido",
                "relevant": first["relevant"],
                "current": [],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    got = tune(
        bundled.search, small, [feedback], weights=(0.0, 0.5, 1.0), alphas=(0.3,), min_questions=2
    )
    assert got.feedback_questions == 1
    assert got.dev_questions == sum(x["split"] == "dev" for x in laboral)
    assert got.test_before.questions == sum(x["split"] == "test" for x in laboral)
    assert "Laboral" in got.fitted
    fitted = got.fitted["Laboral"]
    assert fitted.dev_after >= fitted.dev_before
    assert fitted.point in got.grid
    assert got.accepted == (
        bool(got.weights)
        and (got.test_after.current_at_1 or 0) >= (got.test_before.current_at_1 or 0)
    )


def test_an_ndcg_gain_alone_moves_only_materias_without_a_criterion_in_force() -> None:
    table = {
        D: [Q(1.0, 0.4), Q(0.0, 0.4), Q(None, 0.2), Q(None, 0.3)],
        HIGH: [Q(1.0, 0.9), Q(0.0, 0.9), Q(None, 0.8), Q(None, 0.9)],
    }
    fitted = fit({"Civil": [0, 1], "Fiscal": [2, 3]}, table, D, min_questions=2)
    assert fitted["Civil"].point == D  # current@1 did not move
    assert fitted["Fiscal"].point == HIGH  # feedback only: nDCG decides


def test_tune_defaults_work_anywhere_and_write_under_the_data_dir(
    bundled: Services,
    bundled_settings: Settings,
    tmp_path: Path,
    repo_root: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[Path] = []

    def fake(service: object, queries: Path, *rest: object) -> TuneResult:
        asked.append(queries)
        return result(0.8, 0.9)

    monkeypatch.setattr(tune_module, "tune", fake)
    shipped_doc = (repo_root / "docs" / "TUNE.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # outside the repository
    assert main(["tune"], bundled_settings) == 0
    assert asked == [repo_root / "data" / "eval" / "queries.jsonl"]
    data_dir = bundled_settings.data_dir
    assert "Command: `vigencia tune data/eval/queries.jsonl`" in (data_dir / "TUNE.md").read_text()
    assert "VIGENCIA_MATERIA_RECENCY_WEIGHTS" in (data_dir / "tune.env").read_text()
    assert not (tmp_path / "var").exists() and not (tmp_path / "docs").exists()
    assert (repo_root / "docs" / "TUNE.md").read_text(encoding="utf-8") == shipped_doc
