"""The tesis metadata every GraphQL view of a tesis repeats, declared and copied in one place.

``TesisFields`` is a base class only (never in the schema): a subtype lists it among its bases
and inherits the fields, so the SDL is as if each declared them. Strawberry puts the fields of
the bases first, in the order the bases are listed, then the subtype's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, Protocol, Self

import strawberry

from api.graphql.mirror import mirror


class TesisMetadata(Protocol):
    """What a core tesis, passage or reference knows about its tesis."""

    @property
    def registro(self) -> int: ...
    @property
    def rubro(self) -> str: ...
    @property
    def clave(self) -> str: ...
    @property
    def epoca(self) -> str: ...
    @property
    def anio(self) -> int: ...
    @property
    def fecha(self) -> date | None: ...
    @property
    def tipo(self) -> str: ...
    @property
    def materias(self) -> Sequence[str]: ...


@strawberry.type
class TesisFields:
    registro: int
    rubro: str
    clave: str
    epoca: str
    anio: int
    fecha: date | None
    tipo: str
    materias: list[str]

    @classmethod
    def from_tesis(cls, t: TesisMetadata, *more: object, **own: Any) -> Self:
        """The subtype with ``t``'s metadata and its other fields given in ``own``, or else
        read from ``t`` or ``more`` (see ``mirror``)."""
        return mirror(cls, t, *more, **own)


@strawberry.type
class Numbered:
    """A leading ``number`` (listed before ``TesisFields``): the [N] an answer cites."""

    number: int


@strawberry.type
class WithText:
    """``texto`` right after ``rubro`` (listed before ``TesisFields``)."""

    registro: int
    rubro: str
    texto: str


def sjf_url(registro: int) -> str:
    return f"https://sjf2.scjn.gob.mx/detalle/tesis/{registro}"
