"""What a question asks for: its materia (``materia``) and its temporal intent (``temporal``).

Both detectors run on the shared matching engine (``matching``).
"""

from api.core.intent.materia import (
    MATERIA_PRIORITY,
    MATERIAS,
    NO_MATERIA,
    TOPIC_BRANCHES,
    MateriaIntent,
    MateriaSource,
    canonical_materia,
    detect_materia,
    materia_matches,
    named_materia,
)
from api.core.intent.temporal import (
    NO_TEMPORAL,
    TemporalIntent,
    TemporalKind,
    detect_temporal,
    temporal_matches,
)

__all__ = [
    "MATERIAS",
    "MATERIA_PRIORITY",
    "NO_MATERIA",
    "NO_TEMPORAL",
    "TOPIC_BRANCHES",
    "MateriaIntent",
    "MateriaSource",
    "TemporalIntent",
    "TemporalKind",
    "canonical_materia",
    "detect_materia",
    "detect_temporal",
    "materia_matches",
    "named_materia",
    "temporal_matches",
]
