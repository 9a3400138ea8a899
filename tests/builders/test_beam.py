"""The himga_beam builder: exact values measured on the real 100K and 500K files on every route (the facade,
datasets.load_dataset after import himga, streaming, an export read by DuckDB), local 1M and 10M copies, errors."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from himga.catalog import benchmark
from himga.data import SAMPLE_FEATURES, QuestionType, load_dataset
from himga.errors import ConfigurationError, SourceFormatError
from himga.testing import write_beam_like
from himga_beam.records import ABILITIES, sample_to_record, strip_marker

#: Measured on ../shared/data/beam: samples, sessions (batches), messages, QA pairs, markers cut, evidence ids
#: cited in source_chat_ids (every one a message of its chat), evidence turn ids (each id once per question).
COUNTS = {"100K": (20, 90, 5_732, 400, 2_199, 1_109, 1_094), "500K": (35, 350, 38_058, 700, 14_589, 2_701, 2_680)}


def _counts(samples) -> tuple:
    messages = [m for s in samples for ss in s.sessions for m in ss.messages]
    cited = sum(len(_ids(qa.raw.get("source_chat_ids", []))) for s in samples for qa in s.qa_pairs)
    return (
        len(samples),
        sum(len(s.sessions) for s in samples),
        len(messages),
        sum(len(s.qa_pairs) for s in samples),
        sum("probe_marker" in m.raw for m in messages),
        cited,
        sum(len(qa.evidence.turn_ids) for s in samples for qa in s.qa_pairs),
    )


def _ids(value) -> list:
    if isinstance(value, list):
        return [i for v in value for i in _ids(v)]
    if isinstance(value, dict):
        return [i for v in value.values() for i in _ids(v)]
    return [value]


@pytest.mark.parametrize("tier", ["100K", "500K"])
def test_facade_counts(beam_tier, tier):
    samples = beam_tier(tier)
    assert _counts(samples) == COUNTS[tier]
    per = COUNTS[tier][3] // 10
    assert Counter(qa.question_type.value for s in samples for qa in s.qa_pairs) == dict.fromkeys(ABILITIES, per)
    assert [s.sample_id for s in samples] == [f"{tier}-{n}" for n in range(1, COUNTS[tier][0] + 1)]
    messages = [m for s in samples for ss in s.sessions for m in ss.messages]
    assert not any("->->" in m.content for m in messages)
    turns = {(s.sample_id, m.turn_id): ss.session_id for s in samples for ss in s.sessions for m in ss.messages}
    assert all((s.sample_id, t) in turns for s in samples for qa in s.qa_pairs for t in qa.evidence.turn_ids)
    assert all(
        qa.evidence.session_ids == list(dict.fromkeys(turns[(s.sample_id, t)] for t in qa.evidence.turn_ids))
        for s in samples
        for qa in s.qa_pairs
    )
    assert sum(qa.is_abstention for s in samples for qa in s.qa_pairs) == per
    assert {s.dataset for s in samples} == {"beam"} and all(
        ss.datetime is not None for s in samples for ss in s.sessions
    )


def test_fields_of_the_first_chat(beam_tier):
    chat = beam_tier("100K")[0]
    first = chat.sessions[0]
    assert (first.session_id, first.date_str, len(first.messages), str(first.datetime)) == (
        "1",
        "March-15-2024",
        60,
        "2024-03-15 00:00:00",
    )
    m = first.messages[0]
    assert (m.role, m.turn_id, m.date_str) == ("user", "0", None)
    assert m.raw == {
        "time_anchor": "March-15-2024",
        "index": "1,1",
        "question_type": "main_question",
        "probe_marker": " ->-> 1,1",
    }
    assert m.content.endswith("schedule to ensure I meet my deadlines by then?")
    assert chat.raw["turn_groups"]["1"][:4] == [4, 2, 2, 2] and "batch_time_anchor" not in chat.raw
    qa = next(q for q in chat.qa_pairs if q.question_id == "temporal_reasoning:0")
    assert (qa.question_type, qa.evidence.turn_ids, qa.evidence.session_ids) == (
        QuestionType.TEMPORAL_REASONING,
        ["2", "0"],
        ["1"],
    )
    assert (
        qa.answer.startswith("I have exactly 4 weeks") and qa.raw["rubric"][0] == "LLM response should state: 8 weeks"
    )
    assert qa.raw["source_chat_ids"] == {"first_event": [2], "second_event": [0]}


@pytest.mark.parametrize("tier", ["100K", "500K"])
def test_every_chat_rebuilds_to_its_files(beam_tier, shared_data, tier):
    for sample in beam_tier(tier):
        chat, questions = sample_to_record(sample)
        folder = shared_data / "beam" / "chats" / tier / sample.sample_id.removeprefix(f"{tier}-")
        assert chat == json.loads((folder / "chat.json").read_text(encoding="utf-8"))
        assert questions == json.loads(
            (folder / "probing_questions" / "probing_questions.json").read_text(encoding="utf-8")
        )


def test_marker_rule():
    assert strip_marker("Can you help? ->-> 1,1") == ("Can you help?", " ->-> 1,1")
    assert strip_marker("a ->-> 7,(N/A, but related)") == ("a", " ->-> 7,(N/A, but related)")
    assert strip_marker("a ->-> 1,1\nmore") == ("a ->-> 1,1\nmore", None)  # not at the end: kept, validate fails
    assert strip_marker("no marker") == ("no marker", None)


@pytest.fixture(scope="module")
def hub_route(shared_data, tmp_path_factory):
    """``datasets.load_dataset("himga_beam", "100K")`` after ``import himga``, the default source found under
    ``$HIMGA_DATASETS_ROOT``; and the same streamed."""
    import os

    import datasets

    import himga  # noqa: F401 - registers the builders

    os.environ["HIMGA_DATASETS_ROOT"] = str(shared_data)
    try:
        cache = tmp_path_factory.mktemp("beam_hub")
        built = datasets.load_dataset("himga_beam", "100K", split="test", cache_dir=str(cache))
        streamed = list(datasets.load_dataset("himga_beam", "100K", split="test", streaming=True))
    finally:
        del os.environ["HIMGA_DATASETS_ROOT"]
    return built, streamed


def test_500k_by_name_and_streamed(beam_tier, shared_data):
    """The 500K tier by name with a data_dir (the facade's cache, reused) and streamed from the files."""
    import datasets

    import himga  # noqa: F401 - registers the builders

    beam_tier("500K")
    data = str(shared_data / "beam")
    built = datasets.load_dataset(
        "himga_beam", "500K", data_dir=data, split="test", cache_dir=str(beam_tier.cache["500K"])
    )
    streamed = datasets.load_dataset("himga_beam", "500K", data_dir=data, split="test", streaming=True)
    assert _row_counts(list(built)) == _row_counts(list(streamed)) == COUNTS["500K"]


def test_lazy_samples_are_the_built_ones(beam_tier, shared_data):
    lazy = load_dataset("beam", "100K", data_dir=shared_data / "beam", cache_dir=beam_tier.cache["100K"], lazy=True)
    assert len(lazy) == 20 and lazy[19] == beam_tier("100K")[19]


def _row_counts(rows) -> tuple:
    messages = [m for r in rows for s in r["sessions"] for m in s["messages"]]
    return (
        len(rows),
        sum(len(r["sessions"]) for r in rows),
        len(messages),
        sum(len(r["qa_pairs"]) for r in rows),
        sum(m["raw"] is not None and "probe_marker" in json.loads(m["raw"]) for m in messages),
        sum(len(_ids(json.loads(q["raw"]).get("source_chat_ids", []))) for r in rows for q in r["qa_pairs"]),
        sum(len(q["evidence"]["turn_ids"]) for r in rows for q in r["qa_pairs"]),
    )


def test_datasets_load_dataset_and_streaming(hub_route):
    built, streamed = hub_route
    assert built.features == SAMPLE_FEATURES and built.info.config_name == "100K"
    assert _row_counts(list(built)) == _row_counts(streamed) == COUNTS["100K"]
    assert not any("->->" in m["content"] for r in streamed for s in r["sessions"] for m in s["messages"])


def test_export_read_by_duckdb(beam_tier, shared_data, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    from himga.publish import export

    beam_tier("500K")  # the export reuses this build
    export("beam", tmp_path, ["100K", "500K"], data_dir=shared_data / "beam", cache_dir=beam_tier.cache["500K"])
    for tier in ("100K", "500K"):
        parquet = str(tmp_path / "data" / tier / "*.parquet")
        row = duckdb.sql(f"""
            WITH m AS (SELECT unnest(s.messages, recursive := true) FROM
                       (SELECT unnest(sessions) AS s FROM read_parquet('{parquet}')))
            SELECT count(*), count(*) FILTER (WHERE json_extract_string(raw, '$.probe_marker') IS NOT NULL),
                   count(*) FILTER (WHERE content LIKE '%->->%') FROM m""").fetchall()[0]
        rows, sessions, qas = duckdb.sql(
            f"SELECT count(*), sum(len(sessions)), sum(len(qa_pairs)) FROM read_parquet('{parquet}')"
        ).fetchall()[0]
        samples, batches, messages, questions, markers, _cited, _turns = COUNTS[tier]
        assert (rows, sessions, row[0], qas, row[1], row[2]) == (samples, batches, messages, questions, markers, 0)
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert (
        "| 100K | `chats/100K/ (40 files)` | 13,895,659 | "
        "`6ed10435c1d1bae9bec44fb8f93d7627a69296d4ef1bec57db0e3321016416eb`" in card
    )


def test_the_default_source_is_the_pinned_files_only(shared_data, tmp_path, monkeypatch):
    from himga.cache import build_files

    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    files = build_files(benchmark("beam"), "500K", None)
    assert len(files) == 70 and files[0] == shared_data / "beam" / "chats" / "500K" / "1" / "chat.json"
    assert files[1].parts[-2:] == ("probing_questions", "probing_questions.json")
    (tmp_path / "beam").mkdir()
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    with pytest.raises(
        ConfigurationError, match=r"^beam \(config '100K'\): 40 of the 40 pinned files of chats/100K are not in "
    ):
        build_files(benchmark("beam"), "100K", None)
    with pytest.raises(
        ConfigurationError,
        match=r"^beam \(config '1M'\): no pinned source: the 1M tier is complete only on the "
        r"Hugging Face copy Mohammadta/BEAM, whose revision is not yet confirmed \(the Hugging Face copy could not "
        r"be reached from the machines this was written on\); put a copy in the repository's layout ",
    ):
        build_files(benchmark("beam"), "1M", None)


@pytest.fixture(scope="module")
def local_copies(tmp_path_factory):
    """A generated local copy in the repository's layout: two 1M chats (batches) and one 10M chat (plans)."""
    root = tmp_path_factory.mktemp("beam_local")
    one = write_beam_like(root, "1M", chats=2, plans=1, batches=4, groups=6, words=8, seed=1)
    ten = write_beam_like(root, "10M", chats=1, plans=3, batches=2, groups=5, words=8, seed=2)
    return root, one, ten


def test_local_1m_and_10m_copies_build_with_the_files_counts(local_copies, tmp_path):
    root, one, ten = local_copies
    for tier, written in (("1M", one), ("10M", ten)):
        samples = load_dataset("beam", tier, data_dir=root, cache_dir=tmp_path / tier)
        assert [s.sample_id for s in samples] == [f"{tier}-{n}" for n in range(1, len(written) + 1)]
        assert [(len(s.sessions), sum(len(x.messages) for x in s.sessions), len(s.qa_pairs)) for s in samples] == [
            (c.batches, c.messages, 20) for c in written
        ]
        assert [sum("probe_marker" in m.raw for x in s.sessions for m in x.messages) for s in samples] == [
            c.markers for c in written
        ]
        for sample, chat in zip(samples, written):
            assert sample_to_record(sample) == (
                json.loads((chat.folder / "chat.json").read_text(encoding="utf-8")),
                json.loads((chat.folder / "probing_questions" / "probing_questions.json").read_text()),
            )
    ten_m = load_dataset(
        "beam", data_dir=root / "chats" / "10M", cache_dir=tmp_path / "10M"
    )  # the folder says its tier
    assert [s.session_id for s in ten_m[0].sessions][:3] == ["plan-1:1", "plan-1:2", "plan-2:1"]


def test_a_local_copy_under_the_datasets_root_is_the_default_source_of_1m_and_10m(local_copies, tmp_path, monkeypatch):
    """What the no-pinned-source message advises: a copy in the layout under $HIMGA_DATASETS_ROOT/beam/ is read."""
    root, one, ten = local_copies
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "beam").symlink_to(root)
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "datasets"))
    for tier, written in (("1M", one), ("10M", ten)):
        samples = load_dataset("beam", tier, cache_dir=tmp_path / tier)
        assert [(s.sample_id, len(s.sessions)) for s in samples] == [
            (f"{tier}-{n}", c.batches) for n, c in enumerate(written, 1)
        ]


def test_the_tier_of_a_path(local_copies, shared_data, tmp_path):
    from himga.cache import build_files

    root, _one, _ten = local_copies
    with pytest.raises(
        ConfigurationError,
        match=r"^beam: .*beam holds the tiers 100K, 500K, whose chats share numbers but not "
        r"questions; pass the config \(config= / --config\)$",
    ):
        build_files(
            benchmark("beam"), None, shared_data / "beam"
        )  # the repository's root with two tiers: no silent default
    assert (
        len(build_files(benchmark("beam"), None, shared_data / "beam" / "chats" / "500K")) == 70
    )  # a tier folder: its tier
    with pytest.raises(ConfigurationError, match=r"^beam: .* holds the tiers 1M, 10M, whose chats share numbers"):
        build_files(benchmark("beam"), None, root)
    one_tier = tmp_path / "one_tier"
    shutil.copytree(shared_data / "beam" / "chats" / "500K" / "3", one_tier / "chats" / "500K" / "3")
    assert [p.relative_to(one_tier).as_posix() for p in build_files(benchmark("beam"), None, one_tier)] == [
        "chats/500K/3/chat.json",
        "chats/500K/3/probing_questions/probing_questions.json",
    ]  # a root with one tier: that tier
    assert (
        len(build_files(benchmark("beam"), None, root / "chats" / "1M" / "2")) == 2
    )  # a chat folder: its tier by its parent
    with pytest.raises(
        ConfigurationError, match=r"^beam: .*chats/1M/2 is in the 1M tier's folder, not 100K's; pass its config"
    ):
        build_files(benchmark("beam"), "100K", root / "chats" / "1M" / "2")
    with pytest.raises(ConfigurationError, match=r"^beam \(config '500K'\): no chat of the 500K tier in "):
        build_files(benchmark("beam"), "500K", root)
    copy = tmp_path / "mine"
    (copy / "7" / "probing_questions").mkdir(parents=True)
    with pytest.raises(ConfigurationError, match=r"^beam: cannot tell the tier of .*mine from its path"):
        build_files(benchmark("beam"), None, copy)
    with pytest.raises(
        SourceFormatError,
        match=r"^7/: \$: a BEAM chat needs chat.json and probing_questions/probing_questions.json; chat.json is "
        r"missing",
    ):
        build_files(benchmark("beam"), "1M", copy)


def test_bad_input_names_the_chat_file_and_the_record_path(tmp_path):
    folder = tmp_path / "chats" / "1M" / "4"
    write_beam_like(tmp_path, "1M", chats=4, plans=1, batches=2, groups=2, words=3)
    chat = json.loads((folder / "chat.json").read_text())
    chat[1]["turns"][1][0]["id"] = "12"
    (folder / "chat.json").write_text(json.dumps(chat))
    with pytest.raises(
        SourceFormatError,
        match=r"^4/chat.json: \$\[1\].turns\[1\]\[0\].id: expected an integer message id, got string$",
    ):
        load_dataset("beam", "1M", data_dir=tmp_path, cache_dir=tmp_path / "cache")
    (folder / "chat.json").write_text(json.dumps(chat)[:-40])
    with pytest.raises(SourceFormatError, match=r"^4/chat.json: \$\[1\]: invalid JSON"):
        load_dataset("beam", "1M", data_dir=tmp_path, cache_dir=tmp_path / "cache")
    write_beam_like(tmp_path, "1M", chats=4, plans=1, batches=2, groups=2, words=3)
    questions = folder / "probing_questions" / "probing_questions.json"
    value = json.loads(questions.read_text())
    value["memory_magic"] = value.pop("summarization")
    questions.write_text(json.dumps(value))
    with pytest.raises(
        SourceFormatError,
        match=r"^4/probing_questions/probing_questions.json: \$.memory_magic: expected one of the ten abilities",
    ):
        load_dataset("beam", "1M", data_dir=tmp_path, cache_dir=tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*.arrow"))  # nothing cached after a failed build


def test_the_download_cache_holds_the_pinned_files_at_their_layout_paths(shared_data, tmp_path, monkeypatch):
    from himga.cache import build_files
    from himga.errors import ChecksumError, DownloadError

    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(
        DownloadError,
        match=r"^chats/100K/1/chat.json: not in .*/beam and HF_HUB_OFFLINE is set; download "
        r"https://raw.githubusercontent.com/mohammadtavakoli78/BEAM/b2a3ee8ba12d68f83143dda191097dc3e028ddd3/"
        r"chats/100K/1/chat.json yourself and put it in .*/beam/chats/100K/1/ ",
    ):
        build_files(benchmark("beam"), "100K", None)
    shutil.copytree(
        shared_data / "beam" / "chats" / "100K", tmp_path / "beam" / "chats" / "100K"
    )  # as downloads leave them
    assert len(build_files(benchmark("beam"), "100K", None)) == 40
    (tmp_path / "beam" / "chats" / "100K" / "2" / "chat.json").write_text("[]")
    with pytest.raises(
        ChecksumError,
        match=r"^chats/100K/2/chat.json in the download cache .*/beam/ is not the pinned file "
        r"mohammadtavakoli78/BEAM@b2a3ee8 chats/100K/2/chat.json \(expected .* bytes, got 2 bytes\)",
    ):
        build_files(benchmark("beam"), "100K", None)
