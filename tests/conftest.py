"""Shared fixtures: an isolated datasets cache, no progress bars, and the real data in ../shared/data.

Real-data tests take the ``shared_data`` fixture. Without ``../shared/data`` they skip with the
reason; under CI (``CI`` set) a missing folder is a failure, never a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DATA = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()
LOCOMO_FILE = SHARED_DATA / "locomo" / "locomo10.json"
LME_DIR = SHARED_DATA / "longmemeval"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    cache = tmp_path_factory.getbasetemp() / "hf_datasets_cache"
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache))
    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path_factory.getbasetemp() / "himga_cache"))
    monkeypatch.setenv("HF_UPDATE_DOWNLOAD_COUNTS", "0")
    monkeypatch.delenv("HIMGA_DATASETS_ROOT", raising=False)
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", cache)
    datasets.disable_progress_bars()
    yield


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` (the real LoCoMo and LongMemEval files)."""
    if not LOCOMO_FILE.is_file():
        reason = f"real data not found at {SHARED_DATA} (tests read it from ../shared/data beside the project)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; under CI the real-data tests must run")
        pytest.skip(reason)
    return SHARED_DATA


@pytest.fixture(scope="session")
def locomo_samples(shared_data, tmp_path_factory):
    """The 10 real LoCoMo samples, default options, built once per session."""
    from himga.data import load_locomo

    return load_locomo(shared_data / "locomo", cache_dir=tmp_path_factory.mktemp("locomo_cache"))
