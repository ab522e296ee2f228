"""Signing in, in a real Chromium against a real uvicorn given a users file: an editor is sent
to the sign-in page, signs in, checks a draft against the index and against the web, and
signs out; a second editor signed in elsewhere cannot open the first one's check; the
sign-in page and a signed-in page have no serious accessibility violation.

The search provider is the SearXNG stand-in of tests/search_server.py (a real HTTP server on
127.0.0.1 that also serves the pages its results point to).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from search_server import DRAFT, StandIn, serve
from serving import uvicorn_serving

import canon
from canon.cli import cli

pytestmark = pytest.mark.browser

PASSWORDS = {"anna": "rose garden at dusk", "boris": "seven blue herons"}


class SignedServer:
    def __init__(self, url: str, stand: StandIn) -> None:
        self.url, self.stand = url, stand


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory, examples_dir: Path) -> Iterator[SignedServer]:
    """uvicorn serving an index of one source, SearXNG configured (the stand-in), and two users
    made by ``canon users add``."""
    from canon.web import create_app

    folder = tmp_path_factory.mktemp("signin")
    db = folder / "corpus.db"
    with canon.Index(db, create=True) as index:
        rules = canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4)
        canon.add_sources(index, [str(examples_dir / "original.txt")], rules)
    users = folder / "team.users"
    for name, password in PASSWORDS.items():
        added = CliRunner().invoke(cli, ["users", "add", str(users), name, "--password-stdin"],
                                   input=password + "\n")  # fmt: skip
        assert added.exit_code == 0, added.output
    patch = pytest.MonkeyPatch()
    with serve() as stand:
        patch.setenv("CANON_SEARCH_CONFIG", str(folder / "none.toml"))
        patch.setenv("CANON_SEARXNG_URL", stand.base)
        app = create_app(db, users=users, allow_private=True, allow_private_results=True,
                         workers=1)  # fmt: skip
        try:
            with uvicorn_serving(app) as url:
                yield SignedServer(url, stand)
        finally:
            patch.undo()


def _sign_in(page, server: SignedServer, name: str, asked: str = "/check") -> None:
    page.goto(server.url + asked)
    assert page.url == f"{server.url}/signin?next={asked}"
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORDS[name])
    page.click("main button[type=submit]")
    page.wait_for_url(server.url + asked)
    assert page.inner_text("#user") == name


def test_sign_in_check_sign_out_and_another_user_sees_nothing(
    browser, signed: SignedServer
) -> None:
    russian = {"viewport": {"width": 1280, "height": 900}, "locale": "ru-RU"}  # two editors
    anna_context, boris_context = browser.new_context(**russian), browser.new_context(**russian)
    try:
        anna, boris = anna_context.new_page(), boris_context.new_page()
        page = anna
        page.goto(signed.url + "/check")
        page.fill("input[name=name]", "anna")
        page.fill("input[name=password]", "not her password")
        page.click("main button[type=submit]")
        assert page.inner_text("#error") == "Неверное имя или пароль"
        assert page.input_value("input[name=name]") == "anna"
        page.fill("input[name=password]", PASSWORDS["anna"])
        page.click("main button[type=submit]")
        page.wait_for_url(signed.url + "/check")
        # a check against the index
        page.fill("textarea[name=draft_text]", DRAFT)
        page.click("main form > button[type=submit]")
        page.wait_for_selector("#uniqueness")
        # a check against the web: a job of her own
        page.goto(signed.url + "/check")
        page.fill("textarea[name=draft_text]", DRAFT)
        page.fill("input[name=queries]", "2")
        page.click("fieldset.web button[type=submit]")
        page.wait_for_url(re.compile(re.escape(signed.url) + r"/check/web/[0-9a-f]{16}"))
        job = page.url
        page.wait_for_selector("#uniqueness", timeout=90_000)
        # another editor, signed in in another browser, cannot open it
        _sign_in(boris, signed, "boris")
        shown = boris.goto(job)
        assert shown is not None and shown.status == 404
        assert "На этом сервере нет такой проверки" in boris.inner_text("#error")
        # signing out ends the session: the job asks for a sign-in again
        page.click("header button[type=submit]")
        page.wait_for_url(re.compile(re.escape(signed.url) + r"/signin"))
        page.goto(job)
        assert page.url.startswith(f"{signed.url}/signin?next=/check/web/")
    finally:
        anna_context.close()
        boris_context.close()


def test_the_sign_in_page_and_a_signed_in_page_are_accessible(
    audited, signed: SignedServer
) -> None:
    audited.goto(signed.url + "/")
    assert audited.violations() == []  # the sign-in page
    audited.fill("input[name=name]", "boris")
    audited.fill("input[name=password]", "a wrong password")
    audited.click("main button[type=submit]")
    audited.wait_for_selector("#error")
    assert audited.violations() == []  # with its error
    audited.fill("input[name=password]", PASSWORDS["boris"])
    audited.click("main button[type=submit]")
    audited.wait_for_url(signed.url + "/")
    assert audited.violations() == []  # the compare page with the user and sign-out
