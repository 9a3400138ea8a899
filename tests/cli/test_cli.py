"""The himga command line: build and stats on the real LoCoMo file."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

import himga
from himga.cli import main


def test_help_lists_commands(capsys):
    try:
        main(["--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    listed = out.split("COMMAND")[-1]
    for command in ("build", "stats", "export", "push", "validate"):
        assert f"\n    {command} " in listed, command


def test_build_locomo(shared_data, capsys, tmp_path):
    assert main(["build", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (len(out), out[0].startswith("locomo: 10 rows in split 'test'; cache: ")) == (2, True)
    assert (
        out[1] == "source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"
    )  # the build says it is the pinned file
    changed = tmp_path / "changed"
    changed.mkdir()
    (changed / "locomo10.json").write_bytes(
        (shared_data / "locomo" / "locomo10.json").read_bytes().replace(b'"Caroline"', b'"Carolina"', 1)
    )
    assert main(["build", "locomo", "--data-dir", str(changed), "--cache-dir", str(tmp_path)]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[1]
        .startswith("source: locomo10.json: differs in content from snap-research/locomo@3eb6f2c at $[0]")
    )


def test_stats_locomo_json(shared_data, capsys, tmp_path):
    assert (
        main(["stats", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path), "--json"])
        == 0
    )
    stats = json.loads(capsys.readouterr().out)
    assert stats == {
        "dataset": "locomo",
        "config": "default",
        "samples": 10,
        "sessions": 272,
        "sessions_per_sample": {"min": 19, "max": 32, "avg": 27.2},
        "messages": 5882,
        "qa_pairs": 1986,
        "abstentions": 446,
        "question_types": {"single_hop": 841, "adversarial": 446, "temporal": 321, "multi_hop": 282, "open_domain": 96},
        "sources": ["locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"],  # the table's "source:" lines
    }


def test_stats_names_the_config_it_resolved_and_what_a_first_release_lacks(shared_data, capsys, tmp_path):
    """A file named as the first release's S (``longmemeval_s``) is built as ``s_original``: the header says so,
    and a note names the cleaned config."""
    first_release = tmp_path / "longmemeval_s"
    first_release.write_bytes((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_bytes())
    assert main(["stats", "longmemeval", "--data-dir", str(first_release), "--cache-dir", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "longmemeval (s_original)"
    assert [line for line in out if line.startswith("note: ")] == [
        "note: s_original is the first release; the authors' cleaned release (2025-09, xiaowu0162/LongMemEval#13) "
        "removed haystack sessions that changed answers: config 's' is the one to score on"
    ]
    assert (
        main(["stats", "longmemeval", "--data-dir", str(first_release), "--cache-dir", str(tmp_path / "c"), "--json"])
        == 0
    )
    stats = json.loads(capsys.readouterr().out)
    assert (stats["config"], stats["note"].startswith("s_original is the first release")) == ("s_original", True)


def test_stats_locomo_table(shared_data, capsys, tmp_path):
    assert main(["stats", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "sessions per sample    min 19  max 32  avg 27.2" in out
    assert "    single_hop                       841" in out


def test_himga_error_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "locomo10.json"
    bad.write_text("[{", encoding="utf-8")
    assert main(["build", "locomo", "--data-dir", str(bad), "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("himga: error: locomo10.json: $: invalid JSON at line 1 column 3")


def test_unwritable_output_is_one_line_error(shared_data, tmp_path, capsys):
    missing = tmp_path / "no" / "such" / "dir" / "report.json"
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo"), "--json", str(missing)]) == 2
    assert (
        capsys.readouterr().err
        == f"himga: error: --json {str(missing)!r}: folder {str(missing.parent)!r} does not exist\n"
    )


def test_push_without_token_or_with_bad_repo_id_is_one_line_error(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf_home"))  # no stored login
    assert main(["push", "locomo", "--repo-id", "not a repo id!!", "--export-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("himga: error: --repo-id 'not a repo id!!': expected ORG/NAME")
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "get_token", lambda: None)
    assert main(["push", "locomo", "--repo-id", "org/locomo", "--export-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "himga: error: cannot push to org/locomo: no Hugging Face token; set HF_TOKEN or run `hf auth login`\n"
    )


def test_broken_pipe_is_not_an_error(shared_data, monkeypatch, capfd):
    """`himga validate ... | head -1`: the reader closes the pipe; himga stops quietly with status 0."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone: every write raises BrokenPipeError
    closed = os.fdopen(write_end, "w")
    monkeypatch.setattr("sys.stdout", closed)
    assert main(["validate", "locomo", "--data-dir", str(shared_data / "locomo")]) == 0
    assert capfd.readouterr().err == ""


def test_stats_with_the_seed_options(shared_data, capsys, tmp_path):
    argv = [
        "stats",
        "locomo",
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path),
        "--json",
        "--category-order",
        "seed",
        "--adversarial-answer",
        "seed",
    ]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["question_types"] == {
        "open_domain": 841,
        "adversarial": 446,
        "temporal": 321,
        "single_hop": 282,
        "multi_hop": 96,
    }
    assert main(["stats", "longmemeval", "--category-order", "seed"]) == 2
    assert (
        capsys.readouterr().err == "himga: error: longmemeval: --category-order applies to locomo, locomo_plus only\n"
    )
    assert main(["stats", "longmemeval", "--gold", "audited", "--errata", "x.json"]) == 2
    assert capsys.readouterr().err == "himga: error: longmemeval: --gold/--errata apply to locomo, locomo_plus only\n"


# --- paper cuts --------------------------------------------------------------------------------

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LOCOMO_LIKE = [{"sample_id": "conv-1", "conversation": {"speaker_a": "A", "speaker_b": "B"}, "qa": []}]


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"himga {himga.__version__} (datasets {datasets.__version__})\n"


def test_no_source_file_hint_names_only_what_the_cli_takes(tmp_path, capsys):
    (tmp_path / "other.json").write_text("[]")
    (tmp_path / "longmemeval_s_cleaned.json").write_text(
        "[]"
    )  # another config's file: other.json is not read as oracle's
    assert (
        main(
            [
                "build",
                "longmemeval",
                "--config",
                "oracle",
                "--data-dir",
                str(tmp_path),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err == (
        f"himga: error: longmemeval (config 'oracle'): no source file in {tmp_path}; looked for "
        "longmemeval_oracle.json, "
        "longmemeval_oracle, longmemeval_oracle.jsonl; found longmemeval_s_cleaned.json, other.json (pass the file "
        "itself instead of its folder to use another name)\n"
    )
    assert "data_files" not in err


def test_a_failed_build_prints_the_error_and_no_progress_bar(tmp_path, capfd, progress_bars_on):
    visible = progress_bars_on
    source = tmp_path / "locomo_like.json"
    source.write_text(json.dumps(LOCOMO_LIKE))
    assert (
        main(
            [
                "build",
                "longmemeval",
                "--config",
                "oracle",
                "--data-dir",
                str(source),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    out, err = capfd.readouterr()
    assert (out, visible(err)) == ("", [
        "himga: error: locomo_like.json: $[0]: missing required key 'question_id' (this looks like a LoCoMo file: load "
        "it as dataset 'locomo')"
    ])  # fmt: skip
    assert "0 examples" not in err
    assert main(["build", "longmemeval", "--config", "oracle", "--data-dir", str(FIXTURES / "longmemeval_mini.json"),
                 "--cache-dir", str(tmp_path / "c")]) == 0  # fmt: skip
    shown = visible(capfd.readouterr().err)
    assert len(shown) == 1 and shown[0].startswith(
        "Generating test split: 2 examples"
    )  # a build that writes rows shows them


_SLOW_BUILD = """
import sys, time
from himga_longmemeval.longmemeval import Longmemeval
real = Longmemeval._generate_rows  # what the Arrow-batch build iterates
def slow(self, files):
    for item in real(self, files):
        yield item
        print("generating", flush=True)
        time.sleep(120)
Longmemeval._generate_rows = slow
from himga.cli import main
sys.exit(main(["build", "longmemeval", "--config", "oracle", "--data-dir", sys.argv[1], "--cache-dir", sys.argv[2]]))
"""


def test_ctrl_c_during_build_is_one_line_and_exit_130(tmp_path, progress_bars_on):
    visible = progress_bars_on  # only its terminal view: the bars of interest are the child's
    cache = tmp_path / "cache"
    env = dict(os.environ, HF_DATASETS_DISABLE_PROGRESS_BARS="0")  # the bar is on, as for a user
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, str(FIXTURES / "longmemeval_mini.json"), str(cache)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    try:
        assert proc.stdout.readline() == "generating\n"  # the builder is generating rows
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert (out, visible(err)) == ("", ["himga: interrupted"])
    assert not list(cache.rglob("dataset_info.json")) and not list(cache.rglob("*.arrow"))  # nothing cached


def test_no_flag_is_an_abbreviation(tmp_path, capsys):
    """``--data`` is not ``--data-dir``: a typo must not pick another flag, on any command."""
    from himga.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert parser.allow_abbrev is False and {n: p.allow_abbrev for n, p in sub.choices.items()} == dict.fromkeys(
        sub.choices, False
    )
    with pytest.raises(SystemExit) as info:
        main(["stats", "locomo", "--data", str(tmp_path)])
    assert info.value.code == 2 and "unrecognized arguments: --data " in capsys.readouterr().err


def test_an_unknown_flag_is_reported_with_its_command_usage(capsys):
    """The usage printed is the command's, which lists the flags it does take, not himga's list of commands."""
    with pytest.raises(SystemExit) as info:
        main(["validate", "beam", "--cache-dir", "x"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith("usage: himga validate [-h] [--config CONFIG] [--data-dir DATA_DIR]")
    assert err.endswith("himga validate: error: unrecognized arguments: --cache-dir x\n")
