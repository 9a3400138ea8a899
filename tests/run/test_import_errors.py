"""Bad input to ``himga import`` gets one clear error: a file of another benchmark, a layout that does not match (the
fields missing, with the path), duplicate records (listed), verdicts that are no booleans or numbers, a cut gzip,
unmatched records (unless allowed, and then counted)."""

from __future__ import annotations

import gzip
import json

import pytest

from himga.errors import ConfigurationError, SourceFormatError
from himga.run import import_run

_GRADES = "getzep__zep/benchmarks/locomo_eval/data/zep_locomo_grades.json"
_MEMPALACE = "MemPalace__mempalace/benchmarks/results_locomo_hybrid_session_top10_20260414_1649.json"
_AMB = "vectorize-io__agent-memory-benchmark/outputs/locomo/cognee/rag/locomo10.json.gz"


def test_a_file_of_another_benchmark(shared_data, locomo_samples, tmp_path):
    with pytest.raises(SourceFormatError, match=r"^longmemeval_oracle_pair.json: \$: no layout recognises this file's"):
        import_run(shared_data / "longmemeval" / "longmemeval_oracle_pair.json", samples=locomo_samples)
    lme = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())[0]
    path = tmp_path / "mem0.json"  # mem0's layout, a LongMemEval question in it
    path.write_text(json.dumps({"0": [{"question": lme["question"], "answer": lme["answer"], "response": "x",
                                       "category": "1"}]}))  # fmt: skip
    with pytest.raises(
        SourceFormatError,
        match=r"^mem0.json: \$: no record is a LoCoMo question \(1 record read, none joined by conversation and "
        r"question text; the first: \$.0\[0\]: no question of conv-26 has this text\): a file of another benchmark\?",
    ):
        import_run(path, samples=locomo_samples)


def test_a_layout_that_does_not_match_names_the_missing_fields(published_runs, locomo_samples):
    with pytest.raises(SourceFormatError) as e:
        import_run(published_runs / _GRADES, "evermemos", samples=locomo_samples)
    assert str(e.value) == (
        "zep_locomo_grades.json: $.locomo_experiment_user_0[0]: layout evermemos does not match: no llm_judgments "
        "(1,540 of 1,540 records); layout evermemos reads @group, question, answer, llm_judgments, category, "
        "golden_answer, response_duration_ms, search_duration_ms, total_duration_ms; the file has the shape of "
        "layout zep (Zep's grades or responses (getzep/zep benchmarks/locomo_eval/data/zep_locomo_*.json)): "
        "--layout zep, or auto"
    )
    with pytest.raises(SourceFormatError, match=r"^locomo10.json.gz: \$: layout mempalace does not match: .*--layout"):
        import_run(published_runs / _AMB, "mempalace", samples=locomo_samples)
    with pytest.raises(ConfigurationError, match=r"^unknown layout 'zepp': expected one of zep, evermemos, "):
        import_run(published_runs / _GRADES, "zepp", samples=locomo_samples)


def test_duplicate_records_are_listed_never_averaged(published_runs, locomo_samples, tmp_path):
    records = json.loads((published_runs / _MEMPALACE).read_text())
    path = tmp_path / "results.json"
    path.write_text(json.dumps([*records, records[0], records[5]]))
    with pytest.raises(SourceFormatError) as e:
        import_run(path, samples=locomo_samples)
    assert str(e.value) == (
        "results.json: $: 2 questions joined by more than one record (never averaged: remove the duplicates): "
        "conv-26:0 ($[0], $[1986]); conv-26:5 ($[5], $[1987])"
    )


def test_verdicts_that_are_no_booleans_or_numbers(published_runs, locomo_samples, tmp_path):
    grades = json.loads((published_runs / _GRADES).read_text())
    grades["locomo_experiment_user_2"][3]["grade"] = "CORRECT"
    path = tmp_path / "grades.json"
    path.write_text(json.dumps(grades))
    with pytest.raises(SourceFormatError) as e:
        import_run(path, samples=locomo_samples)
    assert str(e.value) == (
        "grades.json: $.locomo_experiment_user_2[3].grade: expected a verdict (a boolean, or a number in [0, 1]), "
        "got string"
    )
    grades["locomo_experiment_user_2"][3]["grade"] = 7
    path.write_text(json.dumps(grades))
    with pytest.raises(SourceFormatError, match=r"\[3\].grade: expected a verdict .*, got 7$"):
        import_run(path, samples=locomo_samples)


def test_a_cut_gzip(published_runs, locomo_samples, tmp_path):
    data = (published_runs / _AMB).read_bytes()
    path = tmp_path / "locomo10.json.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceFormatError, match=r"^locomo10.json.gz: \$: expected a complete gzip file, got "):
        import_run(path, samples=locomo_samples)


def test_unmatched_records_fail_unless_allowed_then_are_counted(published_runs, locomo_samples, tmp_path):
    document = json.loads(gzip.decompress((published_runs / _AMB).read_bytes()))
    document["results"][7]["meta"]["sample_id"] = "conv-30"
    document["results"][9]["query"] = "What did Caroline paint?"
    path = tmp_path / "amb.json"
    path.write_text(json.dumps(document))
    with pytest.raises(SourceFormatError) as e:
        import_run(path, samples=locomo_samples)
    assert str(e.value) == (
        "amb.json: $: 2 records join no LoCoMo question: $.results[7] (no question of conv-30 has this text "
        "(conv-26 has it: does the conversation key name another sample?)); $.results[9] (no question of conv-26 "
        "has this text); --allow-unmatched leaves them out"
    )
    imported = import_run(path, samples=locomo_samples, allow_unmatched=True)
    assert (imported.report["joined"], len(imported.report["left_out"])) == (150, 2)
    assert imported.lines[2].startswith("left out: 2 unmatched records (--allow-unmatched): $.results[7] (no question")


def test_records_with_different_numbers_of_verdicts(locomo_samples, tmp_path):
    path = tmp_path / "judged.json"
    records = [
        {"question": "When did Caroline go to the LGBTQ support group?", "answer": "x", "golden_answer": "7 May 2023",
         "category": 2, "llm_judgments": {"judgment_1": True, "judgment_2": True, "judgment_3": False}},
        {"question": "When did Melanie paint a sunrise?", "answer": "x", "golden_answer": 2022, "category": 2,
         "llm_judgments": {"judgment_1": True, "judgment_2": True}},
    ]  # fmt: skip
    path.write_text(json.dumps({"locomo_exp_user_0": records}))
    with pytest.raises(SourceFormatError) as e:
        import_run(path, samples=locomo_samples)
    assert str(e.value) == (
        "judged.json: $: records hold different numbers of verdicts: 2 in 1 record (first "
        "$.locomo_exp_user_0[1]), 3 in 1 record (first $.locomo_exp_user_0[0])"
    )


def test_a_field_map_that_is_not_one(locomo_samples, tmp_path):
    (tmp_path / "x.json").write_text("[]")
    with pytest.raises(ConfigurationError, match=r"^field map: unknown key 'answer': expected one of "):
        import_run(tmp_path / "x.json", field_map={"records": "$", "question": "q", "answer": "a"})
    with pytest.raises(ConfigurationError, match=r"^field map: records: expected '\$', '\$.KEY', '\$.\*' or "):
        import_run(tmp_path / "x.json", field_map={"records": "results", "question": "q", "conversation": "c"})


def test_a_field_map_that_does_not_match_is_named_so(locomo_samples, tmp_path):
    (tmp_path / "x.json").write_text('{"results": 5}')
    fmap = {"records": "$.results", "question": "q", "conversation": "c", "response": "r"}
    with pytest.raises(SourceFormatError, match=r"^x\.json: \$\.results: the field map does not match: expected an "):
        import_run(tmp_path / "x.json", field_map=fmap, samples=locomo_samples)


def test_a_field_map_naming_an_unknown_judge_or_label_map_is_refused_before_reading(locomo_samples, tmp_path):
    (tmp_path / "x.json").write_text("[]")
    fmap = {"records": "$", "question": "q", "conversation": "c"}
    with pytest.raises(ConfigurationError, match=r"^field map: judge: unknown judge 'nosuchjudge'"):
        import_run(tmp_path / "x.json", field_map={**fmap, "judge": "nosuchjudge"}, samples=locomo_samples)
    with pytest.raises(ConfigurationError, match=r"^field map: category_names: expected auto or one of .*'nonsense'"):
        import_run(tmp_path / "x.json", field_map={**fmap, "category_names": "nonsense"}, samples=locomo_samples)
