"""Search-log records and what monitoring computes from them (pure: no I/O, no clock).

Everything is a function of a list of ``LogEntry`` (plus corpus counts passed in by the
caller), so the same numbers come out of any log backend. Import from here:

* ``records``: ``LogEntry``, ``LoggedHit``, ``LoggedDiscard``, ``Feedback``;
* ``codec``: ``entry_to_dict`` / ``entry_from_dict`` (what backends store);
* ``distributions``: boost histograms, year and época counts, shares, per-materia stats;
* ``alerts``: ``detect_alerts`` and the alert codes;
* ``report``: ``build_report``, all of the above over one window.

Usage::

    hist = boost_histograms(entries)              # [BoostHistogram("default", (Bin(..), ...))]
    found = detect_alerts(entries, MonitoringThresholds(), coverage, now=now)
    report = build_report(entries, corpus=corpus, coverage=coverage,
                          thresholds=MonitoringThresholds(), now=now, window_hours=168)
"""

from api.core.monitoring.alerts import (
    ALL_PRE_2000,
    COVERAGE_GAP,
    INVERSION,
    INVERSION_MIN_BOOST_RATIO,
    MANY_PRE_REFORM,
    MAX_EXAMPLES,
    SEVERITY_ORDER,
    SUPERSEDED_CITED,
    SUPERSEDED_RETRIEVED,
    Alert,
    CoverageCount,
    MonitoringThresholds,
    Severity,
    all_pre_2000_alert,
    coverage_alerts,
    detect_alerts,
    inversion_alert,
    inversions,
    pre_reform_alert,
    superseded_alerts,
)
from api.core.monitoring.codec import entry_from_dict, entry_to_dict
from api.core.monitoring.distributions import (
    BOOST_BIN_WIDTH,
    UNKNOWN,
    Bin,
    BoostHistogram,
    Distribution,
    MateriaStats,
    Shares,
    boost_histograms,
    by_materia,
    cited_distribution,
    distribution,
    retrieved_distribution,
    shares,
)
from api.core.monitoring.records import (
    LOG_KINDS,
    MODERN_YEAR,
    Feedback,
    LogEntry,
    LoggedDiscard,
    LoggedHit,
    LogKind,
)
from api.core.monitoring.report import MonitoringReport, build_report

__all__ = [
    "ALL_PRE_2000",
    "BOOST_BIN_WIDTH",
    "COVERAGE_GAP",
    "INVERSION",
    "INVERSION_MIN_BOOST_RATIO",
    "LOG_KINDS",
    "MANY_PRE_REFORM",
    "MAX_EXAMPLES",
    "MODERN_YEAR",
    "SEVERITY_ORDER",
    "SUPERSEDED_CITED",
    "SUPERSEDED_RETRIEVED",
    "UNKNOWN",
    "Alert",
    "Bin",
    "BoostHistogram",
    "CoverageCount",
    "Distribution",
    "Feedback",
    "LogEntry",
    "LogKind",
    "LoggedDiscard",
    "LoggedHit",
    "MateriaStats",
    "MonitoringReport",
    "MonitoringThresholds",
    "Severity",
    "Shares",
    "all_pre_2000_alert",
    "boost_histograms",
    "build_report",
    "by_materia",
    "cited_distribution",
    "coverage_alerts",
    "detect_alerts",
    "distribution",
    "entry_from_dict",
    "entry_to_dict",
    "inversion_alert",
    "inversions",
    "pre_reform_alert",
    "retrieved_distribution",
    "shares",
    "superseded_alerts",
]
