"""A site audit: crawl a site politely, keep its pages in a canon index, find its duplicates.

Rooms: ``settings`` (what to crawl, how to analyse), ``state`` (the crawl's tables beside the
index in ``DIR/audit.db``), ``pages`` (a fetched page read in a worker process), ``records``
(the row a fetched URL gives; progress and report), ``crawl`` (the asynchronous crawl,
resumable), ``writer`` (batches written on a thread of their own), ``reread`` (stored pages
read again under another content area), ``overlap`` (exact closest match and containment),
``indexability`` (what search engines are told about a page, and what text it has),
``analysis`` (the findings), ``baseline`` (a finished audit kept when the folder is audited
again), ``changes`` (what changed since that audit), ``outputs`` (CSV, JSON Lines, XLSX),
``html`` (the HTML report, from the report's templates), ``run`` (all of it, and analysing
again without crawling).
"""

from .analysis import COLUMNS, AuditCluster, Findings, PageFinding, analyse
from .changes import CHANGE_COLUMNS, Change, Changes
from .crawl import CrawlProgress, CrawlReport
from .run import AUDIT_FILE, AuditResult, audit_site, reanalyze
from .settings import Analysis, CrawlSettings

__all__ = [
    "AUDIT_FILE",
    "CHANGE_COLUMNS",
    "COLUMNS",
    "Analysis",
    "AuditCluster",
    "AuditResult",
    "Change",
    "Changes",
    "CrawlProgress",
    "CrawlReport",
    "CrawlSettings",
    "Findings",
    "PageFinding",
    "analyse",
    "audit_site",
    "reanalyze",
]
