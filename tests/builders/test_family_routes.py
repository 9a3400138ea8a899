"""LoCoMo-Plus and REALTALK on every route an entry has: ``datasets.load_dataset("himga_…")`` (and streaming, and the
default source under ``$HIMGA_DATASETS_ROOT``), an export and its card read back without himga, the same Features as
every benchmark (they concatenate), and ``himga stats/validate/subset/qrels``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import datasets
import pytest
from helpers.exports import assert_same_as_builder, load_without_himga
from huggingface_hub import DatasetCard

from himga.cli import main
from himga.data import SAMPLE_FEATURES, load_dataset
from himga.data.loaders import build_dataset
from himga.publish import export

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(shared_data, locomo_plus_dir, tmp_path_factory):
    """``datasets.Dataset`` of both, built once for the module (the facade's route)."""
    cache = tmp_path_factory.mktemp("family_cache")
    return {
        "locomo_plus": build_dataset("locomo_plus", path=locomo_plus_dir, cache_dir=cache),
        "realtalk": build_dataset("realtalk", path=shared_data / "realtalk", cache_dir=cache),
        "cache": str(cache),
    }


def test_load_dataset_by_name_and_streaming(shared_data, locomo_plus_dir, built):
    rt = datasets.load_dataset("himga_realtalk", data_dir=str(shared_data / "realtalk"), split="test")
    assert rt.features == SAMPLE_FEATURES and list(rt) == list(built["realtalk"])
    it = datasets.load_dataset("himga_locomo_plus", data_dir=str(locomo_plus_dir), split="test", streaming=True)
    assert it.features == SAMPLE_FEATURES
    rows = list(it)
    assert [r["sample_id"] for r in rows] == built["locomo_plus"]["sample_id"] and rows[-1] == built["locomo_plus"][-1]


def test_the_default_source_under_datasets_root(shared_data, locomo_plus_dir, tmp_path, monkeypatch):
    """The default source is each pin's files in the repository's layout (``<root>/realtalk/data/Chat_*.json``: a
    checkout
    of REALTALK; ``<root>/locomo_plus/data/``: one of Locomo-Plus)."""
    (tmp_path / "realtalk").mkdir()
    (tmp_path / "realtalk" / "data").symlink_to(shared_data / "realtalk", target_is_directory=True)
    (tmp_path / "locomo_plus").mkdir()
    (tmp_path / "locomo_plus" / "data").symlink_to(locomo_plus_dir, target_is_directory=True)
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    assert datasets.load_dataset("himga_realtalk", split="test", cache_dir=str(tmp_path / "c")).num_rows == 10
    samples = load_dataset("realtalk", cache_dir=tmp_path / "f")  # the facade: the ten pinned files, as data_files
    assert [s.sample_id for s in samples][-1] == "Chat_10_Fahim_Muhhamed"
    assert datasets.load_dataset("himga_locomo_plus", split="test", cache_dir=str(tmp_path / "c")).num_rows == 411


def _card(out: Path, name: str) -> None:
    card = DatasetCard.load(out / "README.md")
    assert card.data.to_dict()["license"] == "unknown"
    assert "**Licence.** None is stated upstream" in card.text
    committed = (
        ROOT / f"himga_{name}" / "README.md"
    )  # regenerate: himga export NAME himga_NAME --card-only --data-dir DIR
    assert (out / "README.md").read_text(encoding="utf-8") == committed.read_text(encoding="utf-8")


def test_realtalk_export_loads_without_himga(shared_data, built, tmp_path):
    out = tmp_path / "realtalk_export"
    assert export("realtalk", out, data_dir=shared_data / "realtalk")["default"].num_examples == 10
    assert_same_as_builder(load_without_himga(tmp_path, str(out)), built["realtalk"])
    _card(out, "realtalk")


def test_locomo_plus_export_loads_without_himga(locomo_plus_dir, built, tmp_path):
    """The export's rows (53 MB of Arrow) are compared by sample id and sha256 of each row, not moved whole as JSON."""
    out = tmp_path / "locomo_plus_export"
    assert export("locomo_plus", out, data_dir=locomo_plus_dir)["default"].num_examples == 411
    code = f"""
        import hashlib, json, sys, datasets
        ds = datasets.load_dataset({str(out)!r}, split="test")
        it = datasets.load_dataset({str(out)!r}, split="test", streaming=True)
        digest = lambda row: hashlib.sha256(json.dumps(row, sort_keys=True).encode()).hexdigest()
        print(json.dumps({{"himga": any(m == "himga" or m.startswith(("himga.", "himga_")) for m in sys.modules),
                          "features": ds.features.to_dict(), "rows": [digest(r) for r in ds],
                          "stream": [digest(r) for r in it]}}))
        """
    env = dict(
        os.environ, HF_DATASETS_CACHE=str(tmp_path / "fresh"), HF_HUB_OFFLINE="1", HF_DATASETS_DISABLE_PROGRESS_BARS="1"
    )
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout)
    expected = [hashlib.sha256(json.dumps(r, sort_keys=True).encode()).hexdigest() for r in built["locomo_plus"]]
    assert (loaded["himga"], loaded["features"]) == (False, SAMPLE_FEATURES.to_dict())
    assert loaded["rows"] == loaded["stream"] == expected
    _card(out, "locomo_plus")


def test_every_benchmark_concatenates(shared_data, built):
    parts = [
        build_dataset("locomo", path=shared_data / "locomo"),
        build_dataset("longmemeval", "oracle", path=shared_data / "longmemeval" / "longmemeval_oracle_sample.json"),
        built["locomo_plus"],
        built["realtalk"],
    ]
    both = datasets.concatenate_datasets(parts)
    assert both.features == SAMPLE_FEATURES
    assert Counter(both["dataset"]) == {"locomo": 10, "longmemeval": 97, "locomo_plus": 411, "realtalk": 10}


def test_stats_validate_subset_and_qrels(shared_data, locomo_plus_dir, built, locomo_plus_samples, tmp_path, capsys):
    data = {"realtalk": str(shared_data / "realtalk"), "locomo_plus": str(locomo_plus_dir)}
    cache = ["--cache-dir", built["cache"]]  # the module's builds
    assert main(["stats", "realtalk", "--data-dir", data["realtalk"], "--json", *cache]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["samples"], stats["qa_pairs"], stats["question_types"]) == (
        10,
        728,
        {"temporal": 319, "multi_hop": 301, "open_domain": 108},
    )
    assert main(["validate", "realtalk", "--data-dir", data["realtalk"]]) == 0
    out = capsys.readouterr().out
    assert "evidence strings naming no dia_id of their conversation (shown with what they normalize to)     188" in out
    assert (
        main(
            [
                "subset",
                "locomo_plus",
                str(tmp_path / "ids.txt"),
                "--data-dir",
                data["locomo_plus"],
                "--n",
                "40",
                "--seed",
                "3",
                "--stratify",
                "question_type",
                *cache,
            ]
        )
        == 0
    )
    ids = (tmp_path / "ids.txt").read_text(encoding="utf-8").split()
    assert len(ids) == 40 and any(i.startswith("cognitive-") for i in ids)
    capsys.readouterr()
    assert main(["qrels", "realtalk", str(tmp_path / "realtalk"), "--data-dir", data["realtalk"], *cache]) == 0
    from himga.qrels import write_qrels

    write_qrels(
        [locomo_plus_samples[0], locomo_plus_samples[10]], tmp_path / "locomo_plus"
    )  # 2 of 411: the files are large
    qrels = (tmp_path / "locomo_plus" / "qrels.session.txt").read_text(encoding="utf-8").splitlines()
    assert "cognitive-0:0 0 cognitive-0:Scue 1" in qrels
    turns = (tmp_path / "realtalk" / "qrels.turn.txt").read_text(encoding="utf-8").splitlines()
    assert "Chat_1_Emi_Elise:16 0 Chat_1_Emi_Elise:D3:32 1" in turns


def test_the_pins_hold_the_real_files_sizes_digests_and_content(shared_data, locomo_plus_dir):
    """Each part of the two pins is the real file: its size, sha256 and content fingerprint (so a re-serialised copy
    is recognised as the same data)."""
    from himga.catalog import benchmark
    from himga.jsonio.reader import load_json
    from himga.sources import content_sha256, sha256_of

    folders = {"realtalk": shared_data / "realtalk", "locomo_plus": locomo_plus_dir}
    for name, folder in folders.items():
        parts = benchmark(name).pin().parts
        assert len(parts) == {"realtalk": 10, "locomo_plus": 2}[name]
        for part in parts:
            path = folder / part.filename
            assert (path.stat().st_size, sha256_of(path), content_sha256(load_json(path))) == (
                part.size,
                part.sha256,
                part.content_sha256,
            ), part.filename
