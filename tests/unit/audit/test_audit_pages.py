"""An audit's page and an index's document go through one preparation
(:func:`canon.index.prepare.shingle_profiles`): the same main text gives the same shingles and
sentence sets, whether crawled by ``canon audit`` or added by ``canon index add``."""

from __future__ import annotations

import hashlib

import numpy as np
from audit_site import Page, html_of, paragraphs, sentences

from canon import IndexRules
from canon.audit.pages import Reading, read_page
from canon.canonical import canonicalize
from canon.fingerprints.shingles import shingle_hashes
from canon.index.prepare import prepare_all
from canon.profile import get_profile
from canon.sources.collection import Item
from canon.sources.crawl.page import ContentArea

PROFILES = (get_profile("raw"), get_profile("lemma"))
URL = "http://127.0.0.1:9/page"


def test_a_page_is_prepared_as_the_index_prepares_its_text() -> None:
    html = html_of(Page("Страница", paragraphs(sentences(7, 30))))
    read = read_page(html, "utf-8", URL, Reading(ContentArea(), PROFILES, 4))
    assert read.document is not None and not read.failed
    text = read.facts.main_text
    (indexed,) = list(prepare_all([Item(URL, text=text)], IndexRules(PROFILES, k=4)))
    assert indexed.shingles.keys() == read.document.shingles.keys()
    for fingerprint, (words, hashes) in indexed.shingles.items():
        their_words, theirs = read.document.shingles[fingerprint]
        assert words == their_words
        np.testing.assert_array_equal(hashes, theirs)
    for profile in PROFILES:  # and both equal the definition
        tokens = canonicalize(text, profile).tokens
        np.testing.assert_array_equal(
            read.document.shingles[profile.fingerprint][1], shingle_hashes(tokens, 4)
        )
    assert indexed.sentences.keys() == read.document.sentences.keys() == {PROFILES[1].fingerprint}
    assert (
        indexed.sentences[PROFILES[1].fingerprint].to_bytes()
        == read.document.sentences[PROFILES[1].fingerprint].to_bytes()
    )


def test_a_page_shorter_than_k_words_has_no_document_but_a_canonical_hash() -> None:
    html = html_of(Page("Коротко", ["Звоните нам."], template=False))
    read = read_page(html, "utf-8", URL, Reading(ContentArea(), PROFILES, 4))
    assert read.document is None and not read.failed
    tokens = canonicalize(read.facts.main_text, PROFILES[0]).tokens
    assert len(tokens) == 3  # the H1 and the paragraph: fewer than k = 4
    digest = hashlib.sha256("\x1f".join(tokens).encode("utf-8")).hexdigest()[:32]
    assert read.canonical_hash == digest  # still an exact duplicate of its twins
