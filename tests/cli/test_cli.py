"""The himga command line: build and stats on the real LoCoMo file."""

from __future__ import annotations

import json

from himga.cli import main


def test_help_lists_commands(capsys):
    try:
        main(["--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    for command in ("build", "stats"):
        assert command in out


def test_build_locomo(shared_data, capsys, tmp_path):
    assert main(["build", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("locomo: 10 rows in split 'test'")


def test_stats_locomo_json(shared_data, capsys, tmp_path):
    assert main(["stats", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats == {
        "samples": 10, "sessions": 272, "sessions_per_sample": {"min": 19, "max": 32, "avg": 27.2}, "messages": 5882,
        "qa_pairs": 1986, "abstentions": 446,
        "question_types": {"single_hop": 841, "adversarial": 446, "temporal": 321, "multi_hop": 282, "open_domain": 96},
    }


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
