"""MkDocs hooks: the generated reference pages read as the rest of the site.

- The docstrings speak reStructuredText roles (``:class:`Index```); on the API page the role
  name is dropped and the code span kept.
- click 8.3 marks an option without a default with a sentinel, which mkdocs-click prints as
  ``Sentinel.UNSET``; the command line reference shows a dash instead.
"""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):(?=<code>)")
_UNSET = "<code>Sentinel.UNSET</code>"


def on_page_content(html: str, **_: Any) -> str:
    return _ROLE.sub("", html).replace(_UNSET, "—")
