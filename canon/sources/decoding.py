"""Bytes on the wire → the body: content codings undone a bounded step at a time.

A decoder turns each piece of the raw body into output pieces of about :data:`STEP` bytes at
most (brotli may give up to a few times that in one piece), so the reader can stop as soon as
its byte cap is passed: a kilobyte of brotli never becomes gigabytes in memory.  gzip and
deflate use zlib's ``max_length``; brotli the ``output_buffer_limit`` of brotli 1.2 and later.
Only the codings canon asks for (:func:`accepted`) are undone; any other is refused.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

__all__ = ["STEP", "Decoder", "DecodingError", "accepted", "decoder_for"]

STEP = 64 * 1024
# More codings than this on one response is no real server's doing.
_MAX_CODINGS = 3

try:  # brotli is installed with httpx[brotli]; only a version with bounded output is used
    import brotli as _brotli

    _brotli.Decompressor().process(b"", output_buffer_limit=1)
except (ImportError, TypeError, AttributeError):  # pragma: no cover - an old or missing brotli
    _brotli = None


class DecodingError(Exception):
    """The body's content coding is unknown or its data is damaged."""


class Decoder(Protocol):
    def feed(self, data: bytes) -> Iterator[bytes]: ...

    def finish(self) -> Iterator[bytes]: ...


class _Identity:
    def feed(self, data: bytes) -> Iterator[bytes]:
        if data:
            yield data

    def finish(self) -> Iterator[bytes]:
        return iter(())


class _Zlib:
    """gzip (``wbits`` 31), zlib-wrapped deflate (15) or raw deflate (-15); data after the
    end of the stream is ignored."""

    def __init__(self, wbits: int) -> None:
        self._inflate: Any = zlib.decompressobj(wbits)

    def _drain(self, data: bytes) -> Iterator[bytes]:
        while not self._inflate.eof:  # each pass yields STEP bytes or uses up the input
            try:
                out = self._inflate.decompress(data, STEP)
            except zlib.error as exc:
                raise DecodingError(str(exc)) from exc
            if out:
                yield out
            data = self._inflate.unconsumed_tail
            if not data and len(out) < STEP:
                return

    def feed(self, data: bytes) -> Iterator[bytes]:
        return self._drain(data)

    def finish(self) -> Iterator[bytes]:
        return self._drain(b"")


def _zlib_header(head: bytes) -> bool:
    """Whether two bytes open a zlib stream (RFC 1950): deflate method, checksum of 31."""
    return head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0


class _Deflate:
    """HTTP's ``deflate``: meant to be zlib-wrapped, sometimes sent raw; the first two bytes
    tell which."""

    def __init__(self) -> None:
        self._head = b""
        self._inner: _Zlib | None = None

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._inner is None:
            self._head += data
            if len(self._head) < 2:
                return iter(())
            wbits = zlib.MAX_WBITS if _zlib_header(self._head) else -zlib.MAX_WBITS
            self._inner, data, self._head = _Zlib(wbits), self._head, b""
        return self._inner.feed(data)

    def finish(self) -> Iterator[bytes]:
        if self._inner is None:
            self._inner, data = _Zlib(-zlib.MAX_WBITS), self._head
            yield from self._inner.feed(data)
        yield from self._inner.finish()


class _Brotli:
    """brotli with a bounded output buffer; data after the end of the stream is ignored."""

    def __init__(self) -> None:
        assert _brotli is not None
        self._state = _brotli.Decompressor()

    def _process(self, data: bytes) -> bytes:
        try:
            return bytes(self._state.process(data, output_buffer_limit=STEP))
        except _brotli.error as exc:  # pyright: ignore[reportOptionalMemberAccess]  # see __init__
            raise DecodingError(str(exc)) from exc

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._state.is_finished():
            return
        out = self._process(data)
        while True:  # while the decoder takes no input, more output is waiting
            if out:
                yield out
            if self._state.can_accept_more_data() or self._state.is_finished():
                return
            out = self._process(b"")
            if not out:
                raise DecodingError("the brotli decoder neither takes input nor gives output")

    def finish(self) -> Iterator[bytes]:
        while not self._state.is_finished():
            out = self._process(b"")
            if not out:
                return
            yield out


def _one(coding: str) -> Decoder:
    if coding in ("gzip", "x-gzip"):
        return _Zlib(16 + zlib.MAX_WBITS)
    if coding == "deflate":
        return _Deflate()
    if coding == "br" and _brotli is not None:
        return _Brotli()
    raise DecodingError(
        f"the page is sent in the content coding {coding[:40]!r}, which canon does not "
        f"decode (it asks for {accepted()})"
    )


class _Chain:
    """Several codings, undone last to first; each step's pieces feed the next."""

    def __init__(self, decoders: Sequence[Decoder]) -> None:
        self._decoders = list(decoders)

    def _through(self, start: int, data: bytes) -> Iterator[bytes]:
        if start == len(self._decoders):
            yield data
            return
        for piece in self._decoders[start].feed(data):
            yield from self._through(start + 1, piece)

    def feed(self, data: bytes) -> Iterator[bytes]:
        return self._through(0, data)

    def finish(self) -> Iterator[bytes]:
        for index, decoder in enumerate(self._decoders):
            for piece in decoder.finish():
                yield from self._through(index + 1, piece)


def accepted() -> str:
    """The Accept-Encoding header canon sends: the codings it can undo with bounded output."""
    return "gzip, deflate, br" if _brotli is not None else "gzip, deflate"


def decoder_for(content_encoding: str) -> Decoder:
    """A decoder for a Content-Encoding header value ('' or 'identity': the bytes as they are)."""
    codings = [c.strip().lower() for c in content_encoding.split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if len(codings) > _MAX_CODINGS:
        raise DecodingError(f"the page is sent in {len(codings)} content codings, too many")
    if not codings:
        return _Identity()
    if len(codings) == 1:
        return _one(codings[0])
    return _Chain([_one(c) for c in reversed(codings)])
