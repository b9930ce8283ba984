"""``vigencia search``: what a user sees on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import search as searching
from api.cli.main import main
from api.services.container import Services
from api.settings import Settings


def test_an_empty_store_says_how_to_load_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "amparo"], Settings(data_dir=tmp_path)) == 1
    err = capsys.readouterr().err
    assert str(tmp_path) in err and "vigencia ingest" in err and "Traceback" not in err


def test_an_abstention_is_said_not_an_empty_table(
    bundled: Services, bundled_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "receta de mole poblano con chocolate"], bundled_settings) == 0
    out = capsys.readouterr().out
    assert "sin respuesta: Nada en el corpus trata lo que pregunta" in out
    assert "registro" not in out  # no table header


def test_json_carries_the_abstention_the_intent_and_each_hit_s_flags(
    bundled: Services, bundled_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "¿Procede la suspensión contra una orden de aprehensión?"
    assert main(["search", question, "--top-k", "3", "--json"], bundled_settings) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["abstained"] is False and data["abstain_reason"] is None
    assert data["intent"]["route"] == "relevance" and len(data["hits"]) == 3
    first = data["hits"][0]
    assert first["rubro"].startswith("SUSPENSION CONTRA ORDEN DE APREHENSION")
    assert first["on_topic"] is True and "warning" in first

    assert main(["search", "asdkjh qwpoeiru zxmcnb", "--json"], bundled_settings) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["abstained"] is True and data["abstain_reason"] and data["hits"] == []


def test_a_closed_pipe_ends_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def reader_went_away(*_: object) -> int:
        raise BrokenPipeError  # `vigencia search ... --json | head`

    monkeypatch.setattr(searching, "cmd_search", reader_went_away)
    assert main(["search", "amparo"], Settings()) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_the_cli_says_how_far_to_trust_the_first_hit(
    bundled: Services, bundled_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "¿Qué es la suplencia de la queja?"], bundled_settings) == 0
    assert "confianza baja: La primera tesis no aventaja con claridad" in capsys.readouterr().out
    question = "¿Procede la suspensión contra una orden de aprehensión en el sistema acusatorio?"
    assert main(["search", question, "--json"], bundled_settings) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["confidence"]["level"] == "high" and data["confidence"]["reasons"] == []
    assert (
        main(["search", "el primer criterio sobre la suspensión", "--json"], bundled_settings) == 0
    )
    assert json.loads(capsys.readouterr().out)["confidence"] is None  # a date order
