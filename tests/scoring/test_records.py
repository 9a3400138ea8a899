"""The evaluation loop's records, as it writes them, score with one command and with score_records."""

from __future__ import annotations

import json

import pytest

from himga.cli import main
from himga.errors import SourceFormatError
from himga.scoring import format_table, score_records, score_samples

GOLD_TABLE_HEAD = [
    "locomo: 1,986 questions scored",
    "                                 n     mean  95% interval",
    "single_hop                     841   1.0000  [0.9955, 1.0000] wilson",
]
EXAMPLE = (
    'expected {"question_id": "conv-26:0"} or {"sample_id": "conv-26", "question_id": "0"} or '
    '{"question_id": "v07d45ed2e9:q1"} (the system view\'s id)'
)


@pytest.fixture(scope="module")
def loop_records(locomo_samples):
    """What the seed loop appends: ``{sample_id, question_id, question_type, question, answer, response}``."""
    return [
        {
            "sample_id": s.sample_id,
            "question_id": qa.question_id,
            "question_type": qa.question_type,
            "question": qa.question,
            "answer": qa.answer,
            "response": qa.answer,
        }
        for s in locomo_samples
        for qa in s.qa_pairs
    ]


def _score_file(path, shared_data, tmp_path, *extra):
    return main(
        [
            "score",
            "locomo",
            str(path),
            "--data-dir",
            str(shared_data / "locomo"),
            "--cache-dir",
            str(tmp_path / "c"),
            *extra,
        ]
    )


@pytest.mark.parametrize("layout", ["array", "lines"])
def test_the_loop_output_scores_with_one_command(layout, loop_records, shared_data, tmp_path, capsys):
    path = tmp_path / "results.json"  # the same name either way: read by content
    rows = json.loads(json.dumps(loop_records))
    path.write_text(json.dumps(rows, indent=2) if layout == "array" else "".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "report.json"
    assert _score_file(path, shared_data, tmp_path, "--out", str(out)) == 0
    assert capsys.readouterr().out.splitlines()[:3] == GOLD_TABLE_HEAD
    inputs = json.loads(out.read_text())["run"]["inputs"]["predictions"]
    assert inputs["layout"] == layout
    assert inputs["copied_fields_checked"] == {"question": 1986, "answer": 1986, "question_type": 1986}


def test_score_records_takes_the_loop_list_and_every_id_form(loop_records, locomo_samples):
    from himga.data import item_id, system_view

    assert format_table(score_records("locomo", locomo_samples, loop_records)).splitlines()[:3] == GOLD_TABLE_HEAD
    assert score_samples("locomo", locomo_samples, predictions=loop_records)["scored"] == 1986  # a list goes there too
    qualified = [{"question_id": item_id(s, qa), "hypothesis": qa.answer} for s in locomo_samples for qa in s.qa_pairs]
    assert score_records("locomo", locomo_samples, qualified)["overall"]["mean"] == 1.0
    views = [(system_view(s), s) for s in locomo_samples]
    by_view = [
        {"sample_id": v.sample_id, "question_id": q.question_id, "response": qa.answer}
        for v, s in views
        for q, qa in zip(v.questions, s.qa_pairs)
    ]
    assert by_view[0]["question_id"] == "v07d45ed2e9:q1"
    assert score_records("locomo", locomo_samples, by_view)["overall"]["mean"] == 1.0


def test_a_record_naming_no_question_shows_the_expected_form(loop_records, locomo_samples):
    bad = [dict(r) for r in loop_records]
    bad[5]["sample_id"] = "conv-99"
    del bad[7]["sample_id"]
    with pytest.raises(SourceFormatError) as e:
        score_records("locomo", locomo_samples, bad)
    assert str(e.value) == (
        'records: $: 2 records name no question of the data: $[5] {"sample_id": "conv-99", '
        '"question_id": "5"}; $[7] {"question_id": "7"}; ' + EXAMPLE
    )


def test_a_dict_keyed_by_ids_within_a_sample_is_refused(locomo_samples):
    collapsed = {qa.question_id: qa.answer for s in locomo_samples for qa in s.qa_pairs}
    assert len(collapsed) == 260
    with pytest.raises(SourceFormatError) as e:
        score_samples("locomo", locomo_samples, predictions=collapsed)
    assert str(e.value) == (
        "predictions: $: keys like '0' are question ids within a sample (260 distinct for 1,986 "
        "questions): a dict keyed by them has kept one answer per key and lost the rest; key it by "
        "himga.data.item_id(sample, qa), or pass the loop's records to himga.scoring.score_records "
        f"({EXAMPLE})"
    )


def test_copied_fields_that_differ_from_the_gold_are_listed(loop_records, locomo_samples):
    bad = [dict(r) for r in loop_records]
    bad[3]["answer"] = "edited"
    bad[4]["question_type"] = "temporal"
    with pytest.raises(SourceFormatError) as e:
        score_records("locomo", locomo_samples, bad)
    assert str(e.value) == (
        "records: $: 2 copied fields differ from the gold (answers to stale or edited gold, or to gold "
        "read with other options than the Samples scored: himga score reads the default gold, --gold names another): "
        "$[3] conv-26:3 answer 'edited', gold 'Adoption agencies'; "
        "$[4] conv-26:4 question_type 'temporal', gold 'multi_hop'"
    )
    assert score_records("locomo", locomo_samples, bad, check_copied=False)["scored"] == 1986


def test_a_question_type_copied_as_the_source_spells_it_is_the_gold(
    longmemeval_file, longmemeval_samples, tmp_path, capsys
):
    """LongMemEval's file says ``knowledge-update``, himga's QuestionType ``knowledge_update``: either is the gold."""
    records = [
        {"question_id": qa.question_id, "question_type": qa.raw["question_type"], "hypothesis": qa.answer}
        for s in longmemeval_samples
        for qa in s.qa_pairs
    ]
    assert {r["question_type"] for r in records} >= {"knowledge-update", "single-session-user"}
    path = tmp_path / "copies.jsonl"
    args = [
        "score",
        "longmemeval",
        str(path),
        "--config",
        "oracle",
        "--data-dir",
        str(longmemeval_file),
        "--cache-dir",
        str(tmp_path / "c"),
        "--prompts",
        str(tmp_path / "req.jsonl"),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(args) == 0
    other = "multi-session" if records[0]["question_type"] != "multi-session" else "temporal-reasoning"
    records[0] = dict(records[0], question_type=other)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    qa = longmemeval_samples[0].qa_pairs[0]
    assert err.endswith(
        f"line 1 {qa.question_id} question_type {other!r}, gold {qa.question_type.value!r} or "
        f"{qa.raw['question_type']!r}\n"
    ), err


def test_two_records_for_one_question_and_missing_answers(loop_records, locomo_samples):
    with pytest.raises(SourceFormatError) as e:
        score_records("locomo", locomo_samples, [*loop_records, loop_records[0]])
    assert str(e.value) == "records: $: 1 question answered twice: conv-26:0 ($[0], $[1986])"
    with pytest.raises(SourceFormatError) as e:
        score_records("locomo", locomo_samples, [{"sample_id": "conv-26", "question_id": "0"}])
    assert str(e.value) == "records: $[0]: no 'hypothesis' or 'response' (the system's answer)"
    with pytest.raises(SourceFormatError) as e:
        score_records("locomo", locomo_samples, {"conv-26:0": "x"})
    assert "expected the loop's list of records, got a mapping" in str(e.value)


def test_file_errors_name_the_record(shared_data, tmp_path, capsys):
    path = tmp_path / "results.jsonl"  # an array in a .jsonl file: read by content
    path.write_text(json.dumps([{"question_id": "conv-26:0", "response": "x"}, "oops"]))
    assert _score_file(path, shared_data, tmp_path) == 2
    assert capsys.readouterr().err == "himga: error: results.jsonl: $[1]: expected an object, got string\n"
    path.write_text(json.dumps([{"sample_id": "conv-26", "question_id": "0", "response": 7}]))
    assert _score_file(path, shared_data, tmp_path) == 2
    assert capsys.readouterr().err == "himga: error: results.jsonl: $[0].response: expected a string, got number\n"


# Issue 36: a question type copied in another harness's labels is not stale gold.
MIRIX = {1: "Single-Hop", 2: "Temporal", 3: "Multi-Hop", 4: "Open Domain", 5: "Adversarial"}  # mem0's and MIRIX's names


def test_a_question_type_in_a_known_harness_labels_is_accepted_and_named(loop_records, locomo_samples, shared_data):
    """MIRIX and mem0 write LoCoMo's categories as "Multi-Hop", "Open Domain" (in the seed's order), and the seed
    loader's Samples carry the seed's names: both map one-to-one onto the gold and score as the gold does."""
    from himga.data import load_locomo
    from himga.scoring import LOCOMO_SCORER, match_records, record_index
    from himga.scoring.inputs._run_records import records_of

    category = {(s.sample_id, qa.question_id): qa.raw["category"] for s in locomo_samples for qa in s.qa_pairs}
    mirix = [{**r, "question_type": MIRIX[category[(r["sample_id"], r["question_id"])]]} for r in loop_records]
    assert score_records("locomo", locomo_samples, mirix)["overall"]["mean"] == 1.0
    index = record_index(locomo_samples)
    _, checked = match_records(
        records_of(mirix), index, type_maps=LOCOMO_SCORER.type_maps, category=LOCOMO_SCORER.category
    )
    assert checked == {"question": 1986, "answer": 1986, "question_type": 1986, "question_type_labels": "seed"}
    seed = load_locomo(shared_data / "locomo", category_order="seed")
    by_seed = [
        {"sample_id": s.sample_id, "question_id": qa.question_id, "question_type": str(qa.question_type),
         "response": qa.answer} for s in seed for qa in s.qa_pairs
    ]  # fmt: skip
    differing = sum(r["question_type"] != g["question_type"] for r, g in zip(by_seed, loop_records))
    assert differing == 1219  # the seed's names differ on categories 1, 3 and 4
    assert score_records("locomo", locomo_samples, by_seed)["scored"] == 1986


def test_a_real_mismatch_of_question_types_is_refused_naming_the_closest_labels(loop_records, locomo_samples):
    category = {(s.sample_id, qa.question_id): qa.raw["category"] for s in locomo_samples for qa in s.qa_pairs}
    mirix = [{**r, "question_type": MIRIX[category[(r["sample_id"], r["question_id"])]]} for r in loop_records]
    mirix[0]["question_type"] = "Adversarial"  # conv-26:0 is category 2
    with pytest.raises(SourceFormatError) as e:
        score_records("locomo", locomo_samples, mirix)
    message = str(e.value)
    assert message.startswith("records: $: 1 copied field differs from the gold")
    assert "$[0] conv-26:0 question_type 'Adversarial', gold 'temporal'" in message
    assert message.endswith("; the other 1,985 copied question types are in the seed labels")


def test_one_line_and_two_line_files_place_a_bad_value_alike(shared_data, tmp_path, capsys):
    """One rule for a one-line file and a longer one: ``line 1``, never ``$``, in ``himga score`` as in
    read_predictions."""
    base = ["score", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
    good = json.dumps({"question_id": "conv-26:1", "hypothesis": "x"})
    for bad, where in [
        ('{"question_id": "conv-26:0", "hypothesis": NaN}', "line 1.hypothesis: expected standard JSON"),
        ('{"question_id": "conv-26:0", "hypothesis": 3}', "line 1.hypothesis: expected a string"),
    ]:
        for n, lines in enumerate(([bad], [bad, good])):
            path = tmp_path / f"p{n}.jsonl"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            assert main([*base[:2], str(path), *base[2:]]) == 2
            assert capsys.readouterr().err.startswith(f"himga: error: {path.name}: {where}"), (bad, n)
