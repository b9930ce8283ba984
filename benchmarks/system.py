"""Process memory and a description of the machine a run happened on."""

from __future__ import annotations

import os
import platform
import resource
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np


def rss_bytes() -> int:
    """Current resident set size (Linux ``/proc``; peak RSS elsewhere)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return peak_rss_bytes()


def rss_file_bytes() -> int:
    """The part of the resident set backed by files (memory-mapped arrays: shared between
    processes and reclaimable by the kernel); 0 where ``/proc`` has no such line."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("RssFile:"):
                return int(line.split()[1]) * 1024
    return 0


def peak_rss_bytes() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def total_memory_bytes() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


@dataclass(frozen=True, slots=True)
class Machine:
    cpu: str
    cores: int
    memory_gib: float
    system: str
    python: str
    numpy: str
    sqlite: str

    @classmethod
    def describe(cls) -> Machine:
        import sqlite3

        return cls(
            cpu=cpu_model(),
            cores=os.cpu_count() or 1,
            memory_gib=total_memory_bytes() / 2**30,
            system=f"{platform.system()} {platform.release()} ({platform.machine()})",
            python=platform.python_version(),
            numpy=np.__version__,
            sqlite=sqlite3.sqlite_version,
        )
