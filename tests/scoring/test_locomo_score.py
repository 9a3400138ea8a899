"""locomo_score equals the official code (snap-research/locomo@9228632 task_eval/evaluation.py) on every
prediction of tests/fixtures/scoring/official-locomo-scores.json."""

from __future__ import annotations

import sys

import pytest
from helpers.scoring_fixtures import load_fixture

from himga.data import item_id
from himga.errors import ConfigurationError, MissingDependencyError
from himga.scoring import locomo_score
from himga.scoring.rules import _locomo as L

OFFICIAL = load_fixture("official-locomo-scores.json")


def test_the_fixture_names_the_official_commit_and_is_varied():
    assert OFFICIAL["commit"] == L.SOURCE["commit"] == "92286325a40764bee61f77824ddb95233b11c4d6"
    rows = OFFICIAL["rows"]
    assert len(rows) == 5481
    partial = [r for r in rows if r[2] not in (0.0, 1.0)]
    assert len(partial) == 330  # not only 0 and 1: partial token overlaps
    assert sum(r[1].strip() == "" for r in rows) == 35  # empty or whitespace only


def test_every_official_value_on_the_real_file(locomo_samples):
    qas = {item_id(s, qa): qa for s in locomo_samples for qa in s.qa_pairs}
    rows = [r for r in OFFICIAL["rows"] if not r[0].startswith("extra:")]
    assert len({r[0] for r in rows}) == 1986  # every QA pair of the file has at least two predictions
    wrong = [
        (qid, pred, want, locomo_score(qas[qid], pred))
        for qid, pred, want in rows
        if locomo_score(qas[qid], pred) != want
    ]
    assert wrong == []


def test_every_official_value_on_the_extra_records():
    records = OFFICIAL["extra_records"]
    rows = [r for r in OFFICIAL["rows"] if r[0].startswith("extra:")]
    assert [(qid, locomo_score(records[qid], pred)) for qid, pred, _ in rows] == [(qid, want) for qid, _, want in rows]


def test_the_regex_module_word_boundary_not_re():
    # A combining mark is a word character for the regex module (as in the official code), not for re:
    # with re the article "a" before U+0301 would be removed and this would score 1.0.
    assert locomo_score({"category": 4, "answer": "a\u0301 b"}, "\u0301 b") == 0.5


def test_rules():
    assert locomo_score({"category": 3, "answer": "Yes; it's classical music"}, "yes") == 1.0
    assert locomo_score({"category": 5}, "It is Not Mentioned.") == 1.0
    assert locomo_score({"category": 5}, "not  mentioned") == 0.0
    assert locomo_score({"category": 1, "answer": "tea, coffee"}, "coffee") == 0.5
    assert locomo_score({"category": 2, "answer": 2022}, "in 2022") == pytest.approx(2 / 3)
    assert L.normalize_answer("The Cat, and a DOG!") == "cat dog"


def test_bad_input_raises_himga_errors():
    with pytest.raises(ConfigurationError, match="expected a string, got number"):
        locomo_score({"category": 4, "answer": "x"}, 3)
    with pytest.raises(ConfigurationError, match=r"raw.category 1–5.*got 7"):
        locomo_score({"category": 7, "answer": "x"}, "x")


def test_without_nltk_it_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "nltk.stem", None)
    L._libraries.cache_clear()
    try:
        with pytest.raises(MissingDependencyError, match=r"pip install 'himga\[scoring\]'"):
            locomo_score({"category": 4, "answer": "x"}, "x")
    finally:
        L._libraries.cache_clear()
