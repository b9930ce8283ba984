"""Época multipliers of both scoring profiles, as data: defaults, parsing and bound checks.

The ``default`` profile multiplies relevance by a factor in (0, 1] per época (1.0 for the
current legal order, lower for older épocas; ``older`` for every época before the lowest one
listed); seed 000's profile boosts recent épocas with factors in [1, 5]. Unknown épocas
(generic corpora) always get 1.0. Settings give them as JSON keyed by época name or ordinal:
``{"Novena Época": 0.85, "8": 0.7, "older": 0.6}``.

Example::

    factors = EpocaFactors.parse(default={"Novena Época": 0.85})
    factors.default_factor("Novena Época"), factors.default_factor("")  # (0.85, 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from api.core.epocas import canonical_epoca, epoca_number

# Default: 1.0 for the current legal order (Décima onward, after the 2011 human-rights and
# amparo reforms), lower for older ones. Seed 000: Novena and later boosted, older 1.0.
DEFAULT_FACTORS: dict[int, float] = {12: 1.0, 11: 1.0, 10: 1.0, 9: 0.9, 8: 0.8}
DEFAULT_OLDER = 0.75
SEED_FACTORS: dict[int, float] = {9: 1.2, 10: 1.5, 11: 1.8, 12: 2.0}
OLDER_KEYS = ("older", "anteriores")
DEFAULT_BOUNDS = (0.0, 1.0)  # exclusive low, inclusive high: a factor never raises relevance
SEED_BOUNDS = (1.0, 5.0)  # inclusive: seed 000's factors only boost


def _number(key: str) -> int:
    text = key.strip()
    if text.isdecimal():
        number = int(text)
    else:
        canon = canonical_epoca(text)
        number = epoca_number(canon) if canon else 0
    if not 1 <= number <= 12:
        raise ValueError(f"unknown época {key!r} (use a name such as 'Novena Época' or 1..12)")
    return number


@dataclass(frozen=True, slots=True)
class EpocaFactors:
    """Factors by época ordinal for the ``default`` and ``seed`` profiles."""

    default: Mapping[int, float] = field(default_factory=lambda: dict(DEFAULT_FACTORS))
    older: float = DEFAULT_OLDER
    seed: Mapping[int, float] = field(default_factory=lambda: dict(SEED_FACTORS))

    def __post_init__(self) -> None:
        low, high = DEFAULT_BOUNDS
        for number, value in [*self.default.items(), (0, self.older)]:
            if not low < value <= high:
                what = "older" if number == 0 else f"época {number}"
                raise ValueError(f"default época factor of {what} is {value}, outside (0, 1]")
        low, high = SEED_BOUNDS
        for number, value in self.seed.items():
            if not low <= value <= high:
                raise ValueError(f"seed época factor of época {number} is {value}, outside [1, 5]")

    @classmethod
    def parse(
        cls,
        default: Mapping[str, float] | None = None,
        seed: Mapping[str, float] | None = None,
    ) -> EpocaFactors:
        """From settings JSON (keys: época names or ordinals; ``older`` for the rest).

        Listed épocas replace the built-in ones; unlisted keep theirs. Raises ``ValueError``
        naming the key or value that is out of bounds.
        """
        merged = dict(DEFAULT_FACTORS)
        older = DEFAULT_OLDER
        for key, value in (default or {}).items():
            if key.strip().lower() in OLDER_KEYS:
                older = float(value)
            else:
                merged[_number(key)] = float(value)
        seeded = dict(SEED_FACTORS)
        seeded.update({_number(k): float(v) for k, v in (seed or {}).items()})
        return cls(merged, older, seeded)

    def default_factor(self, epoca: str) -> float:
        number = epoca_number(epoca)
        if number == 0:
            return 1.0
        return self.default.get(number, self.older)

    def seed_factor(self, epoca: str) -> float:
        return self.seed.get(epoca_number(epoca), 1.0)


DEFAULT_EPOCAS = EpocaFactors()  # the defaults above, for callers without settings
