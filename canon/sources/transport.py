"""A host name → a connection to an address that was checked, within a deadline.

httpcore asks its network backend for a connection to ``host:port``.  :class:`PinnedBackend`
resolves the host once, checks every address it gets against the private-address policy
(:mod:`canon.sources.addresses`), and opens the socket to one of those very addresses, so a
second DNS answer (rebinding) is never used.  The request still names the host: the Host header
is built from the URL, and httpcore makes the TLS handshake for the host name (SNI and the
certificate check), every redirect hop alike.  Each socket operation waits at most the smaller
of its own timeout and what is left of the fetch's :class:`Deadline`.

:class:`AsyncPinnedBackend` is the same policy for the shared asynchronous pool of a crawl
(connections kept alive between fetches): each new connection resolves, checks and connects
to a checked address, and remembers which host and port it reached a private address for; the
total deadline of each fetch is the caller's (``asyncio.timeout``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import select
import socket
import ssl
import threading
import time
from collections.abc import Iterable
from typing import Any

import httpcore

from .addresses import is_local_name, is_private

__all__ = ["AsyncPinnedBackend", "Deadline", "DeadlinePassed", "PinnedBackend", "Refusal"]

_AddressInfo = tuple[int, int, int, str, tuple[Any, ...]]


class DeadlinePassed(Exception):
    """The fetch's total deadline passed (raised through httpcore untouched)."""


class Refusal(Exception):
    """A host that may not or cannot be reached; ``reason`` is a FetchError reason."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class Deadline:
    """A point in time (monotonic clock) by which the whole fetch must be done."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self._end - time.monotonic()

    def check(self) -> None:
        if self.remaining() <= 0:
            raise DeadlinePassed

    def limit(self, timeout: float | None) -> tuple[float, bool]:
        """How long one operation may wait, and whether the deadline (not ``timeout``) set it."""
        left = self.remaining()
        if left <= 0:
            raise DeadlinePassed
        if timeout is None or left < timeout:
            return left, True
        return timeout, False


def _timed_out(by_deadline: bool, kind: type[Exception], message: str) -> Exception:
    return DeadlinePassed() if by_deadline else kind(message)


def _getaddrinfo(host: str, port: int, limit: float) -> list[_AddressInfo] | None:
    """``socket.getaddrinfo`` in a daemon thread, so a stuck resolver cannot outlast ``limit``;
    None when it did not answer in time."""
    answer: list[Any] = []

    def lookup() -> None:
        try:
            answer.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except Exception as exc:  # handed to the caller's thread
            answer.append(exc)

    worker = threading.Thread(target=lookup, name="canon-dns", daemon=True)
    worker.start()
    worker.join(limit)
    if not answer:
        return None
    if isinstance(answer[0], OSError | UnicodeError):
        raise Refusal(f"cannot resolve host {host} (DNS lookup failed)", "dns") from answer[0]
    if isinstance(answer[0], Exception):
        raise answer[0]
    return list(answer[0])


def _literal(host: str, port: int) -> list[_AddressInfo] | None:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv4Address):
        return [(socket.AF_INET, socket.SOCK_STREAM, 0, "", (host, port))]
    return [(socket.AF_INET6, socket.SOCK_STREAM, 0, "", (host, port, 0, 0))]


def _refuse_private(host: str, addresses: list[str]) -> None:
    private = [a for a in addresses if is_private(a)]
    if not private:
        return
    if host == private[0]:
        message = f"the private or local address {host} is not fetched"
    else:
        message = f"{host} resolves to the private or local address {private[0]}"
    raise Refusal(f"{message}; fetching private addresses is turned off", "private-address")


class PinnedBackend(httpcore.NetworkBackend):
    """Connects only to addresses it resolved and checked itself; remembers where it went."""

    def __init__(self, deadline: Deadline, allow_private: bool) -> None:
        self.deadline = deadline
        self.allow_private = allow_private
        self.connected: list[str] = []

    @property
    def private(self) -> bool:
        """Whether any connection so far went to a private address."""
        return any(is_private(address) for address in self.connected)

    def resolve(self, host: str, port: int, timeout: float | None) -> list[_AddressInfo]:
        """Every address of ``host``, all of them checked; refusals raise :class:`Refusal`."""
        infos = _literal_or_refused(host, port, self.allow_private)
        if infos is None:
            limit, by_deadline = self.deadline.limit(timeout)
            infos = _getaddrinfo(host, port, limit)
            if infos is None:
                raise _timed_out(by_deadline, httpcore.ConnectTimeout, "DNS lookup timed out")
        return _checked(host, infos, self.allow_private)

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        failure: Exception = httpcore.ConnectError(f"cannot connect to {host}")
        for family, kind, proto, _, address in self.resolve(host, port, timeout):
            limit, by_deadline = self.deadline.limit(timeout)
            sock = socket.socket(family, kind, proto)
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                for option in socket_options or ():
                    sock.setsockopt(*option)
                sock.settimeout(limit)
                sock.connect(address)
            except TimeoutError:
                sock.close()
                failure = _timed_out(by_deadline, httpcore.ConnectTimeout, "connect timed out")
                if by_deadline:
                    raise failure from None
                continue
            except OSError as exc:
                sock.close()
                failure = httpcore.ConnectError(exc.strerror or str(exc))
                continue
            self.connected.append(str(address[0]))
            return _Stream(sock, self.deadline)
        raise failure

    def sleep(self, seconds: float) -> None:
        time.sleep(max(0.0, min(seconds, self.deadline.remaining())))


class _Stream(httpcore.NetworkStream):
    """A connected socket whose every wait is bounded by the deadline."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        self._sock = sock
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        limit, by_deadline = self._deadline.limit(timeout)
        try:
            self._sock.settimeout(limit)
            return self._sock.recv(max_bytes)
        except TimeoutError:
            raise _timed_out(by_deadline, httpcore.ReadTimeout, "read timed out") from None
        except OSError as exc:
            raise httpcore.ReadError(exc.strerror or str(exc)) from exc

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        while buffer:  # each pass sends some bytes or ends in a timeout
            limit, by_deadline = self._deadline.limit(timeout)
            try:
                self._sock.settimeout(limit)
                sent = self._sock.send(buffer)
            except TimeoutError:
                raise _timed_out(by_deadline, httpcore.WriteTimeout, "write timed out") from None
            except OSError as exc:
                raise httpcore.WriteError(exc.strerror or str(exc)) from exc
            buffer = buffer[sent:]

    def close(self) -> None:
        self._sock.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        limit, by_deadline = self._deadline.limit(timeout)
        try:
            self._sock.settimeout(limit)
            wrapped = ssl_context.wrap_socket(self._sock, server_hostname=server_hostname)
        except TimeoutError:
            self.close()
            raise _timed_out(by_deadline, httpcore.ConnectTimeout, "TLS timed out") from None
        except (OSError, ValueError) as exc:  # SSLError, certificate failures, bad names
            self.close()
            raise httpcore.ConnectError(str(exc)) from exc
        return _Stream(wrapped, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        if info == "ssl_object":
            return self._sock if isinstance(self._sock, ssl.SSLSocket) else None
        if info == "client_addr":
            return self._sock.getsockname()
        if info == "server_addr":
            return self._sock.getpeername()
        if info == "socket":
            return self._sock
        if info == "is_readable":
            return _readable(self._sock)
        return None


def _readable(sock: socket.socket) -> bool:
    """Whether a read would not block (data waiting, or the peer closed the connection)."""
    if sock.fileno() < 0:
        return True
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([sock], [], [], 0)[0])
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def _literal_or_refused(host: str, port: int, allow_private: bool) -> list[_AddressInfo] | None:
    """The address of a literal ``host`` (None for a name to look up); a name of this
    machine refused unless private addresses are allowed."""
    if not allow_private and is_local_name(host):
        raise Refusal(
            f"{host} is a name of this machine; fetching private addresses is turned off",
            "private-address",
        )
    return _literal(host, port)


def _checked(host: str, infos: list[_AddressInfo], allow_private: bool) -> list[_AddressInfo]:
    """``infos`` when there are some and (unless allowed) none is private."""
    if not infos:
        raise Refusal(f"cannot resolve host {host} (no address)", "dns")
    if not allow_private:
        _refuse_private(host, [str(info[4][0]) for info in infos])
    return infos


class AsyncPinnedBackend(httpcore.AsyncNetworkBackend):
    """Opens asynchronous connections only to addresses it resolved and checked itself."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private
        self.private: set[tuple[str, int]] = set()  # (host, port) reached at a private address
        self._inner = httpcore.AnyIOBackend()

    async def resolve(self, host: str, port: int, timeout: float | None) -> list[_AddressInfo]:
        infos: list[_AddressInfo] | None = _literal_or_refused(host, port, self.allow_private)
        if infos is None:
            loop = asyncio.get_running_loop()
            lookup = loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            try:
                infos = list(await asyncio.wait_for(lookup, timeout))
            except TimeoutError:
                raise httpcore.ConnectTimeout("DNS lookup timed out") from None
            except (OSError, UnicodeError) as exc:
                raise Refusal(f"cannot resolve host {host} (DNS lookup failed)", "dns") from exc
        return _checked(host, infos, self.allow_private)

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        failure: Exception = httpcore.ConnectError(f"cannot connect to {host}")
        for *_, address in await self.resolve(host, port, timeout):
            try:
                # httpcore defines AnyIOBackend twice (a stand-in without anyio); pyright sees both
                stream = await self._inner.connect_tcp(  # pyright: ignore[reportAttributeAccessIssue]
                    str(address[0]), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                failure = exc
                continue
            if is_private(str(address[0])):
                self.private.add((host, port))
            return stream
        raise failure

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
