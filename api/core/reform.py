"""Reform cutoffs: drop criteria that a later reform of their materia left behind.

When a result set mixes recent criteria with much older ones, the old ones usually interpret
law that has since been replaced. After scoring, and only then, hits older than the materia's
reform cutoff (``PRE_REFORM``) and hits before the Novena Época (``PRE_NOVENA``) are
discarded, each with a code and a sentence a lawyer can read. The rules never empty a result
set: if every hit would go, the most recent ones stay. Records of a generic corpus (no época,
``TesisMeta.generic``) are not law: no rule discards, flags or replaces them, and none of them
replaces a tesis.

Usage::

    outcome = apply_reform_rules(hits, "Laboral", ReformConfig())
    outcome.kept        # re-ranked, ranks 1..n
    outcome.discarded   # [Discarded(hit, "PRE_REFORM", "1992 < reforma laboral 2019"), ...]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from api.core.epocas import EPOCAS, NOVENA, canonical_epoca, epoca_number
from api.core.intent import canonical_materia
from api.core.models import Discarded, Hit
from api.core.scoring import rank

PRE_REFORM = "PRE_REFORM"
PRE_NOVENA = "PRE_NOVENA"

# First year in which each materia's current legal framework applies. A hit published before
# it is discarded only under the recency rule below (recent criteria exist and the results
# span more than ``min_gap_years``), so an old criterion is never dropped when nothing newer
# answers the question.
DEFAULT_CUTOFFS: Mapping[str, int] = MappingProxyType(
    {
        # Seed 000's defaults. Laboral: labor reform (DOF 1 May 2019: labor courts replace
        # the Juntas, union democracy, Constancia de Representatividad). Fiscal: the 2020 tax
        # reform (DOF 9 Dec 2019, in force 2020). Electoral: the 2021 federal electoral
        # reforms. Penal: the accusatory system in force nationwide on 18 June 2016 (CNPP).
        # Constitucional: the human-rights reform (DOF 10 June 2011).
        "Laboral": 2019,
        "Fiscal": 2020,
        "Electoral": 2021,
        "Penal": 2016,
        "Constitucional": 2011,
        # Agraria: the reform of article 27 and the new Ley Agraria (DOF 6 Jan and 26 Feb
        # 1992) ended land distribution and abrogated the Ley Federal de Reforma Agraria.
        "Agraria": 1992,
    }
)

# Común (amparo) 2013, the new Ley de Amparo, is deliberately not a default: its sixth
# transitory article keeps earlier jurisprudencia "en lo que no se oponga", and on the labelled
# queries (data/eval) that cutoff discarded binding 1999-2011 jurisprudencia, dropping
# current@1 from 88.9 % to 74.1 %. ``AMPARO_CUTOFF`` is there to opt in
# (VIGENCIA_REFORM_CUTOFFS).
AMPARO_CUTOFF: Mapping[str, int] = MappingProxyType({"Común": 2013})

# How a discard reason names each reform: "<anio> < <label> <cutoff>".
REFORM_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "Laboral": "reforma laboral",
        "Fiscal": "reforma fiscal",
        "Electoral": "reforma electoral",
        "Penal": "reforma penal",
        "Constitucional": "reforma constitucional",
        "Común": "nueva Ley de Amparo",
        "Agraria": "Ley Agraria",
    }
)

_NOVENA = next(e for e in EPOCAS if e.number == NOVENA)


@dataclass(frozen=True)
class ReformConfig:
    """When and how the reform rules apply.

    ``recent_year``: the rules apply only if some hit is from this year or later.
    ``min_gap_years``: ... and the results span more than this many years.
    ``keep_most_recent``: when every hit would be discarded, keep this many (newest first).
    ``discard_pre_novena``: also discard hits before the Novena Época (February 1995).
    """

    cutoffs: Mapping[str, int] = field(default_factory=lambda: DEFAULT_CUTOFFS)
    recent_year: int = 2020
    min_gap_years: int = 20
    keep_most_recent: int = 3
    discard_pre_novena: bool = True

    def __post_init__(self) -> None:
        if self.min_gap_years < 0:
            raise ValueError(f"min_gap_years must be >= 0, got {self.min_gap_years}")
        if self.keep_most_recent < 1:
            raise ValueError(f"keep_most_recent must be >= 1, got {self.keep_most_recent}")
        for materia, year in self.cutoffs.items():
            if not 1800 <= year <= 2200:
                raise ValueError(f"cutoff for {materia!r} must be a year, got {year}")

    def cutoff(self, materia: str | None) -> int | None:
        """The cutoff of a materia, matched case- and accent-insensitively ('comun')."""
        if materia is None:
            return None
        canon = canonical_materia(materia)
        for name, year in self.cutoffs.items():
            if canonical_materia(name) == canon:
                return year
        return None


@dataclass(frozen=True)
class RerankOutcome:
    """Kept hits (re-ranked), discarded ones with reasons, the cutoff and whether rules ran.

    ``cutoff_year`` is the materia's cutoff whether or not the rules applied; ``applied``
    says whether they did.
    """

    kept: list[Hit]
    discarded: list[Discarded]
    cutoff_year: int | None
    applied: bool


def rules_apply(hits: Sequence[Hit], config: ReformConfig) -> bool:
    """Recent criteria exist and the results span more than ``min_gap_years`` (tesis only)."""
    years = [h.passage.anio for h in hits if not h.passage.generic]
    if not years:
        return False
    return max(years) >= config.recent_year and max(years) - min(years) > config.min_gap_years


def _reform_label(materia: str) -> str:
    canon = canonical_materia(materia) or materia
    return REFORM_LABELS.get(canon, f"reforma {canon.lower()}")


def discard_reason(
    hit: Hit, materia: str | None, cutoff: int | None, config: ReformConfig
) -> Discarded | None:
    """Why the rules would drop this hit, or None (always for a generic record). PRE_REFORM
    wins over PRE_NOVENA."""
    if hit.passage.generic:
        return None
    anio = hit.passage.anio
    if materia is not None and cutoff is not None and anio < cutoff:
        return Discarded(hit, PRE_REFORM, f"{anio} < {_reform_label(materia)} {cutoff}")
    number = epoca_number(hit.passage.epoca)
    if config.discard_pre_novena and 0 < number < NOVENA:
        epoca = canonical_epoca(hit.passage.epoca) or hit.passage.epoca
        reason = f"{epoca} ({anio}), anterior a la {_NOVENA.name} ({_NOVENA.start.year})"
        return Discarded(hit, PRE_NOVENA, reason)
    return None


def _most_recent_first(hit: Hit) -> tuple[int, float, int, int]:
    return (-hit.passage.anio, -hit.score.final_score, hit.registro, hit.passage.chunk.index)


def apply_reform_rules(
    hits: Sequence[Hit], materia: str | None, config: ReformConfig
) -> RerankOutcome:
    """Discard pre-reform and pre-Novena hits when the rules apply; re-rank what stays.

    Discarded hits keep the order they came in. If every hit would be discarded, the
    ``keep_most_recent`` most recent (by year, then final score) stay and only the rest
    are reported as discarded.
    """
    cutoff = config.cutoff(materia)
    if not rules_apply(hits, config):
        return RerankOutcome(rank(hits), [], cutoff, applied=False)

    verdicts = [(h, discard_reason(h, materia, cutoff, config)) for h in hits]
    kept = [h for h, d in verdicts if d is None]
    discarded = [d for _, d in verdicts if d is not None]
    if not kept:
        rescued = {id(h) for h in sorted(hits, key=_most_recent_first)[: config.keep_most_recent]}
        kept = [h for h in hits if id(h) in rescued]
        discarded = [d for d in discarded if id(d.hit) not in rescued]
    return RerankOutcome(rank(kept), discarded, cutoff, applied=True)


# --- same-point rules (the default) ------------------------------------------------------

SamePoint = Callable[[Hit, Hit], bool]


def _cutoff_for(hit: Hit, materia: str | None, cutoff: int | None, config: ReformConfig) -> int:
    """The first year whose criteria can replace ``hit``: its reform cutoff, or the Novena."""
    reform = cutoff if materia is not None and cutoff is not None else 0
    if reform and hit.passage.anio < reform:
        return reform
    return _NOVENA.start.year


def warning_for(code: str, materia: str | None, cutoff: int | None) -> str:
    """The reader's flag for an old criterion that stays: 'Criterio anterior a ...'."""
    if code == PRE_REFORM and materia is not None and cutoff is not None:
        return (
            f"Criterio anterior a la {_reform_label(materia)} de {cutoff}: verifique su vigencia."
        )
    return f"Criterio anterior a la {_NOVENA.name} ({_NOVENA.start.year}): verifique su vigencia."


def apply_same_point_rules(
    hits: Sequence[Hit],
    materia: str | None,
    config: ReformConfig,
    same_point: SamePoint,
    top_k: int,
) -> RerankOutcome:
    """Set aside an old criterion only when a newer one on the same point is on the page.

    ``hits`` come ranked. Each on-topic hit older than its
    materia's reform cutoff (or before the Novena Época) is discarded when an on-topic hit
    from the cutoff year on is on the same point (``same_point(old, newer)``) and is among
    the ``top_k`` kept, where the reader sees it; otherwise it stays where relevance put it,
    with a ``warning``. Off-topic hits are left alone. Hits are read in order until ``top_k``
    are kept, so discards never shorten the page; ``discarded`` lists those read on the way.
    A tesis is set aside whole: when one of its passages is on the same point as a newer
    criterion, so is the tesis, whichever of its passages ranks.
    """
    cutoff = config.cutoff(materia)
    newer_pool = [h for h in hits if h.on_topic and not h.passage.generic]
    verdicts = [discard_reason(hit, materia, cutoff, config) for hit in hits]
    newer_on_point: dict[int, list[Hit]] = {}  # registro -> newer hits on its point, ranked
    for hit, verdict in zip(hits, verdicts, strict=True):
        if verdict is None or not hit.on_topic or hit.registro in newer_on_point:
            continue
        year = _cutoff_for(hit, materia, cutoff, config)
        newer = [n for n in newer_pool if n.passage.anio >= year and same_point(hit, n)]
        if newer:
            newer_on_point[hit.registro] = newer
    # a discard whose newer criteria all fall off the page names one the reader never sees:
    # the old tesis stays then, which may push another's criterion off, so read again
    while True:
        kept, discarded = _page(hits, verdicts, newer_on_point, materia, cutoff, top_k)
        shown = {h.registro for h in kept}
        unseen = {
            d.hit.registro
            for d in discarded
            if not any(n.registro in shown for n in newer_on_point[d.hit.registro])
        }
        if not unseen:
            break
        newer_on_point = {r: n for r, n in newer_on_point.items() if r not in unseen}
    renumbered = [h.ranked(i, h.rank_without_recency) for i, h in enumerate(kept, start=1)]
    applied = bool(discarded) or any(h.warning for h in kept)
    return RerankOutcome(renumbered, discarded, cutoff, applied)


def _page(
    hits: Sequence[Hit],
    verdicts: Sequence[Discarded | None],
    newer_on_point: dict[int, list[Hit]],
    materia: str | None,
    cutoff: int | None,
    top_k: int,
) -> tuple[list[Hit], list[Discarded]]:
    """The first ``top_k`` hits kept and those set aside on the way, each set-aside one
    naming the first of its newer criteria that the page shows."""
    kept: list[Hit] = []
    set_aside: list[tuple[Hit, Discarded]] = []
    for hit, verdict in zip(hits, verdicts, strict=True):
        if len(kept) >= top_k:
            break
        if hit.registro in newer_on_point and verdict is not None:
            set_aside.append((hit, verdict))
        elif verdict is not None and hit.on_topic:
            kept.append(
                dataclasses.replace(hit, warning=warning_for(verdict.code, materia, cutoff))
            )
        else:
            kept.append(hit)
    shown = {h.registro for h in kept}
    discarded = []
    for hit, verdict in set_aside:
        newer = next(
            (n for n in newer_on_point[hit.registro] if n.registro in shown),
            newer_on_point[hit.registro][0],
        )
        reason = (
            f"{verdict.reason}; criterio posterior sobre el mismo punto: "
            f"registro {newer.registro} ({newer.passage.anio})"
        )
        discarded.append(Discarded(hit, verdict.code, reason, newer.registro))
    return kept, discarded
