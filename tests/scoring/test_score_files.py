"""``himga score`` and ``himga subset`` with their files: outputs never overwrite inputs, pipes hashed as read,
outputs checked before the work and written with the usual mode, the API worded for the API."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys

import pytest
from helpers.replies import write_replies

from himga.cli import main
from himga.errors import SourceFormatError
from himga.scoring import score_samples


@pytest.fixture
def gold(locomo_samples, tmp_path):
    from himga.data import item_id

    path = tmp_path / "gold.jsonl"
    path.write_text(
        "".join(
            json.dumps({"question_id": item_id(s, qa), "hypothesis": qa.answer}) + "\n"
            for s in locomo_samples
            for qa in s.qa_pairs
        ),
        encoding="utf-8",
    )
    return path


def _args(gold, shared_data, tmp_path, *more):
    return [
        "score",
        "locomo",
        str(gold),
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path / "c"),
        *more,
    ]


def test_an_output_that_is_an_input_is_refused(gold, shared_data, tmp_path, capsys):  # A1
    before = gold.read_bytes()
    (tmp_path / "hard.jsonl").hardlink_to(gold)
    (tmp_path / "sym.jsonl").symlink_to(gold)
    for out in (gold, tmp_path / "hard.jsonl", tmp_path / "sym.jsonl"):
        assert main(_args(gold, shared_data, tmp_path, "--out", str(out))) == 2
        assert capsys.readouterr().err == (
            f"himga: error: --out {str(out)!r} is the predictions file {str(gold)!r}: refusing to overwrite an input\n"
        )
    source = shared_data / "locomo" / "locomo10.json"
    assert main(_args(gold, shared_data, tmp_path, "--out", str(source))) == 2
    assert capsys.readouterr().err == (
        f"himga: error: --out {str(source)!r} is inside the source folder "
        f"{str(source.parent)!r}: write outputs elsewhere (a later load of the sources "
        "would read them as sources)\n"
    )
    as_file = [
        "score",
        "locomo",
        str(gold),
        "--data-dir",
        str(source),
        "--cache-dir",
        str(tmp_path / "c"),
        "--out",
        str(source),
    ]
    assert main(as_file) == 2  # the source given as a file: the output is that file
    assert capsys.readouterr().err == (
        f"himga: error: --out {str(source)!r} is the source file {str(source)!r}: refusing to overwrite an input\n"
    )
    assert gold.read_bytes() == before


def test_prompts_over_the_hypotheses_are_refused(tmp_path, capsys):  # A1, before any build
    hyp = tmp_path / "hyp.jsonl"
    hyp.write_text('{"question_id": "q", "hypothesis": "x"}\n')
    assert main(["score", "longmemeval", str(hyp), "--prompts", str(hyp)]) == 2
    assert capsys.readouterr().err == (
        f"himga: error: --prompts {str(hyp)!r} is the predictions file {str(hyp)!r}: refusing to overwrite an input\n"
    )


def test_subset_does_not_write_over_its_source(shared_data, tmp_path, capsys):  # A1 for subset
    source = tmp_path / "locomo10.json"
    source.write_bytes((shared_data / "locomo" / "locomo10.json").read_bytes())
    assert (
        main(
            [
                "subset",
                "locomo",
                str(source),
                "--n",
                "5",
                "--seed",
                "1",
                "--data-dir",
                str(source),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == (
        f"himga: error: out {str(source)!r} is the source file {str(source)!r}: refusing to overwrite an input\n"
    )


def test_a_pipe_is_hashed_as_read(gold, shared_data, tmp_path):  # A2
    out = tmp_path / "r.json"
    command = "import sys; from himga.cli import main; sys.exit(main(sys.argv[1:]))"
    with open(gold, "rb") as f:
        done = subprocess.run(
            [sys.executable, "-c", command, *_args("-", shared_data, tmp_path, "--out", str(out))],
            stdin=f,
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["run"]["inputs"]["predictions"] == {
        "name": "<stdin>",
        "sha256": hashlib.sha256(gold.read_bytes()).hexdigest(),
        "layout": "lines",
        "copied_fields_checked": {},
    }


def test_the_output_folder_is_checked_first(gold, shared_data, tmp_path, capsys):  # B7, D3
    out = tmp_path / "no" / "r.json"
    assert main(_args(gold, shared_data, tmp_path, "--out", str(out))) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (
        "",
        f"himga: error: --out {str(out)!r}: folder {str(out.parent)!r} does not exist\n",
    )
    assert main(_args(gold, shared_data, tmp_path, "--out", "-")) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: --out '-': standard output is not supported (it shows the table), name a file\n"
    )


def test_the_report_has_the_usual_mode(gold, shared_data, tmp_path):  # D2
    out = tmp_path / "r.json"
    old = os.umask(0o022)
    try:
        assert main(_args(gold, shared_data, tmp_path, "--out", str(out))) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "gold.jsonl", "r.json"]  # no temporary file left


def test_nothing_to_score_is_an_error(gold, shared_data, tmp_path, capsys):  # D4
    ids = tmp_path / "ids.txt"
    ids.write_text("conv-26:0\n")
    other = tmp_path / "other.jsonl"
    other.write_text('{"question_id": "conv-30:0", "hypothesis": "x"}\n')
    assert main(_args(other, shared_data, tmp_path, "--ids", str(ids), "--partial")) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: other.jsonl: $: nothing to score: none of the 1 question has a hypothesis\n"
    )


def test_the_table_says_where_the_source_came_from(gold, shared_data, tmp_path, capsys):  # D7
    assert main(_args(gold, shared_data, tmp_path)) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"


def test_labels_must_be_booleans(longmemeval_samples):  # A3
    ids = [qa.question_id for s in longmemeval_samples for qa in s.qa_pairs]
    for bad, shown in (("no", "'no'"), (None, "None"), (2, "2"), (0.5, "0.5")):
        with pytest.raises(SourceFormatError) as info:
            score_samples("longmemeval", longmemeval_samples, labels={ids[0]: bad, **dict.fromkeys(ids[1:], True)})
        assert str(info.value) == f"predictions: {ids[0]}: expected a judge label True/False (or 1/0), got {shown}"
    report = score_samples("longmemeval", longmemeval_samples, labels={ids[0]: 0, **dict.fromkeys(ids[1:], 1)})
    assert (report["scored"], report["per_question"][ids[0]], report["overall"]["mean"]) == (99, 0.0, 98 / 99)


def test_api_errors_name_the_api_option(locomo_samples):  # D5
    with pytest.raises(SourceFormatError) as info:
        score_samples("locomo", locomo_samples, predictions={"conv-26:0": "x"})
    assert str(info.value).startswith(
        "predictions: $: 1985 of 1986 question ids missing (partial=True scores the given ones): conv-26:1, conv-26:2, "
    )
    with pytest.raises(SourceFormatError) as info:
        score_samples("locomo", locomo_samples, predictions={"x" * 5_000_000: "x"})
    assert str(info.value) == (
        f"predictions: $: 1 question id not in the dataset: {'x' * 40!r}... (5,000,000 characters); "
        'expected {"question_id": "conv-26:0"} or {"sample_id": "conv-26", "question_id": "0"} or '
        '{"question_id": "v07d45ed2e9:q1"} (the system view\'s id)'
    )


def test_the_record_holds_the_config_the_build_resolved(longmemeval_file, tmp_path):  # A5 (the report's side)
    from helpers.scoring_fixtures import load_fixture

    labels = load_fixture("official-longmemeval-qa-metrics.json")["labels"]
    hyp = tmp_path / "hyp.jsonl"
    hyp.write_text(
        "".join(json.dumps({"question_id": x["question_id"], "hypothesis": x["hypothesis"]}) + "\n" for x in labels)
    )
    replies = tmp_path / "replies.jsonl"
    base = ["score", "longmemeval", str(hyp), "--data-dir", str(longmemeval_file), "--cache-dir", str(tmp_path / "c")]
    assert main([*base, "--prompts", str(tmp_path / "req.jsonl")]) == 0
    requests = [json.loads(line) for line in (tmp_path / "req.jsonl").read_text().splitlines()]
    write_replies(replies, requests, lambda r: "yes")
    out = tmp_path / "r.json"
    assert main([*base, "--labels", str(replies), "--out", str(out)]) == 0  # no --config: the file's name decides
    run = json.loads(out.read_text())["run"]
    assert (run["config"], run["sources"][0]["name"], run["scored"]) == ("oracle", "longmemeval_oracle.json", 99)
