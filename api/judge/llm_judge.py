"""Seed 004's chunk-level judge: an LLM re-scores each fragment, answering in strict JSON.

Replies are matched to fragments by registro + startLine + endLine; an entry without lines
falls back to its registro (every not-yet-judged fragment of that tesis), with a warning.
One bad entry (no registro, no relevancia) is skipped with a warning and the rest is used;
malformed output, a timeout or any LLM error returns the input order with ``error`` set.
The prompt shows each fragment's retrieval score; ``summary=False`` asks for no summary (a
shorter reply). The result's summary is one paragraph naming each tesis's best fragment by
its lines, after the model's own summary.

Example::

    judge = LLMJudge(OpenAIChat(OpenAIEndpoint(url, model)), timeout=20)
    result = judge.judge("suspensión provisional en amparo indirecto", hits)
    result.items[0].span, result.items[0].score, result.items[0].matched_by, result.warnings
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from api.core.models import Hit
from api.core.redact import redact
from api.core.validity import describe, loses_force
from api.errors import JudgeFormatError, LLMError, llm_failure
from api.judge.models import (
    MAX_SCALE,
    SUPERSEDED_CAP,
    ChunkJudge,
    JudgedFragment,
    JudgedItem,
    JudgeReply,
    JudgeResult,
    MatchedBy,
    best_fragments_summary,
    legal_score,
)
from api.llm.base import LLM, Message

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL | re.IGNORECASE)
_EXCERPT = 120

SYSTEM_PROMPT = f"""Eres un juez de relevancia jurídica para tesis del Semanario Judicial de la \
Federación (México). Valora qué tan útil es cada fragmento para responder la consulta.

Reglas:
- Valora cada fragmento por separado: dos fragmentos de una misma tesis pueden valer distinto.
- relevancia es un número entre 0 y 1 (1 = responde directamente la consulta).
- A igual pertinencia, la jurisprudencia va por encima de la tesis aislada y las épocas \
recientes (Duodécima, Undécima, Décima) por encima de las antiguas.
- Un criterio superado, sustituido o abandonado no puede pasar de {SUPERSEDED_CAP}.
- Cada fragmento muestra su puntuación original de recuperación (similitud y puntuación \
final); es solo una referencia: tu valoración puede diferir.

Responde SOLO con JSON estricto, sin texto adicional ni bloques de código, con esta forma:
{{"reranked": [{{"registro": 2006225, "startLine": 3, "endLine": 5, "relevancia": 0.8, \
"razon": "..."}}]@SUMMARY_KEY@}}
Incluye cada fragmento una vez y copia su registro, startLine y endLine tal como aparecen.\
@SUMMARY_RULE@"""
_SUMMARY_KEY = ', "summary": "..."'
_SUMMARY_RULE = (
    " En summary escribe un párrafo breve que nombre el mejor fragmento de cada tesis por su "
    "registro y sus líneas."
)


def system_prompt(summary: bool = True) -> str:
    """The judge's instructions, with or without the summary paragraph."""
    return SYSTEM_PROMPT.replace("@SUMMARY_KEY@", _SUMMARY_KEY if summary else "").replace(
        "@SUMMARY_RULE@", _SUMMARY_RULE if summary else " No incluyas summary."
    )


_log = logging.getLogger("vigencia.judge")


def build_judge_messages(
    query: str, hits: Sequence[Hit], max_chars: int = 1500, summary: bool = True
) -> list[Message]:
    blocks = []
    for hit in hits:
        p, chunk = hit.passage, hit.passage.chunk
        header = (
            f"### registro={p.registro} startLine={chunk.start_line} endLine={chunk.end_line}"
            f" · {p.tipo} · {p.epoca} ({p.anio}) · {describe(hit.status)}"
            f" · puntuación original {hit.score.final_score:.3f}"
            f" (similitud {hit.score.similarity:.3f})"
        )
        text = chunk.text if len(chunk.text) <= max_chars else chunk.text[:max_chars] + " …"
        blocks.append(f"{header}\n{text}")
    user = f"Consulta: {query.strip()}\n\nFragmentos:\n\n" + "\n\n".join(blocks)
    return [
        {"role": "system", "content": system_prompt(summary)},
        {"role": "user", "content": user},
    ]


def parse_reply(raw: str) -> tuple[JudgeReply, list[str]]:
    """Validate the reply; warnings for tolerated deviations, JudgeFormatError otherwise."""
    warnings: list[str] = []
    text = raw.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    data: Any
    try:
        data = json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")
        try:
            data = json.loads(text[start : end + 1]) if 0 <= start < end else None
        except ValueError:
            data = None
        if data is None:
            raise JudgeFormatError(
                f"la respuesta no es JSON válido: {raw[:_EXCERPT]!r}",
                "la respuesta del modelo no es JSON válido",
            ) from None
        warnings.append("se ignoró texto fuera del objeto JSON")
    if isinstance(data, dict) and isinstance(data.get("reranked"), list):
        data, skipped = _skip_bad_entries(data)
        warnings.extend(skipped)
    try:
        reply = JudgeReply.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'raíz'}: {e['msg']}" for e in exc.errors()[:3]
        )
        raise JudgeFormatError(
            f"el JSON no sigue el esquema: {problems}",
            "la respuesta del modelo no sigue el esquema pedido",
        ) from None
    warnings.extend(reply.unknown_keys())
    if any(item.relevancia > 1.0 for item in reply.reranked):
        for item in reply.reranked:
            item.relevancia /= MAX_SCALE
        warnings.append("relevancia en escala 0-10: se dividió entre 10")
    return reply, warnings


def _skip_bad_entries(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Drop the entries of ``reranked`` that fail the schema, with a warning each, as long as
    one valid entry remains (a reply with no valid entry is a format error)."""
    good, warnings = [], []
    for i, entry in enumerate(data["reranked"]):
        try:
            JudgedItem.model_validate(entry)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'entrada'}: {e['msg']}" for e in exc.errors()[:2]
            )
            warnings.append(f"reranked[{i}] omitida: {problems}")
            continue
        good.append(entry)
    if not good:
        return data, []
    return {**data, "reranked": good}, warnings


_Verdict = tuple[float, str, MatchedBy]


def match_reply(reply: JudgeReply, hits: Sequence[Hit]) -> tuple[dict[int, _Verdict], list[str]]:
    """Verdicts by hit index: exact span, else the overlapping span, else by registro."""
    warnings: list[str] = []
    by_span: dict[tuple[int, int, int], int] = {}
    by_registro: dict[int, list[int]] = {}
    for i, hit in enumerate(hits):
        chunk = hit.passage.chunk
        by_span.setdefault((hit.registro, chunk.start_line, chunk.end_line), i)
        by_registro.setdefault(hit.registro, []).append(i)
    verdicts: dict[int, _Verdict] = {}
    for item in reply.reranked:
        where = f"registro {item.registro}"
        if item.registro not in by_registro:
            warnings.append(f"{where} no está entre los fragmentos enviados: ignorado")
            continue
        if item.start_line is not None and item.end_line is not None:
            lines = f"líneas {item.start_line}-{item.end_line}"
            index = by_span.get((item.registro, item.start_line, item.end_line))
            if index is None:
                index = _overlapping(
                    hits, by_registro[item.registro], item.start_line, item.end_line
                )
                if index is not None:
                    chunk = hits[index].passage.chunk
                    warnings.append(
                        f"{where}, {lines} no coinciden exactamente: asignado al fragmento de "
                        f"líneas {chunk.start_line}-{chunk.end_line}"
                    )
            if index is not None:
                if index in verdicts:
                    warnings.append(f"{where}, {lines} valorado dos veces: se usa el primero")
                else:
                    verdicts[index] = (item.relevancia, item.razon, "span")
                continue
            why = f"{lines} no coinciden con ningún fragmento"
        else:
            why = "respuesta sin startLine/endLine"
        pending = [i for i in by_registro[item.registro] if i not in verdicts]
        if not pending:
            warnings.append(f"{where}: {why} y sus fragmentos ya están valorados: ignorado")
            continue
        warnings.append(
            f"{where}: {why}; valoración aplicada por registro a {len(pending)} fragmento(s)"
        )
        for i in pending:
            verdicts[i] = (item.relevancia, item.razon, "registro")
    return verdicts, warnings


def _overlapping(hits: Sequence[Hit], candidates: list[int], start: int, end: int) -> int | None:
    def overlap(i: int) -> int:
        chunk = hits[i].passage.chunk
        return min(end, chunk.end_line) - max(start, chunk.start_line) + 1

    best = max(candidates, key=overlap)
    return best if overlap(best) > 0 else None


class LLMJudge(ChunkJudge):
    """Re-scores chunk hits with an LLM; see the module docstring."""

    kind = "llm"

    def __init__(self, llm: LLM, timeout: float | None = 30.0) -> None:
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds or None, got {timeout}")
        self.llm = llm
        self.timeout = timeout

    def _judge(self, query: str, hits: Sequence[Hit], summary: bool) -> JudgeResult:
        try:
            messages = build_judge_messages(query, hits, summary=summary)
            raw = self.llm.complete(messages, timeout=self.timeout)
            reply, warnings = parse_reply(raw)
        except LLMError as exc:  # a timeout, a busy model (BoundedLLM), an endpoint failure
            _log.warning("LLM judge failed: %s", redact(str(exc)))
            return self._unjudged(hits, llm_failure(exc))
        except JudgeFormatError as exc:  # the reply's excerpt stays in the server log
            _log.warning("LLM judge reply unusable: %s", redact(str(exc)))
            return self._unjudged(hits, exc.public)
        verdicts, match_warnings = match_reply(reply, hits)
        warnings.extend(match_warnings)
        items = [_judged(hit, verdicts.get(i)) for i, hit in enumerate(hits)]
        missing = sum(item.matched_by == "none" for item in items)
        if missing:
            warnings.append(f"{missing} fragmento(s) sin valoración del juez: puntuación 0")
        order = sorted(
            range(len(items)),
            key=lambda i: (items[i].matched_by == "none", -items[i].score, i),
        )
        ranked = [items[i] for i in order]
        own = reply.summary.strip() if summary else ""
        paragraph = " ".join(s for s in (own, best_fragments_summary(ranked)) if s)
        return JudgeResult(ranked, paragraph, warnings, None, self.kind)


def _judged(hit: Hit, verdict: _Verdict | None) -> JudgedFragment:
    if verdict is None:
        return JudgedFragment.of(hit, 0.0, "", "none")
    relevance, reason, matched_by = verdict
    if loses_force(hit.status):
        reason = f"{reason} ({hit.status.estado}: máximo {SUPERSEDED_CAP})".strip()
    return JudgedFragment.of(hit, legal_score(relevance, hit), reason, matched_by, relevance)
