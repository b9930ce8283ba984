"""Mexican institutions and laws by their acronyms, spelled out as the tesis spell them (pure).

A litigant writes "la CFE me cortó la luz" or "me dieron de baja en el IMSS"; the tesis write
"Comisión Federal de Electricidad" and "Instituto Mexicano del Seguro Social" (of the bundled
corpus's 1,058 tesis, 20 spell out the IMSS and 3 use its acronym; none writes "CFE", "LFT" or
"CFF"). BM25 cannot match an acronym to its name, and e5 knows few of them. ``spell_out`` adds the
names of the acronyms a question uses to its BM25 query, and a date-sorted question's topic reads
the name ("el primer criterio sobre la CFE" is about "comisión federal electricidad").

Acronyms are matched as whole words. Written in capitals always; in lower case or capitalized
("Profeco") only when the lower-case word is not also a Spanish word ("sep", "ine" and "mp" are not expanded, "imss" is).
"""

from __future__ import annotations

import re

# acronym -> its name as the tesis write it
ACRONYMS: dict[str, str] = {
    # institutions
    "IMSS": "Instituto Mexicano del Seguro Social",
    "ISSSTE": "Instituto de Seguridad y Servicios Sociales de los Trabajadores del Estado",
    "INFONAVIT": "Instituto del Fondo Nacional de la Vivienda para los Trabajadores",
    "FOVISSSTE": "Fondo de la Vivienda del ISSSTE",
    "CFE": "Comisión Federal de Electricidad",
    "PEMEX": "Petróleos Mexicanos",
    "SHCP": "Secretaría de Hacienda y Crédito Público",
    "SAT": "Servicio de Administración Tributaria",
    "SEP": "Secretaría de Educación Pública",
    "STPS": "Secretaría del Trabajo y Previsión Social",
    "SEDENA": "Secretaría de la Defensa Nacional",
    "SRE": "Secretaría de Relaciones Exteriores",
    "PROFECO": "Procuraduría Federal del Consumidor",
    "CONDUSEF": "Comisión Nacional para la Protección y Defensa de los Usuarios de Servicios "
    "Financieros",
    "CNBV": "Comisión Nacional Bancaria y de Valores",
    "IMPI": "Instituto Mexicano de la Propiedad Industrial",
    "CNDH": "Comisión Nacional de los Derechos Humanos",
    "IDH": "Interamericana de Derechos Humanos",  # "la Corte IDH"
    "INE": "Instituto Nacional Electoral",
    "IFE": "Instituto Federal Electoral",
    "PGR": "Procuraduría General de la República",
    "FGR": "Fiscalía General de la República",
    "MP": "Ministerio Público",
    "SCJN": "Suprema Corte de Justicia de la Nación",
    "TCC": "Tribunal Colegiado de Circuito",
    "TFJA": "Tribunal Federal de Justicia Administrativa",
    "TFJFA": "Tribunal Federal de Justicia Fiscal y Administrativa",
    "TFCA": "Tribunal Federal de Conciliación y Arbitraje",
    "JFCA": "Junta Federal de Conciliación y Arbitraje",
    "JLCA": "Junta Local de Conciliación y Arbitraje",
    "CJF": "Consejo de la Judicatura Federal",
    # laws and codes
    "LFT": "Ley Federal del Trabajo",
    "LSS": "Ley del Seguro Social",
    "CFF": "Código Fiscal de la Federación",
    "ISR": "Impuesto sobre la Renta",
    "IVA": "Impuesto al Valor Agregado",
    "CNPP": "Código Nacional de Procedimientos Penales",
    "CFPC": "Código Federal de Procedimientos Civiles",
    "CPEUM": "Constitución Política de los Estados Unidos Mexicanos",
    "LFPCA": "Ley Federal de Procedimiento Contencioso Administrativo",
    "DOF": "Diario Oficial de la Federación",
    "RFC": "Registro Federal de Contribuyentes",
    "LFTSE": "Ley Federal de los Trabajadores al Servicio del Estado",
    "LGTOC": "Ley General de Títulos y Operaciones de Crédito",
    "LGSM": "Ley General de Sociedades Mercantiles",
    "CFPP": "Código Federal de Procedimientos Penales",
    "CPF": "Código Penal Federal",
    "CCF": "Código Civil Federal",
    "TSJ": "Tribunal Superior de Justicia",
    "PTU": "participación de los trabajadores en las utilidades",
    "RAN": "Registro Agrario Nacional",
    "TUA": "Tribunal Unitario Agrario",
    "DIF": "Desarrollo Integral de la Familia",
    "COFEPRIS": "Comisión Federal para la Protección contra Riesgos Sanitarios",
    "SAR": "Sistema de Ahorro para el Retiro",
    "AFORE": "Administradora de Fondos para el Retiro",
}
# Acronyms that are also words in lower case: expanded only when written in capitals.
_ALSO_WORDS = frozenset(
    "SAT SEP INE MP SRE IVA DOF IFE RAN TUA SAR CPF DIF AFORE".split()  # noqa: SIM905
)

_CAPITALS = re.compile(r"\b(?:" + "|".join(sorted(ACRONYMS, key=len, reverse=True)) + r")\b")
_LOWER = re.compile(  # and capitalized: "Profeco", "Pemex", "Infonavit"
    r"\b(?:" + "|".join(a.lower() for a in ACRONYMS if a not in _ALSO_WORDS) + r")\b",
    re.IGNORECASE,
)


def _acronym(match: re.Match[str]) -> str:
    return match.group(0).upper()


def spelled_out(text: str) -> list[str]:
    """The names of the acronyms ``text`` uses, in order, each once."""
    found = [m.group(0) for m in _CAPITALS.finditer(text)]
    found += [_acronym(m) for m in _LOWER.finditer(text)]
    return [ACRONYMS[a] for a in dict.fromkeys(found)]


def with_names(text: str) -> str:
    """``text`` with each acronym replaced by its name: "el primer criterio sobre la CFE" ->
    "... sobre la Comisión Federal de Electricidad"."""
    text = _CAPITALS.sub(lambda m: ACRONYMS[m.group(0)], text)
    return _LOWER.sub(lambda m: ACRONYMS[_acronym(m)], text)
