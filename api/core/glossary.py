"""English legal terms in the Spanish of the tesis, for cross-lingual lexical retrieval (pure).

e5's multilingual vectors place an English question near its Spanish answer, but only loosely
(cosines 0.06 lower than for the same question in Spanish), and BM25 finds nothing: the corpus
has no English words. ``translate_terms`` turns the legal vocabulary of an English question into
the Spanish words the tesis use, so the lexical side of the hybrid search works again. It is a
glossary, not a translator: phrases are matched longest first, unknown words are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from api.core.language import ENGLISH_WORDS
from api.core.text import analyze, fold, lemmas
from api.core.thesaurus import Thesaurus

# English phrase -> Spanish words (" | " between readings: "dismissal" of a suit or of a worker).
# Phrases before the words they contain (matched longest first).
GLOSSARY: dict[str, str] = {
    # amparo procedure
    "amparo": "amparo",
    "writ of amparo": "juicio de amparo",
    "indirect amparo": "amparo indirecto",
    "direct amparo": "amparo directo",
    "constitutional hearing": "audiencia constitucional",
    "constitutional trial": "juicio constitucional",
    "district judge": "juez de distrito",
    "district court": "juzgado de distrito",
    "collegiate court": "tribunal colegiado",
    "circuit court": "tribunal colegiado circuito",
    "supreme court": "suprema corte justicia",
    "plenary": "pleno",
    "chamber": "sala",
    "injunction": "suspensión",
    "stay": "suspensión",
    "suspension": "suspensión",
    "suspend": "suspensión suspender",
    "suspending": "suspensión suspender",
    "suspended": "suspensión suspendido",
    "provisional suspension": "suspensión provisional",
    "definitive suspension": "suspensión definitiva",
    "interim relief": "suspensión provisional",
    "dismiss": "sobreseer | sobreseimiento",
    "dismissal": "sobreseimiento | desechamiento | despido",
    "dismissed": "sobreseimiento | desechada",
    "reject the complaint": "desechar demanda",
    "inadmissible": "improcedente | improcedencia",
    "inadmissibility": "improcedencia",
    "grounds for inadmissibility": "causa de improcedencia",
    "standing": "interés jurídico | interés legítimo | legitimación | personalidad",
    "legitimate interest": "interés legítimo",
    "legal interest": "interés jurídico",
    "complainant": "quejoso",
    "petitioner": "quejoso",
    "plaintiff": "actor | demandante",
    "defendant": "demandado | inculpado | procesado",
    "third party": "tercero interesado",
    "interested third party": "tercero interesado",
    "responsible authority": "autoridad responsable",
    "authority": "autoridad",
    "authorities": "autoridades",
    "challenged act": "acto reclamado",
    "contested act": "acto reclamado",
    "claimed act": "acto reclamado",
    "the act": "acto",
    "report": "informe justificado",
    "justified report": "informe justificado",
    "denied the act": "negativa acto",
    "fictitious denial": "negativa ficta",
    "implied denial": "negativa ficta",
    "tacit denial": "negativa ficta",
    "deemed denial": "negativa ficta",
    "deny": "negar | negativa",
    "denied": "negó | negativa",
    "appeal": "recurso de revisión | apelación",
    "review": "revisión",
    "motion for review": "recurso de revisión",
    "complaint appeal": "recurso de queja",
    "queja": "queja",
    "complaint": "demanda",
    "claim": "demanda | reclamación",
    "lawsuit": "demanda | juicio",
    "trial": "juicio",
    "proceeding": "procedimiento",
    "proceedings": "procedimiento",
    "hearing": "audiencia",
    "evidence": "pruebas",
    "proof": "prueba",
    "burden of proof": "carga de la prueba",
    "witness": "testigo",
    "witnesses": "testigos",
    "expert": "perito | pericial",
    "expert witness": "perito | pericial",
    "expert witnesses": "peritos | pericial",
    "expert opinion": "dictamen pericial",
    "judgment": "sentencia",
    "ruling": "resolución | sentencia",
    "decision": "resolución",
    "award": "laudo",
    "labor award": "laudo",
    "unsigned": "firma",
    "signature": "firma",
    "signed": "firmado",
    "notice": "notificación",
    "notification": "notificación",
    "served": "notificación | emplazamiento",
    "summons": "emplazamiento",
    "deadline": "plazo | término",
    "time limit": "plazo | término",
    "term": "término",
    "days": "días",
    "business days": "días hábiles | días inhábiles",  # whether a day counts: either word
    "non-business days": "días inhábiles",
    "saturday": "sábado",
    "saturdays": "sábados",
    "bond": "fianza | garantía",
    "guarantee": "garantía",
    "precedent": "jurisprudencia | precedente",
    "case law": "jurisprudencia",
    "binding": "obligatoria jurisprudencia",
    "contradiction of criteria": "contradicción de tesis",
    "conflicting rulings": "contradicción de tesis",
    "impediment": "impedimento",
    "recusal": "impedimento | recusación",
    "recuse": "impedido | excusa",
    "conflict of interest": "impedimento | interés personal",
    "jurisdiction": "competencia | jurisdicción",
    "competence": "competencia",
    "res judicata": "cosa juzgada",
    "statute of limitations": "prescripción",
    "limitation period": "prescripción",
    "lapse": "caducidad",
    "expiry": "caducidad",
    "under oath": "bajo protesta de decir verdad",
    "sworn statement": "bajo protesta de decir verdad",
    "good faith": "buena fe",
    "due process": "debido proceso | audiencia",
    "right to be heard": "garantía de audiencia",
    "human rights": "derechos humanos",
    "inter-american court": "corte interamericana",
    "conventionality review": "control de convencionalidad",
    "pro persona": "pro persona",
    "unconstitutional": "inconstitucional",
    "constitutionality": "constitucionalidad",
    "constitution": "constitución",
    "constitutional": "constitucional",
    "statute": "ley",
    "law": "ley",
    "decree": "decreto",
    "regulation": "reglamento",
    "mining law": "ley minera",
    "mining": "minera",
    "concession": "concesión",
    "environmental": "ambiental | medio ambiente",
    "environment": "medio ambiente",
    "association": "asociación",
    "civil association": "asociación civil",
    "public works": "obra pública",
    "neighbor": "vecino",
    "neighbour": "vecino",
    "school": "escuela | escolar",
    "schools": "escuelas",
    "food": "alimentos",
    "children": "menores | niñas | niños",
    "minor": "menor",
    "best interests of the child": "interés superior del menor",
    "indigenous": "indígena",
    # penal
    "criminal": "penal",
    "arrest warrant": "orden de aprehensión",
    "arrest": "aprehensión | detención",
    "detention": "detención",
    "pretrial detention": "prisión preventiva",
    "prison": "prisión",
    "accusatory system": "sistema acusatorio",
    "adversarial system": "sistema acusatorio",
    "prosecutor": "ministerio público",  # not "fiscal": the tesis' fiscal is tax
    "public prosecutor": "ministerio público",
    "accused": "inculpado | imputado",
    "defendant's": "inculpado",
    "victim": "víctima | ofendido",
    "crime": "delito",
    "offense": "delito",
    "theft": "robo",
    "fraud": "fraude",
    "homicide": "homicidio",
    "murder": "homicidio",
    "bail": "libertad caucional",
    "release": "libertad",
    "sentence": "pena | sentencia",
    "penalty": "pena",
    "fine": "multa",
    "fines": "multas",
    "confession": "confesión",
    "damages": "daños perjuicios | reparación",
    "restitution": "reparación del daño",
    # labour
    "labor": "laboral | trabajo",
    "labour": "laboral | trabajo",
    "worker": "trabajador",
    "workers": "trabajadores",
    "employee": "trabajador",
    "employees": "trabajadores",
    "employer": "patrón",
    "employers": "patrones",
    "dismissal from work": "despido",
    "unfair dismissal": "despido injustificado",
    "fired": "despido",
    "layoff": "despido",
    "reinstatement": "reinstalación",
    "wages": "salarios",
    "salary": "salario",
    "union": "sindicato",
    "collective agreement": "contrato colectivo",
    "collective bargaining": "contrato colectivo",
    "strike": "huelga",
    "labor board": "junta de conciliación y arbitraje",
    "conciliation": "conciliación",
    "arbitration": "arbitraje",
    "social security": "seguro social",
    "pension": "pensión",
    "seniority": "antigüedad",
    "overtime": "horas extras | tiempo extraordinario",
    # fiscal and administrative
    "tax": "impuesto | fiscal | contribución",
    "taxes": "impuestos | contribuciones",
    "taxpayer": "contribuyente",
    "tax authority": "autoridad fiscal",
    "tax credit": "crédito fiscal",
    "income tax": "impuesto sobre la renta",
    "value added tax": "impuesto al valor agregado",
    "customs": "aduana | aduanero",
    "audit": "facultades de comprobación | visita",
    "administrative": "administrativo",
    "nullity": "nulidad",
    "annulment": "nulidad",
    "public servant": "servidor público",
    "civil servant": "servidor público",
    "official": "funcionario",
    "expropriation": "expropiación",
    "license": "licencia",
    "permit": "permiso | licencia",
    "municipal": "municipal | municipio",
    "municipality": "municipio",
    "state": "estado",
    "federal": "federal",
    "telecommunications": "telecomunicaciones",
    "broadcasting": "radiodifusión",
    "slot machines": "máquinas",
    "gaming machines": "máquinas juegos",
    "commission": "comisión",
    "stores": "tiendas | comercios",
    "business": "negocio | comercio",
    # civil and commercial
    "civil": "civil",
    "contract": "contrato",
    "lease": "arrendamiento",
    "tenant": "arrendatario",
    "landlord": "arrendador",
    "sale": "compraventa",
    "purchase": "compraventa",
    "property": "propiedad | inmueble",
    "real estate": "inmueble",
    "possession": "posesión",
    "adverse possession": "prescripción positiva | usucapión",
    "ownership": "propiedad | dominio",
    "inheritance": "herencia | sucesión",
    "will": "testamento",
    "mortgage": "hipoteca",
    "promissory note": "pagaré",
    "check": "cheque",
    "cheque": "cheque",
    "bank": "banco | bancaria",
    "interest rate": "tasa de interés",
    "usury": "usura",
    "debt": "adeudo | deuda",
    "creditor": "acreedor",
    "debtor": "deudor",
    "seizure": "embargo",
    "attachment": "embargo",
    "garnishment": "embargo",
    "assets": "bienes",
    "service of process": "emplazamiento",
    "enforcement": "ejecución",
    "execution": "ejecución",
    "divorce": "divorcio",
    "grounds for divorce": "causal divorcio",
    "divorce grounds": "causal divorcio",
    "custody": "custodia",
    "child support": "alimentos | pensión alimenticia",
    "alimony": "alimentos",
    "marriage": "matrimonio",
    "paternity": "paternidad",
    "adoption": "adopción",
    # agrarian
    "ejido": "ejido",
    "communal land": "bienes comunales",
    "agrarian": "agrario",
    "land": "tierras | predio",
    # more of the everyday legal vocabulary of questions
    "seniority premium": "prima de antigüedad",
    "overtime pay": "horas extras | tiempo extraordinario",
    "written notice": "aviso por escrito",
    "notice of dismissal": "aviso de rescisión",
    "fire": "despido",
    "without cause": "injustificado | sin causa",
    "acquittal": "sentencia absolutoria | absolución",
    "acquitted": "absuelto | absolutoria",
    "conviction": "sentencia condenatoria",
    "convicted": "condenado",
    "home inspection": "visita domiciliaria",
    "tax audit": "visita domiciliaria | facultades de comprobación",
    "inspection": "visita | inspección",
    "exhaust": "agotar",
    "ordinary remedies": "recursos ordinarios",
    "remedies": "recursos | medios de defensa",
    "remedy": "recurso | medio de defensa",
    "petition": "demanda",
    "amparo petition": "demanda de amparo",
    "eviction": "desocupación | lanzamiento",
    "evict": "desocupación | lanzamiento",
    "evicted": "desocupación | lanzamiento",
    "court order": "orden judicial | mandamiento",
    "rent": "renta | arrendamiento",
    "loan": "préstamo | mutuo",
    "free loan": "comodato",
    "trademark": "marca",
    "trademarks": "marcas",
    "notary": "notario",
    "power of attorney": "poder | mandato",
    "document": "documento",
    "documents": "documentos",
    "foreign": "extranjero",
    "translation": "traducción",
    "mail": "correo",
    "postal": "correo | postal",
    "consumer": "consumidor",
    "consumer protection": "protección al consumidor | profeco",
    "company": "sociedad | empresa",
    "shareholder": "accionista | socio",
    "partnership": "sociedad",
    "insurance": "seguro",
    "insurer": "aseguradora",
    "accident": "accidente",
    "work accident": "riesgo de trabajo",
    "negligence": "negligencia | culpa",
    "liability": "responsabilidad",
    "minors": "menores",
    "guardian": "tutor",
    "testimony": "testimonio | testimonial",
    "first instance": "primera instancia",
    "stay of execution": "suspensión",
    "compliance": "cumplimiento",
    "retroactive": "retroactivo | retroactividad",
    "retroactivity": "retroactividad",
    "equality": "igualdad",
    "discrimination": "discriminación",
    "freedom of expression": "libertad de expresión",
    "free speech": "libertad de expresión",
    "privacy": "privacidad | vida privada",
    "water": "agua",
    "health": "salud",
    "education": "educación",
    "exemption": "exención",
    "refund": "devolución",
    "tariff": "tarifa",
    "electricity": "energía eléctrica",
    # frequent in the corpus's rubros or in litigants' questions, missing above
    "appeals": "apelación | recurso",
    "grievance": "agravio",
    "grievances": "agravios",
    "withdrawal": "desistimiento",
    "withdraw": "desistimiento | desistirse",
    "withdraws": "desistimiento | desiste",
    "withdrew": "desistimiento | desistió",
    "estate": "sucesión",
    "estates": "sucesiones",
    "spouse": "cónyuge",
    "executor": "albacea",
    "heir": "heredero | herencia",
    "injuries": "lesiones",
    "untimely": "extemporáneo | extemporaneidad",
    "late filing": "extemporaneidad",
    "presumption": "presunción",
    "deposit": "depósito",
    "back pay": "salarios caídos",
    "lost wages": "salarios caídos",
    "compensation": "indemnización",
    "defense": "excepción | defensa",
    "defenses": "excepciones | defensas",
    "postpone": "diferimiento",
    "postponement": "diferimiento",
    "supervening": "superveniente",
    "extension": "prórroga",
    "injured party": "perjudicado | ofendido",
    "amend the complaint": "ampliación de la demanda",
    "amendment": "ampliación | modificación",
    "offer": "ofrecimiento",
    "job offer": "ofrecimiento del trabajo",
    "military": "militares",
    "traffic": "tránsito",
    "vehicle": "vehículo",
    "vehicles": "vehículos",
    "payment": "pago",
    "interpretation": "interpretación",
    "article": "artículo",
    "code": "código",
    "registration": "registro",
    "reasoning": "motivación",
    "statement": "declaración",
    "copies": "copias",
    "appearance": "comparecencia",
    "omission": "omisión",
    "revocation": "revocación",
    "incidental proceeding": "incidente",
    "lack of jurisdiction": "incompetencia",
    "outright": "de plano",
    "ineffective": "inoperante | inoperantes",
    "aggravating": "calificativa | agravante",
    "precautionary measure": "medida cautelar",
    "search warrant": "orden de cateo",
    "prove": "probar | prueba",
    "proves": "probar | prueba",
    "proved": "probar | prueba",
    "schedule": "horario | jornada",
    "work schedule": "horario | jornada",
    "working hours": "jornada | horario",
    "hours": "horas | jornada",
    "claims": "reclamación | reclama",
    "claimed": "reclamado | reclamó",
    "demand": "demanda",
    "sue": "demandar | demanda",
    "reinstated": "reinstalación | reinstalado",
    "wage": "salario",
    "owe": "adeudo | pago",
    "owed": "adeudo | adeudado",
    "lawyer": "defensor | abogado",
    "attorney": "defensor | abogado",
    "preliminary investigation": "averiguación previa",
    "torture": "tortura",
    "retroactively": "retroactividad | retroactivo",
    "seize": "embargo | embargar",
    "seized": "embargo | embargado",
    "bank account": "cuenta bancaria",
    "accident at work": "riesgo de trabajo | accidente",
    "workplace accident": "riesgo de trabajo | accidente",
    "resign": "renuncia | retiro voluntario",
    "resigns": "renuncia | retiro voluntario",
    "resigned": "renuncia | retiro voluntario",
    "resignation": "renuncia | retiro voluntario",
    "inactivity": "inactividad procesal",
    "lack of activity": "inactividad procesal",
    "expire": "caducidad",
    "expires": "caducidad",
    "vacate": "desocupación",
    "vacated": "desocupación",
    "leaving the property": "desocupación",
    "moved out": "desocupación",
    # common nouns of questions
    "validity": "validez | vigencia",
    "valid": "válido | validez",
    "void": "nulo | nulidad",
    "null": "nulo",
    "nonexistent": "inexistente",
    "requirement": "requisito",
    "requirements": "requisitos",
    "obligation": "obligación",
    "violation": "violación",
    "violations": "violaciones",
    "procedural": "procesal",
    "hear": "audiencia | vista",
    "heard": "vista | audiencia",
    "notify": "notificar",
    "before": "antes",
    "partial": "parcial",
    "grounds": "causa | motivo",
    "cause": "causa",
    "reason": "motivo",
    "different": "distinto | diferente",
    "personal": "personal",
    "interest": "interés",
    "act": "acto",
    "acts": "actos",
    # terms a third prober's English wordings reached for (temporal questions abstained on
    # them): the usual English names of Mexican institutions and proceedings
    "formal prison order": "auto de formal prisión",
    "formal prison orders": "auto de formal prisión",
    "formal imprisonment order": "auto de formal prisión",
    "negotiable instrument": "títulos de crédito",
    "negotiable instruments": "títulos de crédito",
    "credit instrument": "títulos de crédito",
    "credit instruments": "títulos de crédito",
    "technology transfer": "transferencia de tecnología",
    "tech transfer": "transferencia de tecnología",
    "assembly": "asamblea",
    "assemblies": "asamblea",
    "ejido assembly": "asamblea ejidal | asamblea de ejidatarios",
    "ejido assemblies": "asamblea ejidal | asamblea de ejidatarios",
    "soldier": "militares",
    "soldiers": "militares",
    "occupational hazard": "riesgo de trabajo",
    "occupational hazards": "riesgos de trabajo",
    "occupational risk": "riesgo de trabajo",
    "workplace accidents": "riesgo de trabajo | accidente",
    "constructive denial": "negativa ficta",
    "administrative silence": "negativa ficta",
    "witness testimony": "prueba testimonial | testigos",
    "witness evidence": "prueba testimonial | testigos",
    "expert report": "dictamen pericial | perito",
    "expert reports": "dictamen pericial | peritos",
    "expert witness report": "dictamen pericial | perito",
    "expert witness reports": "dictamen pericial | peritos",
    "right to a hearing": "garantía de audiencia",
    "crime victim": "víctima | ofendido",
    "crime victims": "víctima | ofendido",
    "labor awards": "laudo",
}


def with_plurals(table: dict[str, str]) -> dict[str, str]:
    """``table`` plus each entry with its last word in the regular plural, where the table
    lacks it ("lease" -> "leases", "authority" -> "authorities", "arrest warrant" -> "arrest
    warrants"), with the singular's Spanish words."""
    plurals: dict[str, str] = {}
    for phrase, words in table.items():
        if phrase.endswith("s"):
            continue
        consonant_y = phrase.endswith("y") and phrase[-2:-1] not in tuple("aeiou")
        plural = phrase[:-1] + "ies" if consonant_y else phrase + "s"
        if plural not in table:
            plurals[plural] = words
    return {**table, **plurals}


_GLOSSARY = Thesaurus(with_plurals(GLOSSARY))
GLOSSARY_COVERAGE = 0.5  # least share of an English question the glossary must know


def reads_as_english(text: str) -> bool:
    """Whether words of no language's grammar ("overtime", "res judicata") are English legal
    terms: the glossary knows most of them and gives the corpus's other words for them."""
    spanish = set(analyze(translate_terms(text)))
    return coverage(text) >= GLOSSARY_COVERAGE and bool(spanish - set(analyze(text)))


def translate_terms(text: str) -> str:
    """The Spanish words of the glossary phrases found in ``text`` (longest match first)."""
    return _GLOSSARY.terms(text)


def translations(text: str) -> list[str]:
    """``text``'s glossary phrases in Spanish, one reading of each at a time ("dismissal" is
    "sobreseimiento", "desechamiento" or "despido"): what a topic can mean."""
    return _GLOSSARY.readings(text)


def coverage(text: str, only: Collection[str] | None = None) -> float:
    """The share of ``text``'s content words (not English function words, 3 letters or more)
    inside glossary phrases: how much of an English question the glossary understood. "What
    is res judicata?" 1.0; "Do I need a license to fly a drone?" 0.25 ("license" only).
    ``only``: count just the words with these terms (``lemmas``: a temporal question's topic:
    "the first thesis about overtime" is understood when "overtime" is)."""
    folded = fold(text)
    content = [
        m
        for m in _WORD_SPANS.finditer(folded)
        if _is_content(m.group(0)) and (only is None or set(lemmas(m.group(0))) & set(only))
    ]
    if not content:
        return 0.0
    spans = _GLOSSARY.spans(folded)
    return sum(1 for w in content if _inside(w, spans)) / len(content)


def glossary_words(text: str) -> set[str]:
    """The ``lemmas`` of ``text``'s words that glossary phrases cover ("Saturdays": "saturd")."""
    folded = fold(text)
    spans = _GLOSSARY.spans(folded)
    words = (m for m in _WORD_SPANS.finditer(folded) if _inside(m, spans))
    return {term for m in words for term in lemmas(m.group(0))}


def untranslated(text: str) -> str:
    """``text``'s content words (folded) that no glossary phrase covers, space-separated: an
    English question's Spanish terms and names ("albacea", "juez de distrito", "CFE")."""
    folded = fold(text)
    spans = _GLOSSARY.spans(folded)
    return " ".join(
        m.group(0)
        for m in _WORD_SPANS.finditer(folded)
        if not _inside(m, spans) and _is_content(m.group(0))
    )


def _inside(word: re.Match[str], spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= word.start() and word.end() <= b for a, b in spans)


_WORD_SPANS = re.compile(r"\w+")


def _is_content(word: str) -> bool:
    return len(word) >= 3 and word not in ENGLISH_WORDS
