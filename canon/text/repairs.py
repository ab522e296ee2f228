"""Words of a normalized text → the words after the hyphen and transliteration repairs.

The repairs run between tokenization and the per-word table of canonical forms, because they
change how many words there are (``выбор-зимних`` is two words, ``начин-ается`` one) and
because transliteration depends on the text around a word.  The common case costs little: the
hyphen repair looks only at hyphens between letters, transliteration only at the distinct
all-Latin words (:mod:`canon.text.latin`), every decision is remembered per word, and words
are counted again only around the places repaired.

A hyphenated name (every part capitalized but short words inside: ``СКА-Нева``,
``Абдель-Азиз``, ``Николаевск-на-Амуре``) is read as its words like any other hyphenated word,
but it is no trick; two pieces that are no words are not joined when a capital follows the
hyphen or a part is in capitals (``Касым-Жомарт``, ``ут-Тахрир``, ``ПЦР-тест``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from .hyphens import HyphenRepair, hyphen_sites, repair_hyphenated
from .latin import LatinWord, latin_mode, read_spaced, russian_words
from .normalize import Normalized
from .spacing import Joined, line_break_joins, spaced_letter_joins
from .tokenize import hyphen_text, word_offsets

__all__ = ["Repair", "Repaired", "repair_words"]

_HYPHENS = re.compile("[-\u2010\u2011]")
_SHORT_INNER = 3  # a lower-case word inside a name: Ростов-на-Дону
_WORDS = {False: re.compile(r"[^\W_]+"), True: re.compile(r"[^\W_]+(?:-[^\W_]+)*")}

RepairKind = Literal["hyphen", "translit", "spacing"]


@dataclass(frozen=True, slots=True)
class Repair:
    """Characters ``[start, end)`` of the normalized text read as the words ``forms``, each at
    its span in ``spans``; ``reported`` when the repair is a trick to show."""

    kind: RepairKind
    start: int
    end: int
    forms: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    reported: bool = True


# A repair and the index of the first word it covers, when known.
Located = tuple[int | None, Repair]


@dataclass(frozen=True, slots=True)
class Repaired:
    """The words after the repairs, their spans in the normalized text when asked for (None
    otherwise, and when nothing was repaired: the tokenizer's spans hold), and the repairs."""

    words: list[str]
    offsets: list[tuple[int, int]] | None = None
    repairs: tuple[Repair, ...] = ()


def _part_spans(start: int, word: str) -> list[tuple[int, int]]:
    spans, pos = [], start
    for part in word.split("-"):
        spans.append((pos, pos + len(part)))
        pos += len(part) + 1
    return spans


def _pieces(
    kind: RepairKind, decision: HyphenRepair, parts: list[tuple[int, int]], joined_only: bool
) -> list[Repair]:
    """The repairs a hyphen decision makes: all its pieces as one repair when hyphenated words
    are kept whole, or each joined piece when hyphens split words anyway."""
    spans = [(parts[p.first][0], parts[p.last - 1][1]) for p in decision.pieces]
    if joined_only:
        return [
            Repair(kind, start, end, (p.form,), ((start, end),))
            for p, (start, end) in zip(decision.pieces, spans)
            if p.joined
        ]
    forms = tuple(p.form for p in decision.pieces)
    return [Repair(kind, parts[0][0], parts[-1][1], forms, tuple(spans), decision.reported)]


def _hyphen_repairs(
    norm: Normalized, text: str, words: list[str], keep_hyphens: bool
) -> list[Located]:
    """The hyphen repairs; with hyphens kept, each hyphenated word is one of ``words`` and its
    index is found by ``list.index`` (every hyphenated word is a site, in text order)."""
    repairs: list[Located] = []
    index: int | None = -1 if keep_hyphens else None
    for start, end in hyphen_sites(text):
        word = text[start:end]
        if index is not None:
            index = _index(words, word, index + 1)
        decision = repair_hyphenated(word)
        if decision is None:
            continue
        parts = _HYPHENS.split(norm.original[slice(*norm.span(start, end))])
        name = _name(parts)
        capitals = any(p[:1].isupper() for p in parts[1:]) or any(
            len(p) > 1 and p.isupper() for p in parts
        )
        if decision.guessed and capitals:
            continue
        found = _pieces("hyphen", decision, _part_spans(start, word), not keep_hyphens)
        found = [replace(r, reported=False) for r in found] if name else found
        repairs += [(index, r) for r in found]
    return repairs


def _name(parts: list[str]) -> bool:
    """Every part capitalized, but for short words inside (``СКА-Нева``, ``Ростов-на-Дону``)."""
    inner = parts[1:-1]
    return (
        parts[0][:1].isupper()
        and parts[-1][:1].isupper()
        and all(p[:1].isupper() or len(p) <= _SHORT_INNER for p in inner)
    )


def _index(words: list[str], word: str, start: int) -> int | None:
    try:
        return words.index(word, start)
    except ValueError:  # not as tokenized: the words are counted instead
        return None


def _translit_repair(word: LatinWord, hyphens: bool) -> Repair:
    """One transliterated word; with the hyphen repair, its parts read as the hyphen rules say."""
    decision = repair_hyphenated(word.russian) if hyphens and "-" in word.russian else None
    if decision is None:
        return Repair("translit", word.start, word.end, (word.russian,), ((word.start, word.end),))
    (repair,) = _pieces("translit", decision, _part_spans(word.start, word.latin), False)
    return replace(repair, end=word.end, reported=True)


def _apply(
    words: list[str], text: str, keep_hyphens: bool, repairs: list[Located]
) -> tuple[list[str], list[tuple[int, int]], list[Repair]]:
    """Replace the words each repair covers (left as tokenized) by its forms.  A repair's first
    word is known, or found by counting the words since the previous repair: nothing is done
    per word of the text."""
    pattern = _WORDS[keep_hyphens]
    out: list[str] = []
    places: list[tuple[int, int]] = []  # (word index, words covered) of each repair applied
    applied: list[Repair] = []
    index = pos = 0
    for known, repair in sorted(repairs, key=lambda r: r[1].start):
        if repair.start < pos:
            continue
        if known is None:
            first = index + len(pattern.findall(text, pos, repair.start))
            covered = pattern.findall(text, repair.start, repair.end)
        else:
            first, covered = known, [text[repair.start : repair.end]]
        if not covered or (
            words[first : first + len(covered)] != covered and repair.kind != "spacing"
        ):
            continue  # a word another rule changed (a short look-alike word): left alone;
            # spaced letters are read whole, whatever the short-word rule made of one letter
        out += words[index:first] + list(repair.forms)
        places.append((first, len(covered)))
        applied.append(repair)
        index, pos = first + len(covered), repair.end
    out += words[index:]
    return out, places, applied


def _offsets(
    norm: Normalized, keep_hyphens: bool, places: list[tuple[int, int]], repairs: list[Repair]
) -> list[tuple[int, int]]:
    offsets = word_offsets(norm, keep_hyphens=keep_hyphens)
    out: list[tuple[int, int]] = []
    index = 0
    for (first, covered), repair in zip(places, repairs):
        out += offsets[index:first] + list(repair.spans)
        index = first + covered
    return out + offsets[index:]


def _original(norm: Normalized, start: int, end: int) -> str:
    return norm.original[slice(*norm.span(start, end))]


def _hyphens_read(joined: Joined) -> Joined:
    """Spaced letters with a hyphen inside (``з а н я-т о с т и``): each such word as the hyphen
    rules read it, where they make it one word."""
    forms = []
    for form in joined.forms:
        decision = repair_hyphenated(form) if "-" in form else None
        one = decision is not None and len(decision.pieces) == 1
        forms.append(decision.pieces[0].form if one and decision else form)
    return replace(joined, forms=tuple(forms))


def _joined(kind: RepairKind, joined: Joined) -> Located:
    return None, Repair(kind, joined.start, joined.end, joined.forms, joined.spans)


def repair_words(
    norm: Normalized,
    words: list[str],
    *,
    keep_hyphens: bool,
    hyphens: bool,
    translit: bool,
    spacing: bool = False,
    spans: bool = False,
    distinct: set[str] | None = None,
) -> Repaired:
    """The words of ``norm`` (as tokenized, short look-alike words folded) after the hyphen
    repair (``hyphens``, line-end hyphenation included), transliteration (``translit``) and
    the spaced-letter repair (``spacing``: :mod:`canon.text.spacing`); ``spans`` asks for the words'
    spans in the normalized text too, ``distinct`` is ``set(words)`` when the caller has it.
    When nothing is repaired, ``words`` itself is returned."""
    text = hyphen_text(norm)
    repairs: list[Located] = []
    if hyphens and "-" in text:
        repairs += _hyphen_repairs(norm, text, words, keep_hyphens)
    if hyphens:
        breaks = line_break_joins(
            text,
            lambda a, b: "\u00ad" in _original(norm, a, b),
            lambda at: _original(norm, at, at + 1)[:1].isupper(),
        )
        repairs += [_joined("hyphen", joined) for joined in breaks]
    if spacing:
        joins = spaced_letter_joins(text)
        if translit and joins:  # Latin letters spaced apart: a Russian word transliterated?
            mode = latin_mode(text)
            joins = [replace(j, forms=read_spaced(j.forms, mode)) for j in joins]
        repairs += [_joined("spacing", _hyphens_read(j) if hyphens else j) for j in joins]
    if translit:
        latin = russian_words(norm, text, words, keep_hyphens=keep_hyphens, distinct=distinct)
        repairs += [(None, _translit_repair(word, hyphens)) for word in latin]
    if not repairs:
        return Repaired(words)
    out, places, applied = _apply(words, text, keep_hyphens, repairs)
    offsets = _offsets(norm, keep_hyphens, places, applied) if spans else None
    return Repaired(out, offsets, tuple(applied))
