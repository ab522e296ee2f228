"""Exclusions: exact sources, domains on the parsed host, and RE2 patterns behind ``re:``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon.uniqueness.exclusion import MAX_ENTRIES, MAX_ENTRY_LENGTH, Exclusion


@pytest.mark.parametrize(
    ("entry", "source", "excluded"),
    [
        # a domain: the host itself and its subdomains, never a substring
        ("client.ru", "https://client.ru/tea", True),
        ("client.ru", "https://www.client.ru/tea", True),
        ("client.ru", "https://blog.client.ru/tea", True),
        ("client.ru", "http://a.b.client.ru:8080/x?y=1", True),
        ("client.ru", "https://CLIENT.RU/Tea", True),
        ("client.ru", "https://client.ru./tea", True),
        ("www.client.ru", "https://blog.client.ru/", True),
        ("Client.RU", "https://client.ru/", True),
        ("client.ru", "https://my-client.ru/tea", False),
        ("client.ru", "https://myclient.ru/", False),
        ("client.ru", "https://client.ru.evil.com/", False),
        ("client.ru", "https://evil.com/client.ru", False),
        ("client.ru", "https://evil.com/?u=https://client.ru/", False),
        ("client.ru", "https://client.ru@evil.com/", False),
        ("client.ru", "client.ru/tea", False),  # not a URL: no host to compare
        ("client.ru", "client.ru", True),  # ...but the entry is also an exact source
        ("my-client.ru", "https://client.ru/", False),
        # internationalized names, in either spelling
        ("пример.рф", "https://xn--e1afmkfd.xn--p1ai/a", True),
        ("xn--e1afmkfd.xn--p1ai", "https://пример.рф/a", True),
        ("ПРИМЕР.РФ", "https://блог.пример.рф/", True),
        # exact sources: whole names only
        ("https://rival.ru/tea", "https://rival.ru/tea", True),
        ("https://rival.ru/tea", "https://rival.ru/tea2", False),
        ("https://rival.ru/tea", "https://rival.ru/", False),
        ("draft-7", "draft-7", True),
        ("draft-7", "draft-77", False),
        ("/home/me/original.txt", "/home/me/original.txt", True),
        ("original.txt", "/home/me/original.txt", False),
        # plain entries are never patterns
        (".", "https://rival.ru/", False),
        (".*", "https://rival.ru/", False),
        ("|", "https://rival.ru/", False),
        ("(", "https://rival.ru/", False),
        (r"^draft-\d+$", "draft-7", False),
        # patterns: RE2, searched in the name, case-sensitive unless (?i)
        (r"re:^draft-\d+$", "draft-7", True),
        (r"re:^draft-\d+$", "draft-7b", False),
        (r"re:original\.txt$", "/home/me/original.txt", True),
        (r"re:original\.txt$", "/home/me/original.txt.bak", False),
        ("re:/blog/", "https://rival.ru/blog/tea", True),
        ("re:/BLOG/", "https://rival.ru/blog/tea", False),
        ("re:(?i)/BLOG/", "https://rival.ru/blog/tea", True),
        ("re:чай", "https://rival.ru/чай", True),
        (r"re:\Qa.b\E", "xa.b", True),
        (r"re:\Qa.b\E", "xacb", False),
        ("re:a{99999999999}", "aaaa", False),  # not a repetition in RE2: literal text
    ],
)
def test_known_answers(entry: str, source: str, excluded: bool) -> None:
    assert Exclusion([entry])(source) is excluded


def test_entries_combine_and_are_stripped() -> None:
    exclusion = Exclusion(["  client.ru ", "re:^draft-", "https://rival.ru/tea\n"])
    assert [exclusion(s) for s in ("https://x.client.ru/", "draft-1", "https://rival.ru/tea")] == [
        True,
        True,
        True,
    ]
    assert not exclusion("https://rival.ru/other")
    assert exclusion.domains == {"client.ru"}
    assert exclusion.patterns == ("^draft-",)
    assert not Exclusion() and not Exclusion([])("anything")


def test_many_patterns_are_searched_in_groups_with_the_same_answers() -> None:
    # 300 patterns of ~300 characters make several groups; each answer must be the one its
    # own pattern gives.
    words = ["|".join(f"w{j}x{i}" for j in range(40)) for i in range(300)]
    patterns = [f"re:^src-{i:03d}-(?:{alternatives})$" for i, alternatives in enumerate(words)]
    exclusion = Exclusion(patterns)
    assert len(exclusion._regexes) < len(patterns)  # grouped, not one search per pattern
    for i in (0, 1, 150, 298, 299):
        assert exclusion(f"src-{i:03d}-w7x{i}")
        assert not exclusion(f"src-{i:03d}-w7x{i + 1}")
    assert not exclusion("src-300-w1x300")


LABELS = st.sampled_from(["client", "my-client", "ru", "com", "www", "blog", "evil", "xn--p1ai"])


def _labels(host: str) -> list[str]:
    """The brute-force reading: lower-case labels, one leading ``www`` dropped."""
    labels = host.lower().split(".")
    return labels[1:] if labels[:1] == ["www"] and len(labels) > 1 else labels


@given(
    domain=st.lists(LABELS, min_size=2, max_size=3).map(".".join),
    host=st.lists(LABELS, min_size=1, max_size=5).map(".".join),
    upper=st.booleans(),
    port=st.sampled_from(["", ":8080"]),
    path=st.sampled_from(["/", "/client.ru", "/a?u=client.ru", ""]),
)
def test_a_domain_matches_exactly_its_host_and_subdomains(
    domain: str, host: str, upper: bool, port: str, path: str
) -> None:
    source = f"https://{host.upper() if upper else host}{port}{path}"
    wanted, have = _labels(domain), _labels(host)
    # a domain has two labels at least (``www.client`` is a name, not a domain)
    expected = len(wanted) >= 2 and have[-len(wanted) :] == wanted
    assert Exclusion([domain])(source) is expected


@given(st.text(min_size=1, max_size=60).filter(lambda s: s.strip() and not s.startswith("re:")))
def test_a_plain_entry_excludes_itself_and_is_never_a_pattern(entry: str) -> None:
    exclusion = Exclusion([entry])
    assert exclusion(entry.strip())
    assert not exclusion(entry.strip() + "\x00tail")
    assert not exclusion("prefix" + entry.strip())


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (["re:("], "not a valid regular expression"),
        (["re:a)"], "not a valid regular expression"),
        (["re:(?=look)"], "not a valid regular expression"),  # no look-around in RE2
        (["re:(a)\\1"], "not a valid regular expression"),  # nor back-references
        (["re:a{1001}"], "not a valid regular expression"),
        (["re:\\Qab"], "close the quotation"),
        (["re:"], "the pattern is empty"),
        ([""], "is empty"),
        (["client.ru", "   "], "entry 2"),
        (["re:."], "matches every source"),
        (["re:|"], "matches every source"),
        (["re:x*"], "matches every source"),
        (["re:(?s)."], "matches every source"),
        (["re:\\C"], "matches every source"),
        (["re:^"], "matches every source"),
        (["re:$"], "matches every source"),
        (["re:(?:)"], "matches every source"),
        (["re:[\\s\\S]"], "matches every source"),
        (["a" * (MAX_ENTRY_LENGTH + 1)], f"more than {MAX_ENTRY_LENGTH:,}"),
        (["re:" + "(" * 200_000 + ")" * 200_000], f"more than {MAX_ENTRY_LENGTH:,}"),
        (["x"] * (MAX_ENTRIES + 1), f"more than {MAX_ENTRIES:,}"),
    ],
)
def test_refusals_are_one_line_option_errors(entries: list[str], message: str) -> None:
    with pytest.raises(canon.OptionError, match=message) as info:
        Exclusion(entries)
    assert info.value.option == "exclude"
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_the_caps_themselves_are_allowed() -> None:
    assert Exclusion([f"https://site.ru/{i}" for i in range(MAX_ENTRIES)])("https://site.ru/999")
    long_entry = "https://site.ru/" + "a" * (MAX_ENTRY_LENGTH - 16)
    assert Exclusion([long_entry])(long_entry)
