"""Fixtures of the scoring tests: the real questions (the official-code outputs: helpers.scoring_fixtures)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def longmemeval_file(shared_data, tmp_path_factory) -> Path:
    """Every real LongMemEval question (../shared/data/longmemeval/*.json, files in name order) as one oracle file."""
    questions = [
        q for path in sorted((shared_data / "longmemeval").glob("*.json")) for q in json.loads(path.read_text())
    ]
    path = tmp_path_factory.mktemp("lme") / "longmemeval_oracle.json"
    path.write_text(json.dumps(questions))
    return path


@pytest.fixture(scope="session")
def longmemeval_samples(longmemeval_file, tmp_path_factory):
    """The 99 real LongMemEval questions as himga Samples (config oracle)."""
    from himga.data import load_longmemeval

    return load_longmemeval(longmemeval_file, config="oracle", cache_dir=tmp_path_factory.mktemp("lme_cache"))


@pytest.fixture(scope="session")
def punkt():
    """nltk's Punkt model (``punkt_tab``), which BLEU-1 as the papers compute it needs: skip without it, fail under
    CI."""
    import os

    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        reason = "nltk's punkt_tab data not found (python -m nltk.downloader punkt_tab, or NLTK_DATA)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; under CI .ci/run installs it")
        pytest.skip(reason)


@pytest.fixture
def in_docs_folder(shared_data, tmp_path, monkeypatch):
    """A working folder beside ``shared/data`` = the real data, as the pages assume (``../shared/data``)."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(shared_data, target_is_directory=True)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path / "work"
