"""``himga validate``: exact findings on the real locomo10.json and the two shared LongMemEval oracle files."""

from __future__ import annotations

import json
import os
import re

import pytest

from himga.cli import main
from himga.errors import SourceFormatError
from himga.validate import format_report, validate

LOCOMO_COUNTS = {
    "malformed_evidence": 6,
    "non_id_evidence": 1,
    "evidence_changed": 8,
    "empty_evidence": 4,
    "unparseable_date": 0,
    "date_without_session": 16,
    "generated_sample_id": 0,
    "blank_text": 0,
    "dangling_evidence": 2,
    "duplicate_question": 12,
    "duplicate_turn_id": 0,
    "third_speaker": 0,
}


@pytest.fixture(scope="module")
def locomo_report(shared_data):
    return validate("locomo", data_dir=shared_data / "locomo")


def _of(report, kind):
    return [(f.sample_id, f.where, f.detail) for f in report.findings if f.kind == kind]


def test_locomo_counts(locomo_report):
    assert locomo_report.counts == LOCOMO_COUNTS
    assert (locomo_report.files, locomo_report.samples) == (["locomo10.json"], 10)


def test_locomo_malformed_evidence_and_what_it_normalizes_to(locomo_report):
    assert _of(locomo_report, "malformed_evidence") == [
        ("conv-26", "QA 37", "'D8:6; D9:17' -> D8:6, D9:17"),
        ("conv-43", "QA 18", "'D:11:26' -> D11:26"),
        ("conv-49", "QA 31", "'D9:1 D4:4 D4:6' -> D9:1, D4:4, D4:6"),
        ("conv-49", "QA 38", "'D22:1 D22:2 D9:10 D9:11' -> D22:1, D22:2, D9:10, D9:11"),
        ("conv-49", "QA 46", "'D21:18 D21:22 D11:15 D11:19' -> D21:18, D21:22, D11:15, D11:19"),
        ("conv-50", "QA 69", "'D30:05' -> D30:5"),
    ]
    assert _of(locomo_report, "non_id_evidence") == [("conv-42", "QA 88", "'D' -> dropped")]


def test_locomo_changed_empty_and_dangling_evidence(locomo_report):
    assert [(s, w) for s, w, _ in _of(locomo_report, "evidence_changed")] == [
        ("conv-26", "QA 37"),
        ("conv-42", "QA 88"),
        ("conv-43", "QA 18"),
        ("conv-49", "QA 31"),
        ("conv-49", "QA 38"),
        ("conv-49", "QA 46"),
        ("conv-50", "QA 5"),
        ("conv-50", "QA 69"),
    ]
    assert ("conv-50", "QA 5", "['D4:5', 'D4:5', 'D5:5'] -> ['D4:5', 'D5:5']") in _of(locomo_report, "evidence_changed")
    assert _of(locomo_report, "empty_evidence") == [
        ("conv-26", "QA 30", "evidence: []"),
        ("conv-26", "QA 46", "evidence: []"),
        ("conv-50", "QA 39", "evidence: []"),
        ("conv-50", "QA 42", "evidence: []"),
    ]
    assert _of(locomo_report, "dangling_evidence") == [("conv-42", "QA 58", "D10:19"), ("conv-47", "QA 38", "D4:36")]


def test_locomo_duplicate_questions_and_dates_without_sessions(locomo_report):
    duplicates = _of(locomo_report, "duplicate_question")
    assert len(duplicates) == 12
    assert sum(s == "conv-48" for s, _, _ in duplicates) == 11
    assert duplicates[0] == ("conv-30", "QA 61, 95", "'What did Gina receive from a dance contest?'")
    dates = _of(locomo_report, "date_without_session")
    assert {s for s, _, _ in dates} == {"conv-26"}
    assert [w for _, w, _ in dates] == [f"session {n}" for n in range(20, 36)]
    assert dates[0] == ("conv-26", "session 20", "session_20_date_time = '4:10 pm on 26 October, 2023', no turns")


def test_cli_table_and_json(shared_data, tmp_path, capsys):
    out_json = tmp_path / "findings.json"
    source = shared_data / "locomo" / "locomo10.json"
    before = (os.path.getmtime(source), os.path.getsize(source))
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo"), "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("himga validate locomo: locomo10.json (10 samples)\n")
    assert "  malformed evidence strings (shown with what they normalize to)       6\n" in out
    assert "  dates without sessions                                              16\n" in out
    assert "  conv-42  QA 58  D10:19\n" in out
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["counts"] == LOCOMO_COUNTS
    assert len(report["findings"]) == sum(LOCOMO_COUNTS.values()) == 49
    assert report["findings"][0] == {
        "kind": "malformed_evidence",
        "sample_id": "conv-26",
        "where": "QA 37",
        "detail": "'D8:6; D9:17' -> D8:6, D9:17",
    }
    assert (os.path.getmtime(source), os.path.getsize(source)) == before  # nothing changed


def test_cli_json_output_is_checked_before_the_work(shared_data, tmp_path, capsys):
    """As every writing command (himga.run.check_outputs): a missing folder or a source file is refused at once."""
    missing = tmp_path / "nowhere" / "v.json"
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo"), "--json", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"himga: error: --json {str(missing)!r}: folder {str(missing.parent)!r} does not exist\n")
    source = shared_data / "locomo" / "locomo10.json"
    assert main(["validate", "locomo", "--data-dir", str(source), "--json", str(source)]) == 2
    assert capsys.readouterr().err.startswith(f"himga: error: --json {str(source)!r} is the source file ")


def test_cli_json_to_stdout_only(shared_data, capsys):
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo" / "locomo10.json"), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["counts"], report["config"]) == (LOCOMO_COUNTS, "default")  # the config as himga stats names it


def test_the_config_is_the_one_the_build_resolves(shared_data):
    oracle = validate(
        "longmemeval", data_dir=shared_data / "longmemeval" / "longmemeval_oracle_pair.json", config="oracle"
    )
    assert oracle.config == "oracle"
    assert format_report(oracle).startswith(
        "himga validate longmemeval (oracle): longmemeval_oracle_pair.json (2 samples)"
    )


def test_a_third_speaker_is_reported(tmp_path):
    record = {
        "sample_id": "s1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "hi"},
                {"speaker": "Mallory", "dia_id": "D1:2", "text": "psst"},
                {"speaker": "Mallory", "dia_id": "D1:3", "text": "again"},
            ],
        },
        "qa": [],
    }
    (tmp_path / "locomo10.json").write_text(json.dumps([record]), encoding="utf-8")
    report = validate("locomo", data_dir=tmp_path)
    assert _of(report, "third_speaker") == [("s1", "", "'Mallory' on 2 messages (speakers 'Ann' and 'Bob')")]


def test_blank_questions_answers_and_turns_are_reported(tmp_path):
    record = {
        "sample_id": "s1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "hi"},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "   "},
            ],
        },
        "qa": [
            {"question": "", "answer": "hi", "evidence": ["D1:1"], "category": 4},
            {"question": "What?", "answer": " ", "evidence": ["D1:1"], "category": 4},
            {"question": "Who?", "answer": 2022, "evidence": ["D1:1"], "category": 4},
        ],
    }
    (tmp_path / "locomo10.json").write_text(json.dumps([record]), encoding="utf-8")
    report = validate("locomo", data_dir=tmp_path)
    assert _of(report, "blank_text") == [
        ("s1", "turn D1:2", "text '   '"),
        ("s1", "QA 0", "question ''"),
        ("s1", "QA 1", "answer ' '"),
    ]
    assert re.search(r"\n  blank questions, gold answers or turn texts +3\n", format_report(report))


def test_validate_writes_no_cache(shared_data, tmp_path, monkeypatch):
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    validate("locomo", data_dir=shared_data / "locomo")
    assert not (tmp_path / "hf").exists()


def test_longmemeval_oracle_sample(shared_data):
    report = validate("longmemeval", "oracle", data_dir=shared_data / "longmemeval" / "longmemeval_oracle_sample.json")
    assert report.samples == 97
    assert report.counts == {
        "session_after_question": 14,
        "not_chronological": 8,
        "duplicate_session_id": 0,
        "blank_turn": 0,
        "unknown_role": 0,
        "answer_session_without_has_answer": 7,
        "answer_session_not_in_haystack": 0,
        "unparseable_date": 0,
        "unknown_question_type": 0,
        "dangling_evidence": 0,
        "duplicate_question": 0,
        "duplicate_turn_id": 0,
    }
    assert _of(report, "session_after_question")[0] == (
        "gpt4_78cf46a3",
        "session answer_5a78688d_2",
        "2023/05/29 (Mon) 10:14 > question 2023/05/29 (Mon) 09:14",
    )


def test_longmemeval_oracle_pair(shared_data):
    report = validate("longmemeval", "oracle", data_dir=shared_data / "longmemeval" / "longmemeval_oracle_pair.json")
    assert _of(report, "not_chronological") == [("gpt4_2655b836", "", "1 of 3 sessions dated before the previous one")]
    assert _of(report, "answer_session_without_has_answer") == [
        ("gpt4_2655b836", "session answer_4be1b6b4_1", "12 turns, none with has_answer: true"),
        ("09ba9854_abs", "session answer_96c743d0_abs_2", "12 turns, none with has_answer: true"),
    ]
    assert sum(report.counts.values()) == 3


def _question(qid="q1", **changes):
    q = {
        "question_id": qid,
        "question_type": "multi-session",
        "question": "Where?",
        "answer": "Paris",
        "question_date": "2023/05/20 (Sat) 10:00",
        "haystack_dates": ["2023/05/01 (Mon) 09:00", "2023/04/01 (Sat) 09:00", "2023/05/30 (Tue) 09:00"],
        "haystack_session_ids": ["a", "b", "a"],
        "haystack_sessions": [
            [{"role": "user", "content": "hi", "has_answer": True}],
            [{"role": "user", "content": "  "}, {"role": "assistant", "content": ""}],
            [{"role": "user", "content": "bye"}, {"role": "robot", "content": "beep"}],
        ],
        "answer_session_ids": ["b", "zz"],
    }
    q.update(changes)
    return q


def test_longmemeval_rules_on_a_handwritten_question(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps([_question(), _question("q2", haystack_dates=["x", "2023/04/01 (Sat) 09:00", None])]))
    report = validate("longmemeval", "oracle", data_dir=path)
    assert report.counts == {
        "session_after_question": 1,
        "not_chronological": 1,
        "duplicate_session_id": 2,
        "blank_turn": 4,
        "unknown_role": 2,
        "answer_session_without_has_answer": 2,
        "answer_session_not_in_haystack": 2,
        "unparseable_date": 1,
        "unknown_question_type": 0,
        "dangling_evidence": 0,
        "duplicate_question": 0,
        "duplicate_turn_id": 0,
    }
    assert _of(report, "session_after_question") == [
        ("q1", "session a", "2023/05/30 (Tue) 09:00 > question 2023/05/20 (Sat) 10:00")
    ]
    assert _of(report, "blank_turn")[:2] == [
        ("q1", "session b turn 0", "haystack_sessions[1][0] user: '  '"),
        ("q1", "session b turn 1", "haystack_sessions[1][1] assistant: ''"),
    ]
    assert _of(report, "unparseable_date")[0][:2] == ("q2", "session a")
    assert _of(report, "unknown_role")[0] == ("q1", "session a turn 1", "haystack_sessions[2][1].role 'robot'")


def test_malformed_source_gets_the_build_error(tmp_path, capsys):
    bad = tmp_path / "locomo10.json"
    bad.write_text("[{", encoding="utf-8")
    with pytest.raises(SourceFormatError):
        validate("locomo", data_dir=bad)
    assert main(["validate", "locomo", "--data-dir", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("himga: error: locomo10.json: $: invalid JSON at line 1 column 3")


def test_duplicate_turn_and_sample_ids(tmp_path):
    conversation = {
        "speaker_a": "A",
        "speaker_b": "B",
        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "x"}, {"speaker": "B", "dia_id": "D1:1", "text": "y"}],
    }
    record = {
        "sample_id": "conv-1",
        "conversation": conversation,
        "qa": [{"question": "q?", "answer": "a", "evidence": ["D1:1"], "category": 4}],
    }
    path = tmp_path / "dup.json"
    path.write_text(json.dumps([record]))
    report = validate("locomo", data_dir=path)
    assert _of(report, "duplicate_turn_id") == [("conv-1", "", "D1:1 on 2 messages")]
    path.write_text(json.dumps([record, record]))  # a sample id twice is a source error, not a finding
    with pytest.raises(
        SourceFormatError, match=r"^dup\.json: \$\[1\]\.sample_id: sample conv-1 is also at \$\[0\]\.sample_id"
    ):
        validate("locomo", data_dir=path)


def test_validate_says_a_first_release_is_superseded(shared_data, tmp_path, capsys):
    """``himga validate longmemeval --config m_original`` prints the note ``score`` and ``stats`` print: the cleaned
    release replaces it (issue 36; the note was missing here only)."""
    first_release = tmp_path / "longmemeval_m"
    first_release.write_bytes((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_bytes())
    assert main(["validate", "longmemeval", "--config", "m_original", "--data-dir", str(first_release)]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: m_original is the first release; the authors' cleaned release (2025-09, xiaowu0162/LongMemEval#13) "
        "removed haystack sessions that changed answers: config 'm' is the one to score on"
    ]
