"""The users of a server → one SQLite file: names, password hashes, API tokens, quotas, and the
search queries each user spent on each day.

Passwords are kept as Argon2id hashes (``argon2-cffi``; a hash made with weaker parameters than
the library's current ones is made anew at the next sign-in).  An API token is 32 random bytes
shown once, when it is made: the file keeps only its SHA-256 (a token is too long to guess, so
a slow hash would cost every request and protect nothing).  Changing a password or removing a
user ends its sessions: each session carries the user's ``generation``, which both bump.

Every call opens its own connection (threads of a server share nothing), and spending a quota
is one ``BEGIN IMMEDIATE`` transaction, so two servers or threads sharing the file never
spend more than the quota between them.  The file is made readable by its owner only (0600).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import sqlite3
import time
import unicodedata
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AccountError

__all__ = [
    "AUDITS_AT_ONCE",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "QUERIES_PER_DAY",
    "TOKEN_PREFIX",
    "Accounts",
    "QuotaSpent",
    "User",
    "check_new_user",
    "today",
]

QUERIES_PER_DAY = 100  # search queries a new user may spend a day (each costs the provider)
AUDITS_AT_ONCE = 1  # site audits a new user may run at once
MIN_PASSWORD = 10  # characters
MAX_PASSWORD = 1024
TOKEN_PREFIX = "canon_"
_NAME = re.compile(r"[\w.@+-]{1,64}")
_APPLICATION_ID = 0x63616E75  # "canu": PRAGMA application_id of a users file
_SCHEMA = """
CREATE TABLE users (
    key TEXT PRIMARY KEY,          -- the name as it is looked up: NFKC, case-folded
    name TEXT NOT NULL,            -- the name as it was given
    hash TEXT NOT NULL,            -- Argon2id
    created REAL NOT NULL,
    queries_per_day INTEGER NOT NULL,
    audits_at_once INTEGER NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tokens (
    digest TEXT PRIMARY KEY,       -- SHA-256 of the token, hexadecimal
    user TEXT NOT NULL REFERENCES users(key) ON DELETE CASCADE,
    label TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE started (
    user TEXT NOT NULL,            -- the name as given (kept when the user is removed)
    kind TEXT NOT NULL,            -- web-check, audit
    job TEXT NOT NULL,             -- the job's id on the server
    at REAL NOT NULL
);
CREATE INDEX started_by_user ON started (user, at);
CREATE TABLE spent (
    user TEXT NOT NULL REFERENCES users(key) ON DELETE CASCADE,
    day TEXT NOT NULL,             -- YYYY-MM-DD, UTC
    queries INTEGER NOT NULL,
    PRIMARY KEY (user, day)
);
"""


@dataclass(frozen=True)
class User:
    """A user as the server knows it: name, quotas, and the generation its sessions carry."""

    name: str
    queries_per_day: int
    audits_at_once: int
    created: float
    generation: int = 0
    tokens: int = 0


class QuotaSpent(AccountError):
    """A user asked for more search queries than are left of today's quota."""

    def __init__(self, user: str, asked: int, left: int, quota: int) -> None:
        super().__init__(
            f"{user} has {left} of {quota} search queries left today and asked for {asked}: "
            "ask for fewer, or wait for tomorrow (UTC)",
            user=user,
            reason="quota",
        )
        self.asked = asked
        self.left = left
        self.quota = quota


def today() -> str:
    """The day quotas are counted by: the UTC date."""
    return datetime.now(UTC).date().isoformat()


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


if TYPE_CHECKING:
    from argon2 import PasswordHasher


def _hasher() -> PasswordHasher:
    from argon2 import PasswordHasher

    return PasswordHasher()


class Accounts:
    """The users file ``path``; ``create`` makes it when missing (else a missing file is
    refused, naming the command that makes one)."""

    def __init__(self, path: Path, *, create: bool = False) -> None:
        self.path = Path(path)
        self._dummy: str | None = None  # a hash to verify against when a name is unknown
        if not self.path.exists():
            if not create:
                raise AccountError(
                    f"{self.path}: no users file here: make one by adding its first user",
                    reason="missing",
                )
            self._make()
        self._check()

    def __repr__(self) -> str:
        return f"Accounts({str(self.path)!r})"

    # -- the file --------------------------------------------------------------------------

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._unreadable(exc) from exc
        with closing(connection):
            connection.execute("PRAGMA foreign_keys = ON")
            try:
                yield connection
            except sqlite3.DatabaseError as exc:
                raise self._unreadable(exc) from exc

    def _unreadable(self, exc: Exception) -> AccountError:
        return AccountError(f"{self.path}: the users file cannot be used: {exc}",
                            reason="unreadable")  # fmt: skip

    def _make(self) -> None:
        """The file with its tables, whole or not at all (made aside, then linked in place)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        draft = self.path.with_name(f"{self.path.name}.{secrets.token_hex(4)}")
        os.close(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            with closing(sqlite3.connect(draft)) as db:
                db.executescript(f"PRAGMA application_id = {_APPLICATION_ID}; BEGIN;"
                                 f"{_SCHEMA} COMMIT;")  # fmt: skip
            with suppress(FileExistsError):  # two made at once: the first one stays
                os.link(draft, self.path)
        finally:
            draft.unlink(missing_ok=True)

    def _check(self) -> None:
        try:
            with self._db() as db:
                found = db.execute("PRAGMA application_id").fetchone()[0]
        except AccountError:
            found = None
        if found != _APPLICATION_ID:
            raise AccountError(
                f"{self.path}: not a users file of canon: give the file its users were added to",
                reason="not-accounts",
            )

    # -- users -----------------------------------------------------------------------------

    def add(
        self,
        name: str,
        password: str,
        *,
        queries_per_day: int = QUERIES_PER_DAY,
        audits_at_once: int = AUDITS_AT_ONCE,
    ) -> User:
        """A new user; refused when the name is taken (in any case) or the password weak."""
        check_new_user(name, password, queries_per_day, audits_at_once)
        digest = _hasher().hash(password)
        with self._db() as db:
            try:
                db.execute(
                    "INSERT INTO users (key, name, hash, created, queries_per_day, "
                    "audits_at_once) VALUES (?, ?, ?, ?, ?, ?)",
                    (_key(name), name, digest, time.time(), queries_per_day, audits_at_once),
                )
            except sqlite3.IntegrityError:
                raise AccountError(
                    f"there is a user {name!r} already: choose another name, or remove it first",
                    user=name,
                    reason="exists",
                ) from None
        found = self.user(name)
        assert found is not None
        return found

    def remove(self, name: str) -> None:
        """Removes a user, its tokens and its counts; its sessions end."""
        with self._db() as db:
            if db.execute("DELETE FROM users WHERE key = ?", (_key(name),)).rowcount == 0:
                raise _unknown(name)

    _USERS = (
        "SELECT name, queries_per_day, audits_at_once, created, generation, "
        "(SELECT count(*) FROM tokens WHERE user = key) FROM users"
    )

    def user(self, name: str) -> User | None:
        """The user ``name`` (in any case), or None."""
        with self._db() as db:
            row = db.execute(f"{self._USERS} WHERE key = ?", (_key(name),)).fetchone()
        return User(*row) if row else None

    def users(self) -> list[User]:
        """Every user, by name."""
        with self._db() as db:
            rows = db.execute(f"{self._USERS} ORDER BY key").fetchall()
        return [User(*row) for row in rows]

    def set_password(self, name: str, password: str) -> None:
        """A new password; the user's sessions end."""
        _check_password(name, password)
        digest = _hasher().hash(password)
        with self._db() as db:
            changed = db.execute(
                "UPDATE users SET hash = ?, generation = generation + 1 WHERE key = ?",
                (digest, _key(name)),
            ).rowcount
        if not changed:
            raise _unknown(name)

    def set_limits(
        self, name: str, *, queries_per_day: int | None = None, audits_at_once: int | None = None
    ) -> User:
        """New quotas for ``name`` (None keeps one as it is)."""
        user = self.user(name)
        if user is None:
            raise _unknown(name)
        queries = user.queries_per_day if queries_per_day is None else queries_per_day
        audits = user.audits_at_once if audits_at_once is None else audits_at_once
        _check_limits(queries, audits)
        with self._db() as db:
            db.execute(
                "UPDATE users SET queries_per_day = ?, audits_at_once = ? WHERE key = ?",
                (queries, audits, _key(name)),
            )
        return self.user(name) or user

    def sign_in(self, name: str, password: str) -> User | None:
        """The user whose name and password these are, or None.  An unknown name costs the
        same hash as a known one, so the time taken says nothing of which names exist."""
        from argon2.exceptions import InvalidHashError, VerificationError

        hasher = _hasher()
        with self._db() as db:
            row = db.execute("SELECT hash FROM users WHERE key = ?", (_key(name),)).fetchone()
        if row is None:
            if self._dummy is None:
                self._dummy = hasher.hash(secrets.token_hex(8))
            row = (self._dummy,)
            name = ""
        try:
            hasher.verify(row[0], password[:MAX_PASSWORD])
        except (VerificationError, InvalidHashError):
            return None
        if not name:
            return None
        if hasher.check_needs_rehash(row[0]):
            with self._db() as db:
                db.execute("UPDATE users SET hash = ? WHERE key = ?",
                           (hasher.hash(password), _key(name)))  # fmt: skip
        return self.user(name)

    # -- API tokens ------------------------------------------------------------------------

    def new_token(self, name: str, label: str = "") -> str:
        """A new API token for ``name``: shown now, never again (the file keeps its hash)."""
        if self.user(name) is None:
            raise _unknown(name)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self._db() as db:
            db.execute(
                "INSERT INTO tokens (digest, user, label, created) VALUES (?, ?, ?, ?)",
                (_digest(token), _key(name), label[:200], time.time()),
            )
        return token

    def by_token(self, token: str) -> User | None:
        """The user an API token belongs to, or None."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        with self._db() as db:
            row = db.execute("SELECT user FROM tokens WHERE digest = ?",
                             (_digest(token),)).fetchone()  # fmt: skip
        return self.user(row[0]) if row else None

    def revoke_tokens(self, name: str) -> int:
        """Removes every API token of ``name``; how many there were."""
        if self.user(name) is None:
            raise _unknown(name)
        with self._db() as db:
            return db.execute("DELETE FROM tokens WHERE user = ?", (_key(name),)).rowcount

    # -- who started what ------------------------------------------------------------------

    def record(self, user: User, kind: str, job: str) -> None:
        """Keeps that ``user`` started the job ``job`` of ``kind`` (``web-check``, ``audit``)."""
        with self._db() as db:
            db.execute("INSERT INTO started (user, kind, job, at) VALUES (?, ?, ?, ?)",
                       (user.name, kind, job, time.time()))  # fmt: skip

    def started(self, name: str | None = None, last: int = 50) -> list[tuple[str, str, str, float]]:
        """The ``last`` jobs started (by ``name``, else by anyone), newest first: (user,
        kind, job, time)."""
        where, params = ("WHERE user = ?", (name,)) if name else ("", ())
        with self._db() as db:
            rows = db.execute(
                f"SELECT user, kind, job, at FROM started {where} ORDER BY at DESC LIMIT ?",
                (*params, last),
            ).fetchall()
        return [(str(u), str(k), str(j), float(a)) for u, k, j, a in rows]

    # -- quotas ----------------------------------------------------------------------------

    def spend(self, name: str, queries: int, day: str | None = None) -> int:
        """Counts ``queries`` against today's quota of ``name``; what is left after.  Refused
        (:class:`QuotaSpent`), counting nothing, when fewer are left."""
        day = day or today()
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                left = self._left(db, name, day)
                if queries > left[0]:
                    raise QuotaSpent(name, queries, left[0], left[1])
                db.execute(
                    "INSERT INTO spent (user, day, queries) VALUES (?, ?, ?) ON CONFLICT "
                    "(user, day) DO UPDATE SET queries = queries + excluded.queries",
                    (_key(name), day, queries),
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return left[0] - queries

    def refund(self, name: str, queries: int, day: str | None = None) -> None:
        """Gives back ``queries`` counted by :meth:`spend` but not sent."""
        if queries <= 0:
            return
        with self._db() as db:
            db.execute(
                "UPDATE spent SET queries = max(0, queries - ?) WHERE user = ? AND day = ?",
                (queries, _key(name), day or today()),
            )

    def left(self, name: str, day: str | None = None) -> tuple[int, int]:
        """Queries left today for ``name``, and its quota."""
        with self._db() as db:
            return self._left(db, name, day or today())

    def _left(self, db: sqlite3.Connection, name: str, day: str) -> tuple[int, int]:
        row = db.execute(
            "SELECT queries_per_day, coalesce((SELECT queries FROM spent WHERE user = key AND "
            "day = ?), 0) FROM users WHERE key = ?",
            (day, _key(name)),
        ).fetchone()
        if row is None:
            raise _unknown(name)
        return max(0, row[0] - row[1]), row[0]


def _unknown(name: str) -> AccountError:
    return AccountError(f"there is no user {name!r}: list the users to see their names",
                        user=name, reason="unknown")  # fmt: skip


def check_new_user(name: str, password: str, queries_per_day: int, audits_at_once: int) -> None:
    """Refuses a user :meth:`Accounts.add` would refuse for its name, password or quotas."""
    _check_name(name)
    _check_password(name, password)
    _check_limits(queries_per_day, audits_at_once)


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise AccountError(
            f"a user's name is 1 to 64 letters, digits and . @ + - _, not {name[:70]!r}",
            user=name,
            reason="bad-name",
        )


def _check_password(name: str, password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters; give a longer one",
            user=name,
            reason="weak-password",
        )
    if _key(name) in _key(password):
        raise AccountError("a password must not contain the user's name",
                           user=name, reason="weak-password")  # fmt: skip


def _check_limits(queries_per_day: int, audits_at_once: int) -> None:
    for option, value in (("queries_per_day", queries_per_day), ("audits_at_once",
                                                                  audits_at_once)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1_000_000:
            raise AccountError(f"{option} must be a whole number from 0 to 1000000, not {value}",
                               reason="bad-limit")  # fmt: skip
