"""A text → the same text altered by a cheap trick that fools a word-shingle checker.

Each trick is a function ``(text, seed) -> str``: the same arguments give the same text.  They
are the tricks a copywriter uses to make a copied article look unique: letters of other scripts
that look Cyrillic, combining marks and invisible characters inside words, Latin letters for
Cyrillic ones, hyphens that cut or join words, stress marks, filler words, and reordered words.
None of them changes what a reader sees much.  ``TRICKS`` lists them by name, in the order of
the tables; ``shuffle_words`` and ``swap_pairs`` work on one sentence too, for the labelled
drafts of ``testkit.drafts``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import pymorphy3
from razdel import sentenize

__all__ = [
    "FILLERS",
    "GREEK",
    "LATIN",
    "MODIFIERS",
    "ONE_LETTER",
    "OTHER_BLOCKS",
    "SEQUENCES",
    "SIGNS",
    "TRICKS",
    "VOLAPUK",
    "WORD_SIGNS",
    "Trick",
    "adjacent_swaps",
    "analyzer",
    "bidi_reversed",
    "digits_and_signs",
    "filler_words",
    "grave_stress",
    "greek_lookalikes",
    "hangul_spaces",
    "hyphen_inside",
    "hyphen_pairs",
    "inside_words",
    "latin_one_letter",
    "letter_sequences",
    "line_breaks",
    "map_sentences",
    "modifier_letters",
    "other_blocks",
    "private_use",
    "shuffle_sentences",
    "shuffle_words",
    "signs_for_letters",
    "signs_inside",
    "spaced_letters",
    "swap_pairs",
    "transliterate",
    "volapuk",
]

# Greek letters that look like Cyrillic ones (the ο α ε ρ κ χ τ, and capitals).
GREEK = str.maketrans("оаеркхтОАЕРКХТВНМ", "οαερκχτΟΑΕΡΚΧΤΒΗΜ")
# One-letter Russian words typed with the Latin letter of the same look.
ONE_LETTER = {
    "с": "c", "о": "o", "а": "a", "у": "y", "к": "k",
    "С": "C", "О": "O", "А": "A", "У": "Y", "К": "K",
}  # fmt: skip
# Russian letters in Latin: the informal scheme of passports and web addresses.
LATIN = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
}  # fmt: skip
# Filler words that pad a sentence without changing it (entries of stopwords/water-ru.txt).
FILLERS = (
    "буквально", "действительно", "собственно", "фактически", "практически", "вообще",
    "совершенно", "абсолютно", "попросту",
)  # fmt: skip

_WORD = re.compile(r"[^\W\d_]+")
_CYRILLIC_WORD = re.compile(r"[а-яёА-ЯЁ]+")
_SENTENCE_END = re.compile(r"[.!?…]+[»\"')]*$")
_VOWEL = re.compile(r"[аеёиоуыэюяАЕЁИОУЫЭЮЯ]")
_ONE_LETTER = re.compile(r"(?<![^\W\d_])[соаукСОАУК](?![^\W\d_])")
_PROPER = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr"})


@cache
def analyzer() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer(lang="ru")


# ---------------------------------------------------------------- letters and marks


def greek_lookalikes(text: str, seed: int = 0) -> str:
    """Every Cyrillic letter that has a Greek twin (о а е р к х т …) written in Greek."""
    return text.translate(GREEK)


def inside_words(text: str, char: str) -> str:
    """``char`` after the second letter of every word of three letters or more."""
    return _WORD.sub(lambda m: m[0][:2] + char + m[0][2:] if len(m[0]) > 2 else m[0], text)


def grave_stress(text: str, seed: int = 0) -> str:
    """A grave accent (U+0300) after one vowel of every word with two vowels or more."""
    rng = random.Random(seed)

    def stress(match: re.Match[str]) -> str:
        word = match[0]
        vowels = [m.end() for m in _VOWEL.finditer(word)]
        if len(vowels) < 2:
            return word
        at = rng.choice(vowels)
        return word[:at] + "\u0300" + word[at:]

    return _CYRILLIC_WORD.sub(stress, text)


def latin_one_letter(text: str, seed: int = 0) -> str:
    """The one-letter words с, о, а, у, к typed as the Latin c, o, a, y, k."""
    return _ONE_LETTER.sub(lambda m: ONE_LETTER[m[0]], text)


def hangul_spaces(text: str, seed: int = 0) -> str:
    """Every space between two words replaced by the Hangul filler U+3164."""
    return re.sub(r"(?<=\S) (?=\S)", "\u3164", text)


def transliterate(text: str, seed: int = 0) -> str:
    """About half of the Russian words (every word with probability ½) written in Latin."""
    rng = random.Random(seed)

    def latin(word: str) -> str:
        out = "".join(LATIN.get(c.lower(), c) for c in word)
        return out[:1].upper() + out[1:] if word[:1].isupper() else out

    return _CYRILLIC_WORD.sub(lambda m: latin(m[0]) if rng.random() < 0.5 else m[0], text)


# ---------------------------------------------------------------- hyphens and fillers


def hyphen_inside(text: str, seed: int = 0) -> str:
    """A hyphen inside every word of eight letters or more, three letters from either end at
    least (``начин-ается``)."""
    rng = random.Random(seed)

    def cut(match: re.Match[str]) -> str:
        word = match[0]
        if len(word) < 8:
            return word
        at = rng.randint(3, len(word) - 3)
        return f"{word[:at]}-{word[at:]}"

    return _CYRILLIC_WORD.sub(cut, text)


def hyphen_pairs(text: str, seed: int = 0) -> str:
    """Adjacent Russian words joined by a hyphen in pairs: of every run of words parted by
    single spaces, the 1st and 2nd, the 3rd and 4th … (``выбор-зимних``)."""
    chars = list(text)
    words = list(_CYRILLIC_WORD.finditer(text))
    joined = False  # the previous word was joined to the one before it
    for before, after in pairwise(words):
        adjacent = text[before.end() : after.start()] == " "
        if adjacent and not joined:
            chars[before.end()] = "-"
            joined = True
        else:
            joined = False
    return "".join(chars)


def filler_words(text: str, seed: int = 0) -> str:
    """A filler word (``буквально``, ``действительно`` …) after every 3 to 5 words."""
    rng = random.Random(seed)
    out: list[str] = []
    gap = rng.randint(3, 5)
    for token in text.split(" "):
        out.append(token)
        if _WORD.search(token):
            gap -= 1
            if gap == 0:
                out.append(rng.choice(FILLERS))
                gap = rng.randint(3, 5)
    return " ".join(out)


# ---------------------------------------------------------------- word order


def _is_proper(word: str) -> bool:
    letters = _WORD.search(word)
    if letters is None:
        return True
    parse = analyzer().parse(letters[0])[0]
    return bool(_PROPER & set(parse.tag.grammemes)) or (letters[0].isupper() and len(word) > 1)


def _reorder(sentence: str, order: Callable[[list[str]], list[str]]) -> str:
    """The sentence's whitespace-separated words in the order ``order`` gives them: the final
    punctuation stays at the end, and the capital letter moves to the new first word (a name
    keeps its own)."""
    words = sentence.split()
    if len(words) < 2:
        return sentence
    end = _SENTENCE_END.search(words[-1])
    tail = end[0] if end and end.start() > 0 else ""
    words[-1] = words[-1][: len(words[-1]) - len(tail)]
    first = words[0]
    if first[:1].isupper() and not _is_proper(first):
        words[0] = first[:1].lower() + first[1:]
    moved = order(words)
    if first[:1].isupper():
        moved[0] = moved[0][:1].upper() + moved[0][1:]
    return " ".join(moved) + tail


def shuffle_words(sentence: str, rng: random.Random) -> str:
    """The sentence's words in a random order."""

    def shuffled(words: list[str]) -> list[str]:
        words = list(words)
        rng.shuffle(words)
        return words

    return _reorder(sentence, shuffled)


def swap_pairs(sentence: str, rng: random.Random | None = None) -> str:
    """The sentence's words swapped in adjacent pairs: 1st with 2nd, 3rd with 4th …"""

    def swapped(words: list[str]) -> list[str]:
        out = list(words)
        for i in range(0, len(out) - 1, 2):
            out[i], out[i + 1] = out[i + 1], out[i]
        return out

    return _reorder(sentence, swapped)


def map_sentences(text: str, change: Callable[[str], str]) -> str:
    """``text`` with each of its sentences (razdel's ``sentenize``) passed through ``change``;
    what lies between sentences stays."""
    out, last = [], 0
    for piece in sentenize(text):
        out.append(text[last : piece.start])
        out.append(change(piece.text))
        last = piece.stop
    return "".join(out) + text[last:]


def shuffle_sentences(text: str, seed: int = 0) -> str:
    """The words of every sentence shuffled inside it."""
    rng = random.Random(seed)
    return map_sentences(text, lambda s: shuffle_words(s, rng))


def adjacent_swaps(text: str, seed: int = 0) -> str:
    """The words of every sentence swapped in adjacent pairs."""
    return map_sentences(text, swap_pairs)


# ---------------------------------------------------------------- the list


@dataclass(frozen=True)
class Trick:
    """One trick of the tables: its name, what it does, and the fake-uniqueness target."""

    name: str
    alter: Callable[[str, int], str]
    target: float  # the highest fake uniqueness allowed, a share
    # When a tool stacking tricks applies it: 0 words and their order, 1 letters, 2 the
    # spacing and the lines, 3 how the text is stored (reversed under bidi overrides).
    stage: int = 1


# Look-alikes of Russian letters from blocks other than Latin and Greek, written out by hand
# (Armenian, Cherokee, Coptic, Latin small capitals, letterlike, mathematical, fullwidth).
OTHER_BLOCKS = {
    "а": "ａ𝐚𝑎ᴀ", "в": "ʙᏼ", "е": "ｅ𝐞ℯҽ", "к": "ᴋⲕĸ", "м": "ᴍꮇ", "н": "ʜꮋ",
    "о": "օᴏⲟℴ𝐨ｏ০", "р": "ⲣｐ𝐩", "с": "ⲥᴄｃ𝐜", "т": "ᴛꭲ", "у": "ｙ𝐲ү", "х": "ｘ𝐱ⅹ",
    "А": "ᎪＡ𝐀", "В": "ᏴＢ", "Е": "ᎬＥ", "К": "ᏦＫ", "М": "ᎷＭ", "Н": "ᎻＨ", "О": "ՕＯ𝐎",
    "Р": "ᏢＰ", "С": "ᏟＣ", "Т": "ᎢＴ", "Х": "Ｘ𝐗",
}  # fmt: skip
# Digits and signs that stand in for letters, as typed in leetspeak and volapuk.
SIGNS = {"о": "0", "з": "3", "б": "6", "ч": "4", "а": "@"}
_GAPS = (" ", "\u2009", "\u00a0", "\u202f")


def other_blocks(text: str, seed: int = 0) -> str:
    """One letter of every Cyrillic word that has one written with a look-alike of
    ``OTHER_BLOCKS``, chosen at random."""
    rng = random.Random(seed)

    def pose(match: re.Match[str]) -> str:
        word = match[0]
        places = [i for i, c in enumerate(word) if c in OTHER_BLOCKS]
        if not places:
            return word
        at = rng.choice(places)
        return word[:at] + rng.choice(OTHER_BLOCKS[word[at]]) + word[at + 1 :]

    return _CYRILLIC_WORD.sub(pose, text)


def digits_and_signs(text: str, seed: int = 0) -> str:
    """The first of о, з, б, ч, а inside every Cyrillic word typed as 0, 3, 6, 4 or @."""

    def pose(match: re.Match[str]) -> str:
        word = match[0]
        for i, c in enumerate(word[1:-1], 1):
            if c in SIGNS:
                return word[:i] + SIGNS[c] + word[i + 1 :]
        return word

    return _CYRILLIC_WORD.sub(pose, text)


def spaced_letters(text: str, seed: int = 0) -> str:
    """The letters of every word apart by one space character (ordinary or typographic, at
    random), the words by three."""
    gap = random.Random(seed).choice(_GAPS)
    pieces = (_WORD.sub(lambda m: gap.join(m[0]), piece) for piece in text.split(" "))
    return (gap * 3).join(pieces)


def line_breaks(text: str, seed: int = 0) -> str:
    """Lines of about 60 characters, each ending inside a word with a hyphen or a soft
    hyphen and a line break (chosen at random)."""
    rng = random.Random(seed)
    out, last = [], 0
    for match in _CYRILLIC_WORD.finditer(text):
        word = match[0]
        if match.start() - last < 60 or len(word) < 6:
            continue
        at = match.start() + rng.randint(2, len(word) - 3)
        out.append(text[last:at] + rng.choice(("-\n", "\u00ad\n")))
        last = at
    return "".join(out) + text[last:]


# Signs a reader takes for a smudge or a typo inside a word: brackets, quotes, dashes,
# slashes and sentence punctuation (each written for one letter, or put between two).
WORD_SIGNS = '()[]{}«»"“”–—/|\\.,:;!?'
# Modifier letters: small raised letters and signs of phonetic writing (Unicode category Lm).
MODIFIERS = "ʰʲʷˈˌːˑʹʺˀˁ"
# Multi-character look-alikes of single Russian letters.
SEQUENCES = {"ы": ("bl", "bI", "ьI", "b|"), "Ы": ("bl", "bI", "ЬI", "Ь|")}
# Volapuk: Russian letters written in Latin letters and digits that look or sound alike, as in
# early Russian e-mail (``4to`` for что, ``xopowo`` for хорошо, ``6blCTPO`` for быстро).
VOLAPUK = {
    "а": ("a",), "б": ("6", "b"), "в": ("v", "B"), "г": ("r", "g"), "д": ("d", "g"),
    "е": ("e",), "ё": ("e", "yo"), "ж": ("zh", ">|<"), "з": ("3", "z"), "и": ("u", "i"),
    "й": ("u", "j"), "к": ("k",), "л": ("l", "JI"), "м": ("m",), "н": ("n", "H"),
    "о": ("o", "0"), "п": ("n", "p"), "р": ("p", "r"), "с": ("c", "s"), "т": ("t", "m"),
    "у": ("y", "u"), "ф": ("f",), "х": ("x", "h"), "ц": ("c", "ts"), "ч": ("4", "ch"),
    "ш": ("w", "sh"), "щ": ("w", "sch"), "ъ": ("'", ""), "ы": ("bl", "y"), "ь": ("'", "b"),
    "э": ("e",), "ю": ("ju", "yu"), "я": ("9", "ya"),
}  # fmt: skip


def _each_word(text: str, seed: int, change: Callable[[str, random.Random], str]) -> str:
    rng = random.Random(seed)
    return _CYRILLIC_WORD.sub(lambda m: change(m[0], rng), text)


def signs_for_letters(text: str, seed: int = 0) -> str:
    """One letter inside every Cyrillic word of four letters or more written as a bracket,
    quote, dash, slash or punctuation mark chosen at random."""

    def pose(word: str, rng: random.Random) -> str:
        if len(word) < 4:
            return word
        at = rng.randint(1, len(word) - 2)
        return word[:at] + rng.choice(WORD_SIGNS) + word[at + 1 :]

    return _each_word(text, seed, pose)


def signs_inside(text: str, seed: int = 0) -> str:
    """A bracket, quote, dash, slash or punctuation mark put inside every Cyrillic word of
    three letters or more, at random."""

    def pose(word: str, rng: random.Random) -> str:
        if len(word) < 3:
            return word
        at = rng.randint(1, len(word) - 1)
        return word[:at] + rng.choice(WORD_SIGNS) + word[at:]

    return _each_word(text, seed, pose)


def private_use(text: str, seed: int = 0) -> str:
    """A private use character (U+E000-U+F8FF, drawn as nothing by most fonts) inside every
    Cyrillic word of two letters or more, at random."""

    def pose(word: str, rng: random.Random) -> str:
        if len(word) < 2:
            return word
        at = rng.randint(1, len(word) - 1)
        return word[:at] + chr(rng.randint(0xE000, 0xF8FF)) + word[at:]

    return _each_word(text, seed, pose)


def modifier_letters(text: str, seed: int = 0) -> str:
    """A modifier letter (``ʰ``, ``ʲ``, ``ː`` …) inside or after every Cyrillic word, at
    random."""

    def pose(word: str, rng: random.Random) -> str:
        at = rng.randint(1, len(word))
        return word[:at] + rng.choice(MODIFIERS) + word[at:]

    return _each_word(text, seed, pose)


def letter_sequences(text: str, seed: int = 0) -> str:
    """Every ы and Ы written as two characters that look like it (``bl``, ``ЬI`` …)."""
    rng = random.Random(seed)
    return re.sub("[ыЫ]", lambda m: rng.choice(SEQUENCES[m[0]]), text)


def volapuk(text: str, seed: int = 0) -> str:
    """Every Cyrillic word written in volapuk, each letter by one of its spellings at random
    (capitals as capitals where the spelling is a letter)."""

    def spell(word: str, rng: random.Random) -> str:
        out = []
        for char in word:
            latin = rng.choice(VOLAPUK.get(char.lower(), (char,)))
            out.append(latin[:1].upper() + latin[1:] if char.isupper() else latin)
        return "".join(out)

    return _each_word(text, seed, spell)


def bidi_reversed(text: str, seed: int = 0) -> str:
    """Every line stored backwards inside a right-to-left override (U+202E … U+202C): shown
    as typed, stored reversed.  (Words overridden one by one would not do: by the
    bidirectional algorithm the spaces between them turn right-to-left too, and the words are
    shown in reverse order.)"""
    return "\n".join(f"\u202e{line[::-1]}\u202c" if line else line for line in text.split("\n"))


def _marked(char: str) -> Callable[[str, int], str]:
    return lambda text, seed=0: inside_words(text, char)


TRICKS: Sequence[Trick] = (
    Trick("Greek look-alike letters", greek_lookalikes, 0.05),
    Trick("look-alikes of other blocks", other_blocks, 0.05),
    Trick("digits and signs for letters", digits_and_signs, 0.05),
    Trick("letters spaced apart", spaced_letters, 0.05, stage=2),
    Trick("line-end hyphenation", line_breaks, 0.05, stage=2),
    Trick("signs for letters (brackets, quotes, dashes, punctuation)", signs_for_letters, 0.05),
    Trick("signs inside words", signs_inside, 0.05),
    Trick("private use characters inside words", private_use, 0.05),
    Trick("modifier letters inside words", modifier_letters, 0.05),
    Trick("two characters for ы (bl, ЬI …)", letter_sequences, 0.05),
    Trick("words in volapuk", volapuk, 0.05),
    Trick("lines stored backwards under bidi overrides", bidi_reversed, 0.05, stage=3),
    Trick("U+0323 (dot below) inside words", _marked("\u0323"), 0.05),
    Trick("U+0331 (macron below) inside words", _marked("\u0331"), 0.05),
    Trick("U+0307 (dot above) inside words", _marked("\u0307"), 0.05),
    Trick("U+034F (grapheme joiner) inside words", _marked("\u034f"), 0.05),
    Trick("U+FE0F (variation selector) inside words", _marked("\ufe0f"), 0.05),
    Trick("U+3164 (Hangul filler) inside words", _marked("\u3164"), 0.05),
    Trick("U+3164 in place of spaces", hangul_spaces, 0.05, stage=2),
    Trick("half the words in Latin letters", transliterate, 0.25),
    Trick("a hyphen inside long words", hyphen_inside, 0.05),
    Trick("word pairs joined by hyphens", hyphen_pairs, 0.05, stage=0),
    Trick("grave stress U+0300", grave_stress, 0.05),
    Trick("Latin c/o/a/y/k for one-letter words", latin_one_letter, 0.05),
    Trick("a filler word every 3-5 words", filler_words, 0.05, stage=0),
    Trick("words shuffled inside sentences", shuffle_sentences, 0.25, stage=0),
    Trick("adjacent word pairs swapped", adjacent_swaps, 0.05, stage=0),
)
