"""Rebuild data/tesis.jsonl and data/vigencia_notas.json from ../shared/data/tesis (run once).

The shipped files are the output of this script; a fresh clone never needs ../shared.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import date
from pathlib import Path

from api.ingest.loaders import read_records
from api.ingest.records import Parsed, parse_record, tesis_to_record

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "tesis"

# P. LXVI/2011 (9a.): only a partial text survives in the source; rubro and location are the
# SJF's (Semanario Judicial de la Federación y su Gaceta, Libro III, diciembre de 2011, Tomo 1).
SUPERSEDED_160584 = {
    "rubro": "CRITERIOS EMITIDOS POR LA CORTE INTERAMERICANA DE DERECHOS HUMANOS CUANDO EL "
    "ESTADO MEXICANO NO FUE PARTE. SON ORIENTADORES PARA LOS JUECES MEXICANOS SIEMPRE QUE SEAN "
    "MÁS FAVORABLES A LA PERSONA EN TÉRMINOS DEL ARTÍCULO 1o. DE LA CONSTITUCIÓN FEDERAL.",
    "anio": 2011,
    "fecha_publicacion": "2011-12-01",
    "tipo": "Aislada",
    "materias": ["Común"],
    "instancia": "Suprema Corte de Justicia de la Nación",
    "organo": "Pleno",
}


def pair_records() -> list[dict]:
    pair = json.loads((SHARED / "par_160584_2006225.json").read_text(encoding="utf-8"))
    old, new = pair["superada"], pair["sustituta"]
    return [
        {
            "registro": old["registro"],
            "clave": old["clave"],
            "texto": old["texto_parcial"],
            "epoca": old["epoca"],
            "parcial": True,
            **SUPERSEDED_160584,
        },
        {
            "registro": new["registro"],
            "clave": new["clave"],
            "rubro": new["rubro"],
            "texto": new["texto"],
            "precedentes": new["precedentes_inicio"],
            "epoca": new["epoca"],
            "anio": int(new["fecha_publicacion"][:4]),
            "fecha_publicacion": new["fecha_publicacion"],
            "tipo": new["tipo"],
            "materias": ["Común", "Constitucional"],
            "instancia": "Suprema Corte de Justicia de la Nación",
            "organo": new["instancia"],
        },
    ]


# The source of the recent tesis drops the Court's name where the SJF sets it apart ("La
# Segunda Sala de la determina que…", "el Tribunal en Pleno de la ha distinguido…"): restored,
# so that answers quoting these sentences read whole. Only before a lowercase word, where the
# name is certainly missing.
_COURT_NAME_DROPPED = re.compile(r"\b((?:Primera|Segunda) Sala|Pleno) de la (?=[a-záéíóúñ])")
COURT_NAME = "Suprema Corte de Justicia de la Nación"


def with_court_name(record: dict) -> dict:
    """``record`` with the Court's name restored in its texto (see ``_COURT_NAME_DROPPED``)."""
    texto = _COURT_NAME_DROPPED.sub(rf"\1 de la {COURT_NAME} ", record.get("texto") or "")
    return {**record, "texto": texto} if texto != record.get("texto") else record


def build_corpus() -> None:
    today = date.today()
    out: list[dict] = []
    seen: set[int] = set()
    sources: list[tuple[str, list]] = [
        ("septima_bj_1000.csv", list(read_records(SHARED / "septima_bj_1000.csv"))),
        ("recientes_58.jsonl", list(read_records(SHARED / "recientes_58.jsonl"))),
        ("par_160584_2006225.json", list(enumerate(pair_records(), start=1))),
    ]
    for source, items in sources:
        for item in items:
            if not isinstance(item, tuple):
                print("rejected:", item, file=sys.stderr)
                continue
            line, raw = item
            parsed = parse_record(raw, source, line, today)
            if not isinstance(parsed, Parsed):
                print("rejected:", parsed, file=sys.stderr)
                continue
            for warning in parsed.warnings:
                print("warning:", warning, file=sys.stderr)
            if parsed.tesis.registro not in seen:
                seen.add(parsed.tesis.registro)
                out.append(with_court_name(tesis_to_record(parsed.tesis)))
    out.sort(key=lambda r: r["registro"])
    with (ROOT / "data" / "tesis.jsonl").open("w", encoding="utf-8") as handle:
        for record in out:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} tesis")


def build_notes() -> None:
    source = json.loads((SHARED / "vigencia_notas_558.json").read_text(encoding="utf-8"))
    keep = ("estado", "parcial", "por_registro", "por_clave", "desde")
    notes = {reg: {k: note.get(k) for k in keep} for reg, note in source["tesis"].items()}
    pair = json.loads((SHARED / "par_160584_2006225.json").read_text(encoding="utf-8"))
    relation = pair["relacion"]
    notes[pair["superada"]["registro"]] = {
        "estado": relation["estado"],
        "parcial": relation["parcial"],
        "por_registro": pair["sustituta"]["registro"],
        "por_clave": pair["sustituta"]["clave"],
        "desde": relation["desde"],
        "por_resolucion": relation["por_resolucion"],
    }
    bundle = {
        "attribution": "Facts from SJF validity notes (Semanario Judicial de la Federación, SCJN), "
        "as compiled in github jurexia/Jurexia-api datos/vigencia_tesis.json @ 01f6a0c7 and "
        "datos/vigencia_curada.json; only registro, estado, parcial, por_registro, por_clave "
        "and desde are kept. Judicial publications are not protected (LFDA art. 14, fr. VIII).",
        "tesis": dict(sorted(notes.items(), key=lambda kv: int(kv[0]))),
    }
    path = ROOT / "data" / "vigencia_notas.json"
    path.write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(notes)} notes")


if __name__ == "__main__":
    build_corpus()
    build_notes()
