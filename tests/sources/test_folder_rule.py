"""The folder rule, the same on every entry point that takes a folder.

With a config, only that config's file (else, with no other config's file there, the folder's files as
parts of one source); without, a folder with the files of several configs is a ConfigurationError listing
them, and a source whose names say no config asks for the config; the same id in two files
read together is an error naming both files.
"""

from __future__ import annotations

import copy
import json
import shutil

import pytest
from routes import all_routes, error_message

PAIR_IDS = ["gpt4_2655b836", "09ba9854_abs"]


def _haystack(questions: list[dict], extra: int) -> list[dict]:
    """The oracle questions with ``extra`` filler sessions added to each haystack (an S/M-like file)."""
    out = copy.deepcopy(questions)
    for q in out:
        for i in range(extra):
            q["haystack_session_ids"].append(f"filler_{i}")
            q["haystack_dates"].append("2023/01/01 (Sun) 10:00")
            q["haystack_sessions"].append([{"role": "user", "content": f"filler {i}"}])
    return out


@pytest.fixture
def upstream_layout(shared_data, tmp_path):
    """The layout LongMemEval's README asks for: oracle, S and M side by side (the same questions)."""
    folder = tmp_path / "data"
    folder.mkdir()
    pair = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    (folder / "longmemeval_oracle.json").write_text(json.dumps(pair))
    (folder / "longmemeval_s_cleaned.json").write_text(json.dumps(_haystack(pair, 2)))
    (folder / "longmemeval_m_cleaned.json").write_text(json.dumps(_haystack(pair, 5)))
    return folder


@pytest.mark.parametrize(
    ("config", "file", "extra"),
    [
        ("oracle", "longmemeval_oracle.json", 0),
        ("oracle_original", "longmemeval_oracle.json", 0),
        ("s", "longmemeval_s_cleaned.json", 2),
        ("m", "longmemeval_m_cleaned.json", 5),
    ],
)
def test_upstream_layout_with_a_config_reads_only_its_file(upstream_layout, tmp_path, capsys, config, file, extra):
    alone = tmp_path / "alone" / file
    alone.parent.mkdir()
    shutil.copy(upstream_layout / file, alone)
    routes = all_routes(capsys, upstream_layout)
    expected = routes["load_*"]("longmemeval", config, alone, tmp_path / "cache-alone")
    assert [s.sample_id for s in expected] == PAIR_IDS  # once each, not once per file
    assert sum(s.session_id.startswith("filler_") for s in expected[0].sessions) == extra
    for route, load in routes.items():
        assert load("longmemeval", config, upstream_layout, tmp_path / f"cache-{route}") == expected, route


def test_upstream_layout_without_a_config_lists_the_files(upstream_layout, tmp_path, capsys):
    message = (
        f"longmemeval: {upstream_layout} holds the files of more than one config: longmemeval_m_cleaned.json (m), "
        "longmemeval_oracle.json (oracle, oracle_original), longmemeval_s_cleaned.json (s); "
        "pass config= (--config) to read one config's file, or pass the file itself"
    )
    for route, load in all_routes(capsys, upstream_layout).items():
        assert error_message(load, "longmemeval", None, upstream_layout, tmp_path / f"cache-{route}") == message, route


def test_one_file_of_any_name_is_read_under_the_config_given(shared_data, tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(shared_data / "longmemeval" / "longmemeval_oracle_pair.json", folder / "my questions.json")
    (folder / "notes.txt").write_text("not a source")
    for route, load in all_routes(capsys, folder).items():
        assert [s.sample_id for s in load("longmemeval", "oracle", folder, tmp_path / f"cache-{route}")] == PAIR_IDS, (
            route
        )


@pytest.mark.parametrize("as_file", [False, True], ids=["folder", "file"])
def test_a_source_whose_name_says_no_config_needs_the_config(shared_data, tmp_path, capsys, as_file):
    """Issue 17 §2: never read as the default config `s` (as `himga export` already refused)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(shared_data / "longmemeval" / "longmemeval_oracle_pair.json", folder / "my questions.json")
    path, what = (
        (folder / "my questions.json", "my questions.json from its file name")
        if as_file
        else (folder, f"the files in {folder} from their names")
    )
    message = (
        f"longmemeval: cannot tell the config of {what}; pass the config (config= / --config). "
        "File names of the configs: s: longmemeval_s_cleaned.json or longmemeval_s_cleaned or "
        "longmemeval_s_cleaned.jsonl; "
        "m: longmemeval_m_cleaned.json or longmemeval_m_cleaned or longmemeval_m_cleaned.jsonl; oracle: "
        "longmemeval_oracle.json "
        "or longmemeval_oracle or longmemeval_oracle.jsonl; s_original: longmemeval_s or longmemeval_s.json or "
        "longmemeval_s.jsonl; "
        "m_original: longmemeval_m or longmemeval_m.json or longmemeval_m.jsonl; oracle_original: longmemeval_oracle "
        "or "
        "longmemeval_oracle.json or longmemeval_oracle.jsonl"
    )
    for route, load in all_routes(capsys, path).items():
        assert error_message(load, "longmemeval", None, path, tmp_path / f"cache-{route}") == message, route


def test_first_release_names_without_json(shared_data, tmp_path, capsys):
    folder = tmp_path / "original"
    folder.mkdir()
    pair = (shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_bytes()
    (folder / "longmemeval_oracle").write_bytes(pair)
    (folder / "longmemeval_s").write_bytes(pair)
    for route, load in all_routes(capsys, folder).items():
        assert [
            s.sample_id for s in load("longmemeval", "oracle_original", folder, tmp_path / f"c-{route}")
        ] == PAIR_IDS, route
        message = error_message(load, "longmemeval", None, folder, tmp_path / f"cache-none-{route}")
        assert message.endswith(
            "longmemeval_oracle (oracle, oracle_original), longmemeval_s (s_original); "
            "pass config= (--config) to read one config's file, or pass the file itself"
        ), route


def test_same_question_in_two_files_names_both(shared_data, tmp_path, capsys):
    folder = tmp_path / "parts"
    folder.mkdir()
    pair = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    (folder / "a.json").write_text(json.dumps(pair))
    (folder / "b.json").write_text(json.dumps(pair[1:]))  # a copy of a.json's second question
    message = (
        "b.json: $[0].question_id: question 09ba9854_abs is also in a.json; "
        "a question must come from one file (read one file, or pass config=)"
    )
    for route, load in all_routes(capsys, folder).items():
        assert error_message(load, "longmemeval", "oracle", folder, tmp_path / f"cache-{route}") == message, route
    (folder / "b.json").unlink()
    for route, load in all_routes(capsys, folder).items():
        assert [
            s.sample_id for s in load("longmemeval", "oracle", folder, tmp_path / f"cache-ok-{route}")
        ] == PAIR_IDS, route


def test_locomo_copy_beside_the_file_names_both(shared_data, tmp_path, capsys):
    folder = tmp_path / "locomo"
    folder.mkdir()
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    (folder / "locomo10.json").write_text(json.dumps(records[:2]))
    (folder / "locomo10 (1).json").write_text(json.dumps(records[1:2]))  # a browser's second download
    message = (
        "locomo10.json: $[1].sample_id: sample conv-30 is also in locomo10 (1).json; "
        "a sample must come from one file (a copy of a file in the same folder?)"
    )
    for route, load in all_routes(capsys, folder).items():
        assert error_message(load, "locomo", None, folder, tmp_path / f"cache-{route}") == message, route


@pytest.mark.parametrize(
    ("name", "source", "records", "message"),
    [
        (
            "longmemeval",
            "longmemeval/longmemeval_oracle_pair.json",
            lambda r: r + r[:1],
            "pasted.json: $[2].question_id: question gpt4_2655b836 is also at $[0].question_id: each question once",
        ),
        (
            "locomo",
            "locomo/locomo10.json",
            lambda r: r[:2] + r[1:2],
            "pasted.json: $[2].sample_id: sample conv-30 is also at $[1].sample_id: each sample once",
        ),
    ],
)
def test_same_id_twice_in_one_file_is_an_error(shared_data, tmp_path, capsys, name, source, records, message):
    """A record pasted twice into one file would double a sample silently; every released file has unique ids."""
    path = tmp_path / "pasted.json"
    path.write_text(json.dumps(records(json.loads((shared_data / source).read_text()))))
    for route, load in all_routes(capsys, path).items():
        assert (
            error_message(load, name, "oracle" if name == "longmemeval" else None, path, tmp_path / f"cache-{route}")
            == message
        ), route


def test_a_file_named_for_another_config_is_refused_under_an_explicit_config(upstream_layout, tmp_path, capsys):
    """`--config s` on longmemeval_oracle.json would label oracle questions as S (export refused it already)."""
    path = upstream_layout / "longmemeval_oracle.json"
    message = (
        "longmemeval: longmemeval_oracle.json is the file of config oracle, oracle_original, not of s; "
        "pass its config, or rename the file if it really is another config's"
    )
    for route, load in all_routes(capsys, path).items():
        assert error_message(load, "longmemeval", "s", path, tmp_path / f"cache-{route}") == message, route
    for route, load in all_routes(capsys, path).items():
        assert [
            s.sample_id for s in load("longmemeval", "oracle_original", path, tmp_path / f"ok-{route}")
        ] == PAIR_IDS, route


def test_a_folder_of_one_question_files(shared_data, tmp_path, capsys):
    """Issue 17 §5: a harness layout (one question object per file) is read by the folder rule on every
    route, in file-name order, with the same duplicate-id check as other parts of one source."""
    folder = tmp_path / "questions"
    folder.mkdir()
    pair = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    for i, question in enumerate(pair):
        (folder / f"{i:03d}_{question['question_id']}.json").write_text(json.dumps(question, indent=1))
    for route, load in all_routes(capsys, folder).items():
        assert [s.sample_id for s in load("longmemeval", "oracle", folder, tmp_path / f"cache-{route}")] == PAIR_IDS, (
            route
        )
    (folder / "002_copy.json").write_text(json.dumps(pair[0]))
    message = (
        "002_copy.json: $.question_id: question gpt4_2655b836 is also in 000_gpt4_2655b836.json; "
        "a question must come from one file (read one file, or pass config=)"
    )
    for route, load in all_routes(capsys, folder).items():
        assert error_message(load, "longmemeval", "oracle", folder, tmp_path / f"cache-dup-{route}") == message, route
