"""How much one source may hold before it is read: the bounds every parser checks first.

A source past a limit is refused with an :class:`~canon.errors.InputError` (``reason``
``too-large``, ``bomb`` or ``too-complex``), never truncated: a cut text would give a wrong
answer that looks right.  The defaults are generous for real documents (of 236 real article
pages, the largest has about 2,700 elements and 6,900 attributes, and no element has more
than 64) and keep the worst accepted input to seconds and a few hundred megabytes (a page of
48,000 elements: about 8 s and 250 MB in trafilatura).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import OptionError

__all__ = ["ReadLimits"]


@dataclass(frozen=True)
class ReadLimits:
    """Bounds on one source; see each field.  ``ReadLimits()`` is what ``read_source`` uses.

    * ``max_bytes`` — a text or HTML file or standard input, as read; an HTML string given
      to extraction, in characters.
    * ``max_text`` — characters of text one source may give (a ``.docx`` is counted while
      it is parsed, so a huge one stops early).
    * ``max_docx_bytes`` — a ``.docx`` file as stored, pictures included.
    * ``max_unpacked`` — the XML a ``.docx`` unpacks to (the parts canon reads: the main
      document, its relationships, the core properties), by the sizes the archive declares.
    * ``max_ratio`` — how many times a ``.docx`` part of over 1 MiB may expand; a deflated
      part of whitespace or repeated paragraphs expands hundreds of times (a bomb), Word's
      own XML ten to twenty.
    * ``max_elements``, ``max_attributes`` — tags and attributes in one HTML page.
    * ``max_element_attributes`` — attributes on one HTML element (libxml2 compares each
      attribute with every earlier one of its element, so their number is squared).
    """

    max_bytes: int = 10_000_000
    max_text: int = 10_000_000
    max_docx_bytes: int = 20_000_000
    max_unpacked: int = 100_000_000
    max_ratio: int = 200
    max_elements: int = 50_000
    max_attributes: int = 100_000
    max_element_attributes: int = 200

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise OptionError(name, f"must be a whole number of at least 1, got {value!r}")
