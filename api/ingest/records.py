"""Turn one raw record (a dict from CSV or JSONL) into a validated ``Tesis`` or a ``Rejection``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from api.core.epocas import canonical_epoca, epoca_for_date, epoca_matches_year
from api.core.intent import MATERIAS as CANONICAL_MATERIAS
from api.core.models import IngestWarning, Rejection, Tesis, TesisTipo
from api.core.text import ends_mid_sentence, unencodable_at
from api.errors import InvalidField

MIN_YEAR = 1871  # Primera Época
# Longest accepted value per text field, in characters (the longest bundled texto is ~40k).
MAX_TEXT_CHARS: dict[str, int] = {
    "texto": 100_000,
    "precedentes": 100_000,
    "rubro": 5_000,
    "clave": 200,
    "epoca": 100,
    "tipo": 100,
    "instancia": 500,
    "organo": 1_000,
}
MAX_OTHER_CHARS = 1_000  # any other text field (materias, notes...)

MATERIAS: dict[str, str] = {m.lower(): m for m in CANONICAL_MATERIAS}
MATERIAS.update({"comun": "Común", "trabajo": "Laboral", "administrativo": "Administrativa"})


@dataclass(frozen=True, slots=True)
class Parsed:
    tesis: Tesis
    warnings: tuple[IngestWarning, ...]


def text_field(raw: dict[str, Any], key: str, limit: int | None = None) -> str:
    """Field ``key`` as stripped text ("" when absent); InvalidField when it is not text, is
    longer than ``limit`` (default: the field's own, ``MAX_TEXT_CHARS``) or not valid Unicode."""
    value = raw.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidField(key, f"expected text, got {type(value).__name__}: {value!r:.60}")
    limit = limit or MAX_TEXT_CHARS.get(key, MAX_OTHER_CHARS)
    if len(value) > limit:
        raise InvalidField(key, f"{len(value)} characters, at most {limit}")
    bad = unencodable_at(value)
    if bad is not None:
        raise InvalidField(key, f"not valid Unicode at character {bad}")
    return value.replace("\r\n", "\n").strip()


def _unencodable(value: object) -> bool:
    """A string anywhere in ``value`` that UTF-8 cannot encode (a lone surrogate)."""
    if isinstance(value, str):
        return unencodable_at(value) is not None
    if isinstance(value, list):
        return any(_unencodable(v) for v in value)
    if isinstance(value, dict):
        return any(_unencodable(k) or _unencodable(v) for k, v in value.items())
    return False


def _check_unicode(raw: dict[str, Any]) -> None:
    """Name the first field holding text no store can encode (keys included)."""
    for key, value in raw.items():
        if _unencodable(value) or _unencodable(key):
            name = key.encode("utf-8", "backslashreplace").decode("utf-8")
            raise InvalidField(name, "not valid Unicode (a lone surrogate)")


def _parcial(raw: dict[str, Any]) -> bool:
    value = raw.get("parcial", False)
    if value is None:
        return False
    if not isinstance(value, bool):  # "false" is truthy: only JSON booleans are accepted
        raise InvalidField("parcial", f"expected true or false, got {value!r}")
    return value


def _registro(raw: dict[str, Any]) -> int:
    value = raw.get("registro")
    if value is None or value == "":
        raise InvalidField("registro", "missing")
    if isinstance(value, bool) or not re.fullmatch(r"\s*[0-9]{1,9}\s*", str(value)):
        raise InvalidField("registro", f"not a positive integer: {value!r}")
    number = int(value)
    if number <= 0:
        raise InvalidField("registro", f"not a positive integer: {value!r}")
    return number


def _fecha(raw: dict[str, Any]) -> date | None:
    value = raw.get("fecha_publicacion")
    if value in (None, "") or str(value).startswith(("0001", "01/01/0001")):
        return None
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError as exc:
        raise InvalidField("fecha_publicacion", f"not an ISO date: {value!r}") from exc


def _anio(raw: dict[str, Any], fecha: date | None, today: date) -> int:
    value = raw.get("anio")
    if value in (None, ""):
        if fecha is None:
            raise InvalidField("anio", "missing, and no fecha_publicacion to derive it from")
        if not MIN_YEAR <= fecha.year <= today.year + 1:
            raise InvalidField(
                "fecha_publicacion", f"year {fecha.year} is outside {MIN_YEAR}..{today.year + 1}"
            )
        return fecha.year
    if isinstance(value, bool) or not re.fullmatch(r"\s*[0-9]{1,4}\s*", str(value)):
        raise InvalidField("anio", f"not a year: {value!r}")
    year = int(str(value))
    if not MIN_YEAR <= year <= today.year + 1:
        raise InvalidField("anio", f"{year} is outside {MIN_YEAR}..{today.year + 1}")
    if fecha is not None and fecha.year != year:
        raise InvalidField("anio", f"{year} contradicts fecha_publicacion {fecha.isoformat()}")
    return year


def _tipo(raw: dict[str, Any], clave: str) -> TesisTipo:
    folded = text_field(raw, "tipo").lower()
    if "jurisprudencia" in folded or folded == "j":
        return "Jurisprudencia"
    if "aislada" in folded or folded == "a":
        return "Aislada"
    if not folded:
        return "Jurisprudencia" if "/J." in clave else "Aislada"
    raise InvalidField("tipo", f"expected Jurisprudencia or Aislada, got {raw.get('tipo')!r}")


def _materias(raw: dict[str, Any]) -> tuple[str, ...]:
    value = raw.get("materias") or []
    items = value.split("|") if isinstance(value, str) else value
    if not isinstance(items, list):
        raise InvalidField("materias", f"expected a list, got {type(value).__name__}")
    out: list[str] = []
    for item in items:
        name = MATERIAS.get(str(item).strip().lower())
        if name is None:
            raise InvalidField("materias", f"unknown materia {item!r}")
        if name not in out:
            out.append(name)
    return tuple(out)


# "Informe 1979, Tercera Parte, Tribunales Colegiados de Circuito, tesis 22": the annual report
# that published the tesis, when a source's year field went wrong (one export gave 1948, a
# year its decree text names, to a Séptima Época tesis of 1979)
_INFORME_YEAR = re.compile(r"\bInforme (19\d\d|20\d\d)\b")


def _informe_year(epoca: str, anio: int, precedentes: str) -> int | None:
    """The year of the Informe named in ``precedentes``, when ``anio`` is outside ``epoca``
    and that year is inside it; else None."""
    match = _INFORME_YEAR.search(precedentes)
    if match is None or epoca_matches_year(epoca, anio):
        return None
    reported = int(match.group(1))
    return reported if epoca_matches_year(epoca, reported) else None


def parse_record(raw: dict[str, Any], source: str, line: int, today: date) -> Parsed | Rejection:
    """Validate one record; the rejection names the record, the field and the reason."""
    registro_label = str(raw.get("registro")) if raw.get("registro") not in (None, "") else None
    if registro_label is not None and not registro_label.isascii():  # printable in any report
        registro_label = registro_label.encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        _check_unicode(raw)
        registro = _registro(raw)
        rubro = text_field(raw, "rubro")
        if not rubro:
            raise InvalidField("rubro", "missing or empty")
        texto = text_field(raw, "texto")
        if not texto:
            raise InvalidField("texto", "missing or empty")
        clave = text_field(raw, "clave")
        fecha = _fecha(raw)
        anio = _anio(raw, fecha, today)
        epoca_label = text_field(raw, "epoca")
        warnings: list[IngestWarning] = []
        if epoca_label:
            epoca = canonical_epoca(epoca_label)
            if epoca is None:
                raise InvalidField("epoca", f"unknown época {epoca_label!r}")
            reported = None if fecha else _informe_year(epoca, anio, text_field(raw, "precedentes"))
            if reported is not None:
                reason = f"{anio} is outside the {epoca}; took {reported} from its precedentes"
                warnings.append(IngestWarning(source, line, registro, "anio", reason))
                anio = reported
            if not epoca_matches_year(epoca, anio):
                warnings.append(
                    IngestWarning(
                        source,
                        line,
                        registro,
                        "epoca",
                        f"{epoca} does not match year {anio}; kept as given",
                    )
                )
        else:
            derived = epoca_for_date(fecha or date(anio, 7, 1))
            if derived is None:
                raise InvalidField("epoca", f"missing and no época covers {anio}")
            epoca = derived
            warnings.append(
                IngestWarning(source, line, registro, "epoca", f"missing; derived {epoca}")
            )
        tesis = Tesis(
            registro=registro,
            rubro=rubro,
            texto=texto,
            epoca=epoca,
            anio=anio,
            tipo=_tipo(raw, clave),
            materias=_materias(raw),
            instancia=text_field(raw, "instancia"),
            organo=text_field(raw, "organo"),
            clave=clave,
            precedentes=text_field(raw, "precedentes"),
            fecha=fecha,
            partial=_parcial(raw) or ends_mid_sentence(texto),
        )
        if tesis.partial and not raw.get("parcial"):
            warnings.append(
                IngestWarning(source, line, registro, "texto", "ends mid-sentence; marked partial")
            )
    except InvalidField as err:
        return Rejection(source, line, registro_label, err.field, err.reason)
    return Parsed(tesis, tuple(warnings))


def tesis_to_record(tesis: Tesis) -> dict[str, Any]:
    """The canonical JSONL form (the inverse of ``parse_record``)."""
    record: dict[str, Any] = {
        "registro": tesis.registro,
        "clave": tesis.clave,
        "rubro": tesis.rubro,
        "texto": tesis.texto,
        "precedentes": tesis.precedentes,
        "epoca": tesis.epoca,
        "anio": tesis.anio,
        "fecha_publicacion": tesis.fecha.isoformat() if tesis.fecha else None,
        "tipo": tesis.tipo,
        "materias": list(tesis.materias),
        "instancia": tesis.instancia,
        "organo": tesis.organo,
    }
    if tesis.partial:
        record["parcial"] = True
    if tesis.dates:
        record["fechas"] = {name: day.isoformat() for name, day in tesis.dates}
        record["roles"] = dict(tesis.date_roles)
    if tesis.extra:
        record["extra"] = dict(tesis.extra)
    return record
