"""longmemeval_judge_prompt is byte-identical to the official get_anscheck_prompt
(xiaowu0162/LongMemEval@9e0b455 src/evaluation/evaluate_qa.py), recorded in
tests/fixtures/scoring/official-longmemeval-judge-prompts.json."""

from __future__ import annotations

import hashlib

import pytest
from helpers.scoring_fixtures import load_fixture

from himga.errors import ConfigurationError
from himga.scoring import judge_label, judge_request, longmemeval_judge_prompt
from himga.scoring.judges import _longmemeval as M

OFFICIAL = load_fixture("official-longmemeval-judge-prompts.json")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_fixture_names_the_official_commit():
    assert OFFICIAL["commit"] == M.SOURCE["commit"] == "9e0b455f4ef0e2ab8f2e582289761153549043fc"
    assert len(OFFICIAL["rows"]) == 530  # (99 real + 7 extra questions) x 5 hypotheses


def test_every_real_question_with_himga_qa_pairs(longmemeval_samples):
    qas = {s.qa_pairs[0].question_id: s.qa_pairs[0] for s in longmemeval_samples}
    rows = [r for r in OFFICIAL["rows"] if r[0] in qas]
    assert len(rows) == 495 and len({r[0] for r in rows}) == 99
    assert sum(isinstance(qa.raw["answer"], int) for qa in qas.values()) == 8  # formatted as str(int)
    assert [r for r in rows if _sha(longmemeval_judge_prompt(qas[r[0]], r[1])) != r[2]] == []


def test_one_question_of_each_type_and_an_abstention():
    extra = {q["question_id"]: q for q in OFFICIAL["extra_questions"]}
    assert sorted(q["question_type"] for q in extra.values()) == sorted([*M._TEMPLATE_OF, "temporal-reasoning"])
    rows = [r for r in OFFICIAL["rows"] if r[0] in extra]
    assert len(rows) == 35
    assert [r for r in rows if _sha(longmemeval_judge_prompt(extra[r[0]], r[1])) != r[2]] == []
    full = OFFICIAL["full_prompts"]
    assert len(full) == 7
    for entry in full:
        assert longmemeval_judge_prompt(extra[entry["question_id"]], entry["hypothesis"]) == entry["prompt"]


def test_each_template_is_used_and_ends_with_the_official_sentence():
    extra = {q["question_id"]: q for q in OFFICIAL["extra_questions"]}
    prompts = {qid: longmemeval_judge_prompt(q, "x") for qid, q in extra.items()}
    assert prompts["extra_temporal_abs"].startswith("I will give you an unanswerable question")
    assert "off-by-one" in prompts["extra_temporal-reasoning"]
    assert "Rubric: " in prompts["extra_single-session-preference"]
    assert all(p.endswith("Answer yes or no only.") for p in prompts.values())
    assert M.templates_sha256() == "4f4a89de21cca13d247ed5d482e70da54d99f54b14178fd6a4de664ef3b25f01"


def test_judge_request_is_the_official_call():
    q = OFFICIAL["extra_questions"][0]
    request = judge_request(q, "Target")
    assert request == {
        "question_id": "extra_single-session-user",
        "model": "gpt-4o-2024-08-06",
        "n": 1,
        "temperature": 0,
        "max_tokens": 10,
        "messages": [{"role": "user", "content": longmemeval_judge_prompt(q, "Target")}],
    }


def test_judge_label():
    assert [judge_label(r) for r in ("Yes.", " yes", "YES", "no", "No.", "", "The answer is yes")] == [
        True,
        True,
        True,
        False,
        False,
        False,
        True,
    ]
    assert judge_label("Not sure, eyes closed") is True  # 'yes' in 'eyes': the official substring rule


def test_errors():
    q = dict(OFFICIAL["extra_questions"][0], question_type="single_session_user")
    with pytest.raises(ConfigurationError, match="question_type: expected one of"):
        longmemeval_judge_prompt(q, "x")  # the official code raises NotImplementedError
    with pytest.raises(ConfigurationError, match="hypothesis: expected a string, got number"):
        longmemeval_judge_prompt(OFFICIAL["extra_questions"][0], 3)
    with pytest.raises(ConfigurationError, match="judge reply: expected a string"):
        judge_label(None)
