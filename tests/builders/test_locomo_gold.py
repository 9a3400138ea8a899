"""LoCoMo's gold variants (``gold="published"`` / ``"audited"``) on the real locomo10.json and the real
dial481/locomo-audit errors.json: exact counts measured on the files."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter

import datasets
import pytest

import himga  # noqa: F401 - registers himga_locomo
from himga.cache import make_builder, prepare
from himga.catalog import benchmark
from himga.data import load_locomo
from himga.errors import ChecksumError, ConfigurationError, DownloadError, SourceFormatError
from himga_locomo.gold import ERRATA_PIN
from himga_locomo.gold_report import audit_summary, format_audit_summary
from himga_locomo.source_record import sample_to_record

ERRATA_SHA256 = "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e"
#: sha256 of json.dumps(rows, ensure_ascii=False, sort_keys=True) of the default build, measured with the code
#: of main before the gold option existed (builder 2.0.0): gold="published" must give these rows.
PUBLISHED_ROWS_SHA256 = "69495ef4a1b203c3b8156a53fa9c7009119a561015001e9ddcc50da98523cf74"


@pytest.fixture(scope="module")
def errata_file(shared_data):
    path = shared_data / "locomo-audit" / "errors.json"
    if not path.is_file():
        reason = f"real data not found at {path}"
        pytest.fail(reason) if os.environ.get("CI") else pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def audited(shared_data, errata_file, tmp_path_factory):
    return load_locomo(
        shared_data / "locomo", cache_dir=tmp_path_factory.mktemp("gold"), gold="audited", errata=errata_file
    )


def _rows_sha256(ds) -> str:
    """The pin's digest of ``ds``'s rows, without the QA fields added since (builder 2.1.0: ``position`` None and
    ``options`` [] on every LoCoMo QA pair), so that the values of before are what is compared."""
    rows = ds.to_list()
    for row in rows:
        for qa in row["qa_pairs"]:
            assert (qa.pop("position"), qa.pop("options")) == (None, [])
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def test_the_pinned_errata_is_the_shared_copy(errata_file):
    data = errata_file.read_bytes()
    assert (
        (len(data), hashlib.sha256(data).hexdigest())
        == (ERRATA_PIN.size, ERRATA_PIN.sha256)
        == (150_552, ERRATA_SHA256)
    )


def test_published_gold_gives_the_rows_of_before(shared_data, tmp_path):
    default = prepare(make_builder(benchmark("locomo"), data_dir=shared_data / "locomo", cache_dir=tmp_path))
    published = prepare(
        make_builder(benchmark("locomo"), data_dir=shared_data / "locomo", cache_dir=tmp_path, gold="published")
    )
    assert _rows_sha256(default) == _rows_sha256(published) == PUBLISHED_ROWS_SHA256


def test_audited_counts(audited):
    assert audit_summary(audited) == {
        "gold": "audited",
        "errata": "errors.json",
        "errata_sha256": ERRATA_SHA256,
        "qa_pairs": 1986,
        "audited": 156,
        "answer_changed": 120,
        "evidence_changed": 97,
        "by_category": {"4": 57, "1": 53, "2": 36, "3": 10},
        "by_error_type": {
            "WRONG_CITATION": 57,
            "HALLUCINATION": 33,
            "TEMPORAL_ERROR": 26,
            "ATTRIBUTION_ERROR": 24,
            "AMBIGUOUS": 13,
            "INCOMPLETE": 3,
        },
    }


def test_audited_changes_exactly_the_corrected_answers_and_evidence(audited, locomo_samples):
    answers, evidence, by_category, by_type = Counter(), Counter(), Counter(), Counter()
    for published, corrected in zip(locomo_samples, audited, strict=True):
        for qp, qa in zip(published.qa_pairs, corrected.qa_pairs, strict=True):
            audit = qa.raw.get("gold_audit")
            assert (qp.question, qp.question_type, qp.is_abstention) == (
                qa.question,
                qa.question_type,
                qa.is_abstention,
            )
            assert {k: v for k, v in qa.raw.items() if k != "gold_audit"} == qp.raw  # the published QA, untouched
            if audit is None:
                assert (qa.answer, qa.evidence) == (qp.answer, qp.evidence)
                continue
            by_category[qa.raw["category"]] += 1
            by_type[(qa.raw["category"], audit["error_type"])] += 1
            answers[qa.raw["category"]] += qa.answer != qp.answer
            evidence[qa.raw["category"]] += qa.evidence.turn_ids != qp.evidence.turn_ids
            assert ("answer" in audit["changed"]) == (qa.answer != qp.answer)
    assert by_category == {4: 57, 1: 53, 2: 36, 3: 10}
    assert answers == {1: 37, 2: 31, 3: 10, 4: 42}  # 120
    # 97 entries correct the evidence; 2 of them only re-write it in the form normalization gives anyway
    # (conv-26 QA 37 'D8:6; D9:17', conv-50 QA 69 'D30:05'), so 95 normalized lists change
    assert evidence == {1: 43, 2: 14, 3: 6, 4: 32}
    assert by_type == {
        (1, "AMBIGUOUS"): 5,
        (1, "HALLUCINATION"): 20,
        (1, "INCOMPLETE"): 2,
        (1, "TEMPORAL_ERROR"): 1,
        (1, "WRONG_CITATION"): 25,
        (2, "AMBIGUOUS"): 3,
        (2, "ATTRIBUTION_ERROR"): 2,
        (2, "HALLUCINATION"): 3,
        (2, "TEMPORAL_ERROR"): 18,
        (2, "WRONG_CITATION"): 10,
        (3, "AMBIGUOUS"): 2,
        (3, "HALLUCINATION"): 6,
        (3, "TEMPORAL_ERROR"): 1,
        (3, "WRONG_CITATION"): 1,
        (4, "AMBIGUOUS"): 3,
        (4, "ATTRIBUTION_ERROR"): 22,
        (4, "HALLUCINATION"): 4,
        (4, "INCOMPLETE"): 1,
        (4, "TEMPORAL_ERROR"): 6,
        (4, "WRONG_CITATION"): 21,
    }


def test_one_audited_pair(audited):
    qa = audited[0].qa_pairs[1]  # locomo_0_qa1
    assert (qa.question, qa.answer, qa.evidence.turn_ids) == ("When did Melanie paint a sunrise?", "2022", ["D1:14"])
    assert (qa.raw["answer"], qa.raw["evidence"]) == (2022, ["D1:12"])
    assert qa.raw["gold_audit"]["errata_id"] == "locomo_0_qa1"
    assert qa.raw["gold_audit"]["changed"] == ["evidence"]
    assert qa.raw["gold_audit"]["error_type"] == "WRONG_CITATION"
    assert qa.raw["gold_audit"]["reasoning"].startswith("D1:12 (cited) says 'By the way, take a look at this'")
    assert (qa.raw["gold_audit"]["answer"], qa.raw["gold_audit"]["evidence"]) == ("2022", ["D1:14"])
    assert audited[0].raw["gold"] == {"variant": "audited", "errata": "errors.json", "errata_sha256": ERRATA_SHA256}


def test_audited_category3_answers_are_cut_like_the_published_ones(audited):
    qa = audited[0].qa_pairs[77]  # locomo_0_qa77: "Uncertain; although the trip started badly ..."
    assert qa.raw["gold_audit"]["changed"] == ["answer", "evidence"]
    assert qa.answer == "Uncertain"
    assert qa.raw["answer"] == "Likely no; since this one went badly"


def test_audited_records_rebuild_the_source(shared_data, audited):
    source = json.loads((shared_data / "locomo" / "locomo10.json").read_text(encoding="utf-8"))
    assert [sample_to_record(s) for s in audited] == source


def test_a_question_that_differs_is_an_error(shared_data, errata_file, tmp_path):
    entries = json.loads(errata_file.read_text(encoding="utf-8"))
    entries[5]["question"] += "?"
    (tmp_path / "mine.json").write_text(json.dumps(entries), encoding="utf-8")
    with pytest.raises(SourceFormatError) as info:
        load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited", errata=tmp_path / "mine.json")
    assert str(info.value) == (
        "mine.json: $[5].question: locomo_0_qa26 (locomo10.json $[0].qa[26]): expected the QA pair's question "
        """'When did Melanie read the book "nothing is impossible"?', """
        """got 'When did Melanie read the book "nothing is impossible"??'"""
    )


def test_an_entry_beyond_the_source_is_an_error(shared_data, errata_file, tmp_path):
    entries = json.loads(errata_file.read_text(encoding="utf-8"))
    (tmp_path / "mine.json").write_text(
        json.dumps([*entries, {**entries[0], "question_id": "locomo_10_qa1"}]), encoding="utf-8"
    )
    with pytest.raises(
        SourceFormatError,
        match=r"mine.json: \$\[156\].question_id: locomo_10_qa1: no such conversation \(the source has 10\)",
    ):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited", errata=tmp_path / "mine.json")


def test_malformed_entries(shared_data, errata_file, tmp_path):
    entries = json.loads(errata_file.read_text(encoding="utf-8"))
    cases = [
        (
            {**entries[0], "question_id": "conv-26:1"},
            "mine.json: $[0].question_id: expected locomo_<conversation>_qa<index>, got 'conv-26:1'",
        ),
        (
            {**entries[0], "category": 5},
            "mine.json: $[0].category: expected 1-4 (category 5's gold is the abstention), got 5",
        ),
        (
            {**entries[0], "category": 2.5},
            "mine.json: $[0].category: expected 1-4 (category 5's gold is the abstention), got number 2.5",
        ),
        (
            {k: v for k, v in entries[0].items() if k != "reasoning"},
            "mine.json: $[0]: missing required key 'reasoning'",
        ),
    ]
    for i, (entry, message) in enumerate(cases):
        (tmp_path / "mine.json").write_text(json.dumps([entry]), encoding="utf-8")
        with pytest.raises(SourceFormatError) as info:
            load_locomo(
                shared_data / "locomo", cache_dir=tmp_path / f"c{i}", gold="audited", errata=tmp_path / "mine.json"
            )
        assert str(info.value) == message
    (tmp_path / "mine.json").write_text(json.dumps([entries[0], entries[0]]), encoding="utf-8")
    with pytest.raises(SourceFormatError, match=r"\$\[1\].question_id: locomo_0_qa1 is also named at \$\[0\]"):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path / "dup", gold="audited", errata=tmp_path / "mine.json")


def test_a_users_errata_keys_the_cache_by_content(shared_data, errata_file, tmp_path):
    entries = json.loads(errata_file.read_text(encoding="utf-8"))
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(entries[:1]), encoding="utf-8")
    first = load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited", errata=mine)
    assert audit_summary(first)["audited"] == 1
    mine.write_text(json.dumps(entries[:3]), encoding="utf-8")  # the same path, other content
    second = load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited", errata=mine)
    assert audit_summary(second)["audited"] == 3
    assert audit_summary(second)["errata_sha256"] == hashlib.sha256(mine.read_bytes()).hexdigest()


def test_config_ids_differ_by_gold(shared_data, errata_file, tmp_path):
    published = make_builder(benchmark("locomo"), data_dir=shared_data / "locomo", cache_dir=tmp_path)
    audited = make_builder(
        benchmark("locomo"), data_dir=shared_data / "locomo", cache_dir=tmp_path, gold="audited", errata=errata_file
    )
    assert published.config_id != audited.config_id  # datasets derives it from the config keywords
    assert (published.config.errata_sha256, audited.config.errata_sha256) == (None, ERRATA_SHA256)


def test_errata_without_audited_gold_is_an_error(shared_data, errata_file, tmp_path):
    with pytest.raises(
        ConfigurationError, match="errata: an errata file applies with gold='audited' only, got gold='published'"
    ):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path, errata=errata_file)
    with pytest.raises(ConfigurationError, match=r"gold: expected one of \['published', 'audited'\], got 'fixed'"):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path, gold="fixed")


def test_pinned_errata_found_under_the_datasets_root(shared_data, errata_file, tmp_path, monkeypatch):
    root = tmp_path / "root"
    (root / "locomo-audit").mkdir(parents=True)
    (root / "locomo-audit" / "errors.json").write_bytes(errata_file.read_bytes())
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(root))
    samples = load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited")
    assert audit_summary(samples)["audited"] == 156


def test_pinned_errata_offline_without_a_copy(shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path / "himga"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(
        DownloadError, match=f"errors.json: not in .* and HF_HUB_OFFLINE is set; download {ERRATA_PIN.url}"
    ):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited")


def test_pinned_errata_in_the_download_cache_must_be_the_pin(shared_data, errata_file, tmp_path, monkeypatch):
    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path / "himga"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "himga" / "locomo-audit").mkdir(parents=True)
    cached = tmp_path / "himga" / "locomo-audit" / "errors.json"
    cached.write_bytes(errata_file.read_bytes())
    assert (
        audit_summary(load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited"))["audited"] == 156
    )
    cached.write_bytes(errata_file.read_bytes().replace(b"WRONG_CITATION", b"WRONG_CITATIOM", 1))  # same size
    with pytest.raises(
        ChecksumError,
        match=f"errors.json in the download cache .* is not the pinned file dial481/locomo-audit@9493fb4 "
        f"errors.json \\(expected sha256 {ERRATA_SHA256}, got sha256 ",
    ):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited")


def test_datasets_load_dataset_route(shared_data, errata_file, tmp_path):
    ds = datasets.load_dataset(
        "himga_locomo",
        data_dir=str(shared_data / "locomo"),
        split="test",
        cache_dir=str(tmp_path),
        gold="audited",
        errata=str(errata_file),
    )
    qa = json.loads(ds[0]["qa_pairs"][1]["raw"])
    assert (ds[0]["qa_pairs"][1]["evidence"]["turn_ids"], qa["gold_audit"]["error_type"]) == (
        ["D1:14"],
        "WRONG_CITATION",
    )


def test_format_audit_summary(audited):
    assert format_audit_summary(audit_summary(audited)).splitlines()[:5] == [
        f"gold: audited (errors.json, sha256 {ERRATA_SHA256})",
        "  QA pairs corrected            156 of 1,986",
        "  answer changed                120",
        "  evidence changed               97",
        "  corrected by category:",
    ]
