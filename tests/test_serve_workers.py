"""`vigencia serve --workers N`: N > 1 hands uvicorn the app factory (each worker builds its
own app from the environment); one worker serves the app built here."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn

from api.cli.main import main
from api.settings import Settings


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: calls.append((a, k)))
    return calls


def test_several_workers_get_the_app_factory(runs: list, tmp_path: Any) -> None:
    assert main(["serve", "--workers", "2", "--port", "8123"], Settings(data_dir=tmp_path)) == 0
    (args, kwargs) = runs[0]
    assert args == ("api.app:create_app",)
    assert kwargs["factory"] is True and kwargs["workers"] == 2 and kwargs["port"] == 8123


def test_workers_setting_is_the_default(runs: list, tmp_path: Any) -> None:
    main(["serve"], Settings(data_dir=tmp_path, workers=3))
    assert runs[0][1]["workers"] == 3


def test_one_worker_serves_the_built_app(runs: list, tmp_path: Any) -> None:
    main(["serve"], Settings(data_dir=tmp_path))
    (args, kwargs) = runs[0]
    assert not isinstance(args[0], str) and "workers" not in kwargs
