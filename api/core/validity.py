"""Validity ("still good law") from SJF notes, and how search treats criteria that lost force.

The notes come as ``{"tesis": {registro: {estado, parcial, por_registro, por_clave, desde,
...}}}`` (the format of ``vigencia_notas_558.json`` and the bundled ``data/vigencia_notas.json``).
A registro without a note is ``vigente``.

Usage::

    imported = parse_notes(json.loads(path.read_text()))
    hits, discarded = apply_validity(hits, imported.notes, include_superseded=False)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from api.core.models import VIGENTE, Discarded, Hit, Validity
from api.core.scoring import rank

T = TypeVar("T")

SUPERSEDED = "SUPERSEDED"

# The estados of SJF validity notes (a registro with no note is "vigente").
ESTADOS: tuple[str, ...] = (
    "abandonada",  # the issuing court departed from it (possibly only in part)
    "interrumpida",  # a jurisprudencia interrupted: it is no longer binding
    "modificada",  # the issuing court changed part of it; the modified criterion stands
    "superada",  # overcome by a later criterion (e.g. a contradicción de tesis)
    "sin_efectos",  # left without effect (cancelled, or its precedent revoked)
    "sustituida",  # jurisprudencia replaced through the substitution procedure
    "texto_sustituido",  # the published text was replaced (a corrected publication)
    "aclarada",  # clarified by its issuer; the criterion stands
)

# Estados under which the criterion no longer stands: demoted, or discarded on request.
# "abandonada" counts only when the whole criterion was abandoned (see loses_force).
# "modificada", "texto_sustituido" and "aclarada" leave a standing (changed, corrected or
# clarified) criterion under the same registro: they are flagged with their status, not demoted.
LOSES_FORCE: frozenset[str] = frozenset(
    {"abandonada", "interrumpida", "superada", "sin_efectos", "sustituida"}
)

_PHRASES = {
    "abandonada": "abandonada",
    "interrumpida": "interrumpida",
    "modificada": "modificada",
    "superada": "superada",
    "sin_efectos": "dejada sin efectos",
    "sustituida": "sustituida",
    "texto_sustituido": "con texto sustituido",
    "aclarada": "aclarada",
}
# Notes give "desde" as a day (2014-04-28), or only a month (2012-02) or a year: the first
# day of the period is used.
_DATE = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")


def loses_force(v: Validity) -> bool:
    """True when the criterion no longer stands (a partial abandonment does not count)."""
    if v.estado == "abandonada":
        return not v.parcial
    return v.estado in LOSES_FORCE


@dataclass(frozen=True, slots=True)
class NotesImport:
    """Parsed notes by registro, and one "registro R: field: reason" line per problem.

    A bad registro, an unknown estado or a note that is not an object leaves the note out.
    A bad ``desde`` or ``por_registro``, or a non-boolean ``parcial``, is reported the same
    way but the note is kept without that field (its line ends in "note kept"): dropping a
    "superada" note over its date would show a dead criterion as vigente.
    """

    notes: dict[int, Validity]
    rejected: list[str] = field(default_factory=list)


def _parse_date(value: object) -> date:
    """An ISO day, month or year; raises ValueError for anything else."""
    if not isinstance(value, str) or not (m := _DATE.fullmatch(value.strip())):
        raise ValueError(f"not a date: {value!r}")
    year, month, day = int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)
    return date(year, month, day)


def _parse_registro(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError(f"not a registro: {value!r}")
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and value.strip().isdigit() and int(value) > 0:
        return int(value)
    raise ValueError(f"not a registro: {value!r}")


def _lenient(
    key: str,
    name: str,
    raw: Mapping[str, Any],
    parse: Callable[[object], T],
    problems: list[str],
) -> T | None:
    """A field parsed, or None (with a warning) when it does not parse; absent is None."""
    value = raw.get(name)
    if value is None or value == "":
        return None
    try:
        return parse(value)
    except ValueError as e:
        problems.append(f"registro {key}: {name}: {e}; note kept without it")
        return None


def _parse_note(key: str, raw: Mapping[str, Any], problems: list[str]) -> Validity:
    """One note; raises ValueError("field: reason") when it must be rejected."""
    estado = raw.get("estado")
    if estado not in ESTADOS:
        raise ValueError(f"estado: unknown estado {estado!r} (expected one of {ESTADOS})")

    parcial = raw.get("parcial", False)
    if not isinstance(parcial, bool):
        # A full loss of force is the safe reading: never show a dead criterion as standing.
        problems.append(f"registro {key}: parcial: not a boolean: {parcial!r}; note kept as false")
        parcial = False
    clave = raw.get("por_clave")
    return Validity(
        estado=estado,
        parcial=parcial,
        por_registro=_lenient(key, "por_registro", raw, _parse_registro, problems),
        por_clave=(clave.strip() or None) if isinstance(clave, str) else None,
        desde=_lenient(key, "desde", raw, _parse_date, problems),
    )


def parse_notes(data: Mapping[str, Any]) -> NotesImport:
    """Validity by registro from a notes document; malformed notes are reported, never fatal."""
    notes: dict[int, Validity] = {}
    rejected: list[str] = []
    tesis = data.get("tesis") if isinstance(data, Mapping) else None
    if not isinstance(tesis, Mapping):
        return NotesImport({}, ["document: tesis: missing or not an object"])
    for key, raw in tesis.items():
        try:
            registro = _parse_registro(key)
        except ValueError as e:
            rejected.append(f"registro {key!r}: registro: {e}")
            continue
        if not isinstance(raw, Mapping):
            rejected.append(f"registro {key}: note: not an object")
            continue
        try:
            notes[registro] = _parse_note(str(key), raw, rejected)
        except ValueError as e:
            rejected.append(f"registro {key}: {e}")
    for registro in _replaced_in_a_circle(notes):  # "superada por" itself, or back and forth
        note = notes.pop(registro)
        rejected.append(
            f"registro {registro}: por_registro: {note.por_registro} leads back to {registro} "
            "(a criterion cannot replace itself)"
        )
    return NotesImport(notes, rejected)


def _replaced_in_a_circle(notes: Mapping[int, Validity]) -> list[int]:
    """The registros whose chain of replacements (``por_registro``) comes back to them."""
    circular = []
    for start in notes:
        seen: set[int] = set()
        current: int | None = start
        while current is not None and current in notes and current not in seen:
            seen.add(current)
            current = notes[current].por_registro
        if current == start:
            circular.append(start)
    return circular


def describe(v: Validity) -> str:
    """A Spanish sentence: 'superada por 2006225 (P./J. 21/2014 (10a.)) desde 2014-04-28'."""
    if v.vigente:
        return "vigente"
    words = [_PHRASES.get(v.estado, v.estado.replace("_", " "))]
    if v.parcial:
        words.append("parcialmente")
    if v.por_registro is not None and v.por_clave:
        words.append(f"por {v.por_registro} ({v.por_clave})")
    elif v.por_registro is not None:
        words.append(f"por {v.por_registro}")
    elif v.por_clave:
        words.append(f"por {v.por_clave}")
    if v.desde is not None:
        words.append(f"desde {v.desde.isoformat()}")
    return " ".join(words)


def apply_validity(
    hits: Sequence[Hit],
    statuses: Mapping[int, Validity],
    include_superseded: bool,
    demotion: float = 0.5,
) -> tuple[list[Hit], list[Discarded]]:
    """Attach each hit's status; demote or discard those that lost force; re-rank.

    A hit that lost force keeps its place in the results with ``final_score x demotion``
    when ``include_superseded``; otherwise it is discarded with code ``SUPERSEDED`` and the
    ``describe()`` sentence. Unlike the reform rules this may return no hits: a criterion
    that no longer stands is never shown unflagged.
    """
    if not 0.0 <= demotion <= 1.0:
        raise ValueError(f"demotion must be in [0, 1], got {demotion}")
    kept: list[Hit] = []
    discarded: list[Discarded] = []
    for hit in hits:
        status = statuses.get(hit.registro, VIGENTE)
        flagged = hit if hit.status == status else dataclasses.replace(hit, status=status)
        if not loses_force(status):
            kept.append(flagged)
        elif include_superseded:
            score = dataclasses.replace(hit.score, final_score=hit.score.final_score * demotion)
            kept.append(dataclasses.replace(flagged, score=score))
        else:
            discarded.append(Discarded(flagged, SUPERSEDED, describe(status)))
    return rank(kept), discarded


def replacement_chain(registro: int, statuses: Mapping[int, Validity]) -> list[int]:
    """The registros that replaced this one, in order (163211 -> 159944 -> 2007678 gives
    [159944, 2007678]); stops at a vigente registro or a cycle."""
    chain: list[int] = []
    seen = {registro}
    current = statuses.get(registro, VIGENTE).por_registro
    while current is not None and current not in seen:
        chain.append(current)
        seen.add(current)
        current = statuses.get(current, VIGENTE).por_registro
    return chain


def replacements_to_fetch(hits: Sequence[Hit], statuses: Mapping[int, Validity]) -> list[int]:
    """Replacing registros of non-vigente hits that are not among the hits, to pull into the
    candidates. Follows chains (a replacement that was itself replaced brings its own
    replacement too); first-seen order, no duplicates."""
    present = {h.registro for h in hits}
    wanted: dict[int, None] = {}
    for hit in hits:
        if statuses.get(hit.registro, VIGENTE).vigente:
            continue
        for registro in replacement_chain(hit.registro, statuses):
            if registro not in present:
                wanted[registro] = None
    return list(wanted)
