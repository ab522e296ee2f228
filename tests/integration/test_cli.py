"""The canon command: output, JSON, custom profile flags, and bad input → one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from command import run_cli, run_process

import canon
from canon.cli import cli


@pytest.fixture
def pair(examples: Path) -> tuple[str, str]:
    return str(examples / "original.txt"), str(examples / "rewrite.txt")


def test_compare_examples_table(pair: tuple[str, str]) -> None:
    result = run_process("compare", *pair)  # the real command, as a user starts it
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for word in ("Jaccard", "Dice", "A in B", "B in A", "raw", "lemma", "fingerprint"[:0]):
        assert word in out
    assert canon.get_profile("raw").fingerprint in out
    assert canon.get_profile("lemma").fingerprint in out
    assert "3 words with look-alike letters" in out


def test_compare_json_matches_the_api(pair: tuple[str, str]) -> None:
    result = CliRunner().invoke(cli, ["compare", *pair, "--json", "-k", "3", "-p", "lemma"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    texts = [Path(p).read_text("utf-8") for p in pair]
    expected = canon.compare(texts[0], texts[1], k=3, profile="lemma").to_dict()
    cell = data["rows"][0]["lemma"]
    for key in ("jaccard", "dice", "containment_first", "containment_second", "common"):
        assert cell[key] == expected[key]
    assert data["first"]["source"] == pair[0]
    assert data["profiles"][0]["fingerprint"] == canon.get_profile("lemma").fingerprint
    assert len(data["profiles"][0]["second_folds"]) == 3


def test_lemma_beats_raw_on_the_bundled_rewrite(pair: tuple[str, str]) -> None:
    texts = [Path(p).read_text("utf-8") for p in pair]
    table = canon.compare_table(texts[0], texts[1])
    for k in (3, 4, 5):
        assert table.cell("lemma", k).jaccard > 2 * table.cell("raw", k).jaccard  # type: ignore[union-attr]


def test_custom_profile_flags(pair: tuple[str, str], tmp_path: Path) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("чай\n", "utf-8")
    flags = ["--drop-negation", "--no-yo-fold", "--split-hyphens", "--synonyms", "synonyms-ru"]
    args = ["compare", *pair, "--json", "-k", "2", "--stopwords", f"ru,{mine}", *flags]
    data = json.loads(CliRunner().invoke(cli, args).output)
    names = [p["profile"] for p in data["profiles"]]
    assert names == ["raw", "lemma-custom"]
    settings = data["profiles"][1]["settings"]
    assert settings["keep_negation"] is False and settings["yo_fold"] is False
    assert settings["keep_hyphens"] is False and settings["synonyms"] == "synonyms-ru"
    assert data["profiles"][0]["fingerprint"] == canon.get_profile("raw").fingerprint


def test_tokens_shows_the_canonical_form(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("Из-за дождей сoбаки не гуляли", "utf-8")
    result = CliRunner().invoke(cli, ["tokens", str(path)])
    assert result.exit_code == 0
    assert result.stdout.strip() == "дождь собака не гулять"
    spans = CliRunner().invoke(cli, ["tokens", str(path), "--spans", "-p", "raw"]).stdout
    assert spans.splitlines()[0] == "0\t2\tИз\tиз"
    data = json.loads(CliRunner().invoke(cli, ["tokens", str(path), "--json"]).stdout)
    assert data["folds"][0]["original"] == "сoбаки"


def test_stdin_dash(tmp_path: Path) -> None:
    other = tmp_path / "b.txt"
    other.write_text("раз два три четыре", "utf-8")
    draft = "раз два три пять".encode()
    result = run_cli("compare", "-", str(other), "-k", "2", "--json", input=draft)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["rows"][0]["raw"]["common"] == 2


def test_profiles_command() -> None:
    result = CliRunner().invoke(cli, ["profiles"])
    for name, profile in canon.BUILTIN_PROFILES.items():
        assert f"{name} {profile.fingerprint}" in result.output


def _bad_inputs(tmp: Path) -> list[tuple[list[str], str]]:
    good = tmp / "good.txt"
    good.write_text("раз два три четыре пять шесть", "utf-8")
    (tmp / "empty.txt").write_bytes(b"")
    (tmp / "bin.dat").write_bytes(b"\x00\x01\x02binary")
    (tmp / "short.txt").write_text("раз два", "utf-8")
    g = str(good)
    return [
        (["compare", str(tmp / "nope.txt"), g], "nope.txt: no such file"),
        (["compare", g, str(tmp)], "is a directory"),
        (["compare", str(tmp / "empty.txt"), g], "empty"),
        (["compare", str(tmp / "bin.dat"), g], "binary"),
        (["compare", str(tmp / "short.txt"), g, "-k", "3"], "fewer than k=3"),
        (["compare", g, g, "-p", "lemmas"], "unknown profile 'lemmas'"),
        (["compare", g, g, "--stopwords", "nosuchlist"], "unknown word list 'nosuchlist'"),
        (["compare", g, g, "--drop-pos", "FOO"], "unknown part-of-speech tag 'FOO'"),
        (["compare", g, g, "-k", "0"], "0 is not in the range"),
        (["compare", g], "Missing argument"),
    ]


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args, message in _bad_inputs(tmp_path):
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert result.stdout == ""
        if "Missing" not in message and "range" not in message:
            assert result.stderr.count("\n") == 1, result.stderr


def test_some_cells_too_short_still_succeeds(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("раз два три четыре", "utf-8")
    b.write_text("раз два три пять", "utf-8")
    result = CliRunner().invoke(cli, ["compare", str(a), str(b), "-k", "2", "-k", "5"])
    assert result.exit_code == 0
    assert "too short" in result.output


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    result = run_cli("--debug", "compare", str(tmp_path / "x.txt"), str(tmp_path / "y.txt"))
    assert "Traceback" in result.stderr and "InputError" in result.stderr


def test_every_command_is_documented() -> None:
    for name, command in cli.commands.items():
        assert command.help, name
        help_text = CliRunner().invoke(cli, [name, "--help"]).output
        assert "Usage: " in help_text
        readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
        assert f"canon {name}" in readme, f"README does not document 'canon {name}'"
