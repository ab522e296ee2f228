"""The terminal in Russian: every command's human output under a Russian locale (or
``--lang ru``), Russian plurals and Russian typography of numbers; English unchanged under
``LANG=C``; JSON the same in both."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from command import run_cli
from hypothesis import given
from hypothesis import strategies as st

from canon.report.language import retypeset, speech

RU = {"LANG": "ru_RU.UTF-8", "LC_ALL": None, "LC_MESSAGES": None}
EN = {"LANG": "C", "LC_ALL": None, "LC_MESSAGES": None}
NBSP = "\u00a0"


@pytest.fixture
def pair(examples: Path) -> tuple[str, str]:
    return str(examples / "original.txt"), str(examples / "rewrite.txt")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory, examples_dir: Path) -> Path:
    db = tmp_path_factory.mktemp("russian") / "idx.db"
    ran = run_cli("index", "add", db, examples_dir / "original.txt", env=EN)
    assert ran.returncode == 0, ran.stderr
    return db


@pytest.fixture(scope="module")
def examples_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "examples"


def test_compare_speaks_russian_with_russian_figures(pair: tuple[str, str]) -> None:
    russian = run_cli("compare", *pair, "-k", "3", env=RU)
    assert russian.returncode == 0, russian.stderr
    out = russian.stdout
    for said in ("профиль", "Жаккар", "Дайс", "A в B", "общих", "шинглов A/B", "слов A 397"):
        assert said in out, said
    assert f"12,6{NBSP}%" in out and f"символов: 2{NBSP}633" in out
    assert "3 слова, где латинские буквы-двойники заменены кириллицей" in out
    assert "Jaccard" not in out and "12.6%" not in out
    english = run_cli("compare", *pair, "-k", "3", env=EN)
    assert "Jaccard" in english.stdout and "12.6%" in english.stdout
    assert "2,633 chars" in english.stdout
    assert "3 words with look-alike letters folded to Cyrillic" in english.stdout
    forced = run_cli("compare", *pair, "-k", "3", "--lang", "en", env=RU)
    assert forced.stdout == english.stdout


def test_json_never_changes_language(pair: tuple[str, str]) -> None:
    russian = run_cli("compare", *pair, "--json", env=RU)
    english = run_cli("compare", *pair, "--json", env=EN)
    assert json.loads(russian.stdout) == json.loads(english.stdout)


def test_check_says_the_verdict_and_the_mark_in_russian(
    indexed: Path, pair: tuple[str, str]
) -> None:
    russian = run_cli("check", pair[1], "--index", indexed, "--min-uniqueness", "80", env=RU)
    assert russian.returncode == 1
    out = re.sub(r" *\n *", " ", russian.stdout)  # prose wraps at the console's width
    assert f"уникальность 5,3{NBSP}%" in out
    assert f"заимствовано дословно 5,9{NBSP}% · рерайт 88,7{NBSP}%" in out
    assert f"букв и цифр: 2{NBSP}320" in out
    assert "Черновик" in out and "Источники" in out and "доля текста" in out
    assert "предложений: 22" in out  # what found the source, said
    assert russian.stderr == (
        f"canon: {pair[1]}: уникальность 5,3{NBSP}% ниже порога --min-uniqueness 80{NBSP}% "
        "на 74,7 п. п.\n"
    )
    english = run_cli("check", pair[1], "--index", indexed, "--min-uniqueness", "80", env=EN)
    printed = re.sub(r" *\n *", " ", english.stdout)
    assert "uniqueness 5.3%   copied 5.9% · rewritten 88.7%   (2,320 letters and digits)" in printed
    assert english.stderr == (
        f"canon: {pair[1]}: uniqueness 5.3% is below --min-uniqueness 80% by 74.7 points\n"
    )


def test_stats_speaks_russian(pair: tuple[str, str]) -> None:
    russian = run_cli("stats", pair[0], env=RU)
    assert russian.returncode == 0, russian.stderr
    for said in ("показатель", "вода", f"28,7{NBSP}%", "норма", "ключевое слово (лемма)"):
        assert said in russian.stdout, said
    english = run_cli("stats", pair[0], "--lang", "en", env=RU)
    assert "water" in english.stdout and "28.7%" in english.stdout
    assert "показатель" not in english.stdout and "норма" not in english.stdout


def test_index_commands_speak_russian_with_plurals(tmp_path: Path, pair: tuple[str, str]) -> None:
    db = tmp_path / "idx.db"
    added = run_cli("index", "add", db, *pair, env=RU)
    assert added.returncode == 0, added.stderr
    assert added.stderr.startswith("добавлено 2, заменено 0, без изменений 0, с ошибкой 0 (")
    verified = run_cli("index", "verify", db, env=RU)
    assert "проверено 2 документа и" in verified.stderr and "всё в порядке" in verified.stderr
    listed = run_cli("index", "list", db, env=RU)
    assert listed.stdout.splitlines()[0] == "источник\tзаголовок\tсимволов\tдобавлен"
    stats = run_cli("index", "stats", db, env=RU).stdout
    assert stats.startswith("документов") and "шинглов:" in stats and "байт" in stats
    removed = run_cli("index", "remove", db, pair[0], "nope", env=RU)
    assert removed.stderr == (
        "удалено 1 из 2\n  нет в индексе: nope (список документов — «canon index list»)\n"
    )
    english = run_cli("index", "verify", db, env=EN)
    assert english.stderr.endswith(": 1 document, 1 segment checked: sound\n") or (
        " document" in english.stderr and "checked: sound" in english.stderr
    )
    assert run_cli("index", "list", db, env=EN).stdout.startswith("source\ttitle\tchars\tadded\n")


@pytest.mark.parametrize(
    ("count", "documents", "problems"),
    [(1, "1 документ", "1 проблема"), (2, "2 документа", "2 проблемы"),
     (5, "5 документов", "5 проблем"), (21, "21 документ", "21 проблема"),
     (2320, f"2{NBSP}320 документов", f"2{NBSP}320 проблем")],
)  # fmt: skip
def test_counts_take_their_russian_plural_and_grouping(
    count: int, documents: str, problems: str
) -> None:
    said = speech("ru")
    assert said.ngettext("%(num)s document", "%(num)s documents", count) == documents
    assert said.ngettext("%(num)s problem", "%(num)s problems", count) == problems
    english = speech("en").ngettext("%(num)s document", "%(num)s documents", count)
    assert english == f"{count} document" + ("s" if count != 1 else "")


def test_errors_are_one_russian_line(tmp_path: Path) -> None:
    missing = run_cli("compare", "nope.txt", "other.txt", env=RU)
    assert missing.returncode == 2
    assert missing.stderr == "canon: ошибка: nope.txt: такого файла нет\n"
    host = run_cli("compare", "example.ru/page", "other.txt", env=RU)
    assert host.stderr == (
        "canon: ошибка: example.ru/page: такого файла нет; если это веб-страница, укажите "
        "адрес целиком: https://example.ru/page\n"
    )
    no_index = run_cli("index", "list", tmp_path / "none.db", env=RU)
    assert no_index.returncode == 2
    assert no_index.stderr == (
        f"canon: ошибка: {tmp_path / 'none.db'}: такого индекса нет; создайте его командой "
        "«canon index add»\n"
    )
    short = tmp_path / "short.txt"
    short.write_text("два слова", "utf-8")
    too_short = run_cli("compare", short, short, env=RU)
    assert f"в {short} 2 слова после нормализации, меньше k=3" in too_short.stderr
    english = run_cli("compare", "nope.txt", "other.txt", "--lang", "en", env=RU)
    assert english.stderr == "canon: error: nope.txt: no such file\n"


def test_dedup_summary_in_russian(tmp_path: Path, pair: tuple[str, str]) -> None:
    copy = tmp_path / "copy.txt"
    copy.write_text(Path(pair[0]).read_text("utf-8"), "utf-8")
    ran = run_cli("dedup", pair[0], copy, env=RU)
    assert ran.returncode == 0, ran.stderr
    assert "документов 2, кластеров 1, документов в кластерах 2, к удалению 1" in ran.stderr
    assert "пар-кандидатов" in ran.stderr
    english = run_cli("dedup", pair[0], copy, env=EN)
    assert "documents 2, clusters 1, documents in clusters 2, to remove 1" in english.stderr


def test_users_speak_russian(tmp_path: Path) -> None:
    users = tmp_path / "users.db"
    added = run_cli("users", "add", users, "anna", "--password-stdin", input="s3cret-pass-word\n",
                    env=RU)  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert added.stdout == f"пользователь anna добавлен в {users}\n"
    listed = run_cli("users", "list", users, env=RU).stdout.splitlines()[0]
    assert listed == "имя\tзапросов в день\tосталось сегодня\tаудитов\tтокенов\tдобавлен"
    english = run_cli("users", "list", users, env=EN).stdout.splitlines()[0]
    assert english == "name\tqueries/day\tleft today\taudits\ttokens\tadded"


@given(st.floats(min_value=0, max_value=10_000_000, allow_nan=False), st.integers(0, 3))
def test_retypeset_keeps_every_digit_in_russian_typography(value: float, digits: int) -> None:
    english = f"{value:,.{digits}f}%"
    russian = retypeset(english, "ru")
    assert russian.endswith(NBSP + "%") and "." not in russian
    back = russian.replace(",", ".").replace(NBSP + "%", "%").replace(NBSP, ",")
    assert back == english  # the same digits: the figure is not rounded a second time
    assert retypeset(english, "en") == english
    assert retypeset(f"{round(value):,}", "ru").replace(NBSP, "") == str(round(value))
