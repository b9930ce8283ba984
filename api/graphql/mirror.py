"""Build a GraphQL type from core records whose attributes have the fields' names."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def mirror(cls: type[T], *sources: object, **own: Any) -> T:
    """``cls`` with the fields given in ``own``; each other field read from the first of
    ``sources`` with an attribute of its name (a tuple as a list)."""
    names = [f.python_name for f in cls.__strawberry_definition__.fields]  # type: ignore[attr-defined]
    values = {n: _read(sources, n) for n in names if n not in own}
    return cls(**values, **own)


def _read(sources: tuple[object, ...], name: str) -> Any:
    source = next((s for s in sources if hasattr(s, name)), sources[-1])
    value = getattr(source, name)  # the last source raises for a name none of them has
    return list(value) if isinstance(value, tuple) else value
