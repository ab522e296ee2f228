"""canon.errors: the tree drawn in its docstring, the attributes, and how the CLI and the web app
turn those attributes into flags and fields."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import canon
from canon import errors
from canon.cli import cli, message_of
from canon.errors import (
    AccountError,
    CanonError,
    EmptyText,
    ExtractionError,
    FetchError,
    IndexFileError,
    InputError,
    MissingExtra,
    MissingResource,
    OptionError,
    Outcome,
    OutputError,
    ProfileError,
    SearchError,
    TextTooShort,
)
from canon.web.service import FieldError, field_error

_NODE = re.compile(r"^(?P<prefix>[ │├└─]*)(?P<name>[A-Z]\w*)(?: \((?P<extra>[\w, ]+)\))?")


_ATTRIBUTES = re.compile(r"\s(\.\w+)(, \.\w+)*\s*$")


def _drawing() -> dict[str, tuple[str | None, tuple[str, ...], set[str]]]:
    """Each class in the docstring's tree: (parent, extra bases, attributes shown)."""
    doc = errors.__doc__ or ""
    block = doc.split("::", 1)[1].strip("\n").split("\n\n", 1)[0]
    tree: dict[str, tuple[str | None, tuple[str, ...], set[str]]] = {}
    path: list[str] = []
    current = ""
    for line in block.splitlines():
        line = line[4:]  # the literal block's indent
        node = _NODE.match(line)
        if node:
            depth = len(node["prefix"]) // 4
            path[depth:] = [node["name"]]
            extra = tuple(n.strip() for n in (node["extra"] or "").split(",") if n.strip())
            current = node["name"]
            tree[current] = (path[depth - 1] if depth else None, extra, set())
        shown = _ATTRIBUTES.search(line)  # ".source, .reason" at the end of a line
        if shown:
            tree[current][2].update(re.findall(r"\.(\w+)", shown[0]))
    return tree


DRAWING = _drawing()

# One instance of each error, made as the library makes them.
EXAMPLES: dict[str, Callable[[], CanonError]] = {
    "CanonError": lambda: CanonError("something is wrong"),
    "InputError": lambda: InputError("a.txt: cannot read", source="a.txt", reason="missing"),
    "FetchError": lambda: FetchError("https://example.org/", "timed out", reason="timeout"),
    "ExtractionError": lambda: ExtractionError("p.html: no text", source="p.html", reason="x"),
    "OptionError": lambda: OptionError("threshold", "must be in (0, 1], got 2", value=2),
    "ProfileError": lambda: ProfileError("unknown profile 'x'", value="x"),
    "TextTooShort": lambda: TextTooShort(3, 4, "first"),
    "EmptyText": lambda: EmptyText("draft"),
    "IndexFileError": lambda: IndexFileError("c.db: not an index", path="c.db", reason="x"),
    "OutputError": lambda: OutputError("out.html", "cannot write: disk full"),
    "SearchError": lambda: SearchError("google", "the daily quota is spent", reason="quota"),
    "AccountError": lambda: AccountError("there is no user 'anna'", user="anna", reason="unknown"),
    "MissingResource": lambda: MissingResource("install dask", package="dask"),
    "MissingExtra": lambda: MissingExtra("web", "the web service", package="fastapi"),
}


def test_the_drawing_names_every_error_class() -> None:
    classes = {n for n in errors.__all__ if n != "Outcome"}
    assert set(DRAWING) == classes
    assert set(EXAMPLES) == classes
    assert DRAWING["CanonError"][0] is None  # one root


@pytest.mark.parametrize("name", sorted(DRAWING))
def test_each_class_has_the_bases_drawn(name: str) -> None:
    parent, extra, _ = DRAWING[name]
    cls = getattr(errors, name)
    expected = (Exception,) if parent is None else (getattr(errors, parent),)
    expected += tuple(getattr(builtins, e) for e in extra)  # (ValueError) and the like
    assert cls.__bases__ == expected


@pytest.mark.parametrize("name", sorted(DRAWING))
def test_each_class_has_the_attributes_drawn(name: str) -> None:
    error = EXAMPLES[name]()
    assert type(error).__name__ == name
    for attribute in DRAWING[name][2]:
        assert hasattr(error, attribute), f"{name} has no .{attribute}"


@pytest.mark.parametrize("name", sorted(DRAWING))
def test_every_error_exits_2(name: str) -> None:
    cls = getattr(errors, name)
    assert cls.exit_code == 2 == Outcome.BAD_INPUT
    assert EXAMPLES[name]().exit_code == 2


def test_outcomes() -> None:
    assert [(o.name, int(o)) for o in Outcome] == [
        ("OK", 0),
        ("BELOW_BAR", 1),
        ("BAD_INPUT", 2),
        ("SOME_FAILED", 3),
    ]
    assert len({int(o) for o in Outcome}) == 4


def test_option_error() -> None:
    error = OptionError("num_perm", "must be a positive integer, got 0", value=0)
    assert isinstance(error, ValueError)
    assert (error.option, error.problem, error.value) == ("num_perm", error.problem, 0)
    assert str(error) == error.message == "num_perm must be a positive integer, got 0"
    assert error.reason is None


def test_profile_error_is_an_option_error_of_its_own_words() -> None:
    error = ProfileError("unknown word list 'x': name one of ru, en", option="stopwords", value="x")
    assert isinstance(error, OptionError)
    assert (error.option, error.value, str(error)) == ("stopwords", "x", error.message)
    assert ProfileError("unknown profile 'x'").option == "profile"


def test_fetch_error() -> None:
    error = FetchError(
        "http://10.0.0.1/", "resolves to a private address", reason="private-address"
    )
    assert isinstance(error, InputError)
    assert (error.url, error.source, error.reason) == (
        "http://10.0.0.1/",
        "http://10.0.0.1/",
        "private-address",
    )
    assert str(error) == "http://10.0.0.1/: resolves to a private address"


def test_text_too_short() -> None:
    error = TextTooShort(3, 4, "first")
    assert isinstance(error, ValueError)
    assert (error.words, error.k, error.side, error.label) == (3, 4, "first", "first")
    assert str(error).startswith("first has 3 canonical words, fewer than k=4")
    assert "1 canonical word," in str(TextTooShort(1, 2, "second"))
    assert TextTooShort(0, 3).side == "text"
    empty = EmptyText("draft")
    assert (empty.words, empty.k, empty.side) == (0, 1, "draft")
    assert str(empty).startswith("draft has no words")
    assert empty.args == (str(empty),)  # one message, not overwritten


def test_other_attributes() -> None:
    index = IndexFileError("c.db: newer schema", path="c.db", reason="schema")
    assert (index.path, index.reason, str(index)) == ("c.db", "schema", "c.db: newer schema")
    output = OutputError("r.html", "cannot write")
    assert (output.path, str(output)) == ("r.html", "r.html: cannot write")
    assert MissingResource("pip install dask", package="dask").package == "dask"
    extra = MissingExtra("plot", "the plot", package="matplotlib")
    assert (extra.extra, extra.feature, extra.package) == ("plot", "the plot", "matplotlib")
    assert str(extra) == "the plot needs the plot extra: pip install 'canon[plot]'"
    assert extra.install == "pip install 'canon[plot]'"
    assert isinstance(extra, ImportError)  # what importing a feature without its extra raises
    assert InputError("x").source is None and InputError("x").reason is None
    assert CanonError("x", reason="why").reason == "why"


def _commands(command: click.Command) -> Iterator[click.Command]:
    yield command
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from _commands(sub)


def _command_paths(command: click.Command, path: str) -> Iterator[str]:
    """``canon audit``, ``canon index add``…: every command a user runs (groups are not)."""
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _command_paths(sub, f"{path} {name}")
    else:
        yield path


CLI_COMMANDS = frozenset(_command_paths(cli, "canon"))
_NAMES_A_COMMAND = re.compile(
    "|".join(rf"\b{re.escape(c)}\b" for c in sorted(CLI_COMMANDS, key=len, reverse=True))
)

CLI_FLAGS = {
    flag
    for command in _commands(cli)
    for param in command.params
    if isinstance(param, click.Option)
    for flag in (*param.opts, *param.secondary_opts)
    if flag.startswith("--")
}


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            OptionError("threshold", "must be in (0, 1], got 2"),
            "--threshold must be in (0, 1], got 2",
        ),
        (OptionError("num_perm", "must be positive"), "--num-perm must be positive"),
        (OptionError("min_uniqueness", "must be a percent"), "--min-uniqueness must be a percent"),
        (OptionError("sample", "must be 1 or more"), "--sample must be 1 or more"),
        (
            ProfileError("unknown profile 'x': use one of raw"),
            "unknown profile 'x': use one of raw",
        ),
        (
            FetchError("http://127.0.0.1/", "is a private address", reason="private-address"),
            "http://127.0.0.1/: is a private address; pass --allow-private to fetch it",
        ),
        (
            FetchError("https://e.org/", "is larger than 10 bytes", reason="too-large"),
            "https://e.org/: is larger than 10 bytes; raise --max-bytes",
        ),
        (
            FetchError("https://e.org/", "did not answer in 1 s", reason="timeout"),
            "https://e.org/: did not answer in 1 s; raise --timeout",
        ),
        (
            ExtractionError("p.html: no main text", source="p.html", reason="no-main-text"),
            "p.html: no main text; try --whole-page to see all its text",
        ),
        (
            FetchError("https://e.org/", "no such host", reason="dns"),
            "https://e.org/: no such host",
        ),
        (ExtractionError("p.html: no text", reason="no-text"), "p.html: no text"),
        (TextTooShort(2, 4, "first"), str(TextTooShort(2, 4, "first"))),
        (IndexFileError("c.db: not an index", reason="not-an-index"), "c.db: not an index"),
        (
            IndexFileError("c.db: no such index; create one", reason="missing", remedy="create"),
            "c.db: no such index; create one with 'canon index add'",
        ),
        (
            IndexFileError("c.db: older; migrate it in place", reason="schema", remedy="upgrade"),
            "c.db: older; migrate it in place with 'canon index upgrade'",
        ),
        (
            IndexFileError("c.db: too old; build a new index", reason="schema", remedy="rebuild"),
            "c.db: too old; build a new index with 'canon index add'",
        ),
        (
            IndexFileError("c.db: no folder /x", reason="missing"),  # no remedy: no command
            "c.db: no folder /x",
        ),
    ],
)
def test_message_of_turns_attributes_into_flags(error: CanonError, message: str) -> None:
    assert message_of(error) == message
    for flag in re.findall(r"--[a-z][\w-]*", message):
        assert flag in CLI_FLAGS, f"{flag} is not an option of any command"
    for named in re.findall(r"'(canon [a-z ]+)'", message):
        assert named in CLI_COMMANDS, f"{named!r} is not a command"


def _option_names() -> set[str]:
    """Every setting the library names in an OptionError or ProfileError it raises."""
    names = set()
    for path in Path(canon.__file__).parent.rglob("*.py"):
        if {"cli", "web"} & set(path.relative_to(Path(canon.__file__).parent).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "OptionError" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.add(first.value)
            if node.func.id in ("OptionError", "ProfileError"):
                names.update(
                    k.value.value
                    for k in node.keywords
                    if k.arg == "option" and isinstance(k.value, ast.Constant)
                )
    return names | {"profile"}  # ProfileError's default


def test_every_option_the_library_names_is_a_flag_of_the_cli() -> None:
    names = _option_names()
    assert {"threshold", "num_perm", "seed", "similar", "top", "stopwords"} <= names
    library_only = {"user_agent"}  # settings of the Python API that no command sets
    for name in names - {"sources"} - library_only:
        flags = re.findall(r"--[a-z][\w-]*", message_of(OptionError(name, "is wrong")))
        assert flags and set(flags) <= CLI_FLAGS, name
    for name in library_only & names:
        assert message_of(OptionError(name, "is wrong")) == f"{name} is wrong"  # no flag made up
    # SOURCES is an argument, not an option: the command checks it before the library would
    result = CliRunner().invoke(cli, ["dedup"])
    assert result.exit_code == 2 and "--sources" not in result.output


def test_no_library_message_here_names_a_flag() -> None:
    for make in EXAMPLES.values():
        assert "--" not in str(make())


@pytest.mark.parametrize(
    ("error", "given", "field", "status"),
    [
        (OptionError("threshold", "must be in (0, 1]"), "form", "threshold", 400),
        (OptionError("top", "must be 1 or more"), None, "top", 400),
        (ProfileError("unknown profile 'x'"), "first", "profiles", 400),
        (ProfileError("unknown word list 'y'", option="stopwords"), None, "stopwords", 400),
        (TextTooShort(1, 4, "first"), None, "first", 400),
        (TextTooShort(1, 4, "second"), "first", "second", 400),
        (TextTooShort(1, 4, "draft"), None, "draft", 400),
        (TextTooShort(1, 4, "a.txt"), "upload", "upload", 400),  # a source: the given field
        (EmptyText("draft"), None, "draft", 400),
        (IndexFileError("c.db: corrupt", reason="corrupt"), "index", None, 503),
        (InputError("upload: binary", reason="binary"), "upload", "upload", 400),
        (FetchError("https://e.org/", "no such host", reason="dns"), "first", "first", 400),
        (ExtractionError("p: no main text", reason="no-main-text"), "second", "second", 400),
    ],
)
def test_field_error_names_the_field(
    error: CanonError, given: str | None, field: str | None, status: int
) -> None:
    request_error = field_error(error, given)
    assert isinstance(request_error, FieldError)
    assert (request_error.field, request_error.status) == (field, status)
    source = getattr(error, "source", None)
    if source and field:  # a source the request named is not echoed: its field stands for it
        assert request_error.message == error.message.replace(source, field, 1)
    else:
        assert request_error.message == error.message
    assert "--" not in request_error.message


def test_the_errors_are_reachable_from_canon() -> None:
    for name in ("CanonError", "InputError", "FetchError", "OptionError", "TextTooShort"):
        assert getattr(canon, name) is getattr(errors, name)


def _library_strings() -> Iterator[tuple[str, str]]:
    """Every string constant of canon outside canon/cli/ (f-strings' parts included) that is
    not a docstring, with where it is: what the library can say to a user."""
    package = Path(canon.__file__).parent
    for path in sorted(package.rglob("*.py")):
        if "cli" in path.relative_to(package).parts:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                yield f"{path.relative_to(package)}:{node.lineno}", node.value


def test_no_string_of_the_library_names_a_command_line_flag() -> None:
    """The library speaks of settings; only canon/cli/ spells them as --flags."""
    found = [
        f"{where}: {value[:60]}"
        for where, value in _library_strings()
        if re.search(r"(^|[\s'\"(])--[a-z]", value)
    ]
    assert found == []


def test_no_string_of_the_library_names_a_command() -> None:
    """What to do is said in words (and coded in ``remedy``); only canon/cli/ names the
    command that does it, as :func:`message_of` does."""
    assert _NAMES_A_COMMAND.search("no such index; create one with 'canon index add'")
    assert _NAMES_A_COMMAND.search("run canon audit again")
    assert not _NAMES_A_COMMAND.search("is not a canon index (an empty database)")
    assert not _NAMES_A_COMMAND.search("canon compares HTML and text; canon checks it")
    found = [
        f"{where}: {value[:60]}"
        for where, value in _library_strings()
        if _NAMES_A_COMMAND.search(value)
    ]
    assert found == []
