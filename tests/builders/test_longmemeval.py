"""The himga_longmemeval builder: exact values measured on the real oracle files, an S-scale file, errors."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import orjson
import pyarrow.compute as pc
import pytest

from himga.cache import make_builder, prepare
from himga.catalog import benchmark
from himga.data import SAMPLE_FEATURES, QuestionType, chronological, load_dataset, load_longmemeval
from himga.errors import ConfigurationError, DownloadError, SourceFormatError
from himga.jsonio import reader as jsonio_reader
from himga.testing import write_longmemeval_like
from himga.utils import get_dataset
from himga_longmemeval.longmemeval import Longmemeval
from himga_longmemeval.records import QUESTION_TYPES, sample_to_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ORACLE_TYPES = {
    "temporal_reasoning": 27,
    "knowledge_update": 21,
    "multi_session": 21,
    "single_session_user": 12,
    "single_session_preference": 10,
    "single_session_assistant": 6,
}


@pytest.fixture(scope="module")
def oracle_sample(shared_data, tmp_path_factory):
    path = shared_data / "longmemeval" / "longmemeval_oracle_sample.json"
    return load_longmemeval(path, config="oracle", cache_dir=tmp_path_factory.mktemp("lme_cache"))


def _types(samples) -> Counter:
    return Counter(qa.question_type.value for s in samples for qa in s.qa_pairs)


def test_oracle_sample_counts(oracle_sample):
    assert len(oracle_sample) == 97
    assert oracle_sample[0].sample_id == "7e974930"
    assert {s.dataset for s in oracle_sample} == {"longmemeval"}
    assert all(s.speaker_a is None and s.speaker_b is None for s in oracle_sample)
    assert all(len(s.qa_pairs) == 1 and s.qa_pairs[0].question_id == s.sample_id for s in oracle_sample)
    assert _types(oracle_sample) == ORACLE_TYPES
    abstentions = [s.sample_id for s in oracle_sample if s.qa_pairs[0].is_abstention]
    assert abstentions == ["gpt4_fe651585_abs", "edced276_abs"]
    messages = [m for s in oracle_sample for sess in s.sessions for m in sess.messages]
    assert len(messages) == 2176
    assert all(set(m.raw) == {"has_answer"} and m.turn_id is None for m in messages)


def test_oracle_sample_fields(oracle_sample):
    first = oracle_sample[0]
    assert first.raw == {"question_date": "2023/10/02 (Mon) 04:40"}
    assert [(s.session_id, s.date_str) for s in first.sessions] == [
        ("answer_c9f5693c_1", "2023/04/11 (Tue) 07:47"),
        ("answer_c9f5693c_2", "2023/09/30 (Sat) 08:34"),
    ]
    qa = first.qa_pairs[0]
    assert (qa.answer, qa.question_type) == ("$420", QuestionType.KNOWLEDGE_UPDATE)
    assert qa.evidence.session_ids == ["answer_c9f5693c_1", "answer_c9f5693c_2"] and qa.evidence.turn_ids == []
    assert "haystack_sessions" not in qa.raw and qa.raw["question_type"] == "knowledge-update"
    answers = [s.qa_pairs[0] for s in oracle_sample]
    assert all(type(a.answer) is str for a in answers)
    assert sum(type(a.raw["answer"]) is int for a in answers) == 8


def test_lossless_rebuild_of_every_real_record(shared_data, oracle_sample, tmp_path):
    folder = shared_data / "longmemeval"
    records = json.loads((folder / "longmemeval_oracle_sample.json").read_text())
    assert [sample_to_record(s) for s in oracle_sample] == records
    pair = load_longmemeval(folder / "longmemeval_oracle_pair.json", config="oracle", cache_dir=tmp_path)
    assert [sample_to_record(s) for s in pair] == json.loads((folder / "longmemeval_oracle_pair.json").read_text())


def test_pair_file(shared_data, tmp_path):
    pair = load_longmemeval(
        shared_data / "longmemeval" / "longmemeval_oracle_pair.json", config="oracle", cache_dir=tmp_path
    )
    assert [s.sample_id for s in pair] == ["gpt4_2655b836", "09ba9854_abs"]
    assert [s.qa_pairs[0].is_abstention for s in pair] == [False, True]
    assert pair[1].qa_pairs[0].question_type == QuestionType.MULTI_SESSION
    assert pair[1].qa_pairs[0].raw["question_type"] == "multi-session"
    # file order, not date order: the first question's haystack is not chronological
    assert [s.date_str for s in pair[0].sessions] == [
        "2023/04/10 (Mon) 17:50",
        "2023/04/10 (Mon) 14:47",
        "2023/04/10 (Mon) 17:15",
    ]
    ordered = chronological(pair[0])
    assert [s.session_id for s in ordered.sessions] == ["answer_4be1b6b4_3", "answer_4be1b6b4_1", "answer_4be1b6b4_2"]
    assert [s.session_id for s in pair[0].sessions] == ["answer_4be1b6b4_2", "answer_4be1b6b4_3", "answer_4be1b6b4_1"]
    assert sample_to_record(ordered)["haystack_session_ids"] == [s.session_id for s in ordered.sessions]


def test_shared_folder_by_the_folder_rule(shared_data, tmp_path):
    # no config: neither file's name says which config it is, so the caller must
    with pytest.raises(
        ConfigurationError,
        match="^longmemeval: cannot tell the config of the files in .*longmemeval from their names; pass the config",
    ):
        load_longmemeval(shared_data / "longmemeval", cache_dir=tmp_path)
    # with a config and no file of any config in it: both files are parts of one source, in name order
    samples = load_longmemeval(shared_data / "longmemeval", config="oracle", cache_dir=tmp_path)
    assert len(samples) == 97 + 2  # longmemeval_oracle_pair.json, then longmemeval_oracle_sample.json
    assert [s.sample_id for s in samples[:2]] == ["gpt4_2655b836", "09ba9854_abs"]


def test_tiny_fixture_edge_cases(tmp_path, caplog):
    samples = load_longmemeval(FIXTURES / "longmemeval_mini.json", config="s", cache_dir=tmp_path)  # has a BOM
    first, second = samples
    assert first.qa_pairs[0].answer == "12" and first.qa_pairs[0].raw["answer"] == 12
    assert [s.session_id for s in first.sessions] == ["s_b", "s_a", "s_b"]  # duplicate ids kept
    assert first.sessions[1].messages[0].content == ""  # blank turn kept
    assert [m.raw for m in first.sessions[0].messages] == [{"has_answer": True}, {}]
    assert first.sessions[1].messages[1].raw == {"note": {"k": [1, 2.5, None]}}
    assert second.sessions == [] and second.qa_pairs[0].is_abstention
    assert second.qa_pairs[0].question_type == QuestionType.SINGLE_SESSION_USER  # unknown type falls back
    assert second.qa_pairs[0].raw["question_type"] == "brand-new-type"
    assert [s.session_id for s in chronological(first).sessions] == ["s_a", "s_b", "s_b"]
    records = json.loads((FIXTURES / "longmemeval_mini.json").read_text(encoding="utf-8-sig"))
    assert [sample_to_record(s) for s in samples] == records


def test_unknown_type_logs_a_warning(tmp_path, caplog):
    with caplog.at_level("WARNING", logger="himga_longmemeval.records"):
        load_longmemeval(FIXTURES / "longmemeval_mini.json", config="s", cache_dir=tmp_path)
    assert "question q2_abs has unknown question_type 'brand-new-type'" in caplog.text


def test_question_types_cover_both_spellings():
    assert QUESTION_TYPES["single-session-user"] == QUESTION_TYPES["single_session_user"] == "single_session_user"
    assert set(QUESTION_TYPES.values()) == {
        "single_session_user",
        "single_session_assistant",
        "single_session_preference",
        "multi_session",
        "temporal_reasoning",
        "knowledge_update",
    }
    assert len(QUESTION_TYPES) == 12


def test_configs_and_default():
    configs = Longmemeval.builder_configs
    assert sorted(configs) == sorted(["s", "m", "oracle", "s_original", "m_original", "oracle_original"])
    assert Longmemeval.DEFAULT_CONFIG_NAME == "s"
    assert configs["s"].remote_file().filename == "longmemeval_s_cleaned.json"
    assert configs["s_original"].remote_file().filename == "longmemeval_s"
    assert configs["m"].candidate_names == [
        "longmemeval_m_cleaned.json",
        "longmemeval_m_cleaned",
        "longmemeval_m_cleaned.jsonl",
    ]
    assert configs["m_original"].candidate_names == ["longmemeval_m", "longmemeval_m.json", "longmemeval_m.jsonl"]
    assert {c.remote_file().repo_id for c in configs.values()} == {
        "xiaowu0162/longmemeval-cleaned",
        "xiaowu0162/longmemeval",
    }
    assert configs["m"].writer_batch_size < configs["s"].writer_batch_size < configs["oracle"].writer_batch_size
    builder = make_builder(benchmark("longmemeval"), "m", data_files=[str(FIXTURES / "longmemeval_mini.json")])
    assert builder._writer_batch_size == configs["m"].writer_batch_size


def test_data_dir_finds_the_config_file_with_or_without_json(shared_data, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "longmemeval_oracle").write_bytes(
        (shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_bytes()
    )
    for config in ("oracle", "oracle_original"):
        samples = load_dataset("longmemeval", config, data_dir=plain, cache_dir=tmp_path / "cache")
        assert [s.sample_id for s in samples] == ["gpt4_2655b836", "09ba9854_abs"]
    with pytest.raises(ConfigurationError, match="looked for longmemeval_s_cleaned.json, longmemeval_s_cleaned"):
        load_dataset("longmemeval", "s", data_dir=plain, cache_dir=tmp_path / "cache")
    # no config: the folder's one file, under the config its name belongs to
    samples = load_dataset("longmemeval", data_dir=plain, cache_dir=tmp_path / "cache", lazy=True)
    assert [s.sample_id for s in samples] == ["gpt4_2655b836", "09ba9854_abs"]
    assert (
        "/oracle-" in samples.dataset.cache_files[0]["filename"]
    )  # datasets names custom-source configs <config>-<hash>


def test_offline_download_error_says_where_to_put_the_file(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(
        DownloadError,
        match=r"longmemeval_m_cleaned\.json: not in .*longmemeval and HF_HUB_OFFLINE is set; download "
        r".*longmemeval_m_cleaned\.json yourself and put it in .*longmemeval/ ",
    ):
        get_dataset("longmemeval", files=[Longmemeval.builder_configs["m"].remote_file()])
    with pytest.raises(DownloadError, match=r"longmemeval_s_cleaned\.json"):
        load_dataset("longmemeval", cache_dir=tmp_path)


def test_arrow_batch_path_equals_the_datasets_row_path(shared_data, tmp_path, monkeypatch):
    files = [str(shared_data / "longmemeval" / "longmemeval_oracle_sample.json")]
    fast = prepare(make_builder(benchmark("longmemeval"), "oracle", data_files=files, cache_dir=tmp_path / "fast"))
    monkeypatch.setattr(Longmemeval, "ARROW_BATCHES", False)
    slow = prepare(make_builder(benchmark("longmemeval"), "oracle", data_files=files, cache_dir=tmp_path / "slow"))
    assert fast.features == slow.features == SAMPLE_FEATURES
    assert fast.split == "test" and fast.num_rows == 97
    assert fast.data.table.equals(slow.data.table)


# --- generated files --------------------------------------------------------------------------------


def test_small_generated_file_roundtrip(tmp_path):
    path = write_longmemeval_like(tmp_path / "small.json", 20, 10).path
    samples = load_longmemeval(path, config="s", cache_dir=tmp_path / "cache")
    assert len(samples) == 20
    assert [sample_to_record(s) for s in samples] == json.loads(path.read_text())


def test_s_scale_generated_file(tmp_path, monkeypatch):
    """The generator's default S-scale file (seed 0, ~260 MB): about 30 s to generate and build; its checks run in a
    second process (himga.jsonio._beside)."""
    path = write_longmemeval_like(tmp_path / "s.json").path
    started = []
    monkeypatch.setattr(
        jsonio_reader,
        "start_checks",
        lambda *a, real=jsonio_reader.start_checks: started.append(real(*a)) or started[-1],
    )
    ds = prepare(make_builder(benchmark("longmemeval"), "s", data_files=[str(path)], cache_dir=tmp_path / "cache"))
    assert len(started) == 1 and started[0] is not None and started[0]._proc.returncode == 0
    table = ds.data.table
    assert ds.num_rows == 500
    sessions = pc.list_flatten(table["sessions"])
    assert len(sessions) == 24075
    assert len(pc.list_flatten(pc.struct_field(sessions, "messages"))) == 247143
    qa = pc.list_flatten(table["qa_pairs"])
    types = Counter(pc.struct_field(qa, "question_type").to_pylist())
    assert sorted(types.values(), reverse=True) == [133, 133, 78, 70, 56, 30]
    assert types == {
        "multi_session": 133, "temporal_reasoning": 133, "knowledge_update": 78,
        "single_session_user": 70, "single_session_assistant": 56, "single_session_preference": 30,
    }  # fmt: skip
    answers = pc.struct_field(qa, "answer")
    assert str(answers.type) == "string" and answers.null_count == 0
    assert sum(i.endswith("_abs") for i in table["sample_id"].to_pylist()) == 30
    # every value of every row, pinned (the rows written by the dict-per-message path before the column-wise one
    # and the check process): a faster path to Arrow must write the same rows
    digest = hashlib.sha256()
    for batch in table.to_batches(max_chunksize=10):
        rows = batch.to_pylist()
        for row in rows:  # the QA fields added since (builder 1.2.0), None and [] here: the values of before compared
            for qa in row["qa_pairs"]:
                assert (qa.pop("position"), qa.pop("options")) == (None, [])
        digest.update(orjson.dumps(rows))
    assert digest.hexdigest() == "7a4a89a25f147af4564c883deee928486946e6c1e5b985b2693a6f68dd8070f6"


# --- errors -------------------------------------------------------------------------------------------


def _pair_records(shared_data) -> list[dict]:
    return json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())


def _load_error(path: Path, tmp_path: Path) -> SourceFormatError:
    with pytest.raises(SourceFormatError) as info:
        load_longmemeval(path, config="oracle", cache_dir=tmp_path / "cache")
    return info.value


def test_truncated_file_names_file_and_question(shared_data, tmp_path):
    data = (shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_bytes()
    path = tmp_path / "truncated.json"
    path.write_bytes(data[: len(data) - 2000])
    error = _load_error(path, tmp_path)
    assert (
        str(error)
        == "truncated.json: $[1]: invalid JSON: parse error: premature EOF (truncated file?) (question 09ba9854_abs)"
    )
    assert (error.file, error.path) == ("truncated.json", "$[1]")


def test_a_file_holding_one_question_object_is_that_question(shared_data, tmp_path):
    """Issue 17 §5: a harness's one-question file (top level: the question object, not an array)."""
    path = tmp_path / "one_question.json"
    path.write_text(json.dumps(_pair_records(shared_data)[0]))
    assert [s.sample_id for s in load_longmemeval(path, config="oracle", cache_dir=tmp_path / "c")] == ["gpt4_2655b836"]
    record = _pair_records(shared_data)[1]
    del record["haystack_dates"]
    path.write_text(json.dumps(record))
    error = _load_error(path, tmp_path)
    assert str(error) == "one_question.json: $: missing required key 'haystack_dates' (question 09ba9854_abs)"


def test_missing_haystack_dates_names_file_and_question(shared_data, tmp_path):
    records = _pair_records(shared_data)
    del records[1]["haystack_dates"]
    path = tmp_path / "no_dates.json"
    path.write_text(json.dumps(records))
    error = _load_error(path, tmp_path)
    assert str(error) == "no_dates.json: $[1]: missing required key 'haystack_dates' (question 09ba9854_abs)"


def test_parallel_lists_of_different_lengths(shared_data, tmp_path):
    records = _pair_records(shared_data)
    records[0]["haystack_dates"].pop()
    path = tmp_path / "short.json"
    path.write_text(json.dumps(records))
    error = _load_error(path, tmp_path)
    assert str(error) == "short.json: $[0].haystack_dates: 2 dates for 3 sessions (question gpt4_2655b836)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[{"a": NaN}]',
            "bad.json: $[0]: invalid JSON: lexical error: invalid char in json text. near '[{\"a\": NaN}]'",
        ),
        ("", "bad.json: $: expected a JSON array, got an empty file"),
        ('[{"question_id": 7}]', "bad.json: $[0].question_id: expected string, got number"),
        ('["x"]', "bad.json: $[0]: expected a question object, got string"),
        (
            "[] x",
            "bad.json: $: invalid JSON: parse error: trailing garbage near '[] x' (after the top-level array's closing "
            "])",
        ),
    ],
)
def test_malformed_inputs(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert str(_load_error(path, tmp_path)) == message


def test_bad_turn_names_the_path_and_question(shared_data, tmp_path):
    records = _pair_records(shared_data)
    records[1]["haystack_sessions"][1][3]["content"] = None
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(records))
    error = _load_error(path, tmp_path)
    assert (
        str(error)
        == "turn.json: $[1].haystack_sessions[1][3].content: expected string, got null (question 09ba9854_abs)"
    )
