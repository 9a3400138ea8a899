"""Every pinned source file carries its evidence; the LoCoMo pin is the commit that has data/locomo10.json."""

from __future__ import annotations

import hashlib
import re

import pytest

from himga.catalog import NAMES, benchmark

PINS = [(name, config, pin) for name in NAMES for config, pin in benchmark(name).pins().items()]
#: Configs whose size and sha256 nobody publishes (checked with `himga sources --check`).
UNKNOWN = {("longmemeval", "m_original")}


#: Configs whose source is not pinned yet (no revision confirmed; a local copy is read).
UNPINNED = {("beam", "1M"), ("beam", "10M"), ("personamem", "128k"), ("personamem", "1M")}
#: The licence each source states (BEAM, LoCoMo-Plus and REALTALK state none).
LICENCES = {
    "locomo": "cc-by-nc-4.0",
    "locomo-audit": "cc-by-nc-4.0",
    "longmemeval": "mit",
    "beam": None,
    "locomo_plus": None,
    "realtalk": None,
    "personamem": None,
}


@pytest.mark.parametrize(("name", "config", "pin"), PINS, ids=[f"{n}/{c}" for n, c, _ in PINS])
def test_every_pin_has_revision_size_checksum_and_a_url_that_names_them(name, config, pin):
    assert pin.licence == LICENCES[name]
    assert pin.evidence
    if (name, config) in UNPINNED:  # PersonaMem's names its two files (the sha256 independent code pins, if any)
        assert (pin.revision, pin.size, pin.sha256) == (None, None, None)
        assert [(p.revision, p.repo_id) for p in pin.parts] == [(None, None)] * len(pin.parts)
        assert pin.evidence.startswith("not yet confirmed")
        return
    assert re.fullmatch(r"[0-9a-f]{40}", pin.revision)
    top = pin.repo_path == "."  # the files at the repository's top (PersonaMem's Hub dataset)
    assert f"/{pin.revision}{'' if top else '/'}" in pin.url
    assert pin.url.endswith(f"/{pin.revision}" if top else f"/{pin.repo_path}")
    for part in pin.parts:  # a pin of several files: each is pinned, at its place in the repository's layout
        assert (part.revision, part.layout_path, part.repo_path) == (pin.revision, part.repo_path, part.local_path)
        assert part.url.endswith(f"/{pin.revision}/{part.layout_path}") and (
            "/" not in part.layout_path if top else part.layout_path.startswith(f"{pin.repo_path}/")
        )
        assert isinstance(part.size, int) and re.fullmatch(r"[0-9a-f]{64}", part.sha256)
    if pin.parts:
        listing = "".join(f"{p.sha256}  {p.layout_path}\n" for p in sorted(pin.parts, key=lambda p: p.layout_path))
        assert pin.sha256 == hashlib.sha256(listing.encode()).hexdigest() and pin.size == sum(p.size for p in pin.parts)
    if (name, config) in UNKNOWN:
        assert (pin.size, pin.sha256) == (None, None)
        assert "unknown" in pin.evidence
    else:
        assert isinstance(pin.size, int) and pin.size > 0
        assert re.fullmatch(r"[0-9a-f]{64}", pin.sha256)
    if pin.repo_id is not None:  # Hub files: the standard resolve URL of the pinned revision
        assert pin.url == f"https://huggingface.co/datasets/{pin.repo_id}/resolve/{pin.revision}/{pin.filename}"


def test_locomo_pin_is_the_commit_with_data_locomo10_json():
    pin = benchmark("locomo").pins()["default"]
    assert pin.url == (
        "https://raw.githubusercontent.com/snap-research/locomo/3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/data/locomo10.json"
    )
    assert pin.sha256 == "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
    assert pin.size == 2_805_274
    assert pin.origin == "snap-research/locomo@3eb6f2c"


def test_the_real_locomo_file_is_the_pinned_one(shared_data):
    pin = benchmark("locomo").pins()["default"]
    path = shared_data / "locomo" / "locomo10.json"
    assert path.stat().st_size == pin.size
    from himga.sources import sha256_of

    assert sha256_of(path) == pin.sha256


def test_himga_utils_keeps_the_seed_names(tmp_path, monkeypatch):
    import himga.sources
    import himga.utils

    for name in ("RemoteFile", "cache_root", "datasets_root", "sha256_of"):
        assert getattr(himga.utils, name) is getattr(himga.sources, name)
    assert himga.utils.DATASETS == (
        "locomo",
        "longmemeval",
        "beam",
        "locomo_plus",
        "realtalk",
        "personamem",
    )  # the catalogue's names
    assert himga.utils.default_sources("locomo") == [benchmark("locomo").pins()["default"]]
    assert himga.utils.default_sources("longmemeval") == [benchmark("longmemeval").pins()["s"]]
    (tmp_path / "locomo").mkdir()
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    assert himga.utils.get_dataset("locomo") == tmp_path / "locomo"


def test_stats_locomo_downloads_the_pinned_file(shared_data, tmp_path, monkeypatch, capsys):
    """`himga stats locomo` with no local copy fetches data/locomo10.json at 3eb6f2c and verifies it."""
    import huggingface_hub.file_download

    from himga.cli import main

    calls = []

    def http_get(url, temp_file, **kwargs):
        calls.append(url)
        temp_file.write((shared_data / "locomo" / "locomo10.json").read_bytes())

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path / "himga"))
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", http_get)
    assert main(["stats", "locomo", "--cache-dir", str(tmp_path / "c")]) == 0
    assert calls == [benchmark("locomo").pins()["default"].url]
    out = capsys.readouterr().out.splitlines()
    assert "  QA pairs                    1,986" in out
    assert out[-1] == "source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"
