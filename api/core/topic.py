"""What a temporal question is about, once its ordering words are set aside."""

from __future__ import annotations

from collections.abc import Sequence

from api.core.text import analyze

# Nouns that name the kind of document rather than a topic: "the first repository", "el
# criterio más reciente". A question made only of these has no topic: every document counts.
DOCUMENT_NOUNS = frozenset(
    analyze(
        "criterio criterios tesis jurisprudencia jurisprudencias precedente precedentes "
        "resolución sentencia documento documentos registro registros cuál cuáles fue fueron "
        "emitido emitida publicado publicada dictado dictada sobre tema corte "
        "repository repositories repo repos project projects proyecto proyectos "
        "which what was were is are there ever document documents record records "
        "created made "
        # words naming which date (api.core.date_fields), not what the record is about
        "commit commits push pushed update updated actualizado actualizados actualizó"
    )
)


def topic_terms(question: str, triggers: Sequence[str]) -> list[str]:
    """Content terms of ``question`` without its temporal trigger words and document nouns."""
    trigger_terms = {t for trigger in triggers for t in analyze(trigger)}
    return [t for t in analyze(question) if t not in trigger_terms and t not in DOCUMENT_NOUNS]
