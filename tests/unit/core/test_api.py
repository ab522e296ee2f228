"""The public surface is exactly what ``__all__`` says, sorted, and every name is documented."""

from __future__ import annotations

import inspect

import canon


def test_all_is_sorted_and_complete() -> None:
    def isort_style(name: str) -> tuple[int, str]:  # constants, classes, then the rest
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert canon.__all__ == sorted(canon.__all__, key=isort_style)
    public = {
        name
        for name in dir(canon)
        if not name.startswith("_") and not inspect.ismodule(getattr(canon, name))
    }
    assert public == set(canon.__all__) - {"__version__"}


def test_every_public_name_has_a_docstring() -> None:
    for name in canon.__all__:
        obj = getattr(canon, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), name


def test_errors_form_one_family() -> None:
    for error in (canon.InputError, canon.ProfileError, canon.MissingResource, canon.TextTooShort):
        assert issubclass(error, canon.CanonError)
    assert issubclass(canon.TextTooShort, ValueError)


def _modules_after(statement: str) -> set[str]:
    import subprocess
    import sys

    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


# The packages of the optional extras (canon.extras.EXTRAS) and what they bring in.
EXTRA_PACKAGES = (
    "fastapi", "starlette", "uvicorn", "python_multipart", "multipart", "swagger_ui_bundle",
    "pebble", "itsdangerous", "argon2", "matplotlib", "xlsxwriter", "protego", "usp", "cssselect",
    "dask", "distributed",
)  # fmt: skip


def test_importing_canon_loads_no_heavy_library() -> None:
    modules = _modules_after("import canon.cli")
    for heavy in ("pymorphy3", "nltk", "trafilatura", "charset_normalizer", *EXTRA_PACKAGES):
        assert heavy not in modules, heavy
    for feature in ("canon.audit", "canon.dedup", "canon.web", "canon.report.plot"):
        assert feature not in modules, feature
    for deferred in ("numpy", "lxml", "ssl", "asyncio", "multiprocessing", "canon.index"):
        assert deferred not in modules, deferred


# What ``canon check DRAFT --index DB`` does without: adding to an index (its worker processes,
# the source collection), the web check (search providers, asyncio), parsing HTML (a text
# draft) and TLS (no fetch).
NOT_FOR_A_CHECK = (
    "canon.audit", "canon.dedup", "canon.web", "canon.report.plot", "canon.index.ingest",
    "canon.index.prepare", "canon.workers", "canon.sources.items", "canon.sources.client",
    "canon.sources.search", "canon.uniqueness.web", "asyncio", "multiprocessing", "lxml", "ssl",
    "trafilatura", *EXTRA_PACKAGES,
)  # fmt: skip


def test_the_check_command_imports_only_what_a_check_needs() -> None:
    modules = _modules_after("import canon.cli.check")
    for deferred in (*NOT_FOR_A_CHECK, "pymorphy3", "nltk"):
        assert deferred not in modules, deferred
    assert {"numpy", "canon.index.store", "canon.uniqueness.against_index"} <= modules


def test_a_check_of_a_text_draft_loads_only_what_it_needs(tmp_path) -> None:
    """A whole check in a fresh process, from its start to its printed report."""
    import subprocess
    import sys

    text = "Мама мыла раму, а кошки ловили мышей в старом сарае у самой реки. " * 3
    (tmp_path / "source.txt").write_text(text, "utf-8")
    draft = tmp_path / "draft.txt"
    draft.write_text(text + "Дети читали книги о далёких морях.", "utf-8")
    with canon.Index(tmp_path / "i.db", create=True) as index:
        canon.add_sources(index, [str(tmp_path / "source.txt")])
    code = (
        "import sys; from canon.cli import main\n"
        f"sys.argv = ['canon', 'check', {str(draft)!r}, '--index', {str(tmp_path / 'i.db')!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "uniqueness" in result.stdout.lower()
    modules = set(result.stderr.split())
    for deferred in NOT_FOR_A_CHECK:
        assert deferred not in modules, deferred


def test_importing_canon_loads_only_its_errors() -> None:
    """Every other public name of ``canon`` is imported on first use."""
    modules = _modules_after("import canon")
    assert {m for m in modules if m.split(".")[0] == "canon"} == {
        "canon",
        "canon._version",
        "canon.errors",
    }
    for heavy in ("numpy", "click", "jinja2", "babel", "httpx", "lxml", *EXTRA_PACKAGES):
        assert heavy not in modules, heavy
    assert "canon.comparison" in _modules_after("import canon; canon.compare")


def test_installed_package_finds_its_word_lists(tmp_path) -> None:
    """Run from another folder, so the installed canon (wheel or editable) is the one imported."""
    import subprocess
    import sys

    code = "import canon; print(canon.canonicalize('Из-за котов', 'lemma').tokens)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert result.stdout.strip() == "('кот',)", result.stderr


def test_every_error_crosses_a_process_boundary_intact() -> None:
    import pickle

    from canon import errors

    made = [
        errors.OptionError("similar", "must be a Jaccard in (0, 1], got 2", value=2),
        errors.FetchError("http://example.ru/", "cannot resolve host", reason="dns"),
        errors.ExtractionError("a.html: no main text", source="a.html", reason="no-main-text"),
        errors.TextTooShort(1, 3, "draft"),
        errors.EmptyText("text"),
        errors.IndexFileError("i.db: not an index", path="i.db", reason="not-an-index"),
        errors.OutputError("out.html", "cannot write the report"),
        errors.MissingResource("needs Dask", package="dask"),
        errors.ProfileError("unknown word list 'x'", option="stopwords", value="x"),
    ]
    for error in made:
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and copy.__dict__ == error.__dict__
        assert str(copy) == str(error) and copy.exit_code == 2
