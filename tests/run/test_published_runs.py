"""Every published run in ``../shared/data/published-runs`` (and the audit's probe files) imports with 0 unmatched
records and reproduces its headline from its own verdicts, to the precision the project printed; the join's ties,
the categories as written and the fields each file holds besides."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

import pytest

from himga.data import item_id
from himga.run import import_run, reproduction
from himga.scoring import LOCOMO_SCORER, questions_by_id, retrieval_report, score_runs

_ZEP = "getzep__zep/benchmarks/locomo_eval/data/"
_FC = "dial481__locomo-audit/fc-baseline/results/"

#: file (under published-runs/, or ../locomo-audit/ for the probe) → (layout, records, per-run counts of the
#: headline's denominator, headline in percent as the verdicts give it, reproduction of the published number)
RUNS = {
    _ZEP + "zep_locomo_grades.json": ("zep", 1540, [1157], "75.1299", "within the published ±0.17"),
    "EverMind-AI__EverMemOS/evaluation/locomo_evaluation/results_ref/locomo_evaluation_event_log/judged.json": (
        "evermemos",
        1540,
        [1421, 1426, 1424],
        "92.4459",
        "not reproduced",
    ),
    _FC + "gpt-4.1-mini-cot/eval_results.json": (
        "locomo-audit-eval",
        1540,
        [1426, 1424, 1429],
        "92.6190",
        "reproduced",
    ),
    _FC + "gpt-4o-mini-cot/eval_results.json": ("locomo-audit-eval", 1540, [1229, 1229, 1233], "79.8918", "reproduced"),
    _FC + "gpt-4.1-mini-memos/eval_results.json": (
        "locomo-audit-eval",
        1540,
        [1260, 1263, 1263],
        "81.9481",
        "reproduced",
    ),
    "../locomo-audit/ap-baseline/v1/ap_eval_results_scored.json": (
        "locomo-audit-eval",
        1540,
        [163, 166, 161],
        "10.6061",
        "reproduced",
    ),
    "../locomo-audit/ap-baseline/v2/ap_eval_results_scored.json": (
        "locomo-audit-eval",
        1540,
        [970, 962, 970],
        "62.8139",
        "reproduced",
    ),
    "memodb-io__memobase/docs/experiments/locomo-benchmark/fixture/memobase/memobase_eval_0710_3000.json": (
        "mem0",
        1540,
        [1167],
        "75.7792",
        "reproduced",
    ),
    "vectorize-io__agent-memory-benchmark/outputs/locomo/cognee/rag/locomo10.json.gz": (
        "amb",
        152,
        [122],
        "80.2632",
        "reproduced",
    ),
}
MEMPALACE = "MemPalace__mempalace/benchmarks/results_locomo_hybrid_session_top10_20260414_1649.json"


@pytest.fixture(scope="module")
def questions(locomo_samples):
    return questions_by_id(locomo_samples)


def _verdicts(imported) -> dict:
    return {r["question_id"]: r["verdicts"] for r in imported.records}


@pytest.mark.parametrize("name", RUNS)
def test_every_shared_run_imports_whole_and_reproduces_its_headline(name, published_runs, locomo_samples, questions):
    layout, n, counts, percent, status = RUNS[name]
    imported = import_run(published_runs / name, samples=locomo_samples)
    report = imported.report
    assert (imported.run["layout"], report["records"], report["joined"], report["left_out"]) == (layout, n, n, [])
    assert report["gold"]["differ"] == 0 and report["categories"]["contradict"] == 0
    scored = score_runs(LOCOMO_SCORER, questions, _verdicts(imported))
    overall = scored["overall"]
    assert overall["counts"] == counts and overall["n"] == n
    assert Fraction(sum(counts), n * len(counts)) == Fraction(round(overall["mean"] * n * len(counts)), n * len(counts))
    assert f"{overall['mean'] * 100:.4f}" == percent
    assert reproduction(report["published"], overall["mean"] * 100) == status


def test_the_join_resolves_repeated_questions_by_category_then_occurrence(published_runs, locomo_samples):
    imported = import_run(published_runs / _ZEP / "zep_locomo_grades.json", samples=locomo_samples)
    assert imported.report["ties"] == {"category": 1, "occurrence": 22}  # conv-30's Gina; conv-48's 11 identical pairs
    where = {r["question_id"]: r["source"]["where"] for r in imported.records}
    assert (where["conv-48:16"], where["conv-48:89"]) == (
        "$.locomo_experiment_user_7[16]",
        "$.locomo_experiment_user_7[89]",
    )
    assert where["conv-30:61"] == "$.locomo_experiment_user_1[61]"  # the category-4 copy, not conv-30:95 (category 5)
    responses = import_run(published_runs / _ZEP / "zep_locomo_responses.json", samples=locomo_samples)
    assert responses.report["ties"] == {"scope": 1, "occurrence": 22}  # no category: the file's scope, 1-4
    assert [r["question_id"] for r in responses.records] == [r["question_id"] for r in imported.records]
    assert responses.records[0]["latency_ms"] == {"duration": 2018.4392929077148}
    assert "verdicts" not in responses.records[0] and responses.run["runs"] == 0


def test_per_category_counts_under_the_authors_names(published_runs, locomo_samples, questions):
    zep = import_run(published_runs / _ZEP / "zep_locomo_grades.json", samples=locomo_samples)
    scored = score_runs(LOCOMO_SCORER, questions, _verdicts(zep))["per_type"]
    rows = {r["type"]: (r["counts"][0], r["n"]) for r in scored if r["n"]}
    # Zep's README prints 66.04 (category 2) as "Open Domain" and 67.71 (category 3) as "Temporal"
    assert rows == {
        "single_hop": (671, 841),
        "multi_hop": (209, 282),
        "temporal": (212, 321),
        "open_domain": (65, 96),
    }
    evermemos = import_run(published_runs / next(k for k in RUNS if "judged" in k), samples=locomo_samples)
    overall = score_runs(LOCOMO_SCORER, questions, _verdicts(evermemos))["overall"]
    assert (round(overall["majority"] * 1540), overall["runs"]) == (1425, [1421 / 1540, 1426 / 1540, 1424 / 1540])


def test_mempalace_recall_is_the_mean_over_all_1986_questions(published_runs, locomo_samples, questions):
    imported = import_run(published_runs / MEMPALACE, samples=locomo_samples)
    assert (imported.report["joined"], imported.run["verdict_kind"], imported.report["ties"]) == (
        1986,
        "recall",
        {"category": 2, "occurrence": 22},
    )
    scored = score_runs(LOCOMO_SCORER, questions, _verdicts(imported))
    assert scored["overall"]["mean"] == pytest.approx(444967 / 252 / 1986, abs=1e-12)
    assert f"{scored['overall_without_category_5']['mean'] * 100:.4f}" == "87.0612"
    assert reproduction(imported.report["published"], scored["overall"]["mean"] * 100) == "reproduced"
    first = imported.records[0]
    assert "response" not in first and first["retrieved_sessions"][:2] == ["10", "1"]  # session_10, session_1
    assert first["source"]["fields"] == {"evidence": ["D1:3"]}


def test_mempalace_retrieval_scored_against_himga_s_labels(published_runs, locomo_samples):
    """Its R@10 (88.9, the mean of its own ``recall`` over 1,986 questions, the 4 without evidence as 1.0) against
    the official relevance labels: 1,982 questions with evidence, the 4 left out."""
    imported = import_run(published_runs / MEMPALACE, samples=locomo_samples)
    report = retrieval_report(locomo_samples, {r["question_id"]: r for r in imported.records})
    assert report["left_out"] == {"no evidence": 4} and report["session"]["questions"] == 1982
    assert round(report["session"]["recall@10"], 6) == 0.888655
    assert round(report["session"]["recall_any@10"], 4) == 0.9263 and "turn" not in report
    labels = {item_id(s, qa): s.relevance(qa) for s in locomo_samples for qa in s.qa_pairs}
    differ = sorted(
        r["question_id"]
        for r in imported.records
        if labels[r["question_id"]].evaluable
        and abs(
            len(set(labels[r["question_id"]].sessions) & set(r["retrieved_sessions"]))
            - r["verdicts"][0] * len(set(labels[r["question_id"]].sessions))
        )
        > 1e-9
    )
    assert differ == ["conv-43:18", "conv-49:46"]  # "D:11:26" mended to D11:26; "D21:18 D21:22 D11:15 D11:19" split


def test_the_amb_file_names_its_categories_in_mem0s_order_and_keeps_its_context(published_runs, locomo_samples):
    imported = import_run(published_runs / RUNS_AMB, samples=locomo_samples)
    assert imported.report["categories"] == {"given": 152, "names": "seed", "contradict": 0, "contradictions": []}
    assert imported.report["ids"] == {"named": 152, "agree": 152, "disagree": []}
    assert imported.report["stated"] == {"dataset": "locomo", "total_queries": 152, "correct": 122,
                                         "accuracy": 0.8026315789473685}  # fmt: skip
    first = imported.records[0]
    assert (first["question_id"], first["latency_ms"], first["context_tokens"]) == (
        "conv-26:0",
        {"retrieve": 2226.9},
        14647,
    )
    assert len(first["retrieved"]) == 50 and first["retrieved"][0]["text"].startswith("## Memory 1\n")
    assert first["retrieved_ids"][0] == "D14:12" and len(first["retrieved_ids"]) == 216
    assert sorted(first["source"]["fields"]) == ["category_axes", "judge_reason", "meta", "reasoning"]
    assert imported.run | {"sha256": None} == {
        "name": "cognee (amb)",
        "layout": "amb",
        "file": "locomo10.json.gz",
        "sha256": None,
        "judge": None,
        "judge_model": "gemini-2.5-flash-lite",
        "answer_model": "gemini-3.1-pro-preview",
        "verdict_kind": "judge",
        "runs": 1,
        "gold": "published",
    }


RUNS_AMB = "vectorize-io__agent-memory-benchmark/outputs/locomo/cognee/rag/locomo10.json.gz"


def test_records_read_again_keep_their_run(published_runs, locomo_samples, tmp_path):
    imported = import_run(published_runs / _FC / "gpt-4.1-mini-cot/eval_results.json", samples=locomo_samples)
    assert imported.report["ids"] == {"named": 1540, "agree": 1540, "disagree": []}
    assert imported.records[0]["source"] == {
        "where": "$.detailed_results.locomo_exp_user_0[0]",
        "category": "2",
        "gold": "7 May 2023",
        "id": "locomo_0_qa0",
    }
    (tmp_path / "fc.jsonl").write_text(imported.jsonl(), encoding="utf-8")
    again = import_run(tmp_path / "fc.jsonl", samples=locomo_samples)
    read = {
        "records_file": "fc.jsonl",
        "records_sha256": hashlib.sha256((tmp_path / "fc.jsonl").read_bytes()).hexdigest(),
    }
    assert again.run == {**imported.run, **read} and again.records == imported.records  # the copy read is named too
    assert again.lines[0].startswith("fc.jsonl: layout himga (recognised by its shape), 1,540 records")


def test_a_himga_run_folder_is_a_run(locomo_samples, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({"answer_model": "extractive", "gold": {"variant": "published"}}))
    records = [
        {"order": 0, "question_id": "conv-26:0", "question": "When did Caroline go to the LGBTQ support group?",
         "response": "7 May 2023", "latency_ms": {"retrieve": 0.1, "answer": 0.0}},
        {"order": 1, "question_id": "conv-26:1", "question": "When did Melanie paint a sunrise?", "response": "2022"},
    ]  # fmt: skip
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    imported = import_run(folder, samples=locomo_samples)
    assert imported.run | {"sha256": None} == {
        "name": "mine",
        "layout": "himga",
        "file": "records.jsonl",
        "sha256": None,
        "judge": None,
        "judge_model": None,
        "answer_model": "extractive",
        "verdict_kind": None,
        "runs": 0,
        "gold": "published",
    }
    assert imported.records[0] == {**records[0], "source": {"where": "line 1"}, "run": imported.run}


def test_a_field_map_reads_a_layout_himga_does_not_know(locomo_samples, tmp_path):
    their = {
        "runs": [
            {"conv": "conv-26", "q": "When did Caroline go to the LGBTQ support group?", "pred": "May 7", "ok": [1, 0],
             "type": "Temporal", "ms": 12.5, "extra": "kept"},
            {"conv": "conv-30", "q": "When Jon has lost his job as a banker?", "pred": "2023", "ok": [0.5, 1.0],
             "type": "temporal", "ms": 3},
        ]
    }  # fmt: skip
    (tmp_path / "their.json").write_text(json.dumps(their))
    fmap = {
        "records": "$.runs",
        "conversation": "conv",
        "question": "q",
        "response": "pred",
        "verdicts": "ok",
        "category": "type",
        "category_names": "authors",
        "latency_ms": {"answer": "ms"},
        "judge": "mem0",
        "judge_model": "gpt-4o-mini",
    }
    imported = import_run(tmp_path / "their.json", field_map=fmap, samples=locomo_samples)
    assert [r["question_id"] for r in imported.records] == ["conv-26:0", "conv-30:0"]
    assert imported.records[0] | {"run": None} == {
        "question_id": "conv-26:0",
        "question": "When did Caroline go to the LGBTQ support group?",
        "response": "May 7",
        "verdicts": [1, 0],
        "latency_ms": {"answer": 12.5},
        "source": {"where": "$.runs[0]", "category": "Temporal", "fields": {"extra": "kept"}},
        "run": None,
    }
    assert (imported.run["layout"], imported.run["judge"], imported.run["runs"]) == ("fields", "mem0", 2)
    assert imported.report["categories"]["names"] == "authors"
