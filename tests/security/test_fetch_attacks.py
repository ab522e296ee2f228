"""Fetching against hostile servers: rebinding, private addresses in every spelling, trickling
and slow servers, decompression bombs, malformed URLs and redirects.

Every server here is a real ``http.server`` on 127.0.0.1 (``hostile_server``).  Two things
cannot run for real on this machine, and are stood in for in this process only:

* DNS: ``socket.getaddrinfo`` is patched for host names under ``.test`` (reserved, RFC 6761),
  so a test decides what each lookup answers — a public address first, loopback next, as a
  rebinding attacker's DNS server would;
* the internet: ``socket.socket.connect`` is patched so that a connection to the one public
  address ``PUBLIC`` goes to a loopback server playing the public host, and a connection to
  any other address that is not loopback is refused.  No packet leaves the machine.
"""

from __future__ import annotations

import gzip
import ipaddress
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import brotli
import pytest
from click.testing import CliRunner
from hostile_server import (
    PAGE_TEXT,
    Hostile,
    Reply,
    brotli_bomb,
    deflate_bomb,
    gzip_bomb,
    serve,
)
from hypothesis import given
from hypothesis import strategies as st

from canon.cli import cli
from canon.errors import FetchError, OptionError
from canon.sources.addresses import embedded_ipv4, is_loopback, is_private
from canon.sources.decoding import STEP, DecodingError, decoder_for
from canon.sources.fetch import FetchOptions, PageCache, fetch
from canon.sources.urls import parse_url

pytestmark = [pytest.mark.timeout(60), pytest.mark.network]

PUBLIC = "93.184.215.14"  # a global address; the connect guard below keeps packets off it
ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- servers


@pytest.fixture(scope="module")
def hostile() -> Iterator[Hostile]:
    """The hostile server itself: trickles, bad redirects, odd encodings."""
    with serve() as running:
        yield running


@pytest.fixture
def internal() -> Iterator[Hostile]:
    """An internal service on loopback that no fetch with private addresses off may reach."""
    with serve() as running:
        yield running


@pytest.fixture
def public() -> Iterator[Hostile]:
    """The loopback server that plays the public host at PUBLIC."""
    with serve() as running:
        yield running


# --------------------------------------------------------------------------- stand-ins


class Resolver:
    """Answers for ``.test`` names, in order (the last answer repeats); counts the lookups."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answers: dict[str, list[str]]) -> None:
        self.answers = answers
        self.lookups: Counter[str] = Counter()
        real = socket.getaddrinfo

        def getaddrinfo(host: object, port: object, *args: object, **kwargs: object) -> list:
            name = host.decode() if isinstance(host, bytes) else str(host)
            if name not in self.answers:
                assert not name.endswith(".test"), f"unexpected lookup of {name}"
                return real(host, port, *args, **kwargs)  # type: ignore[arg-type]
            sequence = self.answers[name]
            address = sequence[min(self.lookups[name], len(sequence) - 1)]
            self.lookups[name] += 1
            if ":" in address:
                return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))]
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def _loopback(host: str) -> bool:
    ip = ipaddress.ip_address(host.split("%", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped and mapped.is_loopback)


def guard_connections(monkeypatch: pytest.MonkeyPatch, public_port: int | None) -> list[str]:
    """Connections to PUBLIC go to the public stand-in; other non-loopback ones are refused.
    Returns the list of addresses connected to, as the fetcher asked."""
    asked: list[str] = []
    real = socket.socket.connect

    def connect(sock: socket.socket, address: tuple) -> None:  # type: ignore[type-arg]
        host = str(address[0])
        asked.append(host)
        if host == PUBLIC and public_port is not None:
            return real(sock, ("127.0.0.1", public_port))
        if not _loopback(host):
            raise ConnectionRefusedError(f"test guard: {host} is not on this machine")
        return real(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return asked


def _fails(reason: str, url: str, **options: object) -> FetchError:
    with pytest.raises(FetchError) as info:
        fetch(url, FetchOptions(**options))  # type: ignore[arg-type]
    assert info.value.reason == reason, info.value.message
    assert "\n" not in str(info.value)
    return info.value


ADMIN = "/internal-admin?action=delete"


# --------------------------------------------------------------------------- rebinding


@pytest.mark.parametrize("allow_private", [False, True])
def test_dns_rebinding_connects_to_the_address_it_checked(
    monkeypatch, internal: Hostile, public: Hostile, allow_private: bool
) -> None:
    resolver = Resolver(monkeypatch, {"rebind.test": [PUBLIC, "127.0.0.1"]})
    asked = guard_connections(monkeypatch, public.port)
    url = f"http://rebind.test:{internal.port}{ADMIN}"
    page = fetch(url, FetchOptions(allow_private=allow_private))
    assert not internal.reached("/internal-admin")  # the second answer was never used
    assert public.requests == [ADMIN] and page.body == b"done: delete"
    assert resolver.lookups["rebind.test"] == 1
    assert asked == [PUBLIC]
    assert public.hosts == [f"rebind.test:{internal.port}"]  # the Host header names the host
    assert page.private is False


def test_rebinding_on_a_redirect_hop(monkeypatch, internal: Hostile, public: Hostile) -> None:
    resolver = Resolver(monkeypatch, {"start.test": [PUBLIC], "hop.test": [PUBLIC, "127.0.0.1"]})
    asked = guard_connections(monkeypatch, public.port)
    hop = f"http://hop.test:{internal.port}{ADMIN}"
    fetch(f"http://start.test:{public.port}/redirect?to={hop}", FetchOptions(allow_private=False))
    assert not internal.reached("/internal-admin")
    assert resolver.lookups == Counter({"start.test": 1, "hop.test": 1})
    assert set(asked) == {PUBLIC}
    assert public.hosts == [f"start.test:{public.port}", f"hop.test:{internal.port}"]


LOOPBACK_SPELLINGS = ["127.0.0.1", "127.1", "0x7f.1", "2130706433", "[::ffff:127.0.0.1]"]


@pytest.mark.parametrize("host", [*LOOPBACK_SPELLINGS, "localhost", "localhost.", "[::1]"])
def test_redirect_to_loopback_is_refused(
    monkeypatch, internal: Hostile, public: Hostile, host: str
) -> None:
    Resolver(monkeypatch, {"start.test": [PUBLIC]})
    guard_connections(monkeypatch, public.port)
    hop = f"http://{host}:{internal.port}{ADMIN}"
    url = f"http://start.test:{public.port}/redirect?to={hop}"
    error = _fails("private-address", url, allow_private=False)
    assert error.url == url
    assert not internal.reached("/internal-admin")


@pytest.mark.parametrize("host", [*LOOPBACK_SPELLINGS, "localhost."])
def test_loopback_spellings_are_refused_and_reach_loopback_when_allowed(
    internal: Hostile, host: str
) -> None:
    url = f"http://{host}:{internal.port}{ADMIN}"
    error = _fails("private-address", url, allow_private=False)
    assert "private" in error.message and not internal.reached("/internal-admin")
    if host != "localhost.":  # this machine's resolver does not know 'localhost.'
        assert fetch(url).body == b"done: delete"  # the spelling is loopback indeed
        assert internal.reached("/internal-admin")


def test_every_address_of_a_host_is_checked(monkeypatch, internal: Hostile) -> None:
    def both(host: object, port: object, *args: object, **kwargs: object) -> list:
        assert host == "mixed.test"
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC, port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", both)
    asked = guard_connections(monkeypatch, None)
    url = f"http://mixed.test:{internal.port}{ADMIN}"
    error = _fails("private-address", url, allow_private=False)
    assert "mixed.test resolves to the private or local address 127.0.0.1" in error.message
    assert asked == [] and not internal.reached("/internal-admin")


# --------------------------------------------------------------------------- TLS


def _certificate(folder: Path, name: str) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl command is needed to make a test certificate")
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def test_tls_is_made_for_the_host_name_on_the_pinned_address(monkeypatch, tmp_path) -> None:
    cert = _certificate(tmp_path, "pinned.test")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert[0]))  # trust the test certificate
    resolver = Resolver(monkeypatch, {"pinned.test": ["127.0.0.1", PUBLIC]})
    asked = guard_connections(monkeypatch, None)
    with serve(cert=cert) as server:
        page = fetch(server.url("/echo-host", host="pinned.test"))
        assert page.body == f"pinned.test:{server.port}".encode()
        assert server.server_names == ["pinned.test"]  # SNI names the host, not the address
    assert resolver.lookups["pinned.test"] == 1 and asked == ["127.0.0.1"]
    assert page.private is True


def test_tls_certificate_for_another_name_is_refused(monkeypatch, tmp_path) -> None:
    cert = _certificate(tmp_path, "other.test")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert[0]))
    Resolver(monkeypatch, {"pinned.test": ["127.0.0.1"]})
    with serve(cert=cert) as server:
        error = _fails("connect", server.url("/page", host="pinned.test"))
        assert not server.reached("/page")
    assert "certificate" in error.message.lower()


# --------------------------------------------------------------------------- address policy


def teredo(server: str, client: str) -> str:
    value = (0x2001_0000 << 96) | (int(ipaddress.IPv4Address(server)) << 64) | (0x8000 << 48)
    value |= 0x1234 << 32 | (~int(ipaddress.IPv4Address(client)) & 0xFFFFFFFF)
    return str(ipaddress.IPv6Address(value))


POLICY = [
    # IPv4: everything ipaddress does not call global
    ("127.0.0.1", True), ("10.0.0.1", True), ("172.16.5.4", True), ("192.168.1.1", True),
    ("169.254.169.254", True), ("100.64.0.1", True), ("0.0.0.0", True), ("192.0.2.1", True),
    ("224.0.0.1", True), ("255.255.255.255", True), ("8.8.8.8", False), (PUBLIC, False),
    # IPv6 of its own
    ("::1", True), ("::", True), ("fe80::1%eth0", True), ("fc00::1", True), ("fd12::1", True),
    ("fec0::1", True), ("feff::1", True), ("ff02::1", True), ("ff0e::1", True),
    ("2001:db8::1", True), ("2001:4860:4860::8888", False), ("2a00:1450:4010::65", False),
    # IPv4-mapped and IPv4-compatible
    ("::ffff:127.0.0.1", True), ("::ffff:10.0.0.1", True), ("::ffff:8.8.8.8", False),
    ("::10.0.0.1", True), ("::127.0.0.1", True), ("::169.254.169.254", True),
    ("::8.8.8.8", False),
    # NAT64: the well-known prefix carries the IPv4 address; the local-use one is local
    ("64:ff9b::a9fe:a9fe", True), ("64:ff9b::7f00:1", True), ("64:ff9b::a00:1", True),
    ("64:ff9b::808:808", False), ("64:ff9b:1::a00:1", True), ("64:ff9b:1::808:808", True),
    # 6to4
    ("2002:a00:1::", True), ("2002:7f00:1::1", True), ("2002:a9fe:a9fe::1", True),
    ("2002:c0a8:101::", True), ("2002:808:808::1", False),
    # Teredo: server and client
    (teredo("65.54.227.120", "10.0.0.1"), True), (teredo("127.0.0.1", "8.8.8.8"), True),
    (teredo("65.54.227.120", "192.168.0.7"), True), (teredo("65.54.227.120", "8.8.8.8"), False),
]  # fmt: skip


@pytest.mark.parametrize(("address", "private"), POLICY)
def test_address_policy_table(address: str, private: bool) -> None:
    assert is_private(address) is private


ipv4s = st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address)


def _embeddings(v4: ipaddress.IPv4Address) -> dict[str, ipaddress.IPv6Address]:
    n = int(v4)
    return {
        "mapped": ipaddress.IPv6Address((0xFFFF << 32) | n),
        "compatible": ipaddress.IPv6Address(n),
        "nat64": ipaddress.IPv6Address((0x64FF9B << 96) | n),
        "6to4": ipaddress.IPv6Address((0x2002 << 112) | (n << 80) | 1),
        "teredo": ipaddress.IPv6Address(teredo("65.54.227.120", str(v4))),
    }


@given(ipv4s)
def test_an_ipv4_inside_ipv6_is_judged_as_itself(v4: ipaddress.IPv4Address) -> None:
    expected = not v4.is_global or v4.is_multicast
    assert is_private(str(v4)) is expected
    for kind, v6 in _embeddings(v4).items():
        if kind == "compatible" and int(v4) <= 1:
            assert embedded_ipv4(v6) == [v4] and is_private(v6)  # '::' and '::1'
            continue
        assert v4 in embedded_ipv4(v6), kind
        assert is_private(v6) is expected, (kind, str(v6))
        assert is_private(str(v6)) is expected
    local_nat64 = ipaddress.IPv6Address((0x64FF9B0001 << 80) | int(v4))
    assert is_private(local_nat64)


def _sweep(block: str) -> list[ipaddress.IPv6Address]:
    """The first and last address of ``block`` and a spread of addresses between."""
    network = ipaddress.IPv6Network(block)
    step = max(1, (network.num_addresses - 1) // 64)
    spread = range(int(network[0]), int(network[-1]) + 1, step)
    return [*map(ipaddress.IPv6Address, spread), network[-1]]


@pytest.mark.parametrize("block", ["3fff::/20", "5f00::/16"])
def test_reserved_ipv6_blocks_are_private_throughout(block: str) -> None:
    """RFC 9637 documentation and RFC 9602 SRv6 SIDs: never on the internet."""
    for address in _sweep(block):
        assert is_private(address) and is_private(str(address)), str(address)


SAMPLE_V4 = {
    "127.0.0.1": True, "10.0.0.1": True, "169.254.169.254": True, "192.168.0.7": True,
    "100.64.0.1": True, "0.0.0.0": True, "240.0.0.1": True, "8.8.8.8": False,
    "93.184.216.34": False,
}  # fmt: skip


@pytest.mark.parametrize("prefix", [0xFFFF << 32, 0xFFFF << 48], ids=["mapped", "translated"])
def test_ipv4_mapped_and_translated_blocks_are_judged_by_their_ipv4(prefix: int) -> None:
    """``::ffff:0:0/96`` (IPv4-mapped) and ``::ffff:0:0:0/96`` (IPv4-translated, RFC 2765)
    are as private as the IPv4 address they carry, across the whole block."""
    for v4, private in SAMPLE_V4.items():
        v6 = ipaddress.IPv6Address(prefix | int(ipaddress.IPv4Address(v4)))
        assert is_private(v6) is private and is_private(str(v6)) is private, str(v6)
    block = ipaddress.IPv6Network((prefix, 96))
    for v6 in _sweep(str(block)):
        v4 = ipaddress.IPv4Address(int(v6) & 0xFFFFFFFF)
        assert is_private(v6) is (not v4.is_global or v4.is_multicast), str(v6)


# --------------------------------------------------------------------------- cache


def test_a_page_fetched_from_a_private_address_is_not_served_to_a_private_refusing_fetch(
    hostile: Hostile, tmp_path: Path
) -> None:
    url = hostile.url("/page")
    first = fetch(url, FetchOptions(cache_dir=tmp_path))
    assert first.private is True and first.from_cache is False
    again = fetch(url, FetchOptions(cache_dir=tmp_path))
    assert again.from_cache is True and again.private is True
    before = hostile.hits["/page"]
    _fails("private-address", url, cache_dir=tmp_path, allow_private=False)
    assert hostile.hits["/page"] == before
    cache = PageCache(tmp_path)
    assert cache.get(url, allow_private=False) is None
    assert cache.get(url, max_bytes=len(first.body) - 1) is None  # fetched under a larger cap


def test_cache_entries_that_do_not_say_count_as_private(hostile: Hostile, tmp_path: Path) -> None:
    url = hostile.url("/page")
    fetch(url, FetchOptions(cache_dir=tmp_path))
    (meta_path,) = tmp_path.glob("*.json")
    meta = json.loads(meta_path.read_text("utf-8"))
    cache = PageCache(tmp_path)
    meta["private"] = False  # as a public page's entry is written
    meta_path.write_text(json.dumps(meta), "utf-8")
    assert cache.get(url, allow_private=False) is not None
    del meta["private"]  # an entry from before entries said
    meta_path.write_text(json.dumps(meta), "utf-8")
    assert cache.get(url, allow_private=False) is None
    assert cache.get(url) is not None


# --------------------------------------------------------------------------- deadlines


def _timed(reason: str, url: str, bound: float, **options: object) -> FetchError:
    started = time.monotonic()
    error = _fails(reason, url, **options)
    assert time.monotonic() - started < bound
    return error


@pytest.mark.parametrize("path", ["/trickle", "/slow-headers", "/redirect?to=/trickle"])
def test_a_trickling_server_meets_the_deadline(hostile: Hostile, path: str) -> None:
    # one byte a second: each read is well inside the read timeout, the whole is not
    error = _timed("deadline", hostile.url(path), 4.0, deadline=2.0, read_timeout=5.0)
    assert "2-second deadline" in error.message


def test_the_deadline_spans_every_redirect_hop(hostile: Hostile) -> None:
    url = hostile.url("/slow-redirect?n=5&delay=0.5")  # 2.5 s in all, each hop 0.5 s
    _timed("deadline", url, 3.0, deadline=1.5, read_timeout=5.0)
    page = fetch(url, FetchOptions(deadline=10.0))  # the same chain, given the time
    assert PAGE_TEXT.encode() in page.body


def test_the_deadline_bounds_a_stuck_dns_lookup(monkeypatch) -> None:
    real = socket.getaddrinfo

    def stuck(host: object, port: object, *args: object, **kwargs: object) -> list:
        if host == "stuck.test":
            time.sleep(5)
            raise socket.gaierror("no answer")
        return real(host, port, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", stuck)
    _timed("deadline", "http://stuck.test/", 3.0, deadline=1.0)


def test_default_deadline_is_thirty_seconds() -> None:
    assert FetchOptions().deadline == 30.0
    for bad in (0, -1.0, float("inf"), float("nan")):
        with pytest.raises(OptionError, match="deadline"):
            FetchOptions(deadline=bad)


def test_cli_deadline_option(hostile: Hostile, tmp_path: Path) -> None:
    other = tmp_path / "a.txt"
    other.write_text(PAGE_TEXT, "utf-8")
    url = hostile.url("/trickle")
    result = CliRunner().invoke(cli, ["compare", url, str(other), "--deadline", "1"])
    assert result.exit_code == 2
    assert "1-second deadline" in result.output and "raise --deadline" in result.output
    assert "Traceback" not in result.output and result.output.count("\n") == 1


# --------------------------------------------------------------------------- decoding


def _compress(coding: str, data: bytes) -> bytes:
    if coding == "br":
        return brotli.compress(data)
    if coding == "gzip":
        return gzip.compress(data)
    if coding == "deflate":
        return zlib.compress(data)
    return zlib.compress(data)[2:-4]  # raw deflate: no zlib header, no checksum


def _decode(coding: str, data: bytes, cut: int) -> list[bytes]:
    decoder = decoder_for(coding)
    pieces = [p for i in range(0, len(data), cut) for p in decoder.feed(data[i : i + cut])]
    return pieces + list(decoder.finish())


@given(
    st.binary(max_size=300_000), st.sampled_from(["br", "gzip", "deflate"]), st.integers(1, 5000)
)
def test_decoders_undo_the_codings_in_bounded_steps(data: bytes, coding: str, cut: int) -> None:
    pieces = _decode(coding, _compress(coding, data), cut)
    assert b"".join(pieces) == data
    assert all(len(p) <= 4 * STEP for p in pieces)


def test_raw_deflate_and_stacked_codings() -> None:
    data = PAGE_TEXT.encode() * 200
    raw = _compress("raw", data)
    assert b"".join(_decode("deflate", raw, 7)) == data
    stacked = brotli.compress(_compress("gzip", data))  # gzip first, then br
    assert b"".join(_decode("gzip, br", stacked, 100)) == data
    assert b"".join(_decode("identity", data, 100)) == data
    with pytest.raises(DecodingError):
        decoder_for("zstd")
    with pytest.raises(DecodingError):
        decoder_for("gzip, gzip, gzip, gzip")


@pytest.mark.parametrize("coding", ["zstd", "compress", "x-unknown", "gzip, x-snappy"])
def test_unknown_content_codings_are_refused(hostile: Hostile, coding: str) -> None:
    error = _fails("decoding", hostile.url(f"/encoded?name={coding}"))
    assert "content coding" in error.message


def test_a_damaged_body_is_a_decoding_error() -> None:
    with serve(
        {"/bad": Reply(b"\x1f\x8b\x08\x00garbage" * 10, (("Content-Encoding", "gzip"),))}
    ) as s:
        _fails("decoding", s.url("/bad"))


BOMBS: dict[str, tuple[Callable[[], bytes], str]] = {
    "/bomb/br": (lambda: brotli_bomb(1 << 30), "br"),  # 1 GiB in under a kilobyte
    "/bomb/gzip": (lambda: gzip_bomb(256 << 20), "gzip"),
    "/bomb/deflate": (lambda: deflate_bomb(256 << 20), "deflate"),
    "/bomb/raw-deflate": (lambda: deflate_bomb(256 << 20, raw=True), "deflate"),
    "/bomb/stacked": (lambda: brotli.compress(gzip_bomb(256 << 20)), "gzip, br"),
}


@pytest.fixture(scope="module")
def bombs() -> Iterator[Hostile]:
    replies = {
        path: Reply(make(), (("Content-Type", "text/html"), ("Content-Encoding", coding)))
        for path, (make, coding) in BOMBS.items()
    }
    with serve(replies) as running:
        yield running


@pytest.mark.parametrize("path", list(BOMBS))
def test_bombs_are_refused_in_process(bombs: Hostile, path: str) -> None:
    error = _fails("too-large", bombs.url(path), max_bytes=1_000_000)
    assert "over the 1,000,000-byte cap" in error.message


_MEASURE = """
import json, re, sys
from pathlib import Path
import psutil
from canon.errors import FetchError
from canon.sources.fetch import FetchOptions, fetch
fetch(sys.argv[2])  # warm up: modules, TLS settings, decoders
Path("/proc/self/clear_refs").write_text("5")  # Linux: start the peak RSS (VmHWM) afresh
baseline = psutil.Process().memory_info().rss
try:
    fetch(sys.argv[1])
    reason = None
except FetchError as exc:
    reason = exc.reason
status = Path("/proc/self/status").read_text()
peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) * 1024
print(json.dumps({"reason": reason, "baseline": baseline, "peak": peak}))
"""
# The default cap is 10 MB: the body held, joined once, and a decoder's few steps fit well
# inside this; inflating a whole network read of a bomb does not.
MEMORY_BOUND = 120 << 20


@pytest.mark.timeout(120)
@pytest.mark.parametrize("path", list(BOMBS))
def test_bombs_keep_memory_near_the_cap(bombs: Hostile, path: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _MEASURE, bombs.url(path), bombs.url("/page")],
        capture_output=True, text=True, timeout=100, env=env, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    measured = json.loads(result.stdout)
    assert measured["reason"] == "too-large"
    growth = measured["peak"] - measured["baseline"]
    assert growth < MEMORY_BOUND, f"peak RSS grew by {growth / 2**20:.0f} MiB"


def test_a_lying_content_length_is_refused_before_reading(hostile: Hostile) -> None:
    error = _fails("too-large", hostile.url("/length-lie"))
    assert "1,000,000,000,000 bytes" in error.message


# --------------------------------------------------------------------------- URLs


BAD_URLS = [
    ("http://[::1", "bad-url"), ("http://[::1/x", "bad-url"), ("http://[zz]/", "bad-url"),
    ("http://host.test:99999/", "bad-url"), ("http://[::1]:65536/", "bad-url"),
    ("http://host.test:0/", "bad-url"), ("http://host.test:abc/", "bad-url"),
    ("http://host.test:-1/", "bad-url"), ("http:///path", "bad-url"), ("http://:80/", "bad-url"),
    ("http://", "bad-url"), ("https://user@/", "bad-url"), ("http://a b.test/", "bad-url"),
    ("http://x\x00.test/", "bad-url"), ("http://" + "a" * 300 + ".test/", "bad-url"),
    ("ftp://example.test/", "not-http"), ("file:///etc/passwd", "not-http"),
    ("javascript:alert(1)", "not-http"),
]  # fmt: skip


@pytest.mark.parametrize(("url", "reason"), BAD_URLS)
def test_malformed_urls_are_one_line_errors(url: str, reason: str) -> None:
    error = _fails(reason, url)
    assert error.url == (url if url.isprintable() else "http://x?.test/")


@pytest.mark.parametrize(
    ("location", "reason"),
    [
        ("http://127.0.0.1:99999/", "bad-url"),
        ("http://[::1", "bad-url"),
        ("http://:80/x", "bad-url"),
        ("ftp://example.test/", "not-http"),
        ("javascript:alert(1)", "not-http"),
        ("file:///etc/passwd", "not-http"),
    ],
)
def test_bad_redirect_targets_are_one_line_errors(
    hostile: Hostile, location: str, reason: str
) -> None:
    url = hostile.url("/redirect?to=" + quote(location, safe=""))
    error = _fails(reason, url)
    assert error.url == url and "redirected to" in error.message


def test_redirect_to_port_99999(hostile: Hostile) -> None:
    error = _fails("bad-url", hostile.url("/redirect-port"))
    assert "port" in error.message


@given(st.text(max_size=60))
def test_parse_url_gives_a_url_or_a_fetch_error(tail: str) -> None:
    for scheme in ("http://", "https://"):
        try:
            url = parse_url(scheme + tail)
        except FetchError as exc:
            assert exc.reason in ("bad-url", "not-http") and "\n" not in exc.message
        else:
            assert url.host and url.scheme in ("http", "https")
            assert url.port is None or 1 <= url.port <= 65535


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999/", "http:///x"])
def test_cli_bad_urls_exit_2(url: str, tmp_path: Path) -> None:
    other = tmp_path / "a.txt"
    other.write_text(PAGE_TEXT, "utf-8")
    result = CliRunner().invoke(cli, ["compare", url, str(other)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("canon: error:") and result.output.count("\n") == 1


def test_max_bytes_bounds_a_fetched_page(hostile: Hostile) -> None:
    error = _fails("too-large", hostile.url("/page"), max_bytes=100)
    assert "100-byte cap" in error.message


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("localhost", True), ("LOCALHOST.", True), ("127.0.0.1", True), ("127.8.9.1", True),
     ("[::1]", True), ("::1", True), ("10.0.0.1", False), ("example.ru", False),
     ("foo.localhost", False), ("0.0.0.0", False), ("", False)],
)  # fmt: skip
def test_a_loopback_host_is_this_machine_by_name_or_address(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
