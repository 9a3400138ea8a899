"""The papers' tables: per-type n, mean and 95% interval, LoCoMo's totals, LongMemEval's totals exactly as
print_qa_metrics.py (xiaowu0162/LongMemEval@9e0b455) prints them, and a deterministic run record."""

from __future__ import annotations

import re

import pytest
from helpers.scoring_fixtures import load_fixture

from himga.catalog import benchmark
from himga.data import item_id
from himga.errors import ConfigurationError, SourceFormatError
from himga.run import dumps_report, run_record
from himga.scoring import format_table, normal_interval, score_samples, summarize, wilson_interval

METRICS = load_fixture("official-longmemeval-qa-metrics.json")


def test_wilson_and_normal_intervals():
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.277533, abs=1e-6))
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 0) is None
    assert normal_interval([0.2, 0.4, 0.6, 0.8]) == pytest.approx(
        (0.246970, 0.753030), abs=1e-6
    )  # 0.5 ± 1.959964·0.258199/2
    assert normal_interval([0.5]) is None
    assert summarize([0, 1, 1]) == {"n": 3, "mean": 2 / 3, "ci95": list(wilson_interval(2, 3)), "ci_method": "wilson"}
    assert summarize([])["mean"] is None


def test_locomo_gold_scores_one_in_every_category(locomo_samples):
    predictions = {item_id(s, qa): qa.answer for s in locomo_samples for qa in s.qa_pairs}
    report = score_samples("locomo", locomo_samples, predictions=predictions)
    assert [(r["type"], r["n"], r["mean"]) for r in report["per_type"]] == [
        ("single_hop", 841, 1.0),
        ("multi_hop", 282, 1.0),
        ("temporal", 321, 1.0),
        ("open_domain", 96, 1.0),
        ("adversarial", 446, 1.0),
    ]
    assert (report["overall"]["n"], report["overall"]["mean"]) == (1986, 1.0)
    assert (report["overall_without_category_5"]["n"], report["overall_without_category_5"]["mean"]) == (1540, 1.0)


def test_the_system_views_ids_are_keys_too(locomo_samples):
    """The form the error message offers (the system view's id) is accepted in a dict as in the loop's records."""
    from himga.data import view_ids

    gold = {item_id(s, qa): qa.answer for s in locomo_samples for qa in s.qa_pairs}
    by_view = {
        view: gold[qid] for s in locomo_samples for view, qid in view_ids(s).questions.items()
    }  # view id -> item id
    report = score_samples("locomo", locomo_samples, predictions=by_view)
    assert (report["overall"]["n"], report["overall"]["mean"]) == (1986, 1.0)
    twice = {"conv-26:0": "a", "v07d45ed2e9:q1": "b"}
    with pytest.raises(
        SourceFormatError,
        match=r"^predictions: \$: question conv-26:0 is given twice: as conv-26:0 and as v07d45ed2e9:q1$",
    ):
        score_samples("locomo", locomo_samples, predictions=twice, partial=True)


def test_locomo_questions_as_predictions(locomo_samples):
    predictions = {item_id(s, qa): qa.question for s in locomo_samples for qa in s.qa_pairs}
    report = score_samples("locomo", locomo_samples, predictions=predictions)
    assert report["overall"]["mean"] == pytest.approx(0.029395667717728814, abs=1e-15)
    assert report["overall_without_category_5"]["mean"] == pytest.approx(0.0379089584983178, abs=1e-15)
    assert [r["ci_method"] for r in report["per_type"]] == ["normal"] * 4 + ["wilson"]
    assert report["per_type"][0]["ci95"] == pytest.approx([0.03984303276526229, 0.05195851017850973], abs=1e-12)
    assert (
        format_table(report).splitlines()[2] == "single_hop                     841   0.0459  [0.0398, 0.0520] normal"
    )


def _official_stdout() -> dict[str, tuple[float, int | None]]:
    out = {}
    for name, value, n in re.findall(r"^\s*([\w -]+?):? ([\d.]+)(?: \((\d+)\))?$", METRICS["stdout"], re.M):
        out[name.strip().rstrip(":")] = (float(value), int(n) if n else None)
    return out


def test_longmemeval_totals_equal_print_qa_metrics(longmemeval_samples):
    official = _official_stdout()
    assert official["Task-averaged Accuracy"] == (0.6426, None) and official["Abstention Accuracy"] == (0.6667, 3)
    labels = {x["question_id"]: x["autoeval_label"]["label"] for x in METRICS["labels"]}
    report = score_samples("longmemeval", longmemeval_samples, labels=labels)
    for row in report["per_type"]:
        assert (round(row["mean"], 4), row["n"]) == official[row["type"]]
    assert round(report["task_averaged"]["mean"], 4) == official["Task-averaged Accuracy"][0]
    assert round(report["overall"]["mean"], 4) == official["Overall Accuracy"][0]
    assert (round(report["abstention"]["mean"], 4), report["abstention"]["n"]) == official["Abstention Accuracy"]


def test_task_average_is_undefined_when_a_task_has_no_question(longmemeval_samples):
    labels = {
        s.qa_pairs[0].question_id: True
        for s in longmemeval_samples
        if s.qa_pairs[0].raw["question_type"] != "single-session-assistant"
    }
    report = score_samples("longmemeval", longmemeval_samples, labels=labels, partial=True)
    assert report["task_averaged"] == {
        "mean": None,
        "tasks": 6,
        "undefined": "no questions of single-session-assistant (print_qa_metrics.py prints nan)",
    }
    assert len(report["missing"]) == 6 and report["scored"] == 93


def test_a_judged_benchmark_needs_labels(longmemeval_samples):
    with pytest.raises(ConfigurationError, match="needs judge labels"):
        score_samples("longmemeval", longmemeval_samples, predictions={})
    with pytest.raises(ConfigurationError, match="unknown dataset 'x'"):
        score_samples("x", [], predictions={})


def test_two_reports_differ_only_in_the_timestamp(locomo_samples, shared_data):
    predictions = {item_id(s, qa): "" for s in locomo_samples for qa in s.qa_pairs}
    files = [shared_data / "locomo" / "locomo10.json"]
    texts = []
    for created in ("2026-01-01T00:00:00+00:00", "2026-12-31T23:59:59+00:00"):
        report = score_samples("locomo", locomo_samples, predictions=predictions)
        report["run"] = run_record(benchmark("locomo"), "default", files, report, created=created)
        texts.append(dumps_report(report))
    a, b = (t.splitlines() for t in texts)
    assert [(x, y) for x, y in zip(a, b, strict=True) if x != y] == [
        ('    "created": "2026-01-01T00:00:00+00:00",', '    "created": "2026-12-31T23:59:59+00:00",')
    ]
    run = report["run"]
    assert run["sources"] == [
        {
            "name": "locomo10.json",
            "is_pin": True,
            "pin": "snap-research/locomo@3eb6f2c locomo10.json",
            "sha256": "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
        }
    ]
    assert run["scorer"]["commit"] == "92286325a40764bee61f77824ddb95233b11c4d6" and run["scored"] == 1986
    assert run["gold_options"]["category_order"] == {
        "4": "single_hop",
        "1": "multi_hop",
        "2": "temporal",
        "3": "open_domain",
        "5": "adversarial",
    }


def test_locomo_scores_do_not_depend_on_the_builder_options(locomo_samples, shared_data, tmp_path):
    """The score reads the source record (raw category and answer), so seed order and full category-3 gold change
    nothing."""
    from himga.data import load_locomo

    other = load_locomo(
        shared_data / "locomo",
        cache_dir=tmp_path,
        category_order="seed",
        category3_answer="full",
        adversarial_answer="seed",
    )
    predictions = {item_id(s, qa): qa.answer for s in other for qa in s.qa_pairs}  # full category-3 text, trap answers
    a = score_samples("locomo", locomo_samples, predictions=predictions)
    b = score_samples("locomo", other, predictions=predictions)
    assert a == b
    assert [(r["type"], round(r["mean"], 4)) for r in a["per_type"]] == [
        ("single_hop", 1.0),
        ("multi_hop", 1.0),
        ("temporal", 1.0),
        ("open_domain", 0.9274),
        ("adversarial", 0.0045),
    ]  # conv-30:79 and :103: trap answer "Not mentioned"


def test_a_path_in_place_of_the_records_says_so(locomo_samples, tmp_path):
    from pathlib import Path

    from himga.scoring import read_predictions, score_records

    for records in ("results.json", Path("results.json")):
        with pytest.raises(
            ConfigurationError,
            match=r"^records: expected the records themselves \(a list of objects\), "
            r"got the path 'results.json': read the file first",
        ):
            score_records("locomo", locomo_samples, records)
    with pytest.raises(ConfigurationError, match=r"^predictions: expected the records themselves"):
        score_samples("locomo", locomo_samples, predictions="preds.jsonl")
    array = tmp_path / "results.json"  # the loop's file, a JSON array: not called corrupted
    array.write_text('\ufeff [{"question_id": "conv-26:0", "hypothesis": "x"}]', encoding="utf-8")
    with pytest.raises(SourceFormatError) as info:
        read_predictions(array)
    assert str(info.value) == (
        'results.json: $: expected JSON Lines (a {"question_id", "hypothesis"} object per line), got a '
        "JSON array: json.load it and pass the records to score_records, or score the file with "
        "himga score, which reads both"
    )


def test_the_table_keeps_the_authors_categories_whatever_order_the_samples_were_loaded_with(shared_data, tmp_path):
    """docs/scoring-a-run.md: the rows are the source's categories under the authors' names."""
    from collections import Counter

    from himga.data import load_locomo

    seed = load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", category_order="seed")
    report = score_samples("locomo", seed, predictions={item_id(s, qa): qa.answer for s in seed for qa in s.qa_pairs})
    assert [(r["type"], r["n"]) for r in report["per_type"]] == [
        ("single_hop", 841),
        ("multi_hop", 282),
        ("temporal", 321),
        ("open_domain", 96),
        ("adversarial", 446),
    ]
    assert Counter(str(qa.question_type) for s in seed for qa in s.qa_pairs) == {
        "open_domain": 841,
        "adversarial": 446,
        "temporal": 321,
        "single_hop": 282,
        "multi_hop": 96,
    }
