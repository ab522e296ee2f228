"""canon watch run --mail-to: a run with changes mails its summary, the HTML report attached,
through a real SMTP server (aiosmtpd) on 127.0.0.1; a run without changes mails nothing; a
server that refuses is one line and exit 3, the findings kept; the password is used, never
shown.

The watched site and the web are stand-ins of tests/search_server.py, as in test_watch.py.
"""

from __future__ import annotations

import csv
import socket
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from command import run_cli
from search_server import StandIn, reset

from canon.errors import CanonError
from canon.watch import MailSettings, add_pages, mail_settings

aiosmtpd = pytest.importorskip("aiosmtpd")
from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import AuthResult, LoginPassword  # noqa: E402

PAGE = [
    "Гончар замешивает глину ногами в деревянном корыте, пока она не станет однородной и "
    "не перестанет липнуть к пяткам, а потом неделю держит её в сыром погребе под мокрой "
    "мешковиной, чтобы вода разошлась по всей толще и комья не трескались на круге.",
    "Обжиг в дровяной печи длится почти сутки: сначала огонь поддерживают слабым, выгоняя "
    "остатки влаги, затем жар поднимают до белого каления, и опытный мастер по цвету пламени "
    "в смотровом окошке угадывает, когда пора закрывать заслонку и оставлять горшки остывать.",
]
TO = ["editor@example.ru", "owner@example.ru"]
SENDER = "watch@example.ru"
PASSWORD = "s3cret-Пароль-42"


class Inbox:
    """An SMTP server's handler: keeps each mail; refuses every recipient with ``refuse``."""

    def __init__(self, refuse: str | None = None, password: str = PASSWORD) -> None:
        self.mails: list[tuple[str, list[str], EmailMessage]] = []
        self.refuse = refuse
        self.password = password
        self.logins: list[tuple[bytes, bytes]] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:  # fmt: skip
        if self.refuse:
            return self.refuse
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 Message accepted"

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str,
                     data: Any) -> AuthResult:  # fmt: skip
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        self.logins.append((data.login, data.password))
        ok = data.login == b"watcher" and data.password == self.password.encode()
        return AuthResult(success=ok, handled=False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SMTPServer:
    """A real SMTP server on 127.0.0.1 (aiosmtpd's Controller, on a free port)."""

    def __init__(self, inbox: Inbox, **options: Any) -> None:
        self.inbox = inbox
        self.port = _free_port()
        self.controller = Controller(inbox, hostname="127.0.0.1", port=self.port, **options)

    def __enter__(self) -> SMTPServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@pytest.fixture
def watch(servers: tuple[StandIn, StandIn], tmp_path: Path) -> tuple[Path, StandIn]:
    """A watch of one page, and the web, where a copy of its first paragraph is."""
    site, web = (reset(s) for s in servers)
    web.extras = False
    site.served["/pottery.html"] = ("Гончарное дело", PAGE, "")
    folder = tmp_path / "watch"
    assert add_pages(folder, [site.url("/pottery.html")]).added
    web.served["/thief/clay.html"] = ("Глина", [PAGE[0]], "")
    return folder, web


def _run(folder: Path, web: StandIn, *mail: object, env: dict[str, str | None] | None = None):
    environment: dict[str, str | None] = {
        "LANG": "C", "LC_ALL": None, "LC_MESSAGES": None,
        "CANON_SMTP_USER": None, "CANON_SMTP_PASSWORD": None, **(env or {}),
    }  # fmt: skip
    return run_cli("watch", "run", folder, "--queries", "5", "--web", f"searxng:{web.base}",
                   "--allow-private-results", *mail, env=environment)  # fmt: skip


def _mail_args(server: SMTPServer) -> list[str]:
    return ["--mail-to", TO[0], "--mail-to", TO[1], "--mail-from", SENDER,
            "--smtp", server.address]  # fmt: skip


def _kept(folder: Path) -> list[str]:
    """The changes of the last run, as changes.csv keeps them."""
    with (folder / "changes.csv").open(encoding="utf-8") as rows:
        return [row["change"] for row in csv.DictReader(rows)]


def test_a_run_with_changes_mails_once_and_a_run_without_none(
    watch: tuple[Path, StandIn],
) -> None:
    folder, web = watch
    with SMTPServer(Inbox()) as server:
        ran = _run(folder, web, *_mail_args(server))
        assert ran.returncode == 0, ran.stderr
        assert len(server.inbox.mails) == 1
        sender, recipients, mail = server.inbox.mails[0]
        assert sender == SENDER and recipients == TO
        assert mail["To"] == ", ".join(TO) and mail["From"] == SENDER
        assert mail["Subject"] == "canon watch watch: 1 new copy"
        body = mail.get_body(preferencelist=("plain",))
        assert body is not None
        text = body.get_content()
        assert "Run 1 of the watch watch: 1 new copy" in text
        assert "+ new: http://" in text and "/pottery.html ← " + web.url("/thief/clay.html") in text
        attached = [part for part in mail.iter_attachments()]
        assert [a.get_filename() for a in attached] == ["report.html"]
        assert attached[0].get_content_type() == "text/html"
        assert attached[0].get_content() == (folder / "report.html").read_text("utf-8")

        again = _run(folder, web, *_mail_args(server))
        assert again.returncode == 0 and "no change" in again.stdout
        assert len(server.inbox.mails) == 1  # nothing new: no mail


def test_the_mail_speaks_the_language_of_the_command_line(watch: tuple[Path, StandIn]) -> None:
    folder, web = watch
    with SMTPServer(Inbox()) as server:
        ran = _run(folder, web, *_mail_args(server), env={"LANG": "ru_RU.UTF-8"})
    assert ran.returncode == 0, ran.stderr
    _, _, mail = server.inbox.mails[0]
    assert mail["Subject"] == "canon watch watch: 1 новая копия"
    text = mail.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "Прогон 1 мониторинга watch: 1 новая копия" in text
    assert "Полный отчёт — во вложении (report.html)." in text
    assert "скопировано" in text and "\u00a0%" in text


@pytest.mark.parametrize("refusal", ["closed", "550"])
def test_a_refused_mail_is_one_line_and_exit_3_and_the_findings_stay(
    watch: tuple[Path, StandIn], refusal: str
) -> None:
    folder, web = watch
    if refusal == "closed":
        ran = _run(folder, web, "--mail-to", TO[0], "--smtp", f"127.0.0.1:{_free_port()}")
        said = "Connection refused"
    else:
        with SMTPServer(Inbox(refuse="550 5.1.1 No such mailbox here")) as server:
            ran = _run(folder, web, *_mail_args(server))
        assert server.inbox.mails == []
        said = "550 5.1.1 No such mailbox here"
    assert ran.returncode == 3
    assert ran.stderr.count("\n") == 1 and said in ran.stderr, ran.stderr
    assert ran.stderr.startswith("canon: the changes were not told: the mail to ")
    assert "+ new" in ran.stdout  # the run's findings were printed ...
    assert _kept(folder) == ["new"]  # ... and kept
    listed = run_cli("watch", "list", folder)
    assert "/thief/clay.html" in listed.stdout


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("password", [PASSWORD, "plain-ascii-secret"])
def test_the_password_signs_in_and_is_never_shown(
    watch: tuple[Path, StandIn], password: str
) -> None:
    folder, web = watch
    inbox = Inbox(password=password)
    secret = {"CANON_SMTP_USER": "watcher", "CANON_SMTP_PASSWORD": password}
    options = {"auth_require_tls": False, "auth_required": True,
               "authenticator": inbox.authenticate}  # fmt: skip
    with SMTPServer(inbox, **options) as server:
        ran = _run(folder, web, *_mail_args(server), env=secret)
        assert ran.returncode == 0, ran.stderr
        assert inbox.logins == [(b"watcher", password.encode())]
        assert len(inbox.mails) == 1
        assert password not in ran.stdout + ran.stderr
        _, _, mail = inbox.mails[0]
        assert password not in mail.as_string()

    other = Inbox(password="another")
    wrong = SMTPServer(other, **{**options, "authenticator": other.authenticate})
    web.served["/thief/kiln.html"] = ("Печь", [PAGE[1]], "")  # a change, so a mail to send
    with wrong:
        ran = _run(folder, web, *_mail_args(wrong),
                   env=secret)  # fmt: skip
    assert ran.returncode == 3 and ran.stderr.count("\n") == 1
    assert "sign-in refused" in ran.stderr and "535" in ran.stderr
    assert set(other.logins) == {(b"watcher", password.encode())}  # tried, refused
    assert password not in ran.stdout + ran.stderr


def test_without_a_server_nothing_is_mailed_and_the_run_goes_on(
    watch: tuple[Path, StandIn],
) -> None:
    folder, web = watch
    ran = _run(folder, web)
    assert ran.returncode == 0 and "+ new" in ran.stdout


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--mail-to", "not an address"], {}, "--mail-to must be an e-mail address"),
        (["--mail-to", TO[0], "--mail-from", "me@"], {}, "--mail-from must be an e-mail"),
        (["--mail-to", TO[0], "--smtp", "mail.example.ru:99999"], {}, "--smtp must have a port"),
        (["--mail-to", TO[0], "--smtp", "mail.example.ru:smtp"], {}, "--smtp must be HOST[:PORT]"),
        (["--smtp", "mail.example.ru"], {}, "--smtp needs --mail-to ADDRESS"),
        (["--mail-to", TO[0], "--smtp-ssl", "--smtp-starttls"], {}, "not both"),
        (["--mail-to", TO[0]], {"CANON_SMTP_USER": "watcher"}, "CANON_SMTP_PASSWORD"),
        (["--mail-to", TO[0], "--smtp", "mail.example.ru"],
         {"CANON_SMTP_USER": "watcher", "CANON_SMTP_PASSWORD": PASSWORD},
         "unencrypted to mail.example.ru: secure the connection (STARTTLS or TLS)"),
    ],
)  # fmt: skip
def test_bad_mail_settings_are_refused_before_any_query(
    watch: tuple[Path, StandIn], args: list[str], env: dict[str, str | None], said: str
) -> None:
    folder, web = watch
    ran = _run(folder, web, *args, env=env)
    assert ran.returncode == 2, ran.stderr
    assert said in ran.stderr and PASSWORD not in ran.stderr
    assert web.queries == []


def test_the_settings_hide_the_password() -> None:
    env = {"CANON_SMTP_USER": "watcher@example.ru", "CANON_SMTP_PASSWORD": PASSWORD}
    settings = mail_settings(TO, smtp="[::1]:2525", security="none", env=env)
    assert settings.host == "::1" and settings.port == 2525 and settings.server == "[::1]:2525"
    assert settings.sender == "watcher@example.ru"  # the user, an address, sends
    assert PASSWORD not in repr(settings) and settings.password == PASSWORD
    assert mail_settings(TO, SENDER, "mail.example.ru", "ssl", env={}).port == 465
    assert mail_settings(TO, SENDER, "mail.example.ru", "starttls", env={}).port == 587
    assert mail_settings(TO, SENDER, env={}).server == "localhost:25"
    with pytest.raises(CanonError):
        MailSettings((), SENDER)
    with pytest.raises(CanonError):
        MailSettings(TO, SENDER, security="tls")
