"""The Profile: every rule that turns a text into canonical tokens, and its fingerprint.

Both texts of a comparison, and every document of an index, go through one Profile.  Its
``fingerprint`` hashes all the settings, the contents of the word lists it names and the
version of the lemmatizer's dictionary (and of the data the repairs read), so two numbers
produced under different rules can always be told apart.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from .errors import OptionError, ProfileError
from .text.bidi import version as bidi_version
from .text.form import CANONICAL_FORM_VERSION
from .text.lemmatize import analyzer_version
from .text.lookalikes import version as lookalike_version
from .text.synonyms import version as synonyms_version
from .text.translit import versions as translit_versions
from .text.wordlists import list_words, read_synonyms, resolve_list

__all__ = [
    "BUILTIN_PROFILES",
    "CANONICAL_FORM_VERSION",
    "REPAIRS",
    "Profile",
    "get_profile",
    "repair_switches",
]

Morphology = Literal["none", "lemma", "stem"]
_POS_TAGS = frozenset(
    "NOUN ADJF ADJS COMP VERB INFN PRTF PRTS GRND NUMR ADVB NPRO PRED PREP CONJ PRCL INTJ".split()
)


@dataclass(frozen=True)
class Profile:
    """A frozen, hashable set of canonicalization rules.

    - ``unicode_form``: ``"NFKC"`` (compatibility forms folded, as the reference) or ``"NFC"``.
    - ``casefold``: fold case with ``str.casefold``.
    - ``yo_fold``: write ``ё`` as ``е`` (before and after lemmatization).
    - ``keep_hyphens``: ``из-за`` and ``SEO-специалист`` stay one word; otherwise a hyphen
      splits words, as the reference does.
    - ``strip_marks``: remove stress accents and invisible format characters (soft hyphen,
      zero-width space) that can hide inside words; letters such as ``й`` are never touched.
      A stress that NFKC composed into a letter (``ѐ``) is removed too.
    - ``strip_all_marks``: with ``strip_marks``, every nonspacing combining mark is removed
      (dot below, macron below, dot above...), except the breve of ``й`` and the diaeresis of
      ``ё``; each removal is reported as a ``mark`` trick.
    - ``drop_ignorables``: Default_Ignorable_Code_Point characters (CGJ, variation selectors,
      Hangul fillers, zero-width characters, soft hyphen...) are removed inside a word, and a
      run of them between words is a space; reported as ``invisible`` tricks.
    - ``fold_confusables``: a word mixing Cyrillic with Latin look-alike letters (``сoбака``
      with a Latin ``o``) is written in Cyrillic; each fold is reported.
    - ``fold_all_lookalikes``: with ``fold_confusables``, every character that the Unicode
      confusables data gives as a twin of a Russian letter, of any script or block, is folded
      in the original text before normalization, digits and signs where the dictionary says
      so (:mod:`canon.text.lookalikes`); and a short word typed in look-alike letters only
      (Latin ``c`` for ``с``) is folded next to Cyrillic words.
    - ``repair_hyphens``: a hyphenated word that pymorphy3's dictionary does not have is read
      as the words it stands for: parts that join into a dictionary word are joined
      (``начин-ается`` → ``начинается``), otherwise parts that are dictionary words are split
      (``выбор-зимних`` → ``выбор зимних``); dictionary compounds (``из-за``, ``кто-то``,
      ``северо-запад``) and parts it does not know beside a noun (``SEO-специалист``) stay.
      With ``keep_hyphens`` off only the joins apply (hyphens split words anyway).  Each join,
      and each split of words that look neither like a compound (``детей-сирот``) nor like a
      name (``СКА-Нева``), is a ``hyphen`` trick (see :mod:`canon.text.hyphens`).
    - ``transliterate``: in Russian text, a Latin word that spells a dictionary word in a
      standard or informal transliteration (``privet`` → ``привет``, ``mal'chik``,
      ``shchuka``/``schuka``) is written in Cyrillic, unless English uses it (``online``,
      ``google``; a short one only beside English words), it has a capital after its first
      letter (``SEO``, ``iPhone``) or it is part of an address; reported as ``translit``
      tricks (see :mod:`canon.text.latin`).
    - ``repair_spacing``: a run of single Russian letters spaced apart (``с о б а к а``) is
      read as the dictionary words they spell, reported as ``spacing`` tricks; with
      ``repair_hyphens``, a word cut by a line break (``сло-`` / ``во``, or a soft hyphen at
      the line's end) is one word when the dictionary has it (:mod:`canon.text.spacing`).
    - ``morphology``: ``"none"``, ``"lemma"`` (pymorphy3 normal forms) or ``"stem"`` (Snowball).
    - ``stopwords``: word lists (built-in names, ``nltk:russian``, or file paths) whose words
      are dropped, matched after the same normalization as the text.
    - ``keep_negation``: words of the ``ru-negation`` list are kept even when a list or
      ``drop_pos`` would drop them; when false they are dropped.
    - ``drop_pos``: pymorphy3 part-of-speech tags to drop (``PREP``, ``CONJ``, ``PRCL``, ``INTJ``).
    - ``synonyms``: a synonym file; every word of a group becomes the group's first word.

    ``name`` is a label only: it is not part of the fingerprint.
    """

    name: str = "custom"
    unicode_form: Literal["NFKC", "NFC"] = "NFKC"
    casefold: bool = True
    yo_fold: bool = False
    keep_hyphens: bool = False
    strip_marks: bool = False
    strip_all_marks: bool = False
    drop_ignorables: bool = False
    fold_confusables: bool = False
    fold_all_lookalikes: bool = False
    repair_hyphens: bool = False
    transliterate: bool = False
    repair_spacing: bool = False
    morphology: Morphology = "none"
    stopwords: tuple[str, ...] = ()
    keep_negation: bool = True
    drop_pos: tuple[str, ...] = ()
    synonyms: str | None = None

    def __post_init__(self) -> None:
        if self.unicode_form not in ("NFKC", "NFC"):
            raise ProfileError(f"unknown Unicode form {self.unicode_form!r}: use NFKC or NFC")
        if self.morphology not in ("none", "lemma", "stem"):
            raise ProfileError(f"unknown morphology {self.morphology!r}: use none, lemma or stem")
        unknown = sorted(set(self.drop_pos) - _POS_TAGS)
        if unknown:
            raise ProfileError(
                f"unknown part-of-speech tag {unknown[0]!r}: use pymorphy3 tags such as "
                "PREP, CONJ, PRCL, INTJ"
            )
        # Word lists are resolved to stable keys (built-in name or absolute path) once.
        object.__setattr__(self, "stopwords", tuple(resolve_list(s) for s in self.stopwords))
        object.__setattr__(self, "drop_pos", tuple(sorted(set(self.drop_pos))))
        if self.synonyms is not None:
            object.__setattr__(self, "synonyms", resolve_list(self.synonyms))

    def replace(self, **changes: Any) -> Profile:
        """A copy with some settings changed (a derived profile is named ``custom``)."""
        changes.setdefault("name", "custom")
        return dataclasses.replace(self, **changes)

    def settings(self) -> dict[str, object]:
        """Every rule as plain data, the name left out."""
        data = dataclasses.asdict(self)
        del data["name"]
        return data

    def to_dict(self) -> dict[str, object]:
        """The profile's name, fingerprint and rules."""
        return {"profile": self.name, "fingerprint": self.fingerprint, "settings": self.settings()}

    @property
    def word_for_word(self) -> bool:
        """True when a match under this profile is a word-for-word copy: no lemmas or stems,
        no words dropped, no synonyms merged (the ``raw`` rules and the like)."""
        return (
            self.morphology == "none"
            and not self.stopwords
            and not self.drop_pos
            and not self.synonyms
            and self.keep_negation
        )

    @property
    def fingerprint(self) -> str:
        """A short stable hash of the rules, the word lists' contents and the analyzer version."""
        return _fingerprint(self)


@cache
def _fingerprint(profile: Profile) -> str:
    lists = {key: sorted(set(list_words(key))) for key in profile.stopwords}
    settings = profile.settings()
    # Paths differ between machines; the contents below are what matter.
    settings["stopwords"] = [_portable(k) for k in profile.stopwords]
    settings["synonyms"] = _portable(profile.synonyms) if profile.synonyms else None
    payload = {
        "canonical_form_version": CANONICAL_FORM_VERSION,
        "settings": settings,
        "stopwords": lists,
        "negation": sorted(set(list_words("ru-negation"))) if lists or profile.drop_pos else [],
        "synonyms": read_synonyms(profile.synonyms) if profile.synonyms else [],
        "analyzer": analyzer_version(profile.morphology),
        "repairs": _repair_versions(profile),
        # The sentence sets of a lemma profile hold synonym classes.
        "sentence_classes": synonyms_version() if profile.morphology == "lemma" else "",
    }
    blob = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _repair_versions(profile: Profile) -> dict[str, str]:
    """The dictionary and word data the repairs read: hyphens, transliteration, the
    invisible characters typed for spaces, and the look-alikes of every script."""
    versions = {}
    wide = profile.fold_confusables and profile.fold_all_lookalikes
    words = profile.repair_hyphens or profile.transliterate or profile.repair_spacing
    if words or profile.drop_ignorables or wide:
        versions["dictionary"] = analyzer_version("lemma")
    if wide:
        versions["lookalikes"] = lookalike_version()
    if profile.transliterate or profile.drop_ignorables:
        versions["transliteration"] = translit_versions()
    if profile.drop_ignorables:
        versions["bidi"] = bidi_version()
    return versions


# Each kind of trick (canon.text.tricks) and the profile switches that repair it.
REPAIRS: dict[str, tuple[str, ...]] = {
    "lookalike": ("fold_confusables", "fold_all_lookalikes"),
    "mark": ("strip_all_marks",),
    "invisible": ("drop_ignorables",),
    "hyphen": ("repair_hyphens",),
    "translit": ("transliterate",),
    "spacing": ("repair_spacing",),
}


def repair_switches(kinds: Iterable[str]) -> dict[str, bool]:
    """The profile switches that make exactly the repairs ``kinds`` (kinds of trick; ``all``
    or ``none`` alone): ``profile.replace(**repair_switches(["mark", "invisible"]))``."""
    kinds = [k.strip().lower() for k in kinds if k.strip()]
    if kinds in (["all"], ["none"]):
        wanted = set(REPAIRS) if kinds == ["all"] else set()
    else:
        unknown = [k for k in kinds if k not in REPAIRS]
        if unknown or not kinds:
            raise OptionError(
                "repairs",
                f"has no repair {unknown[0] if unknown else ''!r}: name some of "
                f"{', '.join(REPAIRS)}, or all, or none",
                value=unknown[0] if unknown else "",
            )
        wanted = set(kinds)
    return {switch: kind in wanted for kind, switches in REPAIRS.items() for switch in switches}


def _portable(key: str) -> str:
    return key if "/" not in key and "\\" not in key else "file"


_LEMMA_RULES: dict[str, Any] = {  # checked by Profile itself
    "yo_fold": True,
    "keep_hyphens": True,
    "strip_marks": True,
    "strip_all_marks": True,
    "drop_ignorables": True,
    "fold_confusables": True,
    "fold_all_lookalikes": True,
    "repair_hyphens": True,
    "transliterate": True,
    "repair_spacing": True,
    "stopwords": ("ru", "en", "water-ru"),
    "keep_negation": True,
}

BUILTIN_PROFILES: dict[str, Profile] = {
    "raw": Profile(name="raw"),
    "lemma": Profile(name="lemma", morphology="lemma", **_LEMMA_RULES),
    "stem": Profile(name="stem", morphology="stem", **_LEMMA_RULES),
}


def get_profile(profile: str | Profile) -> Profile:
    """A built-in profile by name, or the given Profile itself."""
    if isinstance(profile, Profile):
        return profile
    try:
        return BUILTIN_PROFILES[profile]
    except (KeyError, TypeError):
        names = ", ".join(BUILTIN_PROFILES)
        raise ProfileError(f"unknown profile {profile!r}: use one of {names}") from None
