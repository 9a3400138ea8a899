"""Sample.relevance / Sample.candidates: the official retrieval labels, pinned on the real files and on inline
samples."""

from __future__ import annotations

import pytest

from himga.data import EvidenceRef, Message, QAPair, QuestionType, Relevance, Sample, Session, load_longmemeval
from himga.errors import ConfigurationError

NO_TARGET = ["71a3fd6b", "8464fc84", "488d3006", "16c90bf4", "58470ed2", "51b23612"]


@pytest.fixture(scope="module")
def oracle_sample(shared_data, tmp_path_factory):
    path = shared_data / "longmemeval" / "longmemeval_oracle_sample.json"
    return load_longmemeval(path, config="oracle", cache_dir=tmp_path_factory.mktemp("lme_cache"))


def test_longmemeval_oracle_sample(oracle_sample):
    labels = {s.sample_id: s.relevance(s.qa_pairs[0]) for s in oracle_sample}
    assert len(labels) == 97
    assert sum(r.evaluable for r in labels.values()) == 89
    assert [q for q, r in labels.items() if r.reason == "no has_answer user turn"] == NO_TARGET
    assert [q for q, r in labels.items() if r.reason == "abstention"] == ["gpt4_fe651585_abs", "edced276_abs"]
    assert all(not labels[q].sessions and not labels[q].turns for q in NO_TARGET)
    rel = labels["gpt4_f420262d"]
    (sample,) = [s for s in oracle_sample if s.sample_id == "gpt4_f420262d"]
    assert len(sample.qa_pairs[0].evidence.session_ids) == 5
    assert rel.sessions == rel.ids("session") == ["answer_d8a1af6c_5", "answer_d8a1af6c_4"]
    assert rel.turns == ["answer_d8a1af6c_5_1", "answer_d8a1af6c_4_1", "answer_d8a1af6c_4_5"]
    assert len(sample.candidates("session")) == 5 and len(sample.candidates("turn")) == 29  # user turns only
    assert sample.candidates("turn")[:3] == ["answer_d8a1af6c_1_1", "answer_d8a1af6c_1_3", "answer_d8a1af6c_1_5"]
    # every relevant session is a listed answer session; totals over the 97
    assert all(
        set(r.sessions) <= set(s.qa_pairs[0].evidence.session_ids) for s, r in zip(oracle_sample, labels.values())
    )
    assert (sum(len(r.sessions) for r in labels.values()), sum(len(r.turns) for r in labels.values())) == (173, 188)
    assert sum(len(s.qa_pairs[0].evidence.session_ids) for s in oracle_sample) == 186


def test_locomo_real_file(locomo_samples):
    conv26 = locomo_samples[0]
    first = conv26.relevance(conv26.qa_pairs[0])
    assert first == Relevance(sessions=["1"], turns=["D1:3"], evaluable=True)
    labels = {(s.sample_id, qa.question_id): s.relevance(qa) for s in locomo_samples for qa in s.qa_pairs}
    assert sum(r.evaluable for r in labels.values()) == 1982
    assert [k for k, r in labels.items() if not r.evaluable] == [
        ("conv-26", "30"),
        ("conv-26", "46"),
        ("conv-50", "39"),
        ("conv-50", "42"),
    ]
    assert {k: r.dangling for k, r in labels.items() if r.dangling} == {
        ("conv-42", "58"): ["D10:19"],
        ("conv-47", "38"): ["D4:36"],
    }
    assert (
        "D10:19" in labels["conv-42", "58"].turns and "10" in labels["conv-42", "58"].sessions
    )  # kept, as the official recall
    assert labels["conv-26", "37"].sessions == ["8", "9"]  # "D8:6; D9:17"
    assert (sum(len(r.sessions) for r in labels.values()), sum(len(r.turns) for r in labels.values())) == (2559, 2822)
    assert len(conv26.candidates("session")) == 19 and len(conv26.candidates("turn")) == 419
    assert conv26.candidates("turn")[:2] == ["D1:1", "D1:2"]


def _lme(sessions: list[tuple[str, list[tuple[str, bool | None]]]], qid: str = "q1") -> Sample:
    built = [
        Session(sid, [Message(role, "x", raw={} if flag is None else {"has_answer": flag}) for role, flag in turns])
        for sid, turns in sessions
    ]
    qa = QAPair(
        qid,
        "?",
        "a",
        QuestionType.SINGLE_SESSION_USER,
        EvidenceRef(session_ids=[sid for sid, _ in sessions if "answer" in sid]),
    )
    return Sample(qid, "longmemeval", built, [qa])


def test_longmemeval_rules_on_inline_samples():
    sample = _lme(
        [
            ("noise_1", [("user", None), ("assistant", None)]),
            (
                "answer_a_1",
                [("assistant", True), ("user", False), ("assistant", False), ("user", True)],
            ),  # turn 4 relevant
            ("answer_a_2", [("user", False), ("assistant", True)]),  # only an assistant turn: not relevant
            ("answer_a_3", [("user", None)]),  # has_answer missing: not relevant
        ]
    )
    rel = sample.relevance(sample.qa_pairs[0])
    assert rel == Relevance(sessions=["answer_a_1"], turns=["answer_a_1_4"], evaluable=True)
    assert sample.candidates("turn") == ["noise_1_1", "answer_a_1_2", "answer_a_1_4", "answer_a_2_1", "answer_a_3_1"]
    assert sample.candidates("session") == ["noise_1", "answer_a_1", "answer_a_2", "answer_a_3"]
    only_assistant = _lme([("answer_b_1", [("user", False), ("assistant", True)])])
    assert only_assistant.relevance(only_assistant.qa_pairs[0]) == Relevance([], [], False, "no has_answer user turn")
    abstention = _lme([("answer_c_1", [("user", True)])], qid="c_abs")
    assert abstention.relevance(abstention.qa_pairs[0]) == Relevance(
        ["answer_c_1"], ["answer_c_1_1"], False, "abstention"
    )


def test_bad_granularity_and_dataset():
    sample = _lme([("answer_a_1", [("user", True)])])
    with pytest.raises(ConfigurationError, match="granularity: expected 'session' or 'turn', got 'word'"):
        sample.candidates("word")
    with pytest.raises(ConfigurationError, match="granularity"):
        sample.relevance(sample.qa_pairs[0]).ids("word")
    qa = QAPair("0", "?", "a", QuestionType.TEMPORAL)
    other = Sample("x", "other", [], [qa])
    with pytest.raises(ConfigurationError, match="got dataset 'other'"):
        other.relevance(qa)
