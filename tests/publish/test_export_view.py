"""``himga export locomo OUT --view system``: the system view as config ``system`` beside ``default``, read back by
``datasets`` without himga, equal to ``himga.data.system_view`` row by row."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from huggingface_hub.repocard import metadata_load

from himga.cli import main
from himga.errors import ConfigurationError
from himga.publish import checked_export, export, shard_metadata

#: Reads the export with ``datasets`` alone (himga never imported) and prints its system rows.
READ_BACK = """
import json, sys
import datasets
rows = datasets.load_dataset(sys.argv[1], "system", split="test").to_list()
print(json.dumps({"rows": rows, "himga": [m for m in sys.modules if m.startswith("himga")]}))
"""


@pytest.fixture(scope="module")
def exported(shared_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("view") / "export"
    cache = tmp_path_factory.mktemp("view_cache")
    export("locomo", out, data_dir=shared_data / "locomo", cache_dir=cache)
    sizes = export("locomo", out, data_dir=shared_data / "locomo", cache_dir=cache, view="system")
    return out, sizes


def test_the_view_is_a_config_beside_the_samples(exported, locomo_samples):
    from himga.data import system_view
    from himga.schema.view import SYSTEM_FEATURES, system_row

    out, sizes = exported
    assert {c: s.num_examples for c, s in sizes.items()} == {"default": 10, "system": 10}
    done = subprocess.run([sys.executable, "-c", READ_BACK, str(out)], capture_output=True, text=True, check=True)
    read = json.loads(done.stdout)
    assert read["himga"] == []
    assert read["rows"] == [system_row(system_view(s)) for s in locomo_samples]
    card = metadata_load(out / "README.md")
    infos = {c["config_name"]: c for c in card["dataset_info"]}
    assert [f["name"] for f in infos["system"]["features"]] == list(SYSTEM_FEATURES)
    assert [f["name"] for f in infos["default"]["features"]] == [
        "sample_id",
        "dataset",
        "sessions",
        "qa_pairs",
        "speaker_a",
        "speaker_b",
        "raw",
    ]
    assert "`system`: the system view of the rows" in (out / "README.md").read_text()
    meta = shard_metadata(next((out / "data" / "system").glob("test-*.parquet")))
    assert (meta["config"], meta["builder_config"], meta["view"]) == ("system", "default", "system")
    assert checked_export("locomo", out) == ["default", "system"]


def test_a_view_has_no_gold_variant(tmp_path, capsys):
    with pytest.raises(
        ConfigurationError,
        match="view: expected one of system .without gold/errata: a view has no gold., got 'audited'",
    ):
        export("locomo", tmp_path / "x", view="audited")
    with pytest.raises(ConfigurationError, match="a view has no gold"):
        export("locomo", tmp_path / "x", view="system", gold="audited")
    with pytest.raises(SystemExit):
        main(["export", "locomo", str(tmp_path / "x"), "--view", "other"])
    assert "invalid choice: 'other'" in capsys.readouterr().err


def test_the_view_is_generated_as_the_test_split_it_is(shared_data, tmp_path, capsys, progress_bars_on):
    """``himga export ... --view system`` showed "Generating train split" although every split is ``test``."""
    args = ["export", "locomo", str(tmp_path / "out"), "--data-dir", str(shared_data / "locomo")]
    assert main([*args, "--cache-dir", str(tmp_path / "c"), "--view", "system"]) == 0
    shown = progress_bars_on(capsys.readouterr().err)
    assert any(line.startswith("Generating test split") for line in shown)
    assert not [line for line in shown if "train" in line]
