"""``himga score``: the table, the report file, judge requests out and verdicts in, errors as one line."""

from __future__ import annotations

import hashlib
import json

import pytest
from helpers.replies import write_replies
from helpers.scoring_fixtures import load_fixture

from himga.cli import main

METRICS = load_fixture("official-longmemeval-qa-metrics.json")
PROMPTS = load_fixture("official-longmemeval-judge-prompts.json")


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def locomo_gold(locomo_samples, tmp_path):
    from himga.data import item_id

    return _jsonl(
        tmp_path / "gold.jsonl",
        [{"question_id": item_id(s, qa), "hypothesis": qa.answer} for s in locomo_samples for qa in s.qa_pairs],
    )


def test_locomo_gold_table_and_report(locomo_gold, shared_data, tmp_path, capsys):
    out = tmp_path / "report.json"
    args = [
        "score",
        "locomo",
        str(locomo_gold),
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    assert main([*args, "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "locomo: 1,986 questions scored"
    assert lines[2:9] == [
        "single_hop                     841   1.0000  [0.9955, 1.0000] wilson",
        "multi_hop                      282   1.0000  [0.9866, 1.0000] wilson",
        "temporal                       321   1.0000  [0.9882, 1.0000] wilson",
        "open_domain                     96   1.0000  [0.9615, 1.0000] wilson",
        "adversarial                    446   1.0000  [0.9915, 1.0000] wilson",
        "overall                       1986   1.0000  [0.9981, 1.0000] wilson",
        "overall_without_category_5    1540   1.0000  [0.9975, 1.0000] wilson",
    ]
    report = json.loads(out.read_text())
    assert list(report) == [
        "dataset",
        "metric",
        "per_type",
        "overall",
        "overall_without_category_5",
        "scored",
        "missing",
        "run",
        "per_question",
    ]
    assert len(report["per_question"]) == 1986 and report["per_question"]["conv-26:0"] == 1.0
    assert report["run"]["inputs"]["predictions"] == {
        "name": "gold.jsonl",
        "sha256": hashlib.sha256(locomo_gold.read_bytes()).hexdigest(),
        "layout": "lines",
        "copied_fields_checked": {},
    }
    first = out.read_text()
    assert main([*args, "--out", str(out)]) == 0
    changed = [(a, b) for a, b in zip(first.splitlines(), out.read_text().splitlines(), strict=True) if a != b]
    assert all('"created"' in a for a, _ in changed)


def test_locomo_missing_ids_are_an_error_unless_partial(locomo_gold, shared_data, tmp_path, capsys):
    lines = locomo_gold.read_text().splitlines()
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[3:]) + "\n")
    args = ["score", "locomo", str(part), "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "himga: error: part.jsonl: $: 3 of 1986 question ids missing (--partial scores the "
        "given ones): conv-26:0, conv-26:1, conv-26:2\n"
    )
    assert main([*args, "--partial"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "locomo: 1,983 questions scored, 3 missing"


def test_locomo_non_string_hypothesis_names_its_line(shared_data, tmp_path, capsys):
    bad = _jsonl(
        tmp_path / "bad.jsonl",
        [{"question_id": "conv-26:0", "hypothesis": "x"}, {"question_id": "conv-26:1", "hypothesis": 2022}],
    )
    assert (
        main(
            ["score", "locomo", str(bad), "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
        )
        == 2
    )
    assert capsys.readouterr().err == "himga: error: bad.jsonl: line 2.hypothesis: expected a string, got number\n"


def test_longmemeval_prompts_then_labels(longmemeval_file, tmp_path, capsys):
    questions = json.loads(longmemeval_file.read_text())
    hyp = _jsonl(
        tmp_path / "hyp.jsonl", [{"question_id": q["question_id"], "hypothesis": str(q["answer"])} for q in questions]
    )
    base = [
        "score",
        "longmemeval",
        str(hyp),
        "--config",
        "oracle",
        "--data-dir",
        str(longmemeval_file),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    assert main(base) == 2
    assert "--prompts OUT.jsonl" in capsys.readouterr().err
    out = tmp_path / "requests.jsonl"
    assert main([*base, "--prompts", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote 99 judge requests to {out}\n"
    requests = [json.loads(line) for line in out.read_text().splitlines()]
    official = {(r[0], r[1]): r[2] for r in PROMPTS["rows"]}
    by_id = {q["question_id"]: str(q["answer"]) for q in questions}
    assert [hashlib.sha256(r["messages"][0]["content"].encode()).hexdigest() for r in requests] == [
        official[(r["question_id"], by_id[r["question_id"]])] for r in requests
    ]
    assert {(r["model"], r["temperature"], r["max_tokens"]) for r in requests} == {("gpt-4o-2024-08-06", 0, 10)}

    labels = _jsonl(tmp_path / "hyp.jsonl.eval-results-gpt-4o", METRICS["labels"])
    report = tmp_path / "r.json"
    assert (
        main([*base, "--labels", str(labels), "--out", str(report)]) == 2
    )  # verdicts on the official run's hypotheses
    assert capsys.readouterr().err.startswith(
        "himga: error: hyp.jsonl.eval-results-gpt-4o: $: 99 verdicts judged another "
        "hypothesis than hyp.jsonl's: gpt4_2655b836, 09ba9854_abs, "
    )
    _jsonl(hyp, [{"question_id": x["question_id"], "hypothesis": x["hypothesis"]} for x in METRICS["labels"]])
    assert main([*base, "--labels", str(labels), "--out", str(report)]) == 0
    table = capsys.readouterr().out.splitlines()
    sha = hashlib.sha256(longmemeval_file.read_bytes()).hexdigest()
    assert table[-6:] == [
        "abstention                       3   0.6667  [0.2077, 0.9385] wilson",
        "task_averaged                    6  0.6426",
        "judge longmemeval: xiaowu0162/LongMemEval@9e0b455 src/evaluation/evaluate_qa.py, template sha256 "
        "4f4a89de21cca13d, model gpt-4o-2024-08-06 (answered: gpt-4o-2024-08-06)",
        "source: longmemeval_oracle.json: differs from the pinned longmemeval_oracle.json: a modified "
        f"copy or another release (sha256 {sha})",  # D7: said with the table, as himga stats says it
        "note: hyp.jsonl.eval-results-gpt-4o: verdicts recorded elsewhere (99 LongMemEval *.eval-results-* lines) "
        "carry no request hash: not checked against the answers scored, only by the answer they name where they name "
        "one",
        f"wrote {report}",
    ]
    run = json.loads(report.read_text())["run"]
    assert run["judge"]["models_in_labels"] == ["gpt-4o-2024-08-06"] and run["config"] == "oracle"
    assert run["sources"][0]["is_pin"] is False and run["scored"] == 99
    assert run["inputs"]["labels"]["bound_to_requests"] == {
        "checked": 0,
        "unchecked": {"LongMemEval *.eval-results-* lines": 99},
    }

    assert main([*base, "--prompts", str(out)]) == 0
    label = {x["question_id"]: x["autoeval_label"]["label"] for x in METRICS["labels"]}
    requests = [json.loads(line) for line in out.read_text().splitlines()]
    replies = write_replies(tmp_path / "replies.jsonl", requests, lambda r: "Yes" if label[r["question_id"]] else "No")
    assert main([*base, "--labels", str(replies), "--out", str(report)]) == 0
    assert json.loads(report.read_text())["run"]["inputs"]["labels"]["bound_to_requests"] == {
        "checked": 99,
        "unchecked": {},
    }
    assert "task_averaged                    6  0.6426" in capsys.readouterr().out.splitlines()


def test_locomo_takes_no_judge_options(tmp_path, capsys):
    hyp = _jsonl(tmp_path / "h.jsonl", [])
    assert main(["score", "locomo", str(hyp), "--labels", str(hyp)]) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: locomo: --prompts and --labels apply to benchmarks scored by a judge model\n"
    )


def test_labels_from_another_judge_are_noted(longmemeval_file, tmp_path, capsys):
    hyp = _jsonl(
        tmp_path / "hyp.jsonl",
        [{"question_id": x["question_id"], "hypothesis": x["hypothesis"]} for x in METRICS["labels"]],
    )
    labels = _jsonl(
        tmp_path / "l.jsonl",
        [dict(x, autoeval_label={"model": "gpt-4o-mini-2024-07-18", "label": False}) for x in METRICS["labels"]],
    )
    args = [
        "score",
        "longmemeval",
        str(hyp),
        "--config",
        "oracle",
        "--data-dir",
        str(longmemeval_file),
        "--cache-dir",
        str(tmp_path / "c"),
        "--labels",
        str(labels),
    ]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "note: l.jsonl names judge model gpt-4o-mini-2024-07-18; the official "
        "print_qa_metrics.py accepts only gpt-4o-2024-08-06"
    )


@pytest.mark.parametrize(("indent", "keys"), [(2, "item"), (None, "item"), (1, "local")])
def test_a_dict_of_predictions_is_refused_with_the_reason_and_the_forms(
    locomo_samples, shared_data, tmp_path, capsys, indent, keys
):
    from himga.data import item_id

    answers = {
        (item_id(s, qa) if keys == "item" else qa.question_id): qa.answer for s in locomo_samples for qa in s.qa_pairs
    }
    path = tmp_path / "d.json"
    path.write_text(json.dumps(answers, indent=indent), encoding="utf-8")
    assert (
        main(
            [
                "score",
                "locomo",
                str(path),
                "--data-dir",
                str(shared_data / "locomo"),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == (
        f"himga: error: d.json: line 1: a {{question_id: answer}} object ({len(answers):,} keys), not the loop's "
        "records: the "
        "dict form is refused, because keyed by the ids of questions within a sample it has already lost answers (one "
        "kept "
        "per key: 260 distinct for 1,986 questions) and it holds no copied field to check; write one record per "
        "answer, a "
        "JSON array or JSON Lines, the answer under 'hypothesis' or 'response' and the question as "
        '{"question_id": "conv-26:0"} or {"sample_id": "conv-26", "question_id": "0"} or {"question_id": '
        '"v07d45ed2e9:q1"} (the system view\'s id)\n'
    )
    assert len(answers) == (1986 if keys == "item" else 260)


@pytest.mark.parametrize("layout", ["lines", "array"])
def test_an_integer_of_too_many_digits_is_named_in_the_projects_words(shared_data, tmp_path, capsys, layout):
    records = [
        '{"question_id": "conv-26:0", "hypothesis": "x"}',
        '{"question_id": -%s, "hypothesis": "x"}' % ("9" * 5000),
    ]
    path = tmp_path / "big.json"
    path.write_text("\n".join(records) + "\n" if layout == "lines" else "[" + ",\n".join(records) + "]\n")
    assert (
        main(
            [
                "score",
                "locomo",
                str(path),
                "--data-dir",
                str(shared_data / "locomo"),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == (
        "himga: error: big.json: "
        + ("line 2: " if layout == "lines" else "$: ")
        + "expected an integer of at most 4,300 digits, got one of 5,000"
        + ("" if layout == "lines" else " at line 2")
        + "\n"
    )
