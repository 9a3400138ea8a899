"""The metrics papers print (not official) equal A-mem's, mem0's and MAGMA's own code to the last digit
(tests/fixtures/scoring/official-paper-metrics.json, made by running that code: make_paper_metrics.py)."""

from __future__ import annotations

import json

import pytest
from helpers.scoring_fixtures import load_fixture

from himga.scoring._scorers import LOCOMO_PAPER_RULES
from himga.scoring.metrics._paper_metrics import bleu1, exact_match, magma_unanswerable, paper_scores, set_f1
from himga.scoring.metrics._paper_tables import PaperOptions, format_paper_table, paper_tables

FIXTURE = load_fixture("official-paper-metrics.json")


@pytest.fixture(scope="module")
def questions(locomo_samples):
    from himga.scoring.inputs._run_records import record_index

    return record_index(locomo_samples)


@pytest.fixture(scope="module")
def first_predictions():
    """The first of the two predictions per QA pair: the ones the fixture's aggregates are over."""
    out: dict[str, str] = {}
    for qid, prediction, *_ in FIXTURE["amem"]["rows"]:
        out.setdefault(qid, prediction)
    return out


def _scores(rows, questions, family):
    rules = LOCOMO_PAPER_RULES
    got = []
    for qid, prediction, *_ in rows:
        qa = questions.questions[qid]
        got.append(
            [
                qid,
                prediction,
                *paper_scores(
                    prediction, rules.reference(qa, family), family=family, category=rules.category(qa)
                ).values(),
            ]
        )
    return got


def test_exact_match_and_set_f1_equal_amem_on_every_fixture_row(questions):
    rows = FIXTURE["amem"]["rows"]
    assert len(rows) == 3972
    got = []
    for qid, prediction, *_ in rows:
        reference = LOCOMO_PAPER_RULES.reference(questions.questions[qid], "amem")
        empty = not prediction or not reference
        got.append(
            [0 if empty else exact_match(prediction, reference), 0.0 if empty else set_f1(prediction, reference)]
        )
    assert got == [row[2:4] for row in rows]


def test_every_metric_equals_amem_and_mem0_and_magma_row_by_row(questions, punkt):
    assert _scores(FIXTURE["amem"]["rows"], questions, "amem") == FIXTURE["amem"]["rows"]
    assert FIXTURE["mem0"]["rows_equal_to_amem"] == 3080 and FIXTURE["magma"]["rows_equal_to_amem"] == 3080
    assert len(FIXTURE["magma"]["rows"]) == 892  # MAGMA's category-5 rows: its own rule
    assert _scores(FIXTURE["magma"]["rows"], questions, "magma") == FIXTURE["magma"]["rows"]


def test_the_rules_on_hand_written_inputs(punkt):
    assert paper_scores("Dr. Smith went. Home", "dr smith went home") == {"exact_match": 0, "f1": 1.0, "bleu1": 0.6}
    assert paper_scores("", "x") == {"exact_match": 0, "f1": 0.0, "bleu1": 0.0}
    assert paper_scores("  Paris ", "paris") == {"exact_match": 1, "f1": 1.0, "bleu1": 1.0}
    assert paper_scores("", "trap", family="magma", category=5) == {"exact_match": 1, "f1": 1.0, "bleu1": 1.0}
    assert paper_scores("Paris", "trap", family="magma", category=5) == {"exact_match": 0, "f1": 0.0, "bleu1": 0.0}
    assert [magma_unanswerable(t) for t in ("N/A", " none ", "It is unknown", "no", "Not available.")] == [
        True,
        True,
        True,
        False,
        True,
    ]
    assert bleu1("the cat", "the cat sat on the mat") == pytest.approx(0.1353352832366127)


def test_amem_aggregate_pooled_by_category_number_equals_aggregate_metrics(questions, first_predictions, punkt):
    expected = FIXTURE["amem"]["aggregate_first_predictions"]
    [table] = paper_tables(
        questions.questions,
        first_predictions,
        questions.sample_of,
        LOCOMO_PAPER_RULES,
        PaperOptions(("amem",), row_order="category"),
    )
    assert [row["category"] for row in table["rows"]] == [1, 2, 3, 4, 5]
    for row in table["rows"]:
        assert {m: row[m] for m in ("exact_match", "f1", "bleu1")} == {
            m: expected[f"category_{row['category']}"][m]["mean"] for m in ("exact_match", "f1", "bleu1")
        }
        assert row["n"] == expected[f"category_{row['category']}"]["f1"]["count"]
    assert {m: table["overall"][m] for m in ("exact_match", "f1", "bleu1")} == {
        m: expected["overall"][m]["mean"] for m in ("exact_match", "f1", "bleu1")
    }
    assert table["overall"]["n"] == 1986


def test_mem0_table_prints_what_generate_scores_prints(questions, first_predictions, punkt):
    [table] = paper_tables(
        questions.questions,
        first_predictions,
        questions.sample_of,
        LOCOMO_PAPER_RULES,
        PaperOptions(("mem0",), row_order="category"),
    )
    printed = FIXTURE["mem0"]["generate_scores_stdout"].splitlines()
    assert printed[3:7] == [
        f"{r['category']}             {r['bleu1']:.4f}    {r['f1']:.4f}        0.0    {r['n']:>3}"
        for r in table["rows"][:4]
    ]
    assert table["rows"][4]["n"] == 0  # evals.py skips category 5
    assert printed[9:11] == [
        f"bleu_score    {table['overall']['bleu1']:.4f}",
        f"f1_score      {table['overall']['f1']:.4f}",
    ]


def test_magma_per_sample_aggregation_equals_its_per_conversation_stats(questions, first_predictions, punkt):
    magma = FIXTURE["magma"]
    [table] = paper_tables(
        questions.questions,
        first_predictions,
        questions.sample_of,
        LOCOMO_PAPER_RULES,
        PaperOptions(("magma",), aggregation="per_sample", row_order="category"),
    )
    for sample, stats in magma["per_conversation_stats"].items():
        mine = {q: p for q, p in first_predictions.items() if questions.sample_of[q] == sample}
        [one] = paper_tables(
            questions.questions,
            mine,
            questions.sample_of,
            LOCOMO_PAPER_RULES,
            PaperOptions(("magma",), aggregation="per_sample"),
        )
        # MAGMA: sum(scores) / len(scores) * 100; himga: sum(scores) / len(scores)
        assert one["overall"]["f1"] * 100 == pytest.approx(stats["overall"]["avg_f1"], rel=1e-15)
        assert one["overall"]["bleu1"] * 100 == pytest.approx(stats["overall"]["avg_bleu1"], rel=1e-15)
        assert one["overall"]["exact_match"] * 100 == pytest.approx(stats["overall"]["accuracy"], rel=1e-15)
        for row in one["rows"]:
            if row["n"] == 0:  # a conversation without questions of this category: no row in MAGMA's breakdown either
                assert f"category_{row['category']}" not in stats["category_breakdown"] and row["f1"] is None
                continue
            assert row["f1"] * 100 == pytest.approx(
                stats["category_breakdown"][f"category_{row['category']}"]["avg_f1"], rel=1e-15
            )
    assert table["overall"]["samples"] == 10
    for mine, theirs in (("f1", "avg_f1"), ("bleu1", "avg_bleu1"), ("exact_match", "accuracy")):
        assert table["overall"][mine] * 100 == pytest.approx(magma["aggregate"][theirs], rel=1e-15)
    [without] = paper_tables(
        questions.questions,
        first_predictions,
        questions.sample_of,
        LOCOMO_PAPER_RULES,
        PaperOptions(("magma",), aggregation="per_sample", category_5=False),
    )
    assert without["overall"]["exact_match"] * 100 == pytest.approx(magma["aggregate"]["accuracy_no_cat5"], rel=1e-15)
    assert [row["type"] for row in without["rows"]] == ["single_hop", "multi_hop", "temporal", "open_domain"]


def test_a_table_says_not_official_and_names_its_source(questions, first_predictions, punkt):
    [table] = paper_tables(
        questions.questions, first_predictions, questions.sample_of, LOCOMO_PAPER_RULES, PaperOptions(("amem",))
    )
    text = format_paper_table(table).splitlines()
    assert text[0] == (
        "not official: A-Mem metrics (WujiangXu/A-mem@0c8039f utils.py), pooled, category 5 included, "
        "rows by paper order"
    )
    assert text[2].startswith("single_hop (4)                 841   0.3936   0.5650   0.5241")
    assert table["official"] is False
    json.dumps(table)  # JSON-ready
    [mem0] = paper_tables(
        questions.questions, first_predictions, questions.sample_of, LOCOMO_PAPER_RULES, PaperOptions(("mem0",))
    )
    text = format_paper_table(mem0).splitlines()
    assert text[0] == (
        "not official: mem0 metrics (mem0ai/mem0@b3ede5b evaluation/metrics/utils.py), pooled, category 5 not "
        "scored (evaluation/evals.py skips it), rows by paper order"
    )
    assert text[2:7][-1].split() == ["adversarial", "(5)", "0", "—", "—", "—"] and mem0["overall"]["n"] == 1540


def test_himga_score_prints_them_not_official_and_records_every_choice(
    first_predictions, shared_data, tmp_path, capsys, punkt
):
    from himga.cli import main

    path = tmp_path / "results.json"
    path.write_text(json.dumps([{"question_id": q, "response": p} for q, p in first_predictions.items()]))
    out = tmp_path / "report.json"
    args = [
        "score",
        "locomo",
        str(path),
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path / "c"),
        "--out",
        str(out),
        "--paper-metrics",
        "amem,magma",
        "--paper-aggregation",
        "per_sample",
        "--paper-rows",
        "category",
    ]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    heads = [line for line in lines if line.startswith("not official")]
    assert heads == [
        "not official: A-Mem metrics (WujiangXu/A-mem@0c8039f utils.py), per sample, category 5 included, rows by "
        "category order",
        "not official: MAGMA metrics (FredJiang0324/MAMGA@11fd2a6 utils/utils.py), per sample, category 5 included, "
        "rows by category order",
    ]
    report = json.loads(out.read_text())
    assert [t["family"] for t in report["paper_metrics"]] == ["amem", "magma"]
    assert report["paper_metrics"][1]["overall"]["f1"] * 100 == pytest.approx(
        FIXTURE["magma"]["aggregate"]["avg_f1"], rel=1e-15
    )
    record = report["run"]["paper_metrics"]
    assert (record["official"], record["aggregation"], record["category_5"], record["row_order"]) == (
        False,
        "per_sample",
        "included",
        "category",
    )
    assert list(record["families"]) == ["amem", "magma"] and record["families"]["magma"]["commit"].startswith("11fd2a6")
    assert main(["score", "longmemeval", str(path), "--paper-metrics", "all", "--labels", str(path)]) == 2
    assert capsys.readouterr().err == "himga: error: longmemeval: --paper-metrics applies to locomo only\n"


def test_without_punkt_exact_match_and_f1_are_printed_and_bleu_1_says_why(
    first_predictions, shared_data, tmp_path, capsys, monkeypatch
):
    """Only BLEU-1 needs nltk's Punkt model (nltk.word_tokenize): without it the tables hold exact match and F1, equal
    to the official code's, and say why BLEU-1 is missing; ``--paper-metrics`` takes the families as a list."""
    import nltk

    from himga.cli import main
    from himga.scoring.metrics import _paper_metrics

    def nowhere(name, *args, **kwargs):
        raise LookupError(name)

    monkeypatch.setattr(nltk.data, "find", nowhere)
    _paper_metrics._nltk.cache_clear()
    path = tmp_path / "results.json"
    path.write_text(json.dumps([{"question_id": q, "response": p} for q, p in first_predictions.items()]))
    out = tmp_path / "report.json"
    args = ["score", "locomo", str(path), "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
    assert (
        main([*args, "--out", str(out), "--paper-metrics", "amem", "magma", "--paper-aggregation", "per_sample"]) == 0
    )
    _paper_metrics._nltk.cache_clear()
    lines = capsys.readouterr().out.splitlines()
    notes = [line for line in lines if line.startswith("note: BLEU-1 not computed")]
    assert (
        notes
        == [
            "note: BLEU-1 not computed (exact match and F1 need no tokenizer model): BLEU-1 as A-Mem, mem0 and MAGMA "
            "compute it tokenizes with nltk.word_tokenize, which needs nltk's Punkt model: python -m nltk.downloader "
            "punkt_tab (or set NLTK_DATA to a folder holding tokenizers/punkt_tab)"
        ]
        * 2
    )
    tables = json.loads(out.read_text())["paper_metrics"]
    assert [t["family"] for t in tables] == ["amem", "magma"] and {t["overall"]["bleu1"] for t in tables} == {None}
    assert tables[1]["overall"]["f1"] * 100 == pytest.approx(FIXTURE["magma"]["aggregate"]["avg_f1"], rel=1e-15)
