"""The bundled corpus as shipped: what scripts/build_corpus.py repairs stays repaired."""

from __future__ import annotations

import json
import re
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "data" / "tesis.jsonl"


def test_no_sentence_lacks_the_court_s_name() -> None:
    """The source of the recent tesis dropped it ("La Segunda Sala de la determina que…"):
    18 texts read broken in answers and citations."""
    dropped = re.compile(r"\b(?:(?:Primera|Segunda) Sala|Pleno) de la (?=[a-záéíóúñ])")
    texts = [json.loads(line)["texto"] for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    assert not [t for t in texts if dropped.search(t)]
    restored = [t for t in texts if "Sala de la Suprema Corte de Justicia de la Nación" in t]
    assert len(restored) >= 15


def test_the_temporal_wordings_name_tesis_of_the_corpus() -> None:
    """scripts/run_temporal_wordings.py scores first answers against these registros."""
    registros = {
        json.loads(line)["registro"] for line in CORPUS.read_text(encoding="utf-8").splitlines()
    }
    wordings = CORPUS.parent / "eval" / "temporal_wordings.jsonl"
    items = [json.loads(line) for line in wordings.read_text(encoding="utf-8").splitlines()]
    assert len(items) == 300 and len({(i["topic"], i["kind"]) for i in items}) == 50
    assert all(i["answers"] and set(i["answers"]) <= registros for i in items)
