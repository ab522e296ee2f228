"""A source → a Document: files, standard input, .docx, web pages; the only code on the network."""

from .documents import Document, read_source
from .fetch import FetchOptions, Page, is_url

__all__ = ["Document", "FetchOptions", "Page", "is_url", "read_source"]
