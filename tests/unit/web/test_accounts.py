"""The users file of ``canon serve`` (a real SQLite file) and ``canon users``: passwords kept
only as Argon2id hashes, names unique in any case, tokens kept as hashes, quotas that threads
spending at once never overdraw, and every refusal one line with exit 2."""

from __future__ import annotations

import os
import sqlite3
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from canon.cli import cli
from canon.errors import AccountError
from canon.web.accounts import Accounts, QuotaSpent

SECRET = "tea leaves at noon"


@pytest.fixture
def accounts(tmp_path: Path) -> Accounts:
    made = Accounts(tmp_path / "team.users", create=True)
    made.add("Anna", SECRET, queries_per_day=100)
    return made


def test_a_password_is_kept_only_as_an_argon2id_hash(accounts: Accounts) -> None:
    with sqlite3.connect(accounts.path) as db:
        (kept,) = db.execute("SELECT hash FROM users").fetchone()
    assert kept.startswith("$argon2id$") and SECRET not in accounts.path.read_bytes().decode(
        "latin-1"
    )
    assert stat.S_IMODE(os.stat(accounts.path).st_mode) == 0o600
    assert accounts.sign_in("anna", SECRET) == accounts.user("ANNA")
    for name, password in (("anna", SECRET + " "), ("anna", ""), ("nobody", SECRET)):
        assert accounts.sign_in(name, password) is None


def test_names_are_unique_in_any_case_and_form(accounts: Accounts) -> None:
    for taken in ("anna", "ANNA", "Ａｎｎａ"):  # the last in full-width letters (NFKC)
        with pytest.raises(AccountError) as refused:
            accounts.add(taken, "another long secret")
        assert refused.value.reason == "exists"
    accounts.add("анна", "another long secret")  # another alphabet, another name
    assert [u.name for u in accounts.users()] == ["Anna", "анна"]


@pytest.mark.parametrize(
    ("name", "password", "reason"),
    [
        ("bo b", "a long enough secret", "bad-name"),
        ("", "a long enough secret", "bad-name"),
        ("x" * 65, "a long enough secret", "bad-name"),
        ("bob", "short", "weak-password"),
        ("bob", "x" * 1025, "weak-password"),
        ("bob", "my name is BOB ok", "weak-password"),
    ],
)
def test_a_bad_name_or_password_is_refused(
    accounts: Accounts, name: str, password: str, reason: str
) -> None:
    with pytest.raises(AccountError) as refused:
        accounts.add(name, password)
    assert refused.value.reason == reason
    assert len(accounts.users()) == 1


def test_a_token_is_kept_as_a_hash_and_goes_with_its_user(accounts: Accounts) -> None:
    token = accounts.new_token("anna", "ci")
    assert token.encode() not in accounts.path.read_bytes()
    assert accounts.by_token(token) == accounts.user("anna")
    assert accounts.user("anna").tokens == 1  # type: ignore[union-attr]
    assert accounts.by_token(token + "x") is None and accounts.by_token("") is None
    accounts.remove("anna")
    assert accounts.by_token(token) is None


def test_a_new_password_moves_the_generation_on(accounts: Accounts) -> None:
    before = accounts.user("anna")
    accounts.set_password("anna", "a brand new secret")
    after = accounts.user("anna")
    assert before and after and after.generation == before.generation + 1
    assert accounts.sign_in("anna", SECRET) is None
    assert accounts.sign_in("anna", "a brand new secret") == after


def test_threads_spending_at_once_never_overdraw_the_quota(accounts: Accounts) -> None:
    def spend(_: int) -> bool:
        try:
            Accounts(accounts.path).spend("anna", 7, "2026-12-03")
        except QuotaSpent:
            return False
        return True

    with ThreadPoolExecutor(8) as pool:
        granted = sum(pool.map(spend, range(40)))
    assert granted == 100 // 7
    assert accounts.left("anna", "2026-12-03") == (100 - 7 * granted, 100)
    accounts.refund("anna", 50, "2026-12-03")
    assert accounts.left("anna", "2026-12-03") == (100 - 7 * granted + 50, 100)
    assert accounts.left("anna", "2026-12-04") == (100, 100)  # a new day, a new quota


def test_a_file_that_is_no_users_file_is_refused(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    with sqlite3.connect(notes) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    text = tmp_path / "notes.txt"
    text.write_text("не база данных", "utf-8")
    for path, reason in ((notes, "not-accounts"), (text, "not-accounts"),
                         (tmp_path / "none", "missing")):  # fmt: skip
        with pytest.raises(AccountError) as refused:
            Accounts(path)
        assert refused.value.reason == reason and str(path) in refused.value.message


# ------------------------------------------------------------------ canon users


def _users(*args: str, given: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["users", *args], input=given)


def test_canon_users_adds_lists_limits_and_removes(tmp_path: Path) -> None:
    path = str(tmp_path / "team.users")
    added = _users("add", path, "vera", "--password-stdin", "--queries-per-day", "30",
                   given=SECRET + "\n")  # fmt: skip
    assert added.exit_code == 0 and added.stdout == f"added vera to {path}\n"
    asked = _users("add", path, "gleb", given=f"{SECRET}\n{SECRET}\n")  # asked twice, no echo
    assert asked.exit_code == 0 and SECRET not in asked.output
    limits = _users("limits", path, "vera", "--audits", "3")
    assert limits.stdout == "vera: 30 queries a day, 3 audits at once\n"
    listed = _users("list", path).stdout.splitlines()
    assert listed[0] == "name\tqueries/day\tleft today\taudits\ttokens\tadded"
    assert [line.split("\t")[:5] for line in listed[1:]] == [
        ["gleb", "100", "100", "1", "0"], ["vera", "30", "30", "3", "0"]]  # fmt: skip
    assert _users("remove", path, "gleb").exit_code == 0
    assert len(_users("list", path).stdout.splitlines()) == 2


@pytest.mark.parametrize(
    ("args", "given", "said"),
    [
        (["add", "{path}", "ivan", "--password-stdin"], "short\n", "a password is 10 to"),
        (["add", "{path}", "vera", "--password-stdin"], SECRET + "\n", "a user 'vera' already"),
        (["remove", "{path}", "nobody"], None, "there is no user 'nobody'"),
        (["token", "{path}", "nobody"], None, "there is no user 'nobody'"),
        (["list", "{other}"], None, "no users file here"),
    ],
)
def test_canon_users_refuses_in_one_line(
    tmp_path: Path, args: list[str], given: str | None, said: str
) -> None:
    path = tmp_path / "team.users"
    _users("add", str(path), "vera", "--password-stdin", given=SECRET + "\n")
    names = {"path": str(path), "other": str(tmp_path / "other.users")}
    refused = _users(*[a.format(**names) for a in args], given=given)
    assert refused.exit_code == 2
    assert refused.stderr.startswith("canon: error: ") and said in refused.stderr
    assert refused.stderr.count("\n") == 1
    assert not (tmp_path / "other.users").exists()  # a refusal makes no file


def test_a_refused_first_user_makes_no_file(tmp_path: Path) -> None:
    path = tmp_path / "new.users"
    assert _users("add", str(path), "ivan", "--password-stdin", given="short\n").exit_code == 2
    assert not path.exists()
