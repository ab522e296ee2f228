"""A file written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from canon.errors import OutputError
from canon.files import replacing


def test_a_file_is_put_in_place_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old", "utf-8")
    with replacing(path) as out:
        out.write("новое\r\n")
        assert path.read_text("utf-8") == "old"  # not yet
    assert path.read_bytes() == "новое\r\n".encode()  # as written, no newline translation
    with replacing(path, "wb") as out:
        out.write(b"\x00\x01")
    assert path.read_bytes() == b"\x00\x01" and list(tmp_path.iterdir()) == [path]


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old", "utf-8")
    with pytest.raises(OutputError, match="disk full"), replacing(path) as out:
        out.write("half")
        raise OSError(28, "disk full")
    assert path.read_text("utf-8") == "old" and list(tmp_path.iterdir()) == [path]


def test_a_folder_that_cannot_be_written_is_one_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "out.csv"
    with pytest.raises(OutputError, match="cannot write") as refused, replacing(path):
        pass
    assert refused.value.path == path
