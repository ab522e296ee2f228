"""Results → one self-contained HTML file: inline CSS, the plot as a data URI, no requests.

Every piece of user text (texts, titles, sources, keywords) goes through ``html.escape``.
Shared fragments are drawn through the token spans on the texts as the user wrote them:
``<mark class="exact">`` for text shared word for word (the ``raw`` profile), ``<mark
class="rewrite">`` for text shared only after normalization (lemmas, stems).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..canonical import Fragment, canonicalize
from ..comparison import Comparison, Table, shared_fragments
from ..errors import InputError, OutputError
from ..sources.documents import Document
from ..uniqueness import CheckResult
from .terminal import describe, stats_rows

__all__ = [
    "EXACT",
    "REWRITE",
    "check_html",
    "compare_html",
    "highlighted",
    "levels_of",
    "stats_section",
    "write_html",
]

EXACT, REWRITE = 2, 1
_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
.texts{display:grid;grid-template-columns:1fr 1fr;gap:1.5em}
.text{white-space:pre-wrap;border:1px solid #ddd;padding:1em;border-radius:4px;background:#fcfcfc}
mark.exact{background:#f4a6a6}mark.rewrite{background:#ffe58a}
.legend mark{padding:0 .3em}.muted{color:#777;font-size:.9em}code{font-size:.9em}
"""


def levels_of(length: int, groups: Sequence[tuple[bool, Sequence[Fragment]]]) -> list[int]:
    levels = [0] * length
    for exact, fragments in groups:
        level = EXACT if exact else REWRITE
        for fragment in fragments:
            for i in range(fragment.start, min(fragment.end, length)):
                levels[i] = max(levels[i], level)
    return levels


def highlighted(
    text: str,
    groups: Sequence[tuple[bool, Sequence[Fragment]]],
    attributes: Callable[[int, int], str] = lambda start, end: "",
) -> str:
    """``text`` escaped, its fragments in ``<mark>``; ``attributes(start, end)`` may add
    (already escaped) attributes to each mark."""
    levels = levels_of(len(text), groups)
    out: list[str] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or levels[i] != levels[start]:
            piece = escape(text[start:i])
            kind = {EXACT: "exact", REWRITE: "rewrite"}.get(levels[start])
            extra = attributes(start, i) if kind else ""
            out.append(f'<mark class="{kind}"{extra}>{piece}</mark>' if kind else piece)
            start = i
    return "".join(out)


def _legend() -> str:
    return (
        '<p class="legend muted"><mark class="exact">shared word for word</mark> '
        '<mark class="rewrite">shared after lemmatization</mark></p>'
    )


def _stats_table(stats: Any) -> str:
    cells = "".join(
        f"<tr><th>{escape(name)}</th><td>{escape(value)}</td></tr>"
        for name, value in stats_rows(stats)
    )
    return f"<table>{cells}</table>"


def stats_section(text: str) -> str:
    from ..textstats import text_stats

    try:
        return _stats_table(text_stats(text))
    except (ValueError, InputError) as exc:
        return f'<p class="muted">{escape(str(exc))}</p>'


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html>\n<html lang="ru"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{escape(title)}</h1>{body}"
        '<p class="muted">Made by canon. Counts are distinct shingles; Jaccard = shared / union; '
        "A in B = shared / A.</p></body></html>\n"
    )


def _sources_table(docs: Sequence[tuple[str, Document]]) -> str:
    rows = "".join(
        f"<tr><th>{label}</th><td>{escape(d.source)}</td><td>{escape(d.title or '')}</td>"
        f"<td>{escape(d.method)}</td><td class=num>{d.chars:,}</td></tr>"
        for label, d in docs
    )
    return (
        "<table><tr><th></th><th>source</th><th>title</th><th>method</th><th>chars</th></tr>"
        f"{rows}</table>"
    )


def _profiles_list(profiles: Sequence[Any]) -> str:
    items = "".join(
        f"<li><b>{escape(p.name)}</b> <code>{escape(p.fingerprint)}</code> "
        f"{escape(describe(p))}</li>"
        for p in profiles
    )
    return f"<ul>{items}</ul>"


def compare_html(table: Table, docs: Sequence[Document], plot: bytes | None = None) -> str:
    """A report of a comparison: table, plot, both texts highlighted, statistics, rules."""
    head = ["k"] + [f"{p.name}: {m}" for p in table.profiles
                    for m in ("Jaccard", "Dice", "A in B", "B in A")]  # fmt: skip
    rows = []
    for k in table.ks:
        cells = [str(k)]
        for p in table.profiles:
            cell = table.cell(p.name, k)
            if isinstance(cell, Comparison):
                cells += [f"{v:.1%}" for v in (cell.jaccard, cell.dice, cell.containment_first,
                                               cell.containment_second)]  # fmt: skip
            else:
                cells += ["too short", "", "", ""]
        rows.append("<tr>" + "".join(f"<td class=num>{escape(c)}</td>" for c in cells) + "</tr>")
    similarity = (
        "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"
        + "".join(rows) + "</table>"
    )  # fmt: skip
    k = next(
        (k for k in table.ks
         if all(isinstance(table.cell(p.name, k), Comparison) for p in table.profiles)),
        table.ks[0],
    )  # fmt: skip
    groups: list[list[tuple[bool, Sequence[Fragment]]]] = [[], []]
    for profile in table.profiles:
        a, b = (canonicalize(d.text, profile) for d in docs)
        if len(a) >= k and len(b) >= k:
            frags_a, frags_b = shared_fragments(a, b, k)
            exact = profile.word_for_word
            groups[0].append((exact, frags_a))
            groups[1].append((exact, frags_b))
    texts = "".join(
        f'<div><h3>{label}</h3><div class="text">{highlighted(d.text, g)}</div></div>'
        for label, d, g in zip("AB", docs, groups)
    )
    image = (
        f'<img alt="similarity against k" src="data:image/png;base64,'
        f'{base64.b64encode(plot).decode("ascii")}">'
        if plot else ""
    )  # fmt: skip
    stats = "".join(
        f"<div><h3>{label}</h3>{stats_section(d.text)}</div>" for label, d in zip("AB", docs)
    )
    body = (
        f"<h2>Sources</h2>{_sources_table(list(zip('AB', docs)))}"
        f"<h2>Similarity</h2>{similarity}{image}"
        f"<h2>Shared fragments (k = {k})</h2>{_legend()}<div class=texts>{texts}</div>"
        f"<h2>Text statistics</h2><div class=texts>{stats}</div>"
        f"<h2>Rules</h2>{_profiles_list(table.profiles)}"
    )
    return _page(f"canon: {docs[0].source} vs {docs[1].source}", body)


def check_html(result: CheckResult, doc: Document) -> str:
    """A report of a uniqueness check: uniqueness, sources, the draft highlighted, statistics."""
    rows = "".join(
        f"<tr><td>{escape(p.profile)}</td><td class=num>{p.uniqueness:.1%}</td>"
        f"<td class=num>{p.borrowed:,}/{p.draft_shingles:,}</td><td class=num>{p.k}</td>"
        f"<td><code>{escape(p.fingerprint)}</code></td></tr>"
        for p in result.profiles
    )
    uniqueness = (
        "<table><tr><th>profile</th><th>uniqueness</th><th>borrowed/shingles</th><th>k</th>"
        f"<th>fingerprint</th></tr>{rows}</table>"
    )
    sources = ""
    for p in result.profiles:
        if p.sources:
            lines = "".join(
                f"<tr><td>{escape(m.source)}</td><td>{escape(m.title or '')}</td>"
                f"<td class=num>{m.containment:.1%}</td><td class=num>{m.jaccard:.1%}</td>"
                f"<td class=num>{m.shared:,}</td></tr>"
                for m in p.sources
            )
            sources += (
                f"<h3>{escape(p.profile)}</h3><table><tr><th>source</th><th>title</th>"
                f"<th>share of draft</th><th>Jaccard</th><th>shared</th></tr>{lines}</table>"
            )
    groups = [(p.word_for_word, p.fragments) for p in result.profiles]
    body = (
        f"<h2>Draft</h2>{_sources_table([('draft', doc)])}"
        f"<h2>Uniqueness</h2>{uniqueness}<h2>Sources</h2>{sources or '<p>none</p>'}"
        f"<h2>Borrowed fragments</h2>{_legend()}"
        f'<div class="text">{highlighted(result.text, groups)}</div>'
        f"<h2>Text statistics</h2>{stats_section(result.text)}"
    )
    return _page(f"canon: uniqueness of {doc.source}", body)


def write_html(path: Path, page: str) -> None:
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise OutputError(path, f"cannot write the report ({exc.strerror or exc})") from exc
