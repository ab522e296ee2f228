"""An address → whether a fetch may reach it: the private-address policy, with no network.

An address is *private* when ``ipaddress`` does not call it global (loopback, private ranges,
link-local, shared address space, documentation and reserved blocks, ``::``), when it is
multicast or IPv6 site-local (``fec0::/10``, deprecated but still routed by some networks), or
when it lies in a block the IANA registry reserves that older ``ipaddress`` versions still call
global: the local-use NAT64 prefix ``64:ff9b:1::/48``, the documentation prefix ``3fff::/20``
(RFC 9637) and the SRv6 SIDs ``5f00::/16`` (RFC 9602).  IPv6 addresses that carry an IPv4
address inside are judged by that IPv4 address: IPv4-mapped (``::ffff:a.b.c.d``),
IPv4-translated (``::ffff:0:a.b.c.d``, RFC 2765), IPv4-compatible (``::a.b.c.d``), well-known
NAT64 (``64:ff9b::a.b.c.d``), 6to4
(``2002:AABB:CCDD::``, the IPv4 in bits 16-48) and Teredo (``2001:0::/32``, the server and the
client addresses).  Host names under ``localhost`` (RFC 6761) are private before any lookup.
"""

from __future__ import annotations

import ipaddress

__all__ = ["embedded_ipv4", "is_local_name", "is_loopback", "is_private"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_NOT_GLOBAL = tuple(
    ipaddress.IPv6Network(block)
    for block in (
        "fec0::/10",  # site-local
        "64:ff9b:1::/48",  # local-use NAT64
        "3fff::/20",  # documentation
        "5f00::/16",  # SRv6 SIDs
    )
)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")


def _ipv4(value: int) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address(value & 0xFFFFFFFF)


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for (empty when it carries none)."""
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address in _COMPATIBLE or address in _NAT64 or address in _TRANSLATED:
        return [_ipv4(int(address))]
    if address.sixtofour is not None:
        return [address.sixtofour]
    if address.teredo is not None:
        return list(address.teredo)
    return []


def _not_global(ip: IPAddress) -> bool:
    return not ip.is_global or ip.is_multicast


def _parse(address: str) -> IPAddress:
    """An address as ``getaddrinfo`` gives it (an IPv6 scope such as ``%eth0`` is dropped)."""
    return ipaddress.ip_address(address.split("%", 1)[0])


def is_private(address: str | IPAddress) -> bool:
    """Whether ``address`` is loopback, private, local or otherwise not on the internet."""
    ip = _parse(address) if isinstance(address, str) else address
    if isinstance(ip, ipaddress.IPv4Address):
        return _not_global(ip)
    if any(ip in block for block in _NOT_GLOBAL):
        return True
    inner = embedded_ipv4(ip)
    if inner:
        return any(_not_global(v4) for v4 in inner)
    return _not_global(ip)


def is_local_name(host: str) -> bool:
    """``localhost`` and the names under it, which always mean this machine (RFC 6761)."""
    name = host.rstrip(".").lower()
    return name == "localhost" or name.endswith(".localhost")


def is_loopback(host: str) -> bool:
    """Whether a host as written (a name, an address, ``[::1]``) is this machine's loopback:
    ``localhost`` or a loopback address."""
    name = host.strip("[]")
    if name.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
