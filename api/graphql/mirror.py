"""Build a GraphQL type from a core record whose attributes have the same names."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def mirror(cls: type[T], source: object, **own: Any) -> T:
    """``cls`` with every field not given in ``own`` read from ``source`` (tuples as lists)."""
    names = [f.python_name for f in cls.__strawberry_definition__.fields]  # type: ignore[attr-defined]
    values = {n: getattr(source, n) for n in names if n not in own}
    values = {n: list(v) if isinstance(v, tuple) else v for n, v in values.items()}
    return cls(**values, **own)
