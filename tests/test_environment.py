"""The suite ignores the caller's environment (tests/conftest.py ``_isolated_environment``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import datasets
import huggingface_hub
import huggingface_hub.constants

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = {
    "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_TOKEN": "hf_bogus",
    "HUGGING_FACE_HUB_TOKEN": "hf_bogus", "HF_ENDPOINT": "http://127.0.0.1:9", "HF_HOME": "/nonexistent/hf_home",
    "HF_DATASETS_CACHE": "/nonexistent/hf", "HF_DATASETS_DISABLE_PROGRESS_BARS": "0",
    "HIMGA_DATASETS_ROOT": "/nonexistent", "HIMGA_CACHE": "/nonexistent/himga",
}  # fmt: skip


def test_what_a_test_sees():
    """Inside any test: no Hub variable of the caller, defaults in the libraries' import-time copies."""
    assert not {k for k in os.environ if k.startswith(("HIMGA_DATASETS", "HF_TOKEN", "HF_HUB_OFFLINE", "HF_ENDPOINT"))}
    assert "TRANSFORMERS_OFFLINE" not in os.environ and "HUGGING_FACE_HUB_TOKEN" not in os.environ
    assert not huggingface_hub.constants.HF_HUB_OFFLINE and not huggingface_hub.is_offline_mode()
    assert huggingface_hub.constants.ENDPOINT == "https://huggingface.co"
    assert huggingface_hub.get_token() is None
    assert not datasets.config.HF_HUB_OFFLINE and not datasets.config.HF_DATASETS_OFFLINE
    assert datasets.config.HF_ENDPOINT == "https://huggingface.co"
    assert str(datasets.config.HF_DATASETS_CACHE) == os.environ["HF_DATASETS_CACHE"] != "/nonexistent/hf"
    assert not os.environ["HIMGA_CACHE"].startswith("/nonexistent")


def test_what_a_test_sees_under_a_hostile_environment(tmp_path):
    """The test above, in a pytest whose caller exported offline mode, a bad token, endpoint and folders."""
    env = dict(os.environ, **HOSTILE)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"),
         f"{Path(__file__).relative_to(ROOT)}::test_what_a_test_sees"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 passed" in done.stdout


def _pytest(tmp_path, env: dict, *args: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "CI"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"), *args]
    return subprocess.run(cmd, cwd=ROOT, env=clean | env, capture_output=True, text=True)


def test_missing_data_ends_the_run_with_one_line_and_fails_under_ci(tmp_path):
    empty = tmp_path / "no_data"
    empty.mkdir()
    tests = [
        "tests/data/test_dates.py::test_every_locomo_date_parses",
        "tests/data/test_dates.py::test_every_longmemeval_date_parses",
    ]
    done = _pytest(tmp_path, {"HIMGA_TEST_DATA": str(empty)}, *tests)
    assert done.returncode == 0, done.stdout[-3000:]
    last = done.stdout.strip().splitlines()[-2:]
    assert (
        last[0]
        == f"2 real-data tests skipped: no data at {empty}; set HIMGA_TEST_DATA=/path/to/data (holding locomo/, "
        "longmemeval/, beam/, locomo-plus/, realtalk/, personamem/, locomo-audit/ and published-runs/) to run them"
    )
    assert "2 skipped" in last[1]
    under_ci = _pytest(tmp_path, {"HIMGA_TEST_DATA": str(empty), "CI": "true"}, *tests)
    assert (
        under_ci.returncode == 1 and "2 errors" in under_ci.stdout and "real-data tests skipped" not in under_ci.stdout
    )


def test_every_test_folder_is_collected(pytestconfig):
    """No folder of tests/ matches ``norecursedirs`` (pytest's default skips ``build``, ``dist``, ``venv``, ...):
    every test folder is collected, with pytest's default left as it is."""
    import fnmatch

    patterns = pytestconfig.getini("norecursedirs")
    folders = {p.name for p in (ROOT / "tests").rglob("*") if p.is_dir() and any(p.glob("test_*.py"))}
    assert {"builders", "cache", "data", "sources"} <= folders
    assert "norecursedirs" not in (ROOT / "pyproject.toml").read_text()
    assert sorted(f for f in folders if any(fnmatch.fnmatch(f, pat) for pat in patterns)) == []


def test_other_skips_end_the_run_with_their_reasons():
    """Skips for another reason than the data's absence are counted by reason in one line (no ``-rs`` needed)."""
    from types import SimpleNamespace

    from helpers.skips import skip_summary

    def skipped(reason: str):
        return SimpleNamespace(longrepr=("tests/x.py", 1, f"Skipped: {reason}"))

    reports = [
        skipped("mounting a tmpfs needs root (running as uid 1000)"),
        skipped("real data not found at /nowhere (../shared/data beside the project, or set HIMGA_TEST_DATA)"),
        skipped("could not import 'duckdb': No module named 'duckdb'"),
        skipped("mounting a tmpfs needs root (running as uid 1000)"),
    ]
    assert skip_summary(reports, besides="real data not found at") == (
        "3 other tests skipped: 2 mounting a tmpfs needs root (running as uid 1000); 1 could not import 'duckdb': No "
        "module named 'duckdb'"
    )
    assert skip_summary(reports[1:2], besides="real data not found at") is None
