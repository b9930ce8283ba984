"""The recency weight: its bounds (one check for settings, requests and scoring) and which
weight a search uses."""

from __future__ import annotations

from api.core.intent import TemporalIntent

WEIGHT_MIN, WEIGHT_MAX = 0.0, 1.0
WEIGHT_RANGE = "0..1"  # the bounds as requests and errors spell them


def in_weight_range(value: float) -> bool:
    """True for a weight (or any share: alpha, threshold) in ``WEIGHT_MIN..WEIGHT_MAX``."""
    return WEIGHT_MIN <= value <= WEIGHT_MAX


def check_weight(name: str, value: float) -> float:
    """``value`` if it is in range, else ValueError naming ``name``."""
    if not in_weight_range(value):
        raise ValueError(f"{name} must be in [0, 1], got {value}")
    return value


def effective_recency_weight(
    requested: float | None,
    default: float,
    temporal: TemporalIntent,
    current_weight: float,
) -> float:
    """The recency weight a search uses.

    An explicit request always wins (even 0). Otherwise a ``current`` question ("requisitos
    actuales", "vigente", "después de la reforma") raises the default to ``current_weight``
    (never lowers it).
    """
    check_weight("default", default)
    check_weight("current_weight", current_weight)
    if requested is not None:
        return check_weight("recency_weight", requested)
    if temporal.kind == "current":
        return max(default, current_weight)
    return default
