"""Shared fixtures: an environment of its own (caches, Hub settings), no progress bars, the real data.

Real-data tests take the ``shared_data`` fixture: ``../shared/data`` beside the project, or the folder
named by ``HIMGA_TEST_DATA`` (holding ``locomo/``, ``longmemeval/``, ``beam/``, ``locomo-plus/``, ``realtalk/``,
``personamem/``, ``locomo-audit/`` and ``published-runs/``, as ``../shared/data/README.md`` lists them). Without it
they skip with the reason, and the run ends with one line saying how many skipped and how to run them;
under CI (``CI`` set) a missing folder is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.skips import skip_summary
from realdata import SHARED_DATA  # ../shared/data, or $HIMGA_TEST_DATA (read once, at import)

LOCOMO_FILE = SHARED_DATA / "locomo" / "locomo10.json"
LME_DIR = SHARED_DATA / "longmemeval"
_NO_DATA = f"real data not found at {SHARED_DATA}"


# Variables (and import-time copies of them) that change what datasets, huggingface_hub or himga do.
_ENV_PREFIXES = (
    "HF_",
    "HUGGINGFACE_",
    "HIMGA_",
    "OPENAI_",
)  # OPENAI_: the judge client reads OPENAI_API_KEY, OPENAI_BASE_URL
_ENV_NAMES = ("HUGGING_FACE_HUB_TOKEN", "TRANSFORMERS_OFFLINE", "XDG_CACHE_HOME", "DO_NOT_TRACK", "DISABLE_TELEMETRY")


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path_factory, monkeypatch):
    """The suite ignores the caller's environment (``HF_HUB_OFFLINE``, ``HF_TOKEN``, ``HF_ENDPOINT``, ``HIMGA_*``, ...).

    Every such variable is cleared, then the caches point into pytest's temp folder and the Hub-related
    values are the libraries' defaults. ``datasets.config`` and ``huggingface_hub.constants`` read the
    variables once, at import, so their copies are patched too. Tests that need a variable set it themselves.
    """
    base = tmp_path_factory.getbasetemp()
    for name in list(os.environ):
        if name.startswith(_ENV_PREFIXES) or name in _ENV_NAMES:
            monkeypatch.delenv(name)
    hf_home, cache = base / "hf_home", base / "hf_datasets_cache"
    monkeypatch.setenv("HF_HOME", str(hf_home))  # no stored login token
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache))
    monkeypatch.setenv("HIMGA_CACHE", str(base / "himga_cache"))
    monkeypatch.setenv("HF_UPDATE_DOWNLOAD_COUNTS", "0")
    import datasets
    import huggingface_hub.constants as hub

    endpoint = "https://huggingface.co"
    for name, value in {
        "HF_HUB_OFFLINE": False,
        "ENDPOINT": endpoint,
        "HUGGINGFACE_CO_URL_TEMPLATE": endpoint + "/{repo_id}/resolve/{revision}/{filename}",
        "HF_HOME": str(hf_home),
        "HF_TOKEN_PATH": str(hf_home / "token"),
        "HF_STORED_TOKENS_PATH": str(hf_home / "stored_tokens"),
        "HF_HUB_CACHE": str(hf_home / "hub"),
        "HUGGINGFACE_HUB_CACHE": str(hf_home / "hub"),
        "HF_ASSETS_CACHE": str(hf_home / "assets"),
        "HF_XET_CACHE": str(hf_home / "xet"),
        "HF_HUB_DISABLE_IMPLICIT_TOKEN": False,
        "HF_HUB_DISABLE_PROGRESS_BARS": None,
    }.items():
        if hasattr(hub, name):
            monkeypatch.setattr(hub, name, value)
    for name, value in {
        "HF_HUB_OFFLINE": False,
        "HF_DATASETS_OFFLINE": False,
        "HF_ENDPOINT": endpoint,
        "HF_CACHE_HOME": str(hf_home),
        "HF_DATASETS_CACHE": cache,
        "HF_MODULES_CACHE": hf_home / "modules",
        "DOWNLOADED_DATASETS_PATH": cache / "downloads",
        "EXTRACTED_DATASETS_PATH": cache / "downloads" / "extracted",
        "HF_UPDATE_DOWNLOAD_COUNTS": False,
        "HF_DATASETS_DISABLE_PROGRESS_BARS": None,
        "IN_MEMORY_MAX_SIZE": 0,
    }.items():
        if hasattr(datasets.config, name):
            monkeypatch.setattr(datasets.config, name, value)
    # their tqdm modules copy the progress-bar variables at import (``utils.tqdm`` names the class, hence sys.modules)
    monkeypatch.setattr(sys.modules["datasets.utils.tqdm"], "HF_DATASETS_DISABLE_PROGRESS_BARS", None)
    monkeypatch.setattr(sys.modules["huggingface_hub.utils.tqdm"], "HF_HUB_DISABLE_PROGRESS_BARS", None)
    datasets.disable_progress_bars()
    yield


@pytest.fixture
def progress_bars_on():
    """``datasets``' progress bars enabled for one test (the autouse fixture disables them for the next)."""
    import datasets

    datasets.enable_progress_bars()
    yield _terminal_view
    datasets.disable_progress_bars()


def _terminal_view(text: str) -> list[str]:
    """What a terminal shows of ``text``: per line, the part after the last carriage return; blank lines dropped."""
    return [shown for line in text.split("\n") if (shown := line.split("\r")[-1].strip())]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real LoCoMo and LongMemEval files: ``../shared/data``, or ``$HIMGA_TEST_DATA`` when set."""
    if not LOCOMO_FILE.is_file():
        reason = f"{_NO_DATA} (../shared/data beside the project, or set HIMGA_TEST_DATA)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; under CI the real-data tests must run")
        pytest.skip(reason)
    return SHARED_DATA


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """At the end of the run (after the short summary), one line when real-data tests skipped for want of the data,
    and one line with the reasons of the other skips (``-rs`` is not needed to see them)."""
    yield
    reports = terminalreporter.stats.get("skipped", [])
    skipped = [r for r in reports if _NO_DATA in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} real-data tests skipped: no data at {SHARED_DATA}; "
            "set HIMGA_TEST_DATA=/path/to/data (holding locomo/, longmemeval/, beam/, locomo-plus/, realtalk/, "
            "personamem/, locomo-audit/ and published-runs/) to run them",
            yellow=True,
            bold=True,
        )
    if line := skip_summary(reports, besides=_NO_DATA):
        terminalreporter.write_line(line, yellow=True)


@pytest.fixture(scope="session")
def published_runs(shared_data) -> Path:
    """The published per-question runs (``published-runs/``: Zep's, EverMemOS's, the audit's full-context baselines,
    Memobase's, Cognee's in agent-memory-benchmark, MemPalace's), each under its ``<owner>__<repo>/`` path."""
    folder = shared_data / "published-runs"
    if not (folder / "SHA256SUMS").is_file():
        reason = f"{_NO_DATA}: no published-runs/ in it (../shared/data/README.md lists its files)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; under CI the real-data tests must run")
        pytest.skip(reason)
    return folder


@pytest.fixture(scope="session")
def locomo_samples(shared_data, tmp_path_factory):
    """The 10 real LoCoMo samples, default options, built once per session."""
    from himga.data import load_locomo

    return load_locomo(shared_data / "locomo", cache_dir=tmp_path_factory.mktemp("locomo_cache"))


@pytest.fixture(scope="session")
def locomo_plus_dir(shared_data, tmp_path_factory) -> Path:
    """LoCoMo-Plus's upstream ``data/`` layout: a folder with ``locomo10.json`` and ``locomo_plus.json``, linked to the
    real files."""
    folder = tmp_path_factory.mktemp("locomo_plus") / "data"
    folder.mkdir()
    (folder / "locomo10.json").symlink_to(LOCOMO_FILE)
    (folder / "locomo_plus.json").symlink_to(SHARED_DATA / "locomo-plus" / "locomo_plus.json")
    return folder


@pytest.fixture(scope="session")
def locomo_plus_samples(locomo_plus_dir, tmp_path_factory):
    """The 411 LoCoMo-Plus samples (LoCoMo's 10, then the 401 cognitive items), default options, built once per
    session."""
    from himga.data import load_dataset

    return load_dataset("locomo_plus", data_dir=locomo_plus_dir, cache_dir=tmp_path_factory.mktemp("locomo_plus_cache"))


@pytest.fixture(scope="session")
def realtalk_samples(shared_data, tmp_path_factory):
    """The 10 REALTALK conversations, built once per session."""
    from himga.data import load_dataset

    return load_dataset(
        "realtalk", data_dir=shared_data / "realtalk", cache_dir=tmp_path_factory.mktemp("realtalk_cache")
    )


@pytest.fixture(scope="session")
def personamem_samples(shared_data, tmp_path_factory):
    """The 37 PersonaMem shared contexts of the 32k split (589 questions), built once per session."""
    from himga.data import load_dataset

    return load_dataset(
        "personamem", data_dir=shared_data / "personamem", cache_dir=tmp_path_factory.mktemp("personamem_cache")
    )


#: The unprivileged user of tests that must also hold for a user who is not root.
NOBODY = 65534


@pytest.fixture
def as_nobody(tmp_path):
    """A function running a command as uid 65534 (no groups, HOME and HF_HOME unwritable, no .pyc writes)."""
    if os.geteuid() != 0:
        pytest.skip(f"dropping to uid {NOBODY} with setpriv needs root (running as uid {os.geteuid()})")
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": "/nonexistent",
        "HF_HOME": "/nonexistent/hf",
        "HIMGA_CACHE": "/nonexistent/himga",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HF_HUB_OFFLINE": "1",
        "LANG": "C.UTF-8",
        "HF_DATASETS_DISABLE_PROGRESS_BARS": "1",
    }

    def run(*command: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command],
            capture_output=True,
            text=True,
            env={**env, **(extra_env or {})},
            timeout=600,
            cwd="/",
        )

    probe = run(sys.executable, "-c", "import himga.data")
    if probe.returncode != 0:
        reason = (probe.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(
            f"uid {NOBODY} cannot run {sys.executable} with himga (its interpreter or worktree is not readable by that "
            f"user: {reason})"
        )
    return run


@pytest.fixture(scope="session")
def beam_tier(shared_data, tmp_path_factory):
    """``beam_tier("100K")``: the real BEAM chats of a tier as Samples, built once per session (on first use) from
    ``shared_data / "beam"`` into ``beam_tier.cache[name]`` (a build with the same arguments reuses it)."""
    from himga.data import load_dataset

    built: dict = {}

    def tier(name: str):
        if name not in built:
            tier.cache[name] = tmp_path_factory.mktemp(f"beam_{name}")
            built[name] = load_dataset("beam", name, data_dir=shared_data / "beam", cache_dir=tier.cache[name])
        return built[name]

    tier.cache = {}
    return tier
