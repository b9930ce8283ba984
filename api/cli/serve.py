"""Running the service: ``vigencia serve``, ``dashboard`` and ``demo`` (both, with data)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from api.cli.loading import ensure_corpus
from api.settings import PROJECT_ROOT, Settings


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from api.app import create_app
    from api.preflight import check_data_dir
    from api.services.container import DATA_FILES

    check_data_dir(settings, DATA_FILES)  # before uvicorn, so a refusal is one sentence
    host, port = args.host or settings.host, args.port or settings.port
    workers = args.workers or settings.workers
    if workers > 1:  # each worker builds its app from the environment's settings
        uvicorn.run(
            "api.app:create_app",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level="info",
        )
    else:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
    return 0


def dashboard_command(settings: Settings, port: int | None = None) -> list[str]:
    app = PROJECT_ROOT / "dashboard" / "app.py"
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        "--server.port",
        str(port or settings.dashboard_port),
        "--server.address",
        settings.dashboard_host,
        "--client.toolbarMode",
        "minimal",  # "viewer" kept Streamlit's own menu, in English (theme, print, record)
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]


def cmd_dashboard(args: argparse.Namespace, settings: Settings) -> int:
    return subprocess.call(dashboard_command(settings, args.port))


def key_advice(settings: Settings) -> str:
    """How to protect writes and the search log; printed by ``vigencia demo`` / ``make run``."""
    if settings.api_key:
        return (
            "API key: set. Writes, the search log, monitoring and alerts need it "
            "(Authorization: Bearer <key> or X-API-Key)."
        )
    return (
        "API key: NOT set: anyone who reaches the API can ingest, delete and read every "
        "logged question. Set one, e.g.\n"
        "  export VIGENCIA_API_KEY=\"$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')\"\n"
        "and restart (the dashboard sends it). See docs/SECURITY.md."
    )


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    ensure_corpus(settings)
    dashboard = subprocess.Popen(dashboard_command(settings))
    print(f"API:       http://{settings.host}:{settings.port}/graphql", file=sys.stderr)
    print(f"Dashboard: http://127.0.0.1:{settings.dashboard_port}", file=sys.stderr)
    print(key_advice(settings), file=sys.stderr)
    try:
        return cmd_serve(argparse.Namespace(host=None, port=None, workers=None), settings)
    finally:
        dashboard.terminate()
        dashboard.wait(timeout=10)
