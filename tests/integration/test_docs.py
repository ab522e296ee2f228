"""The documentation covers the whole command line and the public API, and the site is whole.

Every command and subcommand has its how-to page and its row in the README's map of commands;
every option of every command is in the generated command line reference under that command
and named on a page of the site; every public name of ``canon`` is on the API page; every page
is in the navigation; and every code block is of a kind the example runner knows
(``tests/doc_examples.py``).  Each case collects all its misses into one message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import yaml
from mkdocs_click._docs import make_command_docs
from repo_paths import ROOT

import canon
from canon.cli import cli

DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text("utf-8")
PAGES = {path.relative_to(DOCS).as_posix(): path.read_text("utf-8") for path in DOCS.rglob("*.md")}
# The kinds of code block: the runner executes console, bash and python; the rest are data.
FENCES = {"console", "bash", "python", "text", "toml", "json", "yaml"}
README_LINES = 250


def _commands(
    command: click.Command, path: tuple[str, ...] = ("canon",)
) -> Iterator[tuple[str, click.Command]]:
    yield " ".join(path), command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, (*path, name))


COMMANDS = [(name, command) for name, command in _commands(cli) if not command.hidden]
OPTIONS = [
    (name, flag)
    for name, command in COMMANDS
    for param in command.params
    if isinstance(param, click.Option) and not param.hidden
    for flag in (*param.opts, *param.secondary_opts)
    if flag.startswith("--")
]


def _mentioned(text: str, words: str) -> bool:
    """``words`` in ``text`` as a whole: ``--k`` is not found in ``--keep-hyphens``."""
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text) is not None


def _howto(name: str) -> str:
    """The how-to page of a command: ``canon index add`` is on ``howto/index.md``."""
    return f"howto/{name.split()[1]}.md"


def _reference() -> dict[str, str]:
    """The generated command line reference, one section a command, as the site renders it."""
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    path: list[str] = []
    lines = make_command_docs(
        prog_name="canon", command=cli, depth=1, style="table", list_subcommands=True
    )
    for line in lines:
        heading = re.match(r"(#{2,}) ([\w-]+)\s*$", line)  # "## canon", "### index", "#### add"
        if heading:
            path = [*path[: len(heading.group(1)) - 2], heading.group(2)]
            current = sections.setdefault(" ".join(path), [])
        current.append(line)
    return {name: "\n".join(body) for name, body in sections.items()}


def _nav_pages(entries: object) -> Iterator[str]:
    if isinstance(entries, str):
        yield entries
    elif isinstance(entries, list):
        for entry in entries:
            yield from _nav_pages(entry)
    elif isinstance(entries, dict):
        for entry in entries.values():
            yield from _nav_pages(entry)


def test_the_tree_is_walked() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"canon", "canon compare", "canon index", "canon index add", "canon dedup"} <= names
    assert ("canon dedup", "--threshold") in OPTIONS
    assert len(OPTIONS) > 150


def test_every_command_has_its_howto_page_and_its_row_in_the_readme() -> None:
    misses = []
    for name, _ in COMMANDS[1:]:
        page = PAGES.get(_howto(name))
        if page is None:
            misses.append(f"{name}: no page docs/{_howto(name)}")
        elif not _mentioned(page, name):
            misses.append(f"{name}: docs/{_howto(name)} does not name it")
        if not re.search(rf"^\| `{re.escape(name)}(?![\w-])", README, re.MULTILINE):
            misses.append(f"{name}: no row in the README's map of commands")
    assert not misses, "\n".join(misses)


def test_every_option_is_in_the_reference_under_its_command_and_on_a_page() -> None:
    reference = _reference()
    site = "\n".join(text for path, text in PAGES.items() if path != "reference/cli.md")
    misses = []
    for name, flag in OPTIONS:
        if not _mentioned(reference.get(name, ""), flag):
            misses.append(f"{name} {flag}: not in the generated reference under {name}")
        if not _mentioned(site, flag):
            misses.append(f"{name} {flag}: no page of the site names it")
    assert not misses, "\n".join(misses)


def test_every_public_name_is_on_the_api_page() -> None:
    documented = set(re.findall(r"^::: canon\.(\w+)$", PAGES["reference/api.md"], re.MULTILINE))
    assert not set(canon.__all__) - documented, sorted(set(canon.__all__) - documented)
    assert not documented - set(canon.__all__), sorted(documented - set(canon.__all__))


def test_every_page_is_in_the_navigation_and_every_link_of_the_nav_is_a_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    nav = set(_nav_pages(config["nav"]))
    assert nav == set(PAGES), (sorted(set(PAGES) - nav), sorted(nav - set(PAGES)))
    assert config["strict"] is True


def test_every_code_block_is_of_a_kind_the_runner_knows() -> None:
    misses = []
    for path, text in {"README.md": README, **{f"docs/{p}": t for p, t in PAGES.items()}}.items():
        fenced = False
        for number, line in enumerate(text.splitlines(), 1):
            fence = re.match(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)", line)
            if fence is None:
                continue
            if not fenced and fence.group(2) not in FENCES:
                misses.append(f"{path}:{number}: a block of kind {fence.group(2) or 'none'!r}")
            fenced = not fenced
    assert not misses, "\n".join(misses)


def test_the_readme_is_a_landing_page() -> None:
    lines = README.count("\n")
    assert lines <= README_LINES, f"README.md has {lines} lines, at most {README_LINES}"
    assert "pip install . && canon compare examples/original.txt examples/rewrite.txt" in README
    assert "pip install '.[test]' && python -m pytest" in README
    assert re.search(r"The whole suite takes \d+ minutes on 2 cores", README)
    for image in re.findall(r"!\[[^]]*\]\(([^)]+)\)", README):
        assert (ROOT / image).is_file(), image


def test_the_site_has_its_pages() -> None:
    pages = {"index.md", "limits.md", "layout.md", "contributing.md", "metrics.md"}
    pages |= {"benchmarks.md", "quality.md", "reference/cli.md", "reference/api.md"}
    pages |= {"tutorials/seo.md", "tutorials/editor.md", "tutorials/corpus.md"}
    assert pages <= set(PAGES), sorted(pages - set(PAGES))
    assert "::: mkdocs-click" in PAGES["reference/cli.md"]
    linked = (link for text in PAGES.values() for link in re.findall(r"\]\(([^)]+\.png)\)", text))
    images = {Path(link).name for link in linked}
    assert {"similarity-plot.png", "check-ru.png", "compare-ru.png"} <= images, images
