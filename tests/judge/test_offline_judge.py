from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import numpy as np
import pytest

from api.core.models import Validity
from api.embeddings.base import TextKind, Vectors
from api.errors import EmbedderError
from api.judge.models import SUPERSEDED_CAP
from api.judge.offline_judge import OfflineJudge
from tests.fakes import FakeEmbedder, make_hit

QUERY = "suspensión provisional en el amparo indirecto"


def test_two_fragments_of_one_tesis_get_different_scores() -> None:
    hits = [
        make_hit(2006225, 0, "Competencia de los tribunales colegiados.", start_line=1),
        make_hit(
            2006225, 1, "La suspensión provisional en el amparo indirecto procede.", start_line=3
        ),
    ]
    result = OfflineJudge(FakeEmbedder()).judge(QUERY, hits)

    assert result.error is None
    assert result.judge == "offline"
    first, second = result.items
    assert (first.registro, first.start_line, first.chunk_index) == (2006225, 3, 1)
    assert first.score > second.score
    assert {i.matched_by for i in result.items} == {"span"}
    assert "términos de la consulta presentes 4/4" in first.reason
    assert "registro 2006225, líneas 3" in result.summary


def test_scores_combine_cosine_and_lexical_overlap() -> None:
    hit = make_hit(1, 0, "suspensión provisional")
    lexical_only = OfflineJudge(FakeEmbedder(), lexical_weight=1.0).judge(QUERY, [hit])
    assert lexical_only.items[0].score == pytest.approx(0.5)  # 2 of 4 query terms
    cosine_only = OfflineJudge(FakeEmbedder(), lexical_weight=0.0).judge(QUERY, [hit])
    vectors = FakeEmbedder().embed([QUERY, "suspensión provisional"], "query")
    assert cosine_only.items[0].score == pytest.approx(float(vectors[0] @ vectors[1]), abs=1e-6)


def test_same_text_ranks_by_the_legal_rules() -> None:
    text = "La suspensión provisional en el amparo indirecto procede."
    hits = [
        make_hit(4, 0, text, anio=2020, status=Validity("superada", desde=date(2022, 1, 1))),
        make_hit(3, 0, text, anio=1980),
        make_hit(2, 0, text, anio=2020, tipo="Aislada"),
        make_hit(1, 0, text, anio=2020),
    ]
    result = OfflineJudge(FakeEmbedder()).judge(QUERY, hits)

    assert [i.registro for i in result.items] == [1, 2, 3, 4]
    assert result.items[-1].score == SUPERSEDED_CAP
    assert "superada" in result.items[-1].reason


class BrokenEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        raise EmbedderError("modelo no disponible")


def test_embedder_failure_returns_the_input_order_with_the_error() -> None:
    hits = [make_hit(1, 0, "a", similarity=0.3), make_hit(2, 0, "b", similarity=0.9)]
    result = OfflineJudge(BrokenEmbedder()).judge(QUERY, hits)
    assert result.error == "embedder: modelo no disponible"
    assert [i.registro for i in result.items] == [1, 2]


def test_no_hits() -> None:
    result = OfflineJudge(FakeEmbedder()).judge(QUERY, [])
    assert result.items == []
    assert result.error is None


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_lexical_weight_is_validated(bad: float) -> None:
    with pytest.raises(ValueError, match=f"lexical_weight must be in \\[0, 1\\], got {bad}"):
        OfflineJudge(FakeEmbedder(), lexical_weight=bad)


def test_fake_embedder_is_deterministic_normalized_and_accent_folded() -> None:
    embedder = FakeEmbedder(dim=16)
    a, b, c, empty = embedder.embed(["Suspensión", "suspension", "otra cosa", "de la"], "passage")

    assert embedder.dim == 16
    assert embedder.model_id == "fake/bow-16"
    assert a.dtype == np.float32
    assert np.allclose(a, b)
    assert np.linalg.norm(a) == pytest.approx(1.0)
    assert not np.any(empty)  # stopwords only
    assert np.allclose(FakeEmbedder(dim=16).embed(["otra cosa"], "query")[0], c)
