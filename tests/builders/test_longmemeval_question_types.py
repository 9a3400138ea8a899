"""An unknown LongMemEval ``question_type`` (counted as ``single_session_user``) is said on every load, not only by
the build that met it, and ``himga validate`` reports it."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import datasets

from himga.data import load_longmemeval
from himga.validate import validate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
WARNING = (
    "longmemeval: question q2_abs has unknown question_type 'brand-new-type'; using 'single_session_user' "
    "(the original stays in raw)"
)


def _warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and r.name.startswith("himga_longmemeval")
    ]


def test_every_load_says_it(tmp_path, caplog):
    source = FIXTURES / "longmemeval_mini.json"
    with caplog.at_level("WARNING"):
        for lazy in (False, False, True):  # the build, a load from its cache, a lazy load from it
            caplog.clear()
            load_longmemeval(source, config="s", cache_dir=tmp_path, lazy=lazy)
            assert _warnings(caplog) == [WARNING]
        caplog.clear()
        datasets.load_dataset("himga_longmemeval", "s", data_files=str(source), split="test", cache_dir=str(tmp_path))
        assert _warnings(caplog) == [WARNING]


def test_known_types_say_nothing(shared_data, tmp_path, caplog):
    with caplog.at_level("WARNING"):
        load_longmemeval(
            shared_data / "longmemeval" / "longmemeval_oracle_sample.json", config="oracle", cache_dir=tmp_path
        )
    assert _warnings(caplog) == []


def test_the_cli_says_it_on_every_stats(tmp_path):
    source = tmp_path / "longmemeval_s_cleaned.json"
    source.write_bytes((FIXTURES / "longmemeval_mini.json").read_bytes())
    himga = str(Path(sys.executable).with_name("himga"))
    for _ in range(2):  # the build, then a load from its cache
        done = subprocess.run(
            [himga, "stats", "longmemeval", "--data-dir", str(source), "--cache-dir", str(tmp_path / "c")],
            capture_output=True,
            text=True,
            env={**os.environ, "HF_DATASETS_DISABLE_PROGRESS_BARS": "1"},
        )
        assert done.returncode == 0 and done.stderr == WARNING + "\n"


def test_validate_reports_it(tmp_path):
    source = tmp_path / "longmemeval_s_cleaned.json"
    records = json.loads((FIXTURES / "longmemeval_mini.json").read_text(encoding="utf-8-sig"))
    records[0]["question_type"] = "bogus"
    source.write_text(json.dumps(records), encoding="utf-8")
    report = validate("longmemeval", data_dir=source)
    assert report.counts["unknown_question_type"] == 2
    assert [(f.sample_id, f.detail) for f in report.findings if f.kind == "unknown_question_type"] == [
        ("q_int", "'bogus': counted as single_session_user"),
        ("q2_abs", "'brand-new-type': counted as single_session_user"),
    ]
    assert report.kinds["unknown_question_type"] == "question types the benchmark does not have"
