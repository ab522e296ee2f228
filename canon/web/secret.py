"""The server's secret → the key that signs each browser's form token (:mod:`.crosssite`).

``CANON_SECRET`` when it is set; else the file a server is given, made at its first start
(random, readable by its owner only: 0600) and read at every later one, so that a page opened
before a restart still submits after it; else, for an app made without a file, a random key
that lasts as long as the process.  The secret is never logged, nor kept in the server's
settings (whose ``repr`` might be).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from contextlib import suppress
from pathlib import Path

from ..errors import OutputError

__all__ = ["ENV", "FILE_NAME", "derived_key", "secret_file_for", "server_secret"]

ENV = "CANON_SECRET"
FILE_NAME = ".canon-secret"
_BYTES = 32


def secret_file_for(audits: Path | None) -> Path:
    """Where ``canon serve`` keeps its secret: beside its data, in the audits folder when it
    has one, else in canon's folder of the user's data."""
    if audits is not None:
        return Path(audits) / FILE_NAME
    import platformdirs

    return Path(platformdirs.user_data_dir("canon", appauthor=False)) / FILE_NAME


def server_secret(path: Path | None) -> bytes:
    """``CANON_SECRET``, else the secret kept in ``path`` (made there when missing), else a
    random one for this process."""
    given = os.environ.get(ENV, "")
    if given.strip():
        return given.strip().encode()
    if path is None:
        return secrets.token_bytes(_BYTES)
    return _kept(path)


def _kept(path: Path) -> bytes:
    try:
        if not path.exists():
            _make(path)
        kept = path.read_bytes().strip()
    except OSError as exc:
        raise OutputError(path, f"the server's secret cannot be kept here: {exc.strerror}") from exc
    if len(kept) < 16:
        raise OutputError(path, "the server's secret is too short: delete the file to make anew")
    return kept


def _make(path: Path) -> None:
    """A new secret in ``path``, whole or not at all: two servers starting at once keep the
    one that came first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f"{path.name}.{secrets.token_hex(4)}")
    handle = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(handle, "w") as file:
            file.write(secrets.token_urlsafe(_BYTES) + "\n")
        with suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)


def derived_key(secret: bytes, purpose: str) -> str:
    """A key of its own for one ``purpose`` (``session``…), derived from the server's secret:
    a key that leaks from one use opens no other."""
    return hmac.new(secret, f"canon.web.{purpose}".encode(), hashlib.sha256).hexdigest()
