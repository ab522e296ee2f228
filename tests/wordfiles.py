"""Word files built by the tests: a minimal package around document XML given in pieces, so a
bomb is deflated as it is written and never sits in memory whole."""

from __future__ import annotations

import zipfile
from collections.abc import Iterable
from pathlib import Path

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
OPENING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="{W_NS}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>'
)
CLOSING = "<w:sectPr/></w:body></w:document>"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    '<Override PartName="/docProps/core.xml" '
    'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="word/document.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/'
    'relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>'
)


def core(title: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.'
        'openxmlformats.org/package/2006/metadata/core-properties" '
        f'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title>'
        "</cp:coreProperties>"
    )


def write_docx(
    path: Path,
    document: Iterable[bytes | str],
    *,
    title: str = "Документ",
    level: int = 6,
) -> Path:
    """A .docx whose ``word/document.xml`` is the pieces of ``document``, joined."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", RELS)
        archive.writestr("docProps/core.xml", core(title))
        with archive.open("word/document.xml", "w", force_zip64=True) as stream:
            for piece in document:
                stream.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
    return path


def body(xml: str) -> list[str]:
    """A whole document around body XML."""
    return [OPENING, xml, CLOSING]
