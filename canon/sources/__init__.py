"""A source → a Document: files, standard input, .docx, web pages; the only code on the network."""

from .documents import Document, read_source
from .fetch import FetchOptions, Page, is_url
from .limits import ReadLimits

__all__ = ["Document", "FetchOptions", "Page", "ReadLimits", "is_url", "read_source"]
