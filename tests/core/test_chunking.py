from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from api.core.chunking import chunk_tesis, chunk_text, count_tokens, embedding_text
from api.core.models import Tesis

TEXT = (
    "AMPARO INDIRECTO. IMPROCEDENCIA.\n\nEs improcedente el amparo contra actos de la Junta. "
    "La fracción XVIII del artículo 73 así lo dispone; sin embargo, procede el recurso.\n"
    "PRIMER TRIBUNAL COLEGIADO."
)


def test_spans_index_the_original_text_exactly() -> None:
    for chunk in chunk_text(7, TEXT, max_tokens=12):
        assert TEXT[chunk.start_char : chunk.end_char] == chunk.text
        assert chunk.start_line == TEXT.count("\n", 0, chunk.start_char) + 1
        assert chunk.end_line == TEXT.count("\n", 0, chunk.end_char) + 1
        assert chunk.tokens == count_tokens(chunk.text)
    *body, tail = chunk_text(7, TEXT, max_tokens=12)
    assert all(c.tokens <= 12 for c in body)
    assert tail.tokens <= 12 + 20  # a short tail may be folded into the last chunk


def test_chunking_is_deterministic_and_ordered() -> None:
    first, second = chunk_text(7, TEXT, 12), chunk_text(7, TEXT, 12)
    assert first == second
    assert [c.index for c in first] == list(range(len(first)))
    assert all(a.end_char <= b.start_char for a, b in itertools.pairwise(first))


def test_tesis_chunks_start_with_rubro_and_later_chunks_embed_it() -> None:
    tesis = Tesis(
        registro=1,
        rubro="RUBRO.",
        texto="Uno. " * 300,
        epoca="Novena Época",
        anio=2000,
        tipo="Aislada",
    )
    chunks = chunk_tesis(tesis)
    assert chunks[0].text.startswith("RUBRO.")
    assert len(chunks) > 1
    assert embedding_text(tesis.rubro, chunks[1]).startswith("RUBRO.\n")
    assert embedding_text(tesis.rubro, chunks[0]) == chunks[0].text


@given(st.text(min_size=1, max_size=2000), st.integers(8, 60))
def test_chunks_cover_every_word(text: str, max_tokens: int) -> None:
    chunks = chunk_text(1, text, max_tokens)
    covered = " ".join(c.text for c in chunks).split()
    assert covered == text.split()


def test_a_short_tail_is_folded_into_the_previous_chunk() -> None:
    body = "Primera frase con bastante contenido jurídico relevante. " * 12
    text = f"{body}\nSÉPTIMO TRIBUNAL COLEGIADO DEL TERCER CIRCUITO."
    chunks = chunk_text(1, text, max_tokens=40)
    assert chunks[-1].text.endswith("TERCER CIRCUITO.")
    assert count_tokens(chunks[-1].text) >= 20
    assert chunks[-1].end_char == len(text)
