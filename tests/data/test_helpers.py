"""The seed's recipes as helpers (himga.schema.helpers and the Sample methods): exact values on real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import himga_locomo
from himga.data import (
    EvidenceRef,
    Message,
    QAPair,
    QuestionType,
    Sample,
    Session,
    answer_sessions,
    evidence_messages,
    evidence_sessions,
    iter_messages,
    noise_sessions,
    qa_by_type,
)
from himga.errors import ConfigurationError

LONGMEMEVAL_BUILDER = Path(himga_locomo.__file__).resolve().parents[1] / "himga_longmemeval" / "longmemeval.py"


def _haystack() -> Sample:
    """A LongMemEval-shaped sample: one needle session, repeated once, and two filler sessions."""
    sessions = [
        Session("noise_a", [Message("user", "a")], "2023/05/01 (Mon) 10:00"),
        Session("answer_1", [Message("user", "b", raw={"has_answer": True}), Message("assistant", "c")]),
        Session("noise_b", [Message("user", "d")]),
        Session("answer_1", [Message("user", "e")]),
    ]
    qa = QAPair("q1", "?", "b", QuestionType.MULTI_SESSION, EvidenceRef(session_ids=["answer_1"]))
    return Sample("q1", "longmemeval", sessions, [qa])


def test_haystack_split_and_order():
    sample = _haystack()
    assert [s.session_id for s in answer_sessions(sample)] == ["answer_1", "answer_1"]
    assert [s.session_id for s in noise_sessions(sample)] == ["noise_a", "noise_b"]
    assert evidence_sessions(sample, sample.qa_pairs[0]) == answer_sessions(sample)
    assert evidence_messages(sample, sample.qa_pairs[0]) == []
    assert [(s.session_id, m.content) for s, m in iter_messages(sample)] == [
        ("noise_a", "a"),
        ("answer_1", "b"),
        ("answer_1", "c"),
        ("noise_b", "d"),
        ("answer_1", "e"),
    ]


def test_sample_methods_delegate():
    sample = _haystack()
    qa = sample.qa_pairs[0]
    assert sample.answer_sessions() == answer_sessions(sample)
    assert sample.noise_sessions() == noise_sessions(sample)
    assert sample.evidence_sessions(qa) == evidence_sessions(sample, qa)
    assert sample.evidence_messages(qa) == []
    assert list(sample.iter_messages()) == list(iter_messages(sample))


def test_qa_by_type_rejects_unknown_types():
    with pytest.raises(ConfigurationError, match="unknown question type 'when'"):
        qa_by_type([_haystack()], "when")


# --- LoCoMo ---------------------------------------------------------------------------------------


def test_locomo_conv26_qa0_evidence(locomo_samples):
    conv26 = locomo_samples[0]
    qa = conv26.qa_pairs[0]
    assert qa.question_id == "0"
    messages = evidence_messages(conv26, qa)
    assert [(m.turn_id, m.role) for m in messages] == [("D1:3", "Caroline")]
    assert messages[0].content == "I went to a LGBTQ support group yesterday and it was so powerful."
    assert conv26.evidence_messages(qa) == messages
    assert evidence_sessions(conv26, qa) == []  # LoCoMo cites turns, not sessions


def test_locomo_evidence_over_all_questions(locomo_samples):
    pairs = [(s, qa) for s in locomo_samples for qa in s.qa_pairs]
    cited = sum(len(qa.evidence.turn_ids) for _, qa in pairs)
    found = sum(len(evidence_messages(s, qa)) for s, qa in pairs)
    assert (cited, found) == (2822, 2820)  # conv-42 QA 58 cites D10:19, conv-47 QA 38 cites D4:36: no such turns
    dangling = [
        (s.sample_id, qa.question_id) for s, qa in pairs if len(evidence_messages(s, qa)) < len(qa.evidence.turn_ids)
    ]
    assert dangling == [("conv-42", "58"), ("conv-47", "38")]
    # every LoCoMo session is cited by some evidence turn: 272 answer sessions, no noise
    assert sum(len(answer_sessions(s)) for s in locomo_samples) == 272
    assert all(noise_sessions(s) == [] for s in locomo_samples)


def test_locomo_answer_sessions_come_from_evidence_turns():
    sessions = [Session("1", [Message("A", "x", "D1:1")]), Session("2", [Message("B", "y", "D2:1")]), Session("3", [])]
    qa = QAPair("0", "?", "x", QuestionType.SINGLE_HOP, EvidenceRef(turn_ids=["D1:1"]))
    dangling = QAPair("1", "?", "z", QuestionType.MULTI_HOP, EvidenceRef(turn_ids=["D3:4"]))
    sample = Sample("conv-x", "locomo", sessions, [qa, dangling])
    assert [s.session_id for s in answer_sessions(sample)] == ["1", "3"]  # D3:4 names session 3, no such turn
    assert [s.session_id for s in noise_sessions(sample)] == ["2"]


def test_locomo_iter_messages_and_qa_by_type(locomo_samples):
    conv26 = locomo_samples[0]
    flat = list(iter_messages(conv26))
    assert len(flat) == 419
    assert (flat[0][0].session_id, flat[0][1].turn_id) == ("1", "D1:1")
    assert (flat[-1][0].session_id, flat[-1][1].turn_id) == ("19", "D19:15")
    assert sum(1 for s in locomo_samples for _ in iter_messages(s)) == 5882
    temporal = qa_by_type(locomo_samples, QuestionType.TEMPORAL)
    assert len(temporal) == 321
    assert qa_by_type(locomo_samples, "temporal") == temporal
    assert (temporal[0][0].sample_id, temporal[0][1].question_id) == ("conv-26", "0")
    assert {t: len(qa_by_type(locomo_samples, t)) for t in QuestionType} == {
        "single_hop": 841,
        "multi_hop": 282,
        "temporal": 321,
        "open_domain": 96,
        "adversarial": 446,
        "single_session_preference": 0,
        "single_session_assistant": 0,
        "temporal_reasoning": 0,
        "multi_session": 0,
        "knowledge_update": 0,
        "single_session_user": 0,
        "abstention": 0,
        "contradiction_resolution": 0,
        "event_ordering": 0,
        "information_extraction": 0,
        "instruction_following": 0,
        "multi_session_reasoning": 0,
        "preference_following": 0,
        "summarization": 0,
        "cognitive": 0,
        **dict.fromkeys(
            [t for t in QuestionType if t.value.startswith(("recall", "provide", "suggest", "track", "general"))], 0
        ),  # PersonaMem's seven
    }


# --- LongMemEval ----------------------------------------------------------------------------------


def test_longmemeval_oracle_pair_answer_sessions(shared_data, tmp_path):
    if not LONGMEMEVAL_BUILDER.is_file():
        pytest.skip(f"the LongMemEval builder ({LONGMEMEVAL_BUILDER.name}) is not in this checkout yet")
    from himga.data import load_longmemeval

    path = shared_data / "longmemeval" / "longmemeval_oracle_pair.json"
    raw = {q["question_id"]: q for q in json.loads(path.read_text())}
    samples = {s.sample_id: s for s in load_longmemeval(path, config="oracle", cache_dir=tmp_path)}
    sample = samples["gpt4_2655b836"]
    (qa,) = sample.qa_pairs
    expected = raw["gpt4_2655b836"]["answer_session_ids"]
    assert expected == ["answer_4be1b6b4_2", "answer_4be1b6b4_3", "answer_4be1b6b4_1"]
    assert [s.session_id for s in evidence_sessions(sample, qa)] == expected
    assert [s.session_id for s in answer_sessions(sample)] == expected
    assert noise_sessions(sample) == []  # the oracle haystack holds only the answer sessions
    assert [len(s.messages) for s in sample.answer_sessions()] == [12, 12, 12]
    assert sum(1 for _ in sample.iter_messages()) == 36
    assert evidence_messages(sample, qa) == []


def test_a_qa_pair_of_another_sample_is_refused(locomo_samples):
    """Its evidence would be looked up among this sample's turns: a silent wrong answer."""
    import copy

    from himga.errors import ConfigurationError

    sample, other = locomo_samples[2], locomo_samples[3]
    for ask in (
        lambda qa: sample.evidence_messages(qa),
        lambda qa: sample.evidence_sessions(qa),
        lambda qa: sample.relevance(qa),
    ):
        with pytest.raises(
            ConfigurationError,
            match=r"^QA pair '0' is not among the QA pairs of sample 'conv-41': ask the sample it belongs to$",
        ):
            ask(other.qa_pairs[0])
    assert sample.relevance(copy.deepcopy(sample.qa_pairs[0])) == sample.relevance(
        sample.qa_pairs[0]
    )  # an equal copy is its own
