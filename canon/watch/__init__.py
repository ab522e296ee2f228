"""A site's published pages watched against the web, as content-theft monitors do: which
pages have been copied elsewhere, how much of each, and since when.

:func:`add_pages` keeps pages (their main text, addresses and canonical links) in a watch, a
folder holding ``watch.db``; :func:`run_watch` checks the pages due against the web within a
query budget (:mod:`canon.uniqueness.web`) and keeps every copy found with its dates; each run
leaves its report (``report.html``, in Russian or English: :mod:`.report`) and its changes
(``changes.csv``, ``changes.xlsx``) in the folder and in ``runs/N/`` (:mod:`.outputs`), and
can tell a command and people by mail (:mod:`.mail`) of its changes.  A page's own site, its
canonical target and the sites allowed to republish are never copies (:mod:`.own`).
"""

from .mail import MailSettings, mail_settings
from .outputs import CHANGES_CSV, CHANGES_XLSX, REPORT_HTML, RUNS_FOLDER, run_folder
from .own import Ownership
from .pages import AddReport, add_pages, page_urls
from .records import CHANGES, Change, Copy, RunReport, WatchedPage
from .run import WatchProgress, provider_for, run_watch
from .settings import RunSettings
from .store import DB_NAME, WatchStore

__all__ = [
    "CHANGES",
    "CHANGES_CSV",
    "CHANGES_XLSX",
    "DB_NAME",
    "REPORT_HTML",
    "RUNS_FOLDER",
    "AddReport",
    "Change",
    "Copy",
    "MailSettings",
    "Ownership",
    "RunReport",
    "RunSettings",
    "WatchProgress",
    "WatchStore",
    "WatchedPage",
    "add_pages",
    "mail_settings",
    "page_urls",
    "provider_for",
    "run_folder",
    "run_watch",
]
