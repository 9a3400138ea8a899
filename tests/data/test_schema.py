"""The dataclasses are exactly the seed's public API (names, order, types, defaults)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from himga.data import EvidenceRef, Message, QAPair, QuestionType, Sample, Session


def _signature(cls):
    out = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = "<required>"
        out.append((f.name, f.type, default))
    return out


@pytest.mark.parametrize(
    ("cls", "expected"),
    [
        (
            Message,
            [
                ("role", "str", "<required>"),
                ("content", "str", "<required>"),
                ("turn_id", "str | None", None),
                ("date_str", "str | None", None),
                ("raw", "dict", {}),
            ],
        ),
        (
            Session,
            [
                ("session_id", "str", "<required>"),
                ("messages", "list[Message]", "<required>"),
                ("date_str", "str | None", None),
                ("title", "str | None", None),
            ],
        ),
        (EvidenceRef, [("turn_ids", "list[str]", []), ("session_ids", "list[str]", [])]),
        (
            QAPair,
            [
                ("question_id", "str", "<required>"),
                ("question", "str", "<required>"),
                ("answer", "str", "<required>"),
                ("question_type", "QuestionType", "<required>"),
                ("evidence", "EvidenceRef", EvidenceRef()),
                ("raw", "dict", {}),
                ("position", "int | None", None),  # trailing fields only (issue 37: PersonaMem asks mid-history)
                ("options", "list[str]", []),
            ],
        ),
        (
            Sample,
            [
                ("sample_id", "str", "<required>"),
                ("dataset", "str", "<required>"),
                ("sessions", "list[Session]", "<required>"),
                ("qa_pairs", "list[QAPair]", "<required>"),
                ("speaker_a", "str | None", None),
                ("speaker_b", "str | None", None),
                ("raw", "dict", {}),
            ],
        ),
    ],
)
def test_fields_names_order_types_defaults(cls, expected):
    assert _signature(cls) == expected


def test_default_factories_are_not_shared():
    a, b = EvidenceRef(), EvidenceRef()
    a.turn_ids.append("D1:1")
    assert b.turn_ids == []


def test_question_type_members_and_values():
    assert {m.name: m.value for m in QuestionType} == {
        "SINGLE_HOP": "single_hop",
        "MULTI_HOP": "multi_hop",
        "TEMPORAL": "temporal",
        "OPEN_DOMAIN": "open_domain",
        "ADVERSARIAL": "adversarial",
        "SINGLE_SESSION_PREFERENCE": "single_session_preference",
        "SINGLE_SESSION_ASSISTANT": "single_session_assistant",
        "TEMPORAL_REASONING": "temporal_reasoning",
        "MULTI_SESSION": "multi_session",
        "KNOWLEDGE_UPDATE": "knowledge_update",
        "SINGLE_SESSION_USER": "single_session_user",
        "ABSTENTION": "abstention",
        "CONTRADICTION_RESOLUTION": "contradiction_resolution",
        "EVENT_ORDERING": "event_ordering",
        "INFORMATION_EXTRACTION": "information_extraction",
        "INSTRUCTION_FOLLOWING": "instruction_following",
        "MULTI_SESSION_REASONING": "multi_session_reasoning",
        "PREFERENCE_FOLLOWING": "preference_following",
        "SUMMARIZATION": "summarization",
        "COGNITIVE": "cognitive",
        "RECALL_USER_SHARED_FACTS": "recall_user_shared_facts",
        "PROVIDE_PREFERENCE_ALIGNED_RECOMMENDATIONS": "provide_preference_aligned_recommendations",
        "SUGGEST_NEW_IDEAS": "suggest_new_ideas",
        "RECALLING_THE_REASONS_BEHIND_PREVIOUS_UPDATES": "recalling_the_reasons_behind_previous_updates",
        "TRACK_FULL_PREFERENCE_EVOLUTION": "track_full_preference_evolution",
        "GENERALIZING_TO_NEW_SCENARIOS": "generalizing_to_new_scenarios",
        "RECALLING_FACTS_MENTIONED_BY_THE_USER": "recalling_facts_mentioned_by_the_user",
    }


def test_question_type_behaves_as_its_value():
    t = QuestionType.TEMPORAL
    assert t == "temporal"
    assert str(t) == "temporal"
    assert f"{t}" == "temporal"
    assert json.dumps(t) == '"temporal"'
    assert json.dumps({"t": t}) == '{"t": "temporal"}'


def test_plain_dataclass_equality():
    m = Message("Caroline", "hi", "D1:1")
    assert m == Message(role="Caroline", content="hi", turn_id="D1:1", date_str=None, raw={})
    assert m != Message("Caroline", "hi", "D1:2")


@pytest.mark.parametrize(
    ("qid", "qtype", "expected"),
    [
        ("0", QuestionType.ADVERSARIAL, True),
        ("0", QuestionType.TEMPORAL, False),
        ("09ba9854_abs", QuestionType.TEMPORAL_REASONING, True),
        ("gpt4_2655b836", QuestionType.TEMPORAL_REASONING, False),
    ],
)
def test_is_abstention(qid, qtype, expected):
    assert QAPair(qid, "q?", "a", qtype).is_abstention is expected


def test_repr_fits_a_screen_and_the_content_is_one_call_away(locomo_samples):
    """Issue 17 §11: repr(sample) was ~245,000 characters for one LoCoMo sample; now ids and counts."""
    sample = locomo_samples[0]
    assert repr(sample) == (
        "Sample(sample_id='conv-26', dataset='locomo', sessions=19, messages=419, qa_pairs=199, "
        "speakers=('Caroline', 'Melanie'))"
    )
    assert repr(sample.sessions[0]) == "Session(session_id='1', date_str='1:56 pm on 8 May, 2023', messages=18)"
    assert max(len(repr(s)) for s in locomo_samples) < 160
    full = dataclasses.asdict(sample)
    # 249,729 before QAPair's position and options (199 QA pairs x 33 characters more)
    assert len(full["sessions"][0]["messages"]) == 18 and len(str(full)) == 256296
    lme = Sample(
        "q1_abs",
        "longmemeval",
        [Session("s1", [Message("user", "hi")], "2023/05/20 (Sat) 02:21")],
        [QAPair("q1_abs", "q?", "a", QuestionType.TEMPORAL_REASONING)],
    )
    assert repr(lme) == "Sample(sample_id='q1_abs', dataset='longmemeval', sessions=1, messages=1, qa_pairs=1)"
    assert sample == dataclasses.replace(sample)  # equality still compares every field
