"""Start-up checks that turn an unusable data directory into one sentence naming the path.

Without them a read-only or missing directory surfaced as a raw ``sqlite3.OperationalError``
from whichever file opened first. Root ignores permission bits, so writability is probed by
really writing (and fsyncing) a small file, which also catches a read-only mount or a full disk.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from api.errors import StartupError
from api.settings import Settings

PROBE_BYTES = 4096


def _advice(directory: Path) -> str:
    return f"make {directory} writable, free space on its disk, or set VIGENCIA_DATA_DIR"


def check_data_dir(settings: Settings, files: tuple[str, ...] = ()) -> None:
    """Raise ``StartupError`` unless ``settings.data_dir`` (and each existing file in
    ``files``, names inside it) can be written."""
    directory = settings.data_dir
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StartupError(
            f"Cannot create the data directory {directory} ({exc.strerror}): {_advice(directory)}."
        ) from exc
    probe = directory / f".vigencia-write-probe-{os.getpid()}"
    try:
        with probe.open("wb") as handle:
            handle.write(b"\0" * PROBE_BYTES)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise StartupError(
            f"Cannot write to the data directory {directory} ({exc.strerror}): "
            f"{_advice(directory)}."
        ) from exc
    finally:
        with contextlib.suppress(OSError):
            probe.unlink(missing_ok=True)
    for name in files:
        path = directory / name
        if not path.exists():
            continue
        try:
            with path.open("r+b"):
                pass
        except OSError as exc:
            raise StartupError(
                f"Cannot open {path} for writing ({exc.strerror}): {_advice(directory)}."
            ) from exc
