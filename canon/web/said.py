"""The library's English sentences said in a page's language: :mod:`canon.report.said`, where
the pages and the HTML reports alike find it."""

from ..report.said import LIBRARY_SENTENCES, said, said_parts

__all__ = ["LIBRARY_SENTENCES", "said", "said_parts"]
