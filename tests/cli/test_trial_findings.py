"""The smaller findings of issue 35's trial, re-run: an oracle file read as S says so and every table names its config,
error lists stay short, LongMemEval ids scored as LoCoMo say whose they look like, a NaN names its field, a UTF-16 file
says what it is."""

from __future__ import annotations

import json

from himga.cli import main

ORACLE_NOTE = (
    "note: every haystack session of the 2 questions is an answer session: the file is oracle-shaped "
    "(longmemeval_oracle.json's layout), not S's (~50 sessions a question, a few of them answer sessions); read it "
    "with --config oracle"
)


def test_an_oracle_file_read_as_s_says_so_and_the_table_names_its_config(shared_data, tmp_path, capsys):
    pair = shared_data / "longmemeval" / "longmemeval_oracle_pair.json"
    env = ["--data-dir", str(pair), "--cache-dir", str(tmp_path / "c")]
    assert main(["stats", "longmemeval", "--config", "s", *env]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "longmemeval (s)" and ORACLE_NOTE in out
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        "".join(
            json.dumps({"question_id": q["question_id"], "hypothesis": "x", "autoeval_label": {"label": True}}) + "\n"
            for q in json.loads(pair.read_text())
        )
    )
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        "".join(
            json.dumps({"question_id": q["question_id"], "hypothesis": "x"}) + "\n"
            for q in json.loads(pair.read_text())
        )
    )
    report = tmp_path / "r.json"
    assert (
        main(["score", "longmemeval", str(pred), "--config", "s", *env, "--labels", str(labels), "--out", str(report)])
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "longmemeval (s): 2 questions scored" and ORACLE_NOTE in out
    assert json.loads(report.read_text())["run"]["config"] == "s"
    assert main(["score", "longmemeval", str(pred), "--config", "oracle", *env, "--labels", str(labels)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "longmemeval (oracle): 2 questions scored" and not [
        line for line in out if "oracle-shaped" in line
    ]


def test_an_s_shaped_file_says_nothing_of_its_shape(tmp_path, capsys):
    from himga.testing import write_longmemeval_like

    written = write_longmemeval_like(tmp_path / "longmemeval_s_cleaned.json", 12, 6)
    assert (
        main(
            [
                "stats",
                "longmemeval",
                "--config",
                "s",
                "--data-dir",
                str(written.path),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("longmemeval (s)\n") and "oracle-shaped" not in out


def test_an_id_repeated_on_thousands_of_lines_makes_one_short_error(shared_data, tmp_path, capsys):
    path = tmp_path / "dup.jsonl"
    path.write_text((json.dumps({"question_id": "conv-26:0", "hypothesis": "x"}) + "\n") * 6000)
    env = ["--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
    assert main(["score", "locomo", str(path), *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: dup.jsonl: $: 1 question answered twice: conv-26:0 (line 1, line 2, line 3, line 4, line 5, ... "
        "(6,000 in all))\n"
    )


def test_longmemeval_ids_scored_as_locomo_say_whose_they_look_like(shared_data, tmp_path, capsys):
    pair = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    path = tmp_path / "lme.jsonl"
    path.write_text("".join(json.dumps({"question_id": q["question_id"], "hypothesis": "x"}) + "\n" for q in pair))
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
    assert capsys.readouterr().err.endswith(
        "; they look like longmemeval's question ids (gpt4_2655b836, 09ba9854_abs): score them against longmemeval "
        "(himga score longmemeval)\n"
    )


def test_a_nan_in_an_unrelated_field_names_the_field_and_a_utf16_file_says_what_it_is(shared_data, tmp_path, capsys):
    env = ["--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c"), "--partial"]
    nan = tmp_path / "nan.jsonl"
    nan.write_text('{"question_id": "conv-26:0", "hypothesis": "x", "meta": {"latency_ms": NaN}}\n')
    assert main(["score", "locomo", str(nan), *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: nan.jsonl: line 1.meta.latency_ms: expected standard JSON, got non-standard JSON literal NaN\n"
    )
    wide = tmp_path / "pred.jsonl"
    wide.write_bytes((json.dumps({"question_id": "conv-26:0", "hypothesis": "x"}) + "\n").encode("utf-16"))
    assert main(["score", "locomo", str(wide), *env]) == 2
    assert capsys.readouterr().err == (
        "himga: error: pred.jsonl: $: expected UTF-8 text, got UTF-16 little-endian (its byte-order mark ff fe says "
        "so): convert it first (`iconv -f UTF-16LE -t UTF-8 pred.jsonl > pred.jsonl.utf8`) and pass the converted "
        "file\n"
    )


def test_stats_names_the_row_score_prints_each_question_type_in(shared_data, tmp_path, capsys):
    pair = shared_data / "longmemeval" / "longmemeval_oracle_pair.json"
    assert (
        main(
            ["stats", "longmemeval", "--config", "oracle", "--data-dir", str(pair), "--cache-dir", str(tmp_path / "c")]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[8:10] == [
        "    temporal_reasoning                 1  (score: temporal-reasoning)",
        "    multi_session                      1  (score: multi-session)",
    ]


def test_himga_run_dry_run_says_what_it_would_ask_and_touches_nothing(shared_data, tmp_path, capsys):
    out = tmp_path / "run"
    base = ["run", "locomo", "--memory", "recency", "--out", str(out), "--limit", "12", "--no-progress"]
    base += ["--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path / "c")]
    model = ["--answer-model", "gpt-4o-mini", "--base-url", "http://127.0.0.1:9/v1"]  # never called
    assert main([*base, *model, "--dry-run"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"dry run: locomo: 12 questions selected, 0 answered in {out}; 12 requests to gpt-4o-mini (127.0.0.1:9), "
        "one per question; their prompts hold what the memory retrieves, so their tokens are not estimated before it "
        "runs; nothing was asked, ingested or written"
    )
    assert not out.exists()
    assert main([*base, "--answer-model", "extractive"]) == 0
    capsys.readouterr()
    assert main([*base, "--answer-model", "extractive", "--dry-run"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"dry run: locomo: 12 questions selected, 12 answered in {out}; no request (extractive: the top retrieved item "
        "answers); nothing was asked, ingested or written"
    )
