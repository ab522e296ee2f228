"""A site audit: crawl a site politely, keep its pages in a canon index, find its duplicates.

Rooms: ``settings`` (what to crawl, how to analyse), ``state`` (the crawl's tables beside the
index in ``DIR/audit.db``), ``pages`` (a fetched page read in a worker process), ``records``
(the row a fetched URL gives; progress and report), ``crawl`` (the asynchronous crawl,
resumable), ``writer`` (batches written on a thread of their own), ``reread`` (stored pages
read again under another content area), ``overlap`` (exact closest match and containment),
``analysis`` (the findings), ``outputs`` (CSV, JSON Lines, XLSX), ``html`` (the HTML report,
from the report's templates), ``run`` (all of it, and analysing again without crawling).
"""

from .analysis import COLUMNS, AuditCluster, Findings, PageFinding, analyse
from .crawl import CrawlProgress, CrawlReport
from .run import AUDIT_FILE, AuditResult, audit_site, reanalyze
from .settings import Analysis, CrawlSettings

__all__ = [
    "AUDIT_FILE",
    "COLUMNS",
    "Analysis",
    "AuditCluster",
    "AuditResult",
    "CrawlProgress",
    "CrawlReport",
    "CrawlSettings",
    "Findings",
    "PageFinding",
    "analyse",
    "audit_site",
    "reanalyze",
]
