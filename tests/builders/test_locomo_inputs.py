"""Input shapes the LoCoMo builder accepts (seed §4.2): list file, single-record file, folder, flat layout."""

from __future__ import annotations

import json

import pytest

from himga.data import load_locomo
from himga.errors import SourceFormatError
from himga_locomo.source_record import sample_to_record


def _record(sample_id: str | None = "conv-x", n_sessions: int = 2) -> dict:
    conversation = {"speaker_a": "Ann", "speaker_b": "Bob"}
    for n in range(1, n_sessions + 1):
        conversation[f"session_{n}_date_time"] = f"1:0{n} pm on {n} May, 2023"
        conversation[f"session_{n}"] = [
            {"speaker": "Ann", "dia_id": f"D{n}:1", "text": f"hello {n}"},
            {"speaker": "Bob", "dia_id": f"D{n}:2", "text": "", "blip_caption": "a cat", "query": "cat"},
        ]
    record = {
        "qa": [
            {"question": "When?", "answer": 2023, "evidence": ["D1:1"], "category": 2},
            {"question": "Bob's dog?", "adversarial_answer": "Rex", "evidence": [], "category": 5},
        ],
        "conversation": conversation,
        "event_summary": {"events_session_1": {"Ann": ["said hello"], "date": "1 May, 2023"}},
        "observation": {"session_1_observation": {"Ann": [["hello", "D1:1"]]}},
        "session_summary": {"session_1_summary": "They met."},
    }
    if sample_id is not None:
        record["sample_id"] = sample_id
    return record


def _write(path, value):
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def test_single_record_file(tmp_path):
    file = _write(tmp_path / "one.json", _record())
    (sample,) = load_locomo(file, cache_dir=tmp_path / "cache")
    assert sample.sample_id == "conv-x"
    assert [s.session_id for s in sample.sessions] == ["1", "2"]
    assert sample.sessions[1].messages[1].content == "[Image: a cat]"
    assert sample.qa_pairs[0].answer == "2023"
    assert sample.qa_pairs[1].answer == "Not mentioned in the conversation"
    assert sample_to_record(sample) == _record()


def test_folder_sorted_by_name_ignores_other_files_and_subfolders(tmp_path):
    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    _write(data / "b.json", [_record("conv-b1"), _record("conv-b2")])
    _write(data / "a.json", _record("conv-a"))
    _write(data / "sub" / "c.json", _record("conv-c"))
    (data / "notes.txt").write_text("not data")
    (data / "a.json.bak").write_text("{")
    samples = load_locomo(data, cache_dir=tmp_path / "cache")
    assert [s.sample_id for s in samples] == ["conv-a", "conv-b1", "conv-b2"]


def test_missing_sample_id_uses_a_running_index(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    _write(data / "a.json", [_record(None), _record("named")])
    _write(data / "b.json", _record(None))
    samples = load_locomo(data, cache_dir=tmp_path / "cache")
    assert [s.sample_id for s in samples] == ["0", "named", "2"]
    assert samples[0].raw["sample_id_generated"] is True
    assert sample_to_record(samples[0]) == _record(None)


def test_first_release_flat_layout(tmp_path):
    nested = _record()
    flat = {
        "sample_id": "conv-x",
        "qa": nested["qa"],
        **nested["conversation"],
        **nested["event_summary"],
        **nested["observation"],
        **nested["session_summary"],
    }
    (sample,) = load_locomo(_write(tmp_path / "flat.json", flat), cache_dir=tmp_path / "cache")
    (expected,) = load_locomo(_write(tmp_path / "nested.json", nested), cache_dir=tmp_path / "cache")
    assert sample.sessions == expected.sessions
    assert sample.qa_pairs == expected.qa_pairs
    assert sample.raw["layout"] == "flat"
    assert {k: sample.raw[k] for k in ("event_summary", "observation", "session_summary")} == {
        k: expected.raw[k] for k in ("event_summary", "observation", "session_summary")
    }
    assert sample.raw["event_summary"] == {"1": {"Ann": ["said hello"], "date": "1 May, 2023"}}
    assert sample_to_record(sample) == flat


def test_per_session_dicts_are_keyed_by_session_id(tmp_path):
    record = _record()
    record["event_summary"]["events_session_2"] = {"Ann": [], "date": "2 May, 2023"}
    record["event_summary"]["notes"] = "kept"  # not a per-session key: kept aside, rebuilt
    (sample,) = load_locomo(_write(tmp_path / "x.json", record), cache_dir=tmp_path / "cache")
    assert sample.raw["event_summary"] == {
        "1": {"Ann": ["said hello"], "date": "1 May, 2023"},
        "2": {"Ann": [], "date": "2 May, 2023"},
    }
    assert sample.raw["observation"] == {"1": {"Ann": [["hello", "D1:1"]]}}
    assert sample.raw["session_summary"] == {"1": "They met."}
    assert sample.raw["summary_extra"] == {"event_summary": {"notes": "kept"}}
    assert set(sample.raw["event_summary"]) <= {s.session_id for s in sample.sessions}
    assert sample_to_record(sample) == record


def test_per_session_dict_that_is_not_an_object_is_an_error(tmp_path):
    record = _record()
    record["observation"] = ["not", "an", "object"]
    with pytest.raises(SourceFormatError) as info:
        load_locomo(_write(tmp_path / "locomo10.json", [record]), cache_dir=tmp_path / "cache")
    assert str(info.value) == "locomo10.json: $[0].observation: expected object, got array"


def test_empty_session_and_unknown_keys_are_kept_in_raw(tmp_path):
    record = _record()
    record["conversation"]["session_3"] = []
    record["conversation"]["session_3_date_time"] = "9:00 am on 3 May, 2023"
    record["conversation"]["location"] = "Paris"
    record["split"] = "test"
    (sample,) = load_locomo(_write(tmp_path / "x.json", record), cache_dir=tmp_path / "cache")
    assert [s.session_id for s in sample.sessions] == ["1", "2"]
    assert sample.raw["conversation_extra"] == {
        "session_3": [],
        "session_3_date_time": "9:00 am on 3 May, 2023",
        "location": "Paris",
    }
    assert sample.raw["record_extra"] == {"split": "test"}
    assert sample_to_record(sample) == record


def test_category_error_names_file_and_record(tmp_path):
    records = [_record("a"), _record("b")]
    records[1]["qa"][1]["category"] = 7
    with pytest.raises(SourceFormatError) as info:
        load_locomo(_write(tmp_path / "locomo10.json", records), cache_dir=tmp_path / "cache")
    assert str(info.value) == "locomo10.json: $[1].qa[1].category: expected 1-5, got 7"
