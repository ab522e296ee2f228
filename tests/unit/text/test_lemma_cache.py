"""The persisted lemma cache: one file per analyzer version, read warm by later processes,
written atomically, and ignored (one warning) when damaged."""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st
from repo_paths import ROOT

from canon.canonical import canonicalize, clear_caches
from canon.text import lemma_cache, lemmatize
from canon.text.lemma_cache import LemmaFile, cache_dir, lemma_file

TEXT = "Мама мыла раму, а кошки ловили мышей в старом сарае. Дети читали книги о далёких морях."


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache directory, and this process's caches emptied around the test."""
    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(lemma_cache, "_warned", False)
    clear_caches()
    yield tmp_path / "cache"
    clear_caches()


def _run(code: str, folder: Path) -> str:
    env = {**os.environ, "CANON_CACHE_DIR": str(folder), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


# Counts pymorphy3's analyses of a form (the real analyzer; the stop-word rules still load it
# to ask which hyphenated words it knows).
_PROBE = f"""
import hashlib
import json
from canon.canonical import canonicalize
from canon.text import lemmatize
analyzer = lemmatize._analyzer()
parsed = []
parse = analyzer.parse
analyzer.parse = lambda word: parsed.append(word) or parse(word)
tokens = canonicalize({TEXT!r}, "lemma").tokens
print(json.dumps([list(tokens), len(parsed)]))
"""


@pytest.mark.slow
def test_a_second_process_is_warm_from_its_first_document(folder: Path) -> None:
    first_tokens, first_parsed = json.loads(_run(_PROBE, folder))
    assert first_parsed > 15  # the first run analysed the text's forms and the stop words
    assert len(list(folder.glob("canon-lemmas-*.bin"))) == 1
    second_tokens, second_parsed = json.loads(_run(_PROBE, folder))
    assert second_tokens == first_tokens
    assert "кошка" in second_tokens and "далекий" in second_tokens
    assert second_parsed == 0  # every lemma came from the file


_LEARNED = ["сараях", "морями", "кошками", "читающими", "ловившими", "далями", "книгами", "мышами"]


@pytest.mark.slow
def test_index_add_workers_leave_what_they_learned_in_the_file(
    folder: Path, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, word in enumerate(_LEARNED):
        (docs / f"{i}.txt").write_text(f"{TEXT} Рядом с {word} стоял дом номер {i}.", "utf-8")
    env = {**os.environ, "CANON_CACHE_DIR": str(folder), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "canon", "index", "add", str(tmp_path / "i.db"), str(docs)]
    out = subprocess.run(
        [*command, "--workers", "2"], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    (path,) = folder.glob("canon-lemmas-*.bin")
    forms, _, _ = LemmaFile(path, lemma_file().key).load()  # type: ignore[union-attr]
    assert set(_LEARNED) <= set(forms)  # only the workers met these forms


def test_the_file_holds_forms_lemmas_and_lemma_hashes(folder: Path) -> None:
    canonicalize(TEXT, "lemma")
    cache = lemma_file()
    assert cache is not None
    cache.flush()
    forms, bases, hashes = LemmaFile(cache.path, cache.key).load()
    lemmas = dict(zip(forms, bases))
    assert lemmas["кошки"] == "кошка" and lemmas["далеких"] == "далёкий"  # as pymorphy3 gives it
    assert hashes.tolist() == [xxhash.xxh3_64_intdigest(b.encode()) for b in bases]
    assert not [p for p in folder.iterdir() if p.suffix == ".tmp"]  # the temporary was moved


def test_writers_merge_what_is_on_disk(folder: Path) -> None:
    path = folder / "merge.bin"
    first, second = LemmaFile(path, "key"), LemmaFile(path, "key")
    first.learn({"кошки": "кошка"})
    first.flush()
    second.learn({"мышей": "мышь"})
    second.flush()
    forms, bases, _ = LemmaFile(path, "key").load()
    assert dict(zip(forms, bases)) == {"кошки": "кошка", "мышей": "мышь"}


def _learn_in_bursts(path: Path, writer: int) -> None:
    cache = LemmaFile(path, "key")
    for burst in range(5):
        cache.learn({f"ф{writer}-{burst}-{i}": f"л{writer}" for i in range(300)})
        cache.flush()


def test_concurrent_writers_lose_no_form(folder: Path) -> None:
    path = folder / "shared.bin"
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_learn_in_bursts, args=(path, w)) for w in range(4)]
    for process in writers:
        process.start()
    for process in writers:
        process.join(60)
        assert process.exitcode == 0
    forms, bases, _ = LemmaFile(path, "key").load()
    assert len(forms) == len(set(forms)) == 4 * 5 * 300
    assert sorted(set(bases)) == ["л0", "л1", "л2", "л3"]


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flipped":
        path.write_bytes(data[:-3] + bytes([data[-3] ^ 0x40]) + data[-2:])
    elif how == "garbage":
        path.write_bytes(b"\x00not a cache at all\xff" * 10)
    else:
        path.write_bytes(b"")


@pytest.mark.parametrize("how", ["truncated", "flipped", "garbage", "empty"])
def test_a_damaged_file_is_ignored_with_one_warning_and_rebuilt(
    folder: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    expected = canonicalize(TEXT, "lemma").tokens
    cache = lemma_file()
    assert cache is not None
    cache.flush()
    _damage(cache.path, how)
    clear_caches()
    lemma_cache._files.clear()  # as in a new process
    with caplog.at_level(logging.WARNING, logger="canon.lemma_cache"):
        assert canonicalize(TEXT, "lemma").tokens == expected
        assert canonicalize(TEXT + " Птицы пели.", "lemma").tokens[: len(expected)] == expected
        rebuilt = lemma_file()
        assert rebuilt is not None
        rebuilt.flush()
    warnings = [
        r for r in caplog.records if r.name == "canon.lemma_cache" and r.levelno >= logging.WARNING
    ]
    assert len(warnings) == 1 and "damaged" in warnings[0].getMessage()
    forms, bases, _ = LemmaFile(rebuilt.path, rebuilt.key).load()  # whole again
    assert dict(zip(forms, bases))["кошки"] == "кошка"


def test_a_file_of_another_analyzer_version_is_not_read(folder: Path) -> None:
    path = folder / "other.bin"
    theirs = LemmaFile(path, "pymorphy3 0.1")
    theirs.learn({"кошки": "собака"})
    theirs.flush()
    assert LemmaFile(path, "pymorphy3 0.1").load()[1] == ["собака"]
    ours = LemmaFile(path, "pymorphy3 9.9")
    assert ours.load()[0] == [] and ours.warned


def test_an_unwritable_directory_keeps_lemmas_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(lemma_cache, "_warned", False)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("CANON_CACHE_DIR", str(blocker / "cache"))
    clear_caches()
    with caplog.at_level(logging.WARNING, logger="canon.lemma_cache"):
        tokens = canonicalize(TEXT, "lemma").tokens
        cache = lemma_file()
        assert cache is not None
        cache.flush()
        cache.learn({"x": "y"})
        cache.flush()
    clear_caches()
    assert "кошка" in tokens
    (warning,) = [
        r for r in caplog.records if r.name == "canon.lemma_cache" and r.levelno >= logging.WARNING
    ]
    assert "cannot be" in warning.getMessage()


def test_off_turns_the_file_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CANON_CACHE_DIR", "off")
    clear_caches()
    assert cache_dir() is None and lemma_file() is None
    assert "кошка" in canonicalize(TEXT, "lemma").tokens
    clear_caches()


def test_the_default_place_is_the_user_cache_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CANON_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert cache_dir() == tmp_path / "xdg" / "canon"
    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


def test_the_key_names_every_version_that_makes_a_lemma() -> None:
    key = lemma_cache._key()
    assert lemmatize.analyzer_version("lemma") in key
    assert "pymorphy3-dicts-ru" in key and "canonical form" in key


forms = st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюя-0123456789", min_size=1, max_size=12)


@given(st.dictionaries(forms, forms, max_size=30), st.text(max_size=20))
def test_any_table_round_trips(table: dict[str, str], key: str) -> None:
    found = lemma_cache._decode(lemma_cache._encode(key, table), key)
    assert dict(zip(found[0], found[1])) == table
    assert len(found[2]) == len(table)


@given(st.dictionaries(forms, forms, min_size=1, max_size=10), st.data())
def test_any_flipped_byte_is_detected(table: dict[str, str], data: st.DataObject) -> None:
    encoded = bytearray(lemma_cache._encode("k", table))
    at = data.draw(st.integers(0, len(encoded) - 1))
    encoded[at] ^= data.draw(st.integers(1, 255))
    with pytest.raises((ValueError, UnicodeDecodeError)):
        lemma_cache._decode(bytes(encoded), "k")


def test_a_profiles_table_is_kept_per_fingerprint(folder: Path) -> None:
    from canon import canonical
    from canon.profile import get_profile

    lemma = get_profile("lemma")
    tokens = canonicalize(TEXT, "lemma").tokens
    cache = lemma_cache.table_file(lemma.fingerprint)
    assert cache is not None
    cache.flush()
    clear_caches()
    lemma_cache._files.clear()  # as in a new process
    table = canonical._persisted_table(lemma)
    assert table["кошки"] == "кошка" and table["в"] == ""  # a stop word is kept as dropped
    assert canonicalize(TEXT, "lemma").tokens == tokens
    other = lemma_cache.table_file(get_profile("stem").fingerprint)
    assert other is not None and other.path != cache.path


def _named(kind: str, key: str) -> str:
    """A cache file's name as canon has always made it (files on disk keep being found)."""
    return f"canon-{kind}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:16]}.bin"


def test_the_files_keep_their_names(folder: Path) -> None:
    cache = lemma_file()
    assert cache is not None and cache.path == folder / _named("lemmas", lemma_cache._key())
    table = lemma_cache.table_file("f" * 16)
    key = f"profile {'f' * 16}; {lemma_cache._key()}"
    assert table is not None and table.path == folder / _named("table", key)


def test_the_file_is_found_once_per_setting(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    looked = []
    monkeypatch.setattr(lemma_cache, "cache_dir", lambda: looked.append(1) or cache_dir())
    first = lemma_file()
    assert all(lemma_file() is first for _ in range(1000))
    assert len(looked) == 1  # not once a lemma learned


def test_the_file_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def folder_of_file() -> Path | None:
        cache = lemma_file()
        return None if cache is None else cache.path.parent

    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path / "a"))
    first = lemma_file()
    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path / "b"))
    assert folder_of_file() == tmp_path / "b"
    monkeypatch.setenv("CANON_CACHE_DIR", "off")
    assert folder_of_file() is None
    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path / "a"))
    assert lemma_file() is first
    monkeypatch.delenv("CANON_CACHE_DIR")
    for home in ("x", "y"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / home))
        assert folder_of_file() == cache_dir()
        if sys.platform.startswith("linux"):
            assert folder_of_file() == tmp_path / home / "canon"
