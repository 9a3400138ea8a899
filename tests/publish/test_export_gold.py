"""``himga export locomo OUT --gold audited``: the audited gold as config ``audited`` beside ``default``, its
errata named on the card and in the shards, read back by ``datasets`` without himga."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from huggingface_hub.repocard import metadata_load

from himga.cli import main
from himga.errors import ConfigurationError
from himga.publish import (
    ExportConfig,
    checked_export,
    export,
    export_config,
    export_configs,
    export_name,
    shard_metadata,
)

ERRATA_SHA256 = "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e"

#: Reads an export with ``datasets`` alone (himga never imported) and prints what differs between its two configs.
READ_BACK = """
import json, sys
import datasets
out = sys.argv[1]
audited = datasets.load_dataset(out, "audited", split="test")
published = datasets.load_dataset(out, "default", split="test")
default = datasets.load_dataset(out, split="test")  # the card's default config
qa = answers = evidence = corrected = 0
for a, p in zip(audited, published):
    assert a["sample_id"] == p["sample_id"]
    for qa_a, qa_p in zip(a["qa_pairs"], p["qa_pairs"]):
        qa += 1
        answers += qa_a["answer"] != qa_p["answer"]
        evidence += qa_a["evidence"]["turn_ids"] != qa_p["evidence"]["turn_ids"]
        corrected += "gold_audit" in json.loads(qa_a["raw"] or "{}")
print(json.dumps({"rows": [audited.num_rows, published.num_rows], "default_is_published": default[:] == published[:],
                  "qa": qa, "answers": answers, "evidence": evidence, "corrected": corrected,
                  "gold": json.loads(audited[0]["raw"])["gold"],
                  "himga": [m for m in sys.modules if m.startswith("himga")]}))
"""


def test_the_export_config_names():
    assert export_configs("locomo") == [
        ExportConfig("default", "default", "published"),
        ExportConfig("audited", "default", "audited"),
        ExportConfig("system", "default", "published", "system"),
    ]
    assert export_name("locomo", "default", "audited") == "audited" and export_name("locomo", "default") == "default"
    assert [c.name for c in export_configs("longmemeval")] == [
        "s",
        "m",
        "oracle",
        "s_original",
        "m_original",
        "oracle_original",
        "system",
        "m_system",
        "oracle_system",
        "s_original_system",
        "m_original_system",
        "oracle_original_system",
    ]
    assert export_config("locomo", "audited").gold == "audited"
    with pytest.raises(
        ConfigurationError, match=r"^locomo: unknown config 'x'; expected one of \['default', 'audited', 'system'\]$"
    ):
        export_config("locomo", "x")


@pytest.fixture(scope="module")
def both(shared_data, tmp_path_factory):
    """An export folder holding LoCoMo's published rows (``default``) and then its audited rows (``audited``)."""
    out = tmp_path_factory.mktemp("gold") / "out"
    cache = tmp_path_factory.mktemp("gold_cache")
    assert (
        main(["export", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(cache), str(out)]) == 0
    )
    assert (
        main(
            [
                "export",
                "locomo",
                "--data-dir",
                str(shared_data / "locomo"),
                "--cache-dir",
                str(cache),
                "--gold",
                "audited",
                "--errata",
                str(shared_data / "locomo-audit" / "errors.json"),
                str(out),
            ]
        )
        == 0
    )  # the pinned file's copy
    return out


def test_audited_rows_are_a_config_of_their_own_read_back_without_himga(both):
    result = subprocess.run([sys.executable, "-c", READ_BACK, str(both)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got == {
        "rows": [10, 10],
        "default_is_published": True,
        "qa": 1986,
        "answers": 120,
        "evidence": 95,
        "corrected": 156,
        "gold": {"variant": "audited", "errata": "errors.json", "errata_sha256": ERRATA_SHA256},
        "himga": [],
    }


def test_the_card_and_the_shards_name_the_gold(both):
    card = (both / "README.md").read_text(encoding="utf-8")
    meta = metadata_load(both / "README.md")
    assert sorted(c["config_name"] for c in meta["configs"]) == ["audited", "default"]
    assert [c for c in meta["configs"] if c.get("default")] == [
        {
            "config_name": "default",
            "data_files": [{"split": "test", "path": "data/default/test-*.parquet"}],
            "default": True,
        }
    ]
    assert (
        "| `audited` | `audited` | `errors.json` | `f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e` "
        "| identical to the pinned "
        "[`errors.json`](https://raw.githubusercontent.com/dial481/locomo-audit/"
        "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/errors.json) "
        "(dial481/locomo-audit@9493fb4, cc-by-nc-4.0) |"
    ) in card
    assert "| `default` | `published` | none |  |  |" in card
    assert 'datasets.load_dataset("ORG/NAME", "audited", split="test")' in card
    assert "The configs carry the gold variants listed under Gold: `published`, " in card
    (shard,) = (both / "data" / "audited").glob("test-*.parquet")
    record = shard_metadata(shard)
    assert (record["config"], record["builder_config"], record["gold"]) == (
        "audited",
        "default",
        {"variant": "audited", "errata": "errors.json", "errata_sha256": ERRATA_SHA256},
    )
    (shard,) = (both / "data" / "default").glob("test-*.parquet")
    assert "gold" not in shard_metadata(shard)  # the published rows' shards are as they were before gold variants
    assert checked_export("locomo", both) == ["audited", "default"]  # what push uploads, in card order
    assert checked_export("locomo", both, ["audited"]) == ["audited"]


def test_the_pinned_errata_is_found_under_the_datasets_root(shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))  # locomo-audit/errors.json, as a user's root holds it
    sizes = export("locomo", tmp_path / "out", cache_dir=tmp_path / "cache", gold="audited")
    assert list(sizes) == ["audited"]
    (shard,) = (tmp_path / "out" / "data" / "audited").glob("test-*.parquet")
    assert shard_metadata(shard)["gold"] == {
        "variant": "audited",
        "errata": "errors.json",
        "errata_sha256": ERRATA_SHA256,
    }


def test_a_users_errata_file_is_named_by_its_sha256(shared_data, tmp_path):
    mine = tmp_path / "mine.json"
    mine.write_bytes((shared_data / "locomo-audit" / "errors.json").read_bytes() + b"\n")  # same entries, other bytes
    import hashlib

    sha = hashlib.sha256(mine.read_bytes()).hexdigest()
    out = tmp_path / "out"
    sizes = export(
        "locomo", out, data_dir=shared_data / "locomo", cache_dir=tmp_path / "cache", gold="audited", errata=mine
    )
    assert list(sizes) == ["audited"] and sizes["audited"].num_examples == 10
    card = (out / "README.md").read_text(encoding="utf-8")
    assert (
        f"| `audited` | `audited` | `mine.json` | `{sha}` | differs from the pinned "
        "[`errors.json`](https://raw.githubusercontent.com/dial481/locomo-audit/"
        "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/errors.json) "
        "(dial481/locomo-audit@9493fb4): a user's errata file |"
    ) in card
    assert "These rows carry the `audited` gold: " in card


def test_gold_options_are_checked_before_anything_is_written(shared_data, tmp_path, capsys):
    with pytest.raises(ConfigurationError, match=r"^longmemeval: has no gold variants"):
        export("longmemeval", tmp_path / "a", gold="audited")
    with pytest.raises(
        ConfigurationError, match=r"^locomo: gold: expected one of \['published', 'audited'\], got 'fixed'$"
    ):
        export("locomo", tmp_path / "b", gold="fixed")
    with pytest.raises(
        ConfigurationError, match=r"^locomo: errata: an errata file applies to another gold than 'published'$"
    ):
        export("locomo", tmp_path / "c", errata=tmp_path / "mine.json")
    assert not any(tmp_path.iterdir())
    assert main(["export", "longmemeval", str(tmp_path / "d"), "--gold", "audited"]) == 2
    assert capsys.readouterr().err.startswith("himga: error: longmemeval: has no gold variants")
