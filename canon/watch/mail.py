"""A run's changes told by e-mail, through an SMTP server (Python's :mod:`smtplib`).

The settings are checked once, when they are made (:class:`MailSettings`): the addresses, the
server's host and port, how the connection is secured.  The user name and password come from
the environment (``CANON_SMTP_USER``, ``CANON_SMTP_PASSWORD``), never from a command line, and
no message shows the password; it is sent only over TLS (STARTTLS or SMTPS) or to a server on
the machine itself.  A mail that cannot be sent is one line saying why (:func:`send_mail`).
"""

from __future__ import annotations

import base64
import os
import smtplib
import socket
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.message import EmailMessage

from ..errors import OptionError
from ..sources.addresses import is_loopback
from ..sources.search.secrets import redacted

__all__ = [
    "MAIL_TIMEOUT",
    "PASSWORD_VARIABLE",
    "SECURITY",
    "USER_VARIABLE",
    "MailSettings",
    "mail_settings",
    "send_mail",
]

SECURITY = ("none", "starttls", "ssl")
"""How the connection to the server is secured: not at all, STARTTLS, TLS from the start."""
_PORTS = {"none": 25, "starttls": 587, "ssl": 465}
MAIL_TIMEOUT = 30.0  # seconds a connect or an answer of the server may take
USER_VARIABLE = "CANON_SMTP_USER"
PASSWORD_VARIABLE = "CANON_SMTP_PASSWORD"
_SHOWN = 200  # characters of a server's answer a failure shows


def _address(value: str, setting: str) -> str:
    """``value`` when it is one plain address (``name@host``), else one refusal."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        address: Address | None = Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError):
        address = None
    if address is None or not address.username or not address.domain:
        raise OptionError(setting, f"must be an e-mail address (name@host), got {value!r}")
    return text


@dataclass(frozen=True)
class MailSettings:
    """A mail to ``to`` (one address or more) from ``sender`` through the SMTP server at
    ``host``:``port``, the connection secured as ``security`` says (:data:`SECURITY`), signed
    in as ``user`` with ``password`` when they are given, each exchange waiting ``timeout``
    seconds at most.  The password is never shown (not even in the record's ``repr``)."""

    to: Sequence[str]
    sender: str
    host: str = "localhost"
    port: int = 25
    security: str = "none"
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = MAIL_TIMEOUT

    def __post_init__(self) -> None:
        to = (self.to,) if isinstance(self.to, str) else tuple(self.to)
        if not to:
            raise OptionError("mail_to", "needs at least one address")
        object.__setattr__(self, "to", tuple(_address(a, "mail_to") for a in to))
        object.__setattr__(self, "sender", _address(self.sender, "mail_from"))
        host = self.host.strip() if isinstance(self.host, str) else ""
        if not host or any(c.isspace() or c in "/@[]" for c in host):
            raise OptionError("smtp", f"must be a host name or address, got {self.host!r}")
        object.__setattr__(self, "host", host)
        port = self.port
        if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
            raise OptionError("smtp", f"must have a port from 1 to 65535, got {port!r}")
        if self.security not in SECURITY:
            raise OptionError(
                "smtp", f"security must be one of {', '.join(SECURITY)}, got {self.security!r}"
            )
        if not self.timeout > 0:
            raise OptionError("smtp_timeout", f"must be more than 0 seconds, got {self.timeout}")
        if (self.user is None) != (self.password is None):
            raise OptionError(
                "smtp", f"needs both {USER_VARIABLE} and {PASSWORD_VARIABLE} set, or neither"
            )
        if self.password is not None and self.security == "none" and not is_loopback(host):
            raise OptionError(
                "smtp",
                f"would send {PASSWORD_VARIABLE} unencrypted to {host}: secure the connection "
                "(STARTTLS or TLS)",
            )

    @property
    def server(self) -> str:
        """``host:port`` (an IPv6 address in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def _server(spec: str | None, security: str) -> tuple[str, int]:
    """``HOST[:PORT]`` (``[IPv6]:PORT``) → host and port; the port of ``security`` when none."""
    spec = (spec or "localhost").strip()
    host, port = spec, ""
    if spec.startswith("["):
        host, _, rest = spec[1:].partition("]")
        if rest and not rest.startswith(":"):
            raise OptionError("smtp", f"must be HOST[:PORT], got {spec!r}")
        port = rest[1:]
    elif spec.count(":") == 1:
        host, _, port = spec.partition(":")
    if not port:
        return host, _PORTS.get(security, 25)
    if not port.isdigit():
        raise OptionError("smtp", f"must be HOST[:PORT] with a port from 1 to 65535, got {spec!r}")
    return host, int(port)


def mail_settings(
    to: Sequence[str],
    sender: str | None = None,
    smtp: str | None = None,
    security: str = "none",
    timeout: float = MAIL_TIMEOUT,
    env: Mapping[str, str] | None = None,
) -> MailSettings:
    """The settings of a mail to ``to`` through the server ``smtp`` (``HOST[:PORT]``,
    default ``localhost`` on the port of ``security``: 25, 587 with STARTTLS, 465 with TLS
    from the start), the user and password from ``env`` (default: the process's environment).
    The sender is ``sender``, else the user when it is an address, else ``canon@`` this
    machine's name."""
    env = os.environ if env is None else env
    host, port = _server(smtp, security)
    user = env.get(USER_VARIABLE) or None
    password = env.get(PASSWORD_VARIABLE) or None
    if sender is None:
        sender = user if user and "@" in user else f"canon@{socket.gethostname() or 'localhost'}"
    return MailSettings(tuple(to), sender, host, port, security, user, password, timeout)


def _one_line(text: str, secrets: Sequence[str]) -> str:
    said = " ".join(redacted(text, secrets).split())
    return said if len(said) <= _SHOWN else said[: _SHOWN - 1] + "…"


def _answer(exc: BaseException) -> str:
    """What the server said (its code and words), or why the connection failed."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{who}: {_answer_of(*said)}" for who, said in exc.recipients.items())
    if isinstance(exc, smtplib.SMTPResponseException):
        return _answer_of(exc.smtp_code, exc.smtp_error)
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _answer_of(code: int, said: bytes | str) -> str:
    words = said.decode("utf-8", "replace") if isinstance(said, bytes) else said
    return f"{code} {words}".strip()


def _deliver(settings: MailSettings, message: EmailMessage) -> dict[str, tuple[int, bytes]]:
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.security == "ssl":
        smtp = smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=context
        )
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    with smtp:
        smtp.ehlo()
        if settings.security == "starttls":
            smtp.starttls(context=context)
            smtp.ehlo()
        if settings.user is not None and settings.password is not None:
            _sign_in(smtp, settings.user, settings.password)
        return smtp.send_message(message, settings.sender, list(settings.to))


def _sign_in(smtp: smtplib.SMTP, user: str, password: str) -> None:
    """smtplib's login; a user or password beyond ASCII (which smtplib cannot send) as AUTH
    PLAIN in UTF-8, as RFC 4616 has it."""
    if (user + password).isascii():
        smtp.login(user, password)
        return
    if "plain" not in smtp.esmtp_features.get("auth", "").lower().split():
        raise smtplib.SMTPNotSupportedError("the server takes no AUTH PLAIN, which a password "
                                            "beyond ASCII needs")  # fmt: skip
    token = base64.b64encode(f"\0{user}\0{password}".encode()).decode("ascii")
    code, said = smtp.docmd("AUTH", f"PLAIN {token}")
    if code != 235:
        raise smtplib.SMTPAuthenticationError(code, said)


def send_mail(
    settings: MailSettings, subject: str, text: str, html: str | None = None
) -> str | None:
    """Send ``text`` (plain text) under ``subject``, with ``html`` attached as
    ``report.html`` when given; why it could not be sent (one line, the password never in
    it), or None when the server took it for every address."""
    message = EmailMessage()
    message["Subject"] = " ".join(subject.split())
    message["From"] = settings.sender
    message["To"] = ", ".join(settings.to)
    message.set_content(text)
    if html is not None:
        message.add_attachment(
            html.encode("utf-8"), maintype="text", subtype="html", filename="report.html",
            params={"charset": "utf-8"},
        )  # fmt: skip
    secrets = [settings.password] if settings.password else []
    where = f"the mail to {', '.join(settings.to)} through {settings.server}"
    try:
        refused = _deliver(settings, message)
    except smtplib.SMTPAuthenticationError as exc:
        return _one_line(f"{where}: sign-in refused ({_answer(exc)})", secrets)
    except (smtplib.SMTPException, OSError, ValueError) as exc:
        return _one_line(f"{where}: not sent ({_answer(exc)})", secrets)
    if refused:
        said = "; ".join(f"{who}: {_answer_of(*why)}" for who, why in refused.items())
        return _one_line(f"{where}: refused for some ({said})", secrets)
    return None
