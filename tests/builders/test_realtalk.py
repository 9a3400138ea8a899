"""The himga_realtalk builder on the real files: exact values measured on them, LoCoMo's record rules with REALTALK's
field names, every message dated, and every evidence reference that names no turn listed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from himga.data import load_dataset
from himga.errors import SourceFormatError
from himga.validate import validate
from himga_realtalk.records import normalize_evidence
from himga_realtalk.source_record import sample_to_record
from himga_realtalk.validate_rules import unresolved

IDS = [
    "Chat_1_Emi_Elise",
    "Chat_2_Kevin_Elise",
    "Chat_3_Kevin_Paola",
    "Chat_4_Emi_Paola",
    "Chat_5_Nicolas_Nebraas",
    "Chat_6_Vanessa_Nicolas",
    "Chat_7_Nebraas_Vanessa",
    "Chat_8_Akib_Muhhamed",
    "Chat_9_Fahim_Akib",
    "Chat_10_Fahim_Muhhamed",
]
#: Per conversation: (sessions, messages, QA pairs, evidence strings, strings naming no dia_id, of those resolved by
#: normalization).
MEASURED = {
    "Chat_1_Emi_Elise": (18, 476, 70, 172, 29, 1),
    "Chat_2_Kevin_Elise": (22, 453, 73, 131, 3, 0),
    "Chat_3_Kevin_Paola": (21, 422, 71, 166, 2, 0),
    "Chat_4_Emi_Paola": (20, 410, 70, 173, 1, 0),
    "Chat_5_Nicolas_Nebraas": (23, 1548, 76, 247, 17, 0),
    "Chat_6_Vanessa_Nicolas": (25, 1511, 70, 118, 17, 17),
    "Chat_7_Nebraas_Vanessa": (25, 1162, 72, 135, 7, 1),
    "Chat_8_Akib_Muhhamed": (23, 1044, 71, 280, 51, 5),
    "Chat_9_Fahim_Akib": (22, 1256, 70, 174, 38, 0),
    "Chat_10_Fahim_Muhhamed": (20, 662, 85, 146, 23, 20),
}


@pytest.fixture(scope="module")
def samples(realtalk_samples):
    return realtalk_samples


def test_conversations_in_chat_order(samples):
    assert [s.sample_id for s in samples] == IDS
    assert {s.dataset for s in samples} == {"realtalk"}
    assert [(s.speaker_a, s.speaker_b) for s in samples[:2]] == [("Emi", "elise"), ("Kevin", "elise")]


def test_counts_per_conversation(samples):
    measured = {}
    for s in samples:
        found = list(unresolved(s))
        measured[s.sample_id] = (
            len(s.sessions),
            sum(len(x.messages) for x in s.sessions),
            len(s.qa_pairs),
            sum(len(qa.raw["evidence"]) for qa in s.qa_pairs),
            len(found),
            sum(1 for _, _, ids, dangling in found if ids and not dangling),
        )
    assert measured == MEASURED
    assert [sum(v[i] for v in measured.values()) for i in range(6)] == [219, 8944, 728, 1742, 188, 44]


def test_categories_as_the_authors_code_names_them(samples):
    qas = [qa for s in samples for qa in s.qa_pairs]
    assert Counter(qa.raw["category"] for qa in qas) == {2: 319, 1: 301, 3: 108}
    assert Counter(qa.question_type.value for qa in qas) == {"temporal": 319, "multi_hop": 301, "open_domain": 108}
    assert all(qa.answer == qa.raw["answer"] and not qa.is_abstention for qa in qas)


def test_every_message_has_its_date(samples):
    messages = [(session, m) for s in samples for session in s.sessions for m in session.messages]
    assert len(messages) == 8944 and all(m.date_str for _, m in messages)
    first = samples[0].sessions[0]
    assert (first.messages[0].date_str, first.date_str, first.datetime.isoformat()) == (
        "29.12.2023, 22:42:04",
        "29.12.2023, 22:42:04",
        "2023-12-29T22:42:04",
    )
    assert all(session.messages[0].date_str == session.date_str for s in samples for session in s.sessions)
    captioned = [m for _, m in messages if "blip_caption" in m.raw]
    assert len(captioned) == 313 and all(m.content.startswith(f"[Image: {m.raw['blip_caption']}]") for m in captioned)


def test_the_day_numbered_ids_and_their_sessions(samples):
    chat1 = samples[0]
    session4 = chat1.sessions[3]
    assert (session4.session_id, session4.messages[0].turn_id, session4.messages[-1].turn_id) == ("4", "D3:30", "D3:73")
    qas = {qa.question_id: qa for qa in chat1.qa_pairs}
    rel = chat1.relevance(qas["16"])
    assert (qas["16"].evidence.turn_ids, qas["16"].evidence.session_ids) == (
        ["D3:32", "D4:2"],
        ["4", "5"],
    )  # the sessions holding them
    assert rel.sessions == ["4", "5"]
    rel = chat1.relevance(qas["8"])
    assert (rel.turns, rel.sessions, rel.dangling) == (
        ["D2:7", "D2:14", "D2:16"],
        ["2"],
        ["D2:7"],
    )  # no turn, no session


def test_the_normalization_rule():
    assert normalize_evidence(["D1:11; D3:18", "D20:17.", "D13:4. D14:4", "D 2:18", "D12:3-D12:5", "D5:12;D5:16"]) == [
        "D1:11",
        "D3:18",
        "D20:17",
        "D13:4",
        "D14:4",
        "D2:18",
        "D12:3",
        "D12:4",
        "D12:5",
        "D5:12",
        "D5:16",
    ]
    assert [
        normalize_evidence([s]) for s in ("", "D58", "D:56", "D17;39", "23:29", "D13:45:D20:19", "D1:1-D1:900")
    ] == [[]] * 7


def test_validate_lists_every_unresolved_reference(shared_data):
    report = validate("realtalk", data_dir=shared_data / "realtalk")
    assert report.samples == 10
    assert report.counts == {
        "unresolved_evidence": 188,
        "malformed_evidence": 46,
        "non_id_evidence": 8,
        "evidence_changed": 46,
        "empty_evidence": 2,
        "unparseable_date": 0,
        "message_date_order": 0,
        "dangling_evidence": 136,
        "duplicate_question": 1,
        "duplicate_turn_id": 0,
        "third_speaker": 0,
    }
    per = Counter(f.sample_id for f in report.findings if f.kind == "unresolved_evidence")
    assert per == {k: v[4] for k, v in MEASURED.items()}
    details = [f.detail for f in report.findings if f.kind == "unresolved_evidence"]
    assert details[:2] == ["'D2:7' -> D2:7; no turn: D2:7", "'D2:7' -> D2:7; no turn: D2:7"]
    assert "'D12:3-D12:5' -> D12:3, D12:4, D12:5 (resolved)" in details and "'' -> no turn id" in details


def test_a_source_record_is_rebuilt(samples, shared_data):
    for s in samples:
        assert sample_to_record(s) == json.loads(
            (shared_data / "realtalk" / f"{s.sample_id}.json").read_text(encoding="utf-8")
        )


def test_bad_input_names_the_file_and_the_record_path(shared_data, tmp_path):
    record = json.loads((shared_data / "realtalk" / "Chat_4_Emi_Paola.json").read_text(encoding="utf-8"))
    cases = [
        (
            lambda r: r["session_3"][5].pop("clean_text"),
            "Chat_4_Emi_Paola.json: $.session_3[5]: missing required key 'clean_text'",
        ),
        (
            lambda r: r["session_2"][0].update(date_time=7),
            "Chat_4_Emi_Paola.json: $.session_2[0].date_time: expected string, got number",
        ),
        (lambda r: r["qa"][9].update(category=7), "Chat_4_Emi_Paola.json: $.qa[9].category: expected 1-5, got 7"),
        (lambda r: r.pop("name"), "Chat_4_Emi_Paola.json: $: missing required key 'name'"),
    ]
    for n, (spoil, message) in enumerate(cases):
        folder = tmp_path / str(n)
        folder.mkdir()
        bad = json.loads(json.dumps(record))
        spoil(bad)
        (folder / "Chat_4_Emi_Paola.json").write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(SourceFormatError) as e:
            load_dataset("realtalk", data_dir=folder, cache_dir=tmp_path / "c")
        assert str(e.value) == message


def test_an_unreadable_date_is_reported_and_kept(shared_data, tmp_path):
    """A message date and a session date that are no dates: validate names each (file, record path), the build keeps
    them."""
    for path in (shared_data / "realtalk").glob("Chat_*.json"):
        value = json.loads(path.read_text(encoding="utf-8"))
        if path.name == "Chat_6_Vanessa_Nicolas.json":
            value["session_1"][0]["date_time"] = "not a date"
            value["session_2_date_time"] = "soon"
        (tmp_path / path.name).write_text(json.dumps(value), encoding="utf-8")
    report = validate("realtalk", data_dir=tmp_path)
    found = [
        (f.sample_id, f.where, f.detail.split(" (known")[0]) for f in report.findings if f.kind == "unparseable_date"
    ]
    assert (report.counts["unparseable_date"], found) == (
        2,
        [
            (
                "Chat_6_Vanessa_Nicolas",
                "Chat_6_Vanessa_Nicolas.json: $.session_1[0].date_time",
                "cannot parse date 'not a date': not in a known format",
            ),
            (
                "Chat_6_Vanessa_Nicolas",
                "Chat_6_Vanessa_Nicolas.json: $.session_2_date_time",
                "cannot parse date 'soon': not in a known format",
            ),
        ],
    )
    chat = next(
        s
        for s in load_dataset("realtalk", data_dir=tmp_path, cache_dir=tmp_path / "c")
        if s.sample_id.startswith("Chat_6")
    )
    assert (chat.sessions[0].messages[0].date_str, chat.sessions[1].date_str) == ("not a date", "soon")


def test_locomo_session_dates_go_through_the_same_rule(tmp_path):
    from himga_locomo.validate_rules import findings as locomo_findings

    record = [
        {
            "sample_id": "conv-x",
            "conversation": {
                "speaker_a": "A",
                "speaker_b": "B",
                "session_1_date_time": "someday",
                "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
            },
            "qa": [],
        }
    ]
    (tmp_path / "locomo10.json").write_text(json.dumps(record), encoding="utf-8")
    sample = load_dataset("locomo", data_dir=tmp_path, cache_dir=tmp_path / "c")[0]
    assert sample.sessions[0].date_str == "someday"
    assert [(f.kind, f.where) for f in locomo_findings(sample)] == [
        ("unparseable_date", "$.conversation.session_1_date_time")
    ]
