"""The answer and its references as HTML: every text escaped, only our own links live.

Pure: no Streamlit. A tesis text or a model's answer may hold Markdown or HTML (an image that
the browser would fetch, a link, a fake badge); here it is all shown as text. The only links
are the ones built here: each known ``[N]`` of the answer points at ``#ref-N``, an element inside the
reference's closed ``<details>``, which the browser opens in place when the link is followed
(the HTML standard's "ancestor details revealing"); and the SJF link of each registro.

>>> html, phantoms = answer_html("Procede [1][9].", {1: {"status": {"vigente": True}}})
>>> 'href="#ref-1"' in html, phantoms
(True, [9])
>>> "<img" in answer_html("![x](http://h/p.png) <img src=x>", {})[0]
False
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from dashboard import formatting as fmt

# The markers the API counts as citations (``api.core.citations``): a number or a range ([2],
# [1-3]), lists ([1, 2], [1; 2], [1 y 2]) and the prefixed forms ([Ref. 2], [Referencia 2]);
# one never spans lines.
_PREFIX = r"(?:ref(?:erencias?)?\.?[ \t]*)?"
_CITED = r"\d{1,4}(?:[ \t]*[-–][ \t]*\d{1,4})?"
_SEPARATOR = r"(?:[ \t]*[,;][ \t]*|[ \t]+y[ \t]+)"
CITATION = re.compile(
    rf"\[[ \t]*{_PREFIX}({_CITED}(?:{_SEPARATOR}{_PREFIX}{_CITED})*)[ \t]*\]", re.IGNORECASE
)
MAX_MARKER_CHARS = 64  # a longer bracket is plain text, as the API reads it
MAX_RANGE = 50  # a wider «range» is not a citation of every number in it
_NUMBER_OR_RANGE = re.compile(r"(\d+)(?:[ \t]*[-–][ \t]*(\d+))?")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_BOLD = re.compile(r"\*\*(.+?)\*\*")

LINK = "color:#1565c0;font-weight:600;text-decoration:none"
BADGE = "border-radius:4px;padding:0 5px;font-size:0.8em;font-weight:600;white-space:nowrap"
NOT_IN_FORCE = f"{BADGE};background:#ffcdd2;color:#b71c1c"
IN_FORCE = f"{BADGE};background:#c8e6c9;color:#1b5e20"
WARNING = f"{BADGE};background:#ffe0b2;color:#8a3b00"  # 6.1:1 (#e65100 was 3:1)


def in_force(ref: Mapping[str, Any]) -> bool:
    status = ref.get("status") or {}
    return bool(status.get("vigente", True)) and status.get("estado") in (None, "vigente")


def _cite(n: int, ref: Mapping[str, Any]) -> str:
    title = escape(str(ref.get("rubro") or f"Referencia {n}")[:200], quote=True)
    link = (
        f'<a href="#ref-{n}" class="vg-cite" data-ref="{n}" title="{title}" '
        f'style="{LINK}">[{n}]</a>'
    )
    if not in_force(ref):
        link += f' <span class="vg-no-vigente" style="{NOT_IN_FORCE}">no vigente</span>'
    return link


def cited_numbers(inside: str) -> list[int]:
    """The numbers a citation's brackets hold, ranges spelt out.

    >>> cited_numbers("1-3; 5")
    [1, 2, 3, 5]
    >>> cited_numbers("Ref. 2 y 4")
    [2, 4]
    """
    numbers: list[int] = []
    for part in _NUMBER_OR_RANGE.finditer(inside):
        low = int(part.group(1))
        high = int(part.group(2)) if part.group(2) else low
        span = range(low, high + 1) if low <= high <= low + MAX_RANGE else (low, high)
        numbers += [n for n in span if n not in numbers]
    return numbers


def citations(text: str) -> list[re.Match[str]]:
    """The citation markers of ``text``, as the API finds them."""
    return [m for m in CITATION.finditer(text) if m.end() - m.start() <= MAX_MARKER_CHARS]


def _inline(line: str, refs: Mapping[int, Mapping[str, Any]], phantoms: list[int]) -> str:
    """One line: escaped, **bold** kept, known [N] as links, phantom [N] dropped."""
    out: list[str] = []
    last = 0
    for match in citations(line):
        out.append(_BOLD.sub(r"<strong>\1</strong>", escape(line[last : match.start()])))
        cites = []
        for n in cited_numbers(match.group(1)):
            if n in refs:
                cites.append(_cite(n, refs[n]))
            elif n not in phantoms:
                phantoms.append(n)
        out.append(" ".join(cites))
        last = match.end()
    out.append(_BOLD.sub(r"<strong>\1</strong>", escape(line[last:])))
    return re.sub(r" +([.,;:])", r"\1", "".join(out)).strip()


def answer_html(answer: str, refs: Mapping[int, Mapping[str, Any]]) -> tuple[str, list[int]]:
    """The answer as HTML paragraphs and lists; the phantom numbers dropped."""
    phantoms: list[int] = []
    blocks: list[str] = []
    items: list[str] = []

    def close_list() -> None:
        if items:
            blocks.append("<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
            items.clear()

    for raw in answer.splitlines():
        if not raw.strip():
            close_list()
            continue
        if _BULLET.match(raw):
            items.append(_inline(_BULLET.sub("", raw, count=1), refs, phantoms))
        else:
            close_list()
            blocks.append(f"<p>{_inline(raw, refs, phantoms)}</p>")
    close_list()
    return '<div class="vg-answer">' + "".join(blocks) + "</div>", phantoms


def reference_html(ref: Mapping[str, Any], open_: bool = False) -> str:
    """One reference as a ``<details id="ref-N">``: summary line, facts, status, fragments."""
    n = int(ref["number"])
    registro = int(ref["registro"])
    url = escape(str(ref.get("url") or fmt.tesis_url(registro)), quote=True)
    badge = (
        f'<span style="{IN_FORCE}">Vigente</span>'
        if in_force(ref)
        else f'<span style="{NOT_IN_FORCE}">No vigente</span>'
    )
    extra = ""
    if ref.get("warning"):
        extra += f' <span style="{WARNING}">{escape(str(ref["warning"]))}</span>'
    if ref.get("partial"):
        extra += f' <span style="{WARNING}">texto incompleto en la fuente</span>'
    summary = (
        f'<summary style="cursor:pointer"><strong>[{n}]</strong> '
        f"{escape(str(ref.get('rubro') or ''))} · {fmt.year(ref.get('anio'))} {badge}{extra}</summary>"
    )
    facts = [
        f'Registro digital: <a href="{url}" target="_blank" rel="noopener">{registro}</a>',
        f"Clave: {escape(str(ref.get('clave') or '—'))}",
        escape(str(ref.get("epoca") or "—")),
        f"Fecha: {escape(fmt.fecha_label(ref))}",
        f"Tipo: {escape(fmt.tipo_label(ref.get('tipo')))}",
        f"Materias: {escape(fmt.materias_label(ref.get('materias')))}",
        f"Similitud: {fmt.pct(ref.get('similarity'))}",
        f"Puntuación final: {fmt.pct(ref.get('finalScore'))}",
    ]
    # The id sits inside the closed <details>: following #ref-N reveals (opens) its ancestor.
    body = [f'<p id="ref-{n}">{fmt.facts_line(*facts)}</p>']
    if not in_force(ref):
        body.append(f"<p><strong>{escape(fmt.status_text(ref.get('status')))}</strong></p>")
    for fragment in ref.get("fragments") or []:
        span = fmt.lines_span(fragment.get("startLine"), fragment.get("endLine"))
        text = escape(str(fragment.get("text") or "").strip()).replace("\n", "<br>")
        body.append(
            f'<blockquote style="border-left:3px solid #90a4ae;margin:4px 0;padding:2px 10px">'
            f"<small>{escape(span)}</small><br>{text}</blockquote>"
        )
    opened = " open" if open_ else ""
    return (
        f'<details class="vg-ref" data-ref="{n}"{opened} style="margin:4px 0;padding:4px 8px;'
        f'border:1px solid #cfd8dc;border-radius:6px">{summary}{"".join(body)}</details>'
    )


def references_html(refs: Sequence[Mapping[str, Any]]) -> str:
    return "".join(reference_html(r) for r in refs)
