"""Export never mislabels data: configs come from the files given, the card from the real files.

Before the fix, ``himga export longmemeval OUT --data-dir ONE_FILE`` wrote that one file under all six
config names, and the card named the pinned S/M files and checksums as their source.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import datasets
import pytest
from huggingface_hub import DatasetCard
from realdata import SHARED_DATA

import himga.publish._source_labels
import himga_longmemeval.pins
from himga.catalog import benchmark
from himga.cli import main
from himga.errors import ConfigurationError
from himga.publish import SourceFile, configs_named, export, matching_pins, pin_note, select_configs, shard_metadata

SAMPLE = SHARED_DATA / "longmemeval" / "longmemeval_oracle_sample.json"
SAMPLE_SHA256 = "940162ccefe110e8335eb8bc2ec6fe336edd77f481f0c1ef4edeb6d832d39711"  # sha256sum, 3,079,019 bytes
LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
PINNED_SHA256 = {  # of longmemeval.py; none may appear on the card of a file that is not that pin
    "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442",
    "08d8dad4be43ee2049a22ff5674eb86725d0ce5ff434cde2627e5e8e7e117894",
    "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c",
    "9d79e5524794a2e6900a3aa9cb7d9152c5a3e8319c9a87c25494ba1eacee495f",
}


@pytest.fixture
def oracle_named(shared_data, tmp_path) -> Path:
    """The 97-question oracle sample under the oracle file's real name, alone in a folder."""
    folder = tmp_path / "src"
    folder.mkdir()
    return Path(shutil.copy(SAMPLE, folder / "longmemeval_oracle.json"))


def _card(out: Path) -> str:
    return (out / "README.md").read_text(encoding="utf-8")


def _source_rows(card: str) -> list[str]:
    section = card.split("## Source\n\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| config")]


def test_file_names_say_the_config():
    assert {
        n: configs_named("longmemeval", n)
        for n in (
            "longmemeval_s_cleaned.json",
            "longmemeval_s_cleaned",
            "longmemeval_m_cleaned.json",
            "longmemeval_oracle.json",
            "longmemeval_oracle",
            "longmemeval_s",
            "longmemeval_s.json",
            "longmemeval_m.json",
            "longmemeval_oracle_sample.json",
        )
    } == {
        "longmemeval_s_cleaned.json": ["s"],
        "longmemeval_s_cleaned": ["s"],
        "longmemeval_m_cleaned.json": ["m"],
        "longmemeval_oracle.json": ["oracle", "oracle_original"],
        "longmemeval_oracle": ["oracle", "oracle_original"],
        "longmemeval_s": ["s_original"],
        "longmemeval_s.json": ["s_original"],
        "longmemeval_m.json": ["m_original"],
        "longmemeval_oracle_sample.json": [],
    }
    assert configs_named("locomo", "locomo10.json") == ["default"]
    assert matching_pins("longmemeval", "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c") == [
        "oracle",
        "oracle_original",
    ]
    assert matching_pins("longmemeval", SAMPLE_SHA256) == []
    assert matching_pins("locomo", LOCOMO_SHA256) == ["default"]


def test_select_configs(shared_data, oracle_named, tmp_path):
    lme = SHARED_DATA / "longmemeval"
    assert select_configs("longmemeval", None, None) == [
        "s",
        "m",
        "oracle",
        "s_original",
        "m_original",
        "oracle_original",
    ]
    assert select_configs("longmemeval", None, oracle_named) == ["oracle", "oracle_original"]
    assert select_configs("longmemeval", None, oracle_named.parent) == ["oracle", "oracle_original"]
    assert select_configs("longmemeval", ["oracle_original"], oracle_named) == ["oracle_original"]
    assert select_configs("longmemeval", ["m", "oracle"], SAMPLE) == [
        "m",
        "oracle",
    ]  # a name that says nothing: the caller's label
    assert select_configs("locomo", None, SAMPLE) == ["default"]  # one config: nothing to choose
    with pytest.raises(
        ConfigurationError,
        match=r"^longmemeval: cannot tell the config of longmemeval_oracle_sample.json from its file name; "
        r"pass the config \(config= / --config\)\. File names of the configs: s: longmemeval_s_cleaned.json or "
        r"longmemeval_s_cleaned or longmemeval_s_cleaned.jsonl; ",
    ):
        select_configs("longmemeval", None, SAMPLE)
    with pytest.raises(
        ConfigurationError,
        match=r"^longmemeval: longmemeval_oracle.json is the file of config oracle, oracle_original, not of s, m$",
    ):
        select_configs("longmemeval", ["s", "oracle", "m"], oracle_named)
    with pytest.raises(
        ConfigurationError,
        match=rf"^longmemeval: cannot tell the config of the files in {lme} from their names; pass the config "
        r"\(config= / --config\)\. File names of the configs: s: ",
    ):
        select_configs("longmemeval", None, lme)
    with pytest.raises(
        ConfigurationError, match=rf"^longmemeval: no source file of config s in {oracle_named.parent}; expected "
    ):
        select_configs("longmemeval", ["s", "oracle"], oracle_named.parent)
    with pytest.raises(ConfigurationError, match=r"^longmemeval: unknown config 'x'"):
        select_configs("longmemeval", ["x"], None)
    with pytest.raises(ConfigurationError, match=r"^longmemeval: source '.*nowhere.json' does not exist$"):
        select_configs("longmemeval", None, tmp_path / "nowhere.json")


def test_one_oracle_file_exports_only_the_oracle_configs(oracle_named, tmp_path, monkeypatch):
    out = tmp_path / "out"
    hashed = []
    monkeypatch.setattr(
        himga.publish._source_labels,
        "describe",
        lambda path, real=himga.publish._source_labels.describe: (hashed.append(path), real(path))[1],
    )
    sizes = export("longmemeval", out, data_dir=oracle_named)
    assert hashed == [oracle_named]  # once for both configs
    assert {c: s.num_examples for c, s in sizes.items()} == {"oracle": 97, "oracle_original": 97}
    assert sorted({p.parent.name for p in out.glob("data/*/*.parquet")}) == ["oracle", "oracle_original"]
    card = _card(out)
    assert [c["config_name"] for c in DatasetCard.load(out / "README.md").data.configs] == ["oracle", "oracle_original"]
    assert _source_rows(card) == [
        f"| {config} | `longmemeval_oracle.json` | 3,079,019 | `{SAMPLE_SHA256}` | differs from the pinned "
        f"[`{pin}`](https://huggingface.co/datasets/{repo}/resolve/{rev}/{pin}): a modified copy, a sample or another "
        "release |"
        for config, pin, repo, rev in (
            (
                "oracle",
                "longmemeval_oracle.json",
                "xiaowu0162/longmemeval-cleaned",
                "98d7416c24c778c2fee6e6f3006e7a073259d48f",
            ),
            (
                "oracle_original",
                "longmemeval_oracle",
                "xiaowu0162/longmemeval",
                "2ec2a557f339b6c0369619b1ed5793734cc87533",
            ),
        )
    ]
    assert not any(sha in card for sha in PINNED_SHA256)
    assert "longmemeval_s_cleaned" not in card and "longmemeval_m" not in card
    meta = shard_metadata(out / "data" / "oracle" / "test-00000-of-00016.parquet")
    assert meta == {
        "dataset": "longmemeval",
        "config": "oracle",
        "sources": [{"filename": "longmemeval_oracle.json", "num_bytes": 3079019, "sha256": SAMPLE_SHA256}],
    }
    with pytest.raises(ValueError, match="BuilderConfig 's' not found"):
        datasets.load_dataset(str(out), "s", split="test")
    assert len(datasets.load_dataset(str(out), "oracle_original", split="test")) == 97


def test_cli_export_of_one_file(oracle_named, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["export", "longmemeval", str(out), "--data-dir", str(oracle_named)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"longmemeval/oracle: 97 rows in {out}/data/oracle/",
        f"longmemeval/oracle_original: 97 rows in {out}/data/oracle_original/",
        f"card: {out}/README.md",
    ]
    assert main(["export", "longmemeval", str(tmp_path / "other"), "--data-dir", str(SAMPLE)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "himga: error: longmemeval: cannot tell the config of longmemeval_oracle_sample.json from its file name; pass "
        "the config"
    )
    assert not (tmp_path / "other").exists()  # refused before anything was written
    assert (
        main(["export", "longmemeval", str(tmp_path / "other"), "--config", "s", "--data-dir", str(oracle_named)]) == 2
    )
    assert (
        capsys.readouterr().err
        == "himga: error: longmemeval: longmemeval_oracle.json is the file of config oracle, oracle_original, not of "
        "s\n"
    )
    assert (
        main(["export", "longmemeval", str(tmp_path / "other"), "--config", "m_original", "--data-dir", str(SAMPLE)])
        == 0
    )
    assert _source_rows(_card(tmp_path / "other")) == [  # m_original is the one pin without a sha256
        f"| m_original | `longmemeval_oracle_sample.json` | 3,079,019 | `{SAMPLE_SHA256}` | not checked: no sha256 is "
        "pinned for "
        "[`longmemeval_m`](https://huggingface.co/datasets/xiaowu0162/longmemeval/resolve/"
        "2ec2a557f339b6c0369619b1ed5793734cc87533/longmemeval_m) |"
    ]


def test_a_pinned_file_is_never_exported_under_another_config(shared_data, tmp_path, monkeypatch):
    """No real LongMemEval pin is on this machine: pretend the sample is the pinned oracle file."""
    for config in ("oracle", "oracle_original"):
        monkeypatch.setitem(
            himga_longmemeval.pins.PINS,
            config,
            dataclasses.replace(himga_longmemeval.pins.PINS[config], sha256=SAMPLE_SHA256),
        )
    with pytest.raises(
        ConfigurationError,
        match=r"^longmemeval: longmemeval_oracle_sample.json is the pinned file of config oracle, oracle_original "
        rf"\(sha256 {SAMPLE_SHA256}\), not of 's'$",
    ):
        export("longmemeval", tmp_path / "out", ["oracle", "s"], data_dir=SAMPLE)
    assert not (tmp_path / "out").exists()
    export("longmemeval", tmp_path / "out", ["oracle"], data_dir=SAMPLE)
    assert _source_rows(_card(tmp_path / "out")) == [
        f"| oracle | `longmemeval_oracle_sample.json` | 3,079,019 | `{SAMPLE_SHA256}` | identical to the pinned "
        "[`longmemeval_oracle.json`](https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/"
        "98d7416c24c778c2fee6e6f3006e7a073259d48f/longmemeval_oracle.json) |"
    ]


def test_locomo_card_names_the_real_file(shared_data, tmp_path, monkeypatch):
    url = benchmark("locomo").builder.builder_configs["default"].remote_file().url
    export("locomo", tmp_path / "pinned", data_dir=shared_data / "locomo")
    assert _source_rows(_card(tmp_path / "pinned")) == [
        f"| default | `locomo10.json` | 2,805,274 | `{LOCOMO_SHA256}` | identical to the pinned "
        f"[`locomo10.json`]({url}) |"
    ]
    # the same data re-serialized (a modified copy), reached through $HIMGA_DATASETS_ROOT, not --data-dir
    root = tmp_path / "root"
    (root / "locomo").mkdir(parents=True)
    (root / "locomo" / "locomo10.json").write_text(
        json.dumps(json.loads((shared_data / "locomo" / "locomo10.json").read_text()))
    )
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(root))
    export("locomo", tmp_path / "copy")
    assert _source_rows(_card(tmp_path / "copy")) == [
        "| default | `locomo10.json` | 2,168,972 | `1b304c7c3d98ff9cef5efd02100a4dfa93fc9ee3babaceca752df9f9aa90b42d` "
        "| differs from "
        f"the pinned [`locomo10.json`]({url}): a modified copy, a sample or another release |"
    ]
    assert LOCOMO_SHA256 not in _card(tmp_path / "copy")


def test_default_source_card_describes_the_local_copy(oracle_named, tmp_path, monkeypatch):
    """No --data-dir: the files found under $HIMGA_DATASETS_ROOT are described, never the pin they stand in for."""
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    (tmp_path / "longmemeval").mkdir()
    shutil.copy(oracle_named, tmp_path / "longmemeval" / "longmemeval_oracle.json")
    export("longmemeval", tmp_path / "out", ["oracle"])
    (row,) = _source_rows(_card(tmp_path / "out"))
    assert row.startswith(
        f"| oracle | `longmemeval_oracle.json` | 3,079,019 | `{SAMPLE_SHA256}` | differs from the pinned "
    )
    assert not any(sha in _card(tmp_path / "out") for sha in PINNED_SHA256)


def test_pin_note_of_each_case():
    file = SourceFile("x.json", 1, "0" * 64)
    assert pin_note("longmemeval", "s", file).startswith("differs from the pinned [`longmemeval_s_cleaned.json`]")
    assert pin_note("longmemeval", "m_original", file).startswith(
        "not checked: no sha256 is pinned for [`longmemeval_m`]"
    )
    assert pin_note("locomo", "default", SourceFile("a.json", 1, LOCOMO_SHA256)).startswith(
        "identical to the pinned [`locomo10.json`]"
    )


def test_export_never_overwrites_a_readme_that_is_not_its_card(shared_data, tmp_path, capsys):
    """`himga export locomo .` from a project root must not replace the project's README with the card."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("# My project\n")
    assert main(["export", "locomo", str(project), "--data-dir", str(shared_data / "locomo")]) == 2
    assert capsys.readouterr().err == (
        f"himga: error: locomo: {project}/README.md is not a LoCoMo (HiMGA-normalized) card (pretty_name None): "
        "another "
        "dataset's export, or a README of your own; use an empty folder or this dataset's export folder\n"
    )
    assert (
        sorted(p.name for p in project.iterdir()) == ["README.md"]
        and (project / "README.md").read_text() == "# My project\n"
    )
    assert main(["export", "locomo", str(tmp_path / "out"), "--data-dir", str(shared_data / "locomo")]) == 0
    assert (
        main(["export", "locomo", str(tmp_path / "out"), "--data-dir", str(shared_data / "locomo")]) == 0
    )  # its own card: fine
