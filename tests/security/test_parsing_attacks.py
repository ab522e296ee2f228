"""Files built to exhaust a parser: .docx decompression bombs, entity expansion, an HTML
element with 150,000 attributes.  Each is refused quickly, in little memory, and the command
line answers with one line and exit status 2.

Peak memory is the kernel's own account of the reading process (``getrusage`` of a waited
child, taken by a small wrapper process that runs nothing else), so no short peak is missed.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from wordfiles import CLOSING, OPENING, write_docx

from canon.errors import InputError
from canon.sources.documents import read_source

ROOT = Path(__file__).resolve().parents[2]
MiB = 1 << 20
PEAK_LIMIT_MB = 300
_MEASURE = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
run = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=120)
print(json.dumps({
    "status": run.returncode,
    "stderr": run.stderr,
    "seconds": time.perf_counter() - started,
    "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
}))
"""


def _cli(path: Path) -> dict:
    """``canon tokens FILE`` in its own process: status, stderr, seconds, peak RSS in MB."""
    command = [sys.executable, "-c", _MEASURE, sys.executable, "-m", "canon", "tokens", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=180)
    return json.loads(done.stdout)


def _paragraphs(total: int) -> Iterator[str]:
    chunk = "<w:p><w:r><w:t>Зелёный чай заваривают водой.</w:t></w:r></w:p>" * 1024
    yield OPENING
    for _ in range(total // len(chunk.encode())):
        yield chunk
    yield CLOSING


def _whitespace(total: int) -> Iterator[bytes]:
    yield OPENING.encode() + b"<w:p><w:r><w:t>"
    block = b" " * MiB
    for _ in range(total // MiB):
        yield block
    yield b"</w:t></w:r></w:p>" + CLOSING.encode()


def _laughs() -> list[str]:
    """Ten levels of ten references each: 10**9 "lol"s once expanded."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, 10)
    ]
    return [
        f'<?xml version="1.0"?><!DOCTYPE lolz [{"".join(entities)}]>',
        OPENING.split("\n", 1)[1],
        "<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p>",
        CLOSING,
    ]


def _flood(total: int, seed: int = 5) -> Iterator[str]:
    """Empty paragraphs with random ids: a small ratio, so the archive checks let it in."""
    rng = random.Random(seed)
    yield OPENING
    written = 0
    while written < total:
        chunk = "".join(f'<w:p w:rsidR="{rng.getrandbits(32):08X}"/>' for _ in range(4096))
        written += len(chunk)
        yield chunk
    yield CLOSING


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    attributes = " ".join(f'a{i}="1"' for i in range(150_000))
    page = folder / "attributes.html"
    page.write_text(f"<html><body><p {attributes}>Текст страницы.</p></body></html>", "utf-8")
    return {
        "paragraphs": write_docx(folder / "paragraphs.docx", _paragraphs(100 * MiB), level=9),
        "whitespace": write_docx(folder / "whitespace.docx", _whitespace(2048 * MiB)),
        "entities": write_docx(folder / "entities.docx", _laughs()),
        "attributes": page,
    }


CASES = [
    ("paragraphs", "bomb", "expands"),
    ("whitespace", "bomb", "expands"),
    ("entities", "bad-xml", "declares a DTD"),
    ("attributes", "too-complex", "more than 200 attributes"),
]


def test_the_bombs_are_what_the_issue_describes(bombs: dict[str, Path]) -> None:
    assert bombs["paragraphs"].stat().st_size < 400_000  # 100 MiB of XML inside
    assert 1_500_000 < bombs["whitespace"].stat().st_size < 2_500_000  # 2 GiB inside
    assert bombs["attributes"].stat().st_size > 1_500_000


@pytest.mark.parametrize(("name", "reason", "message"), CASES)
def test_refused_at_once(bombs: dict[str, Path], name: str, reason: str, message: str) -> None:
    started = time.perf_counter()
    with pytest.raises(InputError, match=message) as info:
        read_source(str(bombs[name]))
    elapsed = time.perf_counter() - started
    assert info.value.reason == reason
    assert "\n" not in str(info.value)
    assert elapsed < 1.0, f"{name}: {elapsed:.2f} s"


@pytest.mark.parametrize(("name", "reason", "message"), CASES)
def test_the_cli_refuses_in_bounded_memory(
    bombs: dict[str, Path], name: str, reason: str, message: str
) -> None:
    run = _cli(bombs[name])
    assert run["status"] == 2, run["stderr"]
    lines = run["stderr"].strip().splitlines()
    assert len(lines) == 1 and message in lines[0], run["stderr"]
    assert "Traceback" not in run["stderr"]
    assert run["peak_mb"] < PEAK_LIMIT_MB, f"{name}: {run['peak_mb']:.0f} MB"
    assert run["seconds"] < 30, f"{name}: {run['seconds']:.1f} s"  # process start included


def test_a_flood_that_passes_the_archive_checks_is_streamed(tmp_path: Path) -> None:
    """40 MB of empty paragraphs (1.3 million elements) compress only ~4 times, so nothing
    refuses them before parsing: the streaming parser reads them in flat memory (python-docx
    took 15 s and 350 MB for a million)."""
    path = write_docx(tmp_path / "flood.docx", _flood(40_000_000))
    run = _cli(path)
    assert run["status"] == 2 and "has no text" in run["stderr"], run["stderr"]
    assert run["peak_mb"] < PEAK_LIMIT_MB, f"{run['peak_mb']:.0f} MB"
    assert run["seconds"] < 60, f"{run['seconds']:.1f} s"


def test_text_past_the_cap_stops_the_parse_early(tmp_path: Path) -> None:
    """12 million characters of varied text at a small ratio: refused once 10 million are
    read, in memory proportional to the cap, not to the file."""
    rng = random.Random(3)
    letters = "абвгдежзиклмнопрстуфхцчшщыэюя"
    words = ["".join(rng.choice(letters) for _ in range(7)) for _ in range(5000)]

    def document() -> Iterator[str]:
        yield OPENING
        for _ in range(12_000_000 // 4_000):
            yield "<w:p><w:r><w:t>" + " ".join(rng.choices(words, k=500)) + "</w:t></w:r></w:p>"
        yield CLOSING

    path = write_docx(tmp_path / "long.docx", document())
    run = _cli(path)
    assert run["status"] == 2, run["stderr"]
    assert "more than 10,000,000 characters" in run["stderr"]
    assert run["peak_mb"] < PEAK_LIMIT_MB, f"{run['peak_mb']:.0f} MB"


def _page(paragraph: str) -> str:
    ending = "<p>Чай заваривают водой, которая едва закипела.</p></article></body></html>"
    return f"<html><head><title>Чай</title></head><body><article><h1>О чае</h1>{paragraph}{ending}"


@pytest.mark.parametrize(
    "inline", ["<span>{}</span> ", "<b><i>{}</i></b> ", "<a href='/t/{}'>{}</a><br>", "{}<br>"]
)
def test_a_paragraph_of_many_inline_elements_reads_in_bounded_time(inline: str) -> None:
    """trafilatura's paragraph scan grows with the square of the text pieces in one
    paragraph: 40,000 spans in one <p> took three minutes.  Such a paragraph is read as the
    plain text it shows, which is what the page without its tags gives."""
    from canon.sources.extract import extract_html

    words = random.Random(7).choices("чай вода лист заварка чашка тепло аромат".split(), k=16_000)
    crowded = _page("<p>" + "".join(inline.format(w, w) for w in words) + "</p>")
    assert crowded.count("<") - crowded.count("</") < 50_000  # under the element cap: read
    started = time.process_time()
    text = extract_html(crowded, "crowded.html").text
    assert time.process_time() - started < 10
    plain = extract_html(_page("<p>" + " ".join(words) + "</p>"), "plain.html").text
    assert text.split() == plain.split()
