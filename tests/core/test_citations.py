from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.core.citations import (
    CitationCheck,
    PhantomFilter,
    check_citations,
    markers,
    neutralize,
    strip_phantoms,
)


def test_acceptance_phantom_seven_with_three_references() -> None:
    text = "La suspensión procede [1][2] y se niega en otros casos [7]."
    check = check_citations(text, 3)

    assert check == CitationCheck(
        cited=(1, 2, 7), valid=(1, 2), phantom=(7,), uncited=(3,), coverage=2 / 3
    )
    assert strip_phantoms(text, 3) == "La suspensión procede [1][2] y se niega en otros casos."


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("[1]", [1]),
        ("[1][2]", [1, 2]),
        ("[1, 2]", [1, 2]),
        ("[1,2]", [1, 2]),
        ("[1; 3]", [1, 3]),
        ("[1 y 2]", [1, 2]),
        ("[1-3]", [1, 2, 3]),
        ("[2–4]", [2, 3, 4]),
        ("[ 1 ]", [1]),
        ("[Referencia 2]", [2]),
        ("[Ref. 2, 3]", [2, 3]),
        ("[referencias 1 y 2]", [1, 2]),
        ("[1-200]", [1, 200]),  # too wide to be a range: its two ends
        ("[3-1]", [3, 1]),
    ],
)
def test_marker_forms(text: str, numbers: list[int]) -> None:
    assert [n for _, _, ns in markers(text) for n in ns] == numbers


@pytest.mark.parametrize(
    "text", ["[sic]", "[a]", "[1.5]", "[1\n]", "[…]", "artículo 14", "[" + "1, " * 30 + "1]"]
)
def test_not_markers(text: str) -> None:
    assert markers(text) == []


def test_zero_is_a_phantom_and_repeats_count_once() -> None:
    check = check_citations("A [0]. B [2] [2].", 2)
    assert check.cited == (0, 2)
    assert check.phantom == (0,)
    assert check.uncited == (1,)
    assert check.coverage == 0.5


def test_no_references_coverage_is_zero_and_every_number_phantom() -> None:
    assert check_citations("A [1].", 0) == CitationCheck((1,), (), (1,), (), 0.0)
    assert check_citations("sin citas", 0).coverage == 0.0


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("A [7] b", "A b"),
        ("A [7].", "A."),
        ("A[7] b", "A b"),
        ("[7] A", "A"),
        ("A\n[7] B", "A\nB"),
        ("A [7]\nB", "A\nB"),
        ("A [7][1] b", "A [1] b"),
        ("A [1][7] b", "A [1] b"),
        ("A [1] [7] b", "A [1] b"),
        ("A [1, 7] b", "A [1] b"),
        ("A [2-5].", "A [2, 3]."),
        ("(véase [9])", "(véase)"),
        ("A [1-3].", "A [1-3]."),  # all valid: kept verbatim
        ("Sin citas.", "Sin citas."),
    ],
)
def test_strip_phantoms_leaves_clean_text(text: str, shown: str) -> None:
    assert strip_phantoms(text, 3) == shown


def test_neutralize_turns_quoted_markers_into_parentheses() -> None:
    assert neutralize("nota [12] y [sic]") == "nota (12) y [sic]"


# Answer-like texts: words, single spaces, punctuation, line breaks and markers.
_token = st.one_of(
    st.sampled_from(["La", "suspensión", "procede", "amparo", "(véase", ").", "«cita»", "—"]),
    st.sampled_from(["[1]", "[2]", "[3]", "[7]", "[0]", "[1][7]", "[9][2]", "[1, 8]", "[2-5]"]),
    st.sampled_from([".", ",", ";", "\n", "\n\n"]),
)
_texts = st.lists(_token, max_size=30).map(lambda tokens: " ".join(tokens))


@given(_texts)
def test_strip_never_leaves_phantoms_or_new_double_spaces(text: str) -> None:
    shown = strip_phantoms(text, 3)
    check = check_citations(shown, 3)
    assert check.phantom == ()
    assert set(check.valid) == set(check_citations(text, 3).valid)
    assert not any("  " in line for line in shown.split("\n"))
    assert strip_phantoms(shown, 3) == shown


@given(_texts, st.lists(st.integers(min_value=1, max_value=7), max_size=40))
def test_phantom_filter_pieces_join_to_the_stripped_text(text: str, cuts: list[int]) -> None:
    cleaner, out, position = PhantomFilter(3), [], 0
    for size in cuts:
        piece = text[position : position + size]
        position += size
        delta = cleaner.feed(piece)
        out.append(delta)
        assert check_citations("".join(out), 3).phantom == ()
    out.append(cleaner.feed(text[position:]))
    out.append(cleaner.finish())
    assert "".join(out) == strip_phantoms(text, 3)


def test_phantom_filter_holds_a_partial_marker() -> None:
    cleaner = PhantomFilter(2)
    assert cleaner.feed("Procede [") == "Procede"
    assert cleaner.feed("9") == ""
    assert cleaner.feed("] si ") == " si"  # the trailing space waits for what follows
    assert cleaner.feed("hay [1") == " hay"
    assert cleaner.feed("].") == " [1]."
    assert cleaner.finish() == ""
    assert cleaner.shown == "Procede si hay [1]."
