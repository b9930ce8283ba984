"""The recurring kinds of ``VIGENCIA_*`` field, each with its bounds stated once."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from api.core.weight_policy import WEIGHT_MAX, WEIGHT_MIN


def share(default: float, description: str) -> Any:
    """A field in ``WEIGHT_MIN..WEIGHT_MAX``: a weight, alpha, share or cosine."""
    return Field(default, ge=WEIGHT_MIN, le=WEIGHT_MAX, description=description)


def margin(default: float, description: str) -> Any:
    """A cosine difference, in -1..1."""
    return Field(default, ge=-1.0, le=1.0, description=description)


def count(default: int, description: str, least: int = 0, most: int | None = None) -> Any:
    """A whole number from ``least`` (0 usually meaning 'no limit') up to ``most``."""
    return Field(default, ge=least, le=most, description=description)


def seconds(default: float, description: str, most: float | None = None) -> Any:
    """A positive duration in seconds, at most ``most``."""
    return Field(default, gt=0, le=most, description=description)
