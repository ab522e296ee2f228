"""Results → rows of formatted cells: metrics, uniqueness, documents, profiles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...comparison import Comparison, Table
from ...profile import Profile
from ...sources.documents import Document
from ...sources.fetch import is_url
from ...text.normalize import IGNORABLE
from ...text.tricks import Trick
from ...uniqueness.against_index import CheckResult, SimilarDocument, SourceMatch
from ...uniqueness.verdict import Verdict
from .figures import Figures, count, figures, share

__all__ = [
    "METRICS",
    "DocumentRow",
    "MetricCell",
    "MetricRow",
    "NearRow",
    "ProfileRow",
    "SourceRow",
    "TrickRow",
    "UniquenessRow",
    "VerdictRow",
    "describe",
    "document_row",
    "method_label",
    "metric_rows",
    "percent",
    "profile_rows",
    "trick_rows",
    "uniqueness_rows",
    "verdict_row",
]

METRICS = ("Jaccard", "Dice", "A in B", "B in A")
_METRIC_FIELDS = ("jaccard", "dice", "containment_first", "containment_second")


def percent(value: float) -> Figures:
    """A share (0–1) as a percent with one decimal: ``8.1%`` (``8,1 %`` when shown in
    Russian)."""
    return figures(share(value))


def _count(value: int) -> Figures:
    return figures(count(value))


def _ratio(part: int, whole: int) -> Figures:
    return figures(count(part), "/", count(whole))


@dataclass(frozen=True)
class MetricCell:
    """One profile at one k: the four metrics (empty when ``message`` says it is too short)."""

    profile: str
    values: tuple[str, ...]
    shared: str = ""
    shingles: str = ""
    message: str = ""


@dataclass(frozen=True)
class MetricRow:
    k: int
    cells: tuple[MetricCell, ...]  # one per profile, in the table's order


def _metric_cell(cell: object, profile: str) -> MetricCell:
    if not isinstance(cell, Comparison):
        return MetricCell(profile, (), message=str(getattr(cell, "message", "")))
    return MetricCell(
        profile,
        tuple(percent(getattr(cell, name)) for name in _METRIC_FIELDS),
        _count(cell.common),
        _ratio(cell.first_shingles, cell.second_shingles),
    )


def metric_rows(table: Table) -> tuple[MetricRow, ...]:
    """One row per k of a comparison table, one cell per profile."""
    return tuple(
        MetricRow(k, tuple(_metric_cell(table.cell(p.name, k), p.name) for p in table.profiles))
        for k in table.ks
    )


@dataclass(frozen=True)
class SourceRow:
    source: str
    title: str
    share: str
    jaccard: str
    shared: str
    link: bool  # the source is an http(s) URL a page may link to


@dataclass(frozen=True)
class NearRow:
    source: str
    title: str
    estimated: str
    jaccard: str


@dataclass(frozen=True)
class UniquenessRow:
    """One profile of a check: its uniqueness, sources and near-duplicates (``None``: not
    asked for)."""

    profile: str
    fingerprint: str
    k: int
    uniqueness: str
    borrowed: str
    sources: tuple[SourceRow, ...]
    similar: tuple[NearRow, ...] | None


def _source_row(m: SourceMatch) -> SourceRow:
    return SourceRow(
        m.source,
        m.title or "",
        percent(m.containment),
        percent(m.jaccard),
        _count(m.shared),
        is_url(m.source),
    )


def _near_row(d: SimilarDocument) -> NearRow:
    return NearRow(d.source, d.title or "", percent(d.estimated), percent(d.jaccard))


def uniqueness_rows(result: CheckResult) -> tuple[UniquenessRow, ...]:
    """One row per profile of a check, with its sources and near-duplicates."""
    return tuple(
        UniquenessRow(
            p.profile,
            p.fingerprint,
            p.k,
            percent(p.uniqueness),
            _ratio(p.borrowed, p.draft_shingles),
            tuple(_source_row(m) for m in p.sources),
            None if p.similar is None else tuple(_near_row(d) for d in p.similar),
        )
        for p in result.profiles
    )


@dataclass(frozen=True)
class VerdictRow:
    """The one figure of a check and its parts, formatted, with the formula behind them."""

    uniqueness: str
    copied: str
    rewritten: str
    chars: str
    formula: str
    copied_share: float  # the raw shares, for a bar drawn to scale
    rewritten_share: float
    uniqueness_share: float = 1.0  # the raw figure, for a page's pass mark


def verdict_row(verdict: Verdict) -> VerdictRow:
    return VerdictRow(
        percent(verdict.uniqueness),
        percent(verdict.copied),
        percent(verdict.rewritten),
        _count(verdict.chars),
        verdict.formula,
        verdict.copied,
        verdict.rewritten,
        verdict.uniqueness,
    )


@dataclass(frozen=True)
class TrickRow:
    """A trick repaired: its kind in words, where, what was written and what it became."""

    kind: str
    start: int
    end: int
    original: str
    repaired: str
    placed: bool = True  # False for words left out of the text read (hidden text)

    @property
    def at(self) -> str:
        """Where the trick is in the draft's text, or a dash for words kept out of it."""
        return str(self.start) if self.placed else "—"


_TRICK_KINDS = {
    "lookalike": "look-alike letters",
    "mark": "combining marks",
    "invisible": "invisible characters",
    "hyphen": "hyphen",
    "translit": "transliteration",
    "spacing": "spaced letters",
    "hidden": "hidden text",
}


_MAX_HIDDEN = 300  # characters of a hidden passage shown


def trick_rows(tricks: Sequence[Trick]) -> tuple[TrickRow, ...]:
    """The tricks in words, invisible characters shown as their code points (``<U+3164>``),
    a long hidden passage cut short."""
    return tuple(
        TrickRow(
            _TRICK_KINDS.get(t.kind, t.kind),
            t.start,
            t.end,
            _shown(_cut(t.original) if t.kind == "hidden" else t.original),
            t.repaired,
            placed=t.kind != "hidden",
        )
        for t in tricks
    )


def _cut(text: str) -> str:
    return text if len(text) <= _MAX_HIDDEN else text[: _MAX_HIDDEN - 1] + "…"


def _shown(text: str) -> str:
    return IGNORABLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


_METHODS = {
    "text": "text",
    "docx": "Word document",
    "trafilatura": "main text by trafilatura",
    "whole-page": "whole page",
}


def method_label(method: str) -> str:
    """How a document's text was obtained, in words."""
    return _METHODS.get(method, method)


@dataclass(frozen=True)
class DocumentRow:
    label: str
    source: str
    title: str
    method: str
    chars: str


def document_row(label: str, doc: Document) -> DocumentRow:
    return DocumentRow(
        label, doc.source, doc.title or "", method_label(doc.method), _count(doc.chars)
    )


def describe(profile: Profile) -> str:
    """The rules of a profile in a few words."""
    s = profile.settings()
    parts = [str(s["unicode_form"])]
    if s["casefold"]:
        parts.append("casefold")
    if s["morphology"] != "none":
        parts.append({"lemma": "pymorphy3 lemmas", "stem": "Snowball stems"}[str(s["morphology"])])
    parts.append("hyphenated words whole" if s["keep_hyphens"] else "hyphens split words")
    for key, label in (
        ("yo_fold", "ё→е"),
        ("strip_marks", "stress marks and invisible characters removed"),
    ):
        if s[key]:
            parts.append(label)
    if s["fold_confusables"]:
        wide = s["fold_all_lookalikes"]
        parts.append("look-alikes of every script folded" if wide else "Latin look-alikes folded")
    if profile.stopwords:
        names = [k if "/" not in k else k.rsplit("/", 1)[-1] for k in profile.stopwords]
        negation = "negation kept" if profile.keep_negation else "negation dropped"
        parts.append(f"stop lists {'+'.join(names)} ({negation})")
    if profile.drop_pos:
        parts.append(f"drops {','.join(profile.drop_pos)}")
    if profile.synonyms:
        parts.append("synonyms merged")
    return ", ".join(parts)


@dataclass(frozen=True)
class ProfileRow:
    name: str
    fingerprint: str
    description: str
    words: tuple[str, str]  # canonical words of A and B


def profile_rows(table: Table) -> tuple[ProfileRow, ...]:
    return tuple(
        ProfileRow(
            p.name,
            p.fingerprint,
            describe(p),
            (_count(table.words[p.name][0]), _count(table.words[p.name][1])),
        )
        for p in table.profiles
    )
