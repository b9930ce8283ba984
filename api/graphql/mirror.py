"""Build a GraphQL type from core records whose attributes have the fields' names."""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from typing import Any, TypeVar, cast

T = TypeVar("T")


def mirror(cls: type[T], *sources: object, **own: Any) -> T:
    """``cls`` with the fields given in ``own``; each other field read from the first of
    ``sources`` with an attribute of its name (a tuple as a list)."""
    values = dict(own)
    for name in _field_names(cls):
        if name not in own:
            values[name] = _read(sources, name)
    return cls(**values)


def _field_names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        fields = cls.__strawberry_definition__.fields  # type: ignore[attr-defined]
        names = _NAMES[cls] = tuple(f.python_name for f in fields)
    return names


_NAMES: dict[type, tuple[str, ...]] = {}


def _read(sources: tuple[object, ...], name: str) -> Any:
    for source in sources[:-1]:
        value = getattr(source, name, _MISSING)
        if value is not _MISSING:
            break
    else:
        value = getattr(sources[-1], name)  # raises for a name no source has
    return list(value) if isinstance(value, tuple) else value


_MISSING = object()


def to_record(record: type[T], source: object, **own: Any) -> T:
    """The reverse of ``mirror``: the core dataclass ``record`` (a request) from a GraphQL
    input, with ``own``; each other field read from ``source``'s attribute of its name (an enum
    member as its value), or left to its default where ``source`` has none."""
    names = [f.name for f in dataclasses.fields(cast(Any, record)) if f.name not in own]
    values = {n: getattr(source, n) for n in names if hasattr(source, n)}
    return record(**{n: v.value if isinstance(v, Enum) else v for n, v in values.items()}, **own)


def fields_of(record: type, *names: str, without: tuple[str, ...] = ()) -> dict[str, Any]:
    """The annotations of the core dataclass ``record``'s fields (those in ``names``, or all
    but ``without``), in its order, for a GraphQL type that declares the same fields::

        @strawberry.type
        class FragmentType:
            __annotations__ = fields_of(Fragment, without=("relevance",))
            text: str = strawberry.field(description="…")  # own fields follow, or retype one

    A ``tuple[X, ...]`` field becomes ``list[X]``, as ``mirror`` copies it."""
    hints = typing.get_type_hints(record)
    wanted = [f.name for f in dataclasses.fields(record) if f.name not in without]
    return {n: _listed(hints[n]) for n in wanted if n in names or not names}


def _listed(hint: Any) -> Any:
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[1:] == (Ellipsis,):
        return list[typing.get_args(hint)[0]]  # type: ignore[misc]
    return hint
