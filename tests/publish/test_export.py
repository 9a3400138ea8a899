"""``himga export``: Parquet + dataset card that ``datasets`` reads in a fresh interpreter without himga.

Rows and features are compared as JSON between the builder's output (this process) and the export
loaded by a subprocess that never imports himga.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
import yaml
from helpers.exports import assert_same_as_builder as _assert_same_as_builder
from helpers.exports import load_without_himga as _load_without_himga
from huggingface_hub import DatasetCard

from himga.data import SAMPLE_FEATURES, load_longmemeval
from himga.data.loaders import build_dataset
from himga.errors import ConfigurationError
from himga.publish import all_configs, export, field_reference, render_card

ROOT = Path(__file__).resolve().parents[2]
ORACLE_SAMPLE = Path("longmemeval") / "longmemeval_oracle_sample.json"  # under the shared_data fixture


def test_locomo_export_loads_without_himga(shared_data, tmp_path):
    out = tmp_path / "locomo_export"
    sizes = export("locomo", out, data_dir=shared_data / "locomo")
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == [
        "README.md",  # and nothing else: no lock file left behind
        "data/default/test-00000-of-00001.parquet",
    ]
    assert (sizes["default"].num_examples, sizes["default"].num_bytes) == (
        10,
        2391053,
    )  # 2,366,972 before QAPair.position and .options (builder 2.1.0)
    assert pq.ParquetFile(out / "data/default/test-00000-of-00001.parquet").metadata.num_rows == 10
    ds = build_dataset("locomo", path=shared_data / "locomo")
    _assert_same_as_builder(_load_without_himga(tmp_path, str(out)), ds)


def test_longmemeval_oracle_export_loads_without_himga(shared_data, tmp_path):
    out = tmp_path / "lme_export"
    sizes = export("longmemeval", out, ["oracle"], data_dir=shared_data / ORACLE_SAMPLE)
    assert list(sizes) == ["oracle"] and sizes["oracle"].num_examples == 97
    ds = build_dataset("longmemeval", "oracle", path=shared_data / ORACLE_SAMPLE)
    _assert_same_as_builder(_load_without_himga(tmp_path, str(out), "oracle"), ds)


def test_small_row_groups_shards_and_stale_shards_replaced(shared_data, tmp_path):
    out = tmp_path / "lme_export"
    export("longmemeval", out, ["oracle"], data_dir=shared_data / ORACLE_SAMPLE, row_group_bytes=100_000, num_shards=3)
    files = sorted((out / "data" / "oracle").iterdir())
    assert [f.name for f in files] == [f"test-0000{i}-of-00003.parquet" for i in range(3)]
    meta = [pq.ParquetFile(f).metadata for f in files]
    assert [m.num_rows for m in meta] == [33, 32, 32]
    assert {m.row_group(i).num_rows for m in meta for i in range(m.num_row_groups)} <= {1, 2, 3}
    ds = build_dataset("longmemeval", "oracle", path=shared_data / ORACLE_SAMPLE)
    ids = [r for f in files for r in pq.read_table(f, columns=["sample_id"])["sample_id"].to_pylist()]
    assert ids == ds["sample_id"]
    export(
        "longmemeval", out, ["oracle"], data_dir=shared_data / ORACLE_SAMPLE, num_shards=1
    )  # re-export: one shard, the 3 old ones gone
    assert [f.name for f in (out / "data" / "oracle").iterdir()] == ["test-00000-of-00001.parquet"]


def test_configs_exported_one_at_a_time_stay_on_the_card(shared_data, tmp_path):
    out = tmp_path / "lme_export"
    export("longmemeval", out, ["oracle"], data_dir=shared_data / ORACLE_SAMPLE)
    sizes = export("longmemeval", out, ["oracle_original"], data_dir=shared_data / ORACLE_SAMPLE)
    assert {c: s.num_examples for c, s in sizes.items()} == {"oracle": 97, "oracle_original": 97}
    card = DatasetCard.load(out / "README.md")
    assert [c["config_name"] for c in card.data.configs] == ["oracle", "oracle_original"]
    assert [i["config_name"] for i in card.data.dataset_info] == ["oracle", "oracle_original"]


def test_card_front_matter(shared_data, tmp_path):
    export("locomo", tmp_path, data_dir=shared_data / "locomo")
    card = DatasetCard.load(tmp_path / "README.md")
    data = card.data.to_dict()
    assert data["pretty_name"] == "LoCoMo (HiMGA-normalized)"
    assert (data["license"], data["language"], data["task_categories"], data["size_categories"]) == (
        "cc-by-nc-4.0",
        ["en"],
        ["question-answering"],
        ["n<1K"],
    )
    assert data["configs"] == [
        {"config_name": "default", "data_files": [{"split": "test", "path": "data/default/test-*.parquet"}]}
    ]
    assert data["dataset_info"]["splits"] == [{"name": "test", "num_bytes": 2391053, "num_examples": 10}]
    from datasets.info import DatasetInfo

    assert DatasetInfo._from_yaml_dict(data["dataset_info"]).features == SAMPLE_FEATURES  # raw columns: dtype string
    lme = yaml.safe_load(render_card("longmemeval", dict.fromkeys(all_configs("longmemeval"))).split("---")[1])
    assert lme["license"] == "mit"
    assert [c["config_name"] for c in lme["configs"]] == sorted(all_configs("longmemeval"))
    assert [c["config_name"] for c in lme["configs"] if c.get("default")] == ["s"]


def test_card_body_sections_and_field_reference():
    card = render_card("locomo", {"default": None})
    for heading in ("## Source", "## Fields", "## Data notes", "## Loading", "## Citation"):
        assert heading in card
    assert "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376" in card
    assert "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4" in card
    for note in (
        "**Category mapping.**",
        "**Category-5 gold.**",
        "**Evidence.**",
        "**Abstention.**",
        "**Session order.**",
    ):
        assert note in card
    paths = [p for p, _, _ in field_reference()]
    assert len(paths) == 26 and paths[:3] == ["sample_id", "dataset", "sessions"]
    assert "sessions[].messages[].raw" in paths and "qa_pairs[].evidence.turn_ids" in paths
    assert all(meaning for _, _, meaning in field_reference())
    lme = render_card("longmemeval", dict.fromkeys(all_configs("longmemeval")))
    assert (
        "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/98d7416c24c778c2fee6e6f3006e7a073259d48f/longmemeval_s_cleaned.json"
        in lme
    )


def test_committed_cards_are_the_generated_ones(shared_data, tmp_path):
    """Regenerate with `himga export locomo himga_locomo --card-only --data-dir ../shared/data/locomo` and
    `himga export longmemeval himga_longmemeval --card-only` (the full LongMemEval files are not at hand)."""
    export("locomo", tmp_path, data_dir=shared_data / "locomo")
    committed = (ROOT / "himga_locomo" / "README.md").read_text(encoding="utf-8")
    assert committed == (tmp_path / "README.md").read_text(encoding="utf-8")
    lme = (ROOT / "himga_longmemeval" / "README.md").read_text(encoding="utf-8")
    assert lme == render_card("longmemeval", dict.fromkeys(all_configs("longmemeval")))
    beam = (ROOT / "himga_beam" / "README.md").read_text(encoding="utf-8")  # `himga export beam himga_beam --card-only`
    assert beam == render_card("beam", dict.fromkeys(all_configs("beam")))
    for card in (committed, lme, beam):
        assert str(ROOT.parent) not in card and "/tmp" not in card and "/home" not in card


def _package_copy(tmp_path: Path) -> Path:
    """A copy of the checkout's ``himga_locomo/`` package folder (its ``__init__.py``, builder and card)."""
    package = tmp_path / "project" / "himga_locomo"
    shutil.copytree(ROOT / "himga_locomo", package, ignore=shutil.ignore_patterns("data", "__pycache__"))
    return package


def test_no_export_into_a_package_folder(shared_data, tmp_path, monkeypatch):
    """Issue 17 §9: data is never mixed into a Python package folder (one holding ``__init__.py``), so the
    name ``himga_locomo`` never means a package and an export at once; the message names the alternative."""
    package = _package_copy(tmp_path)
    before = sorted(p.relative_to(package) for p in package.rglob("*"))
    message = (
        f"locomo: refusing to export into '{package}': it is a Python package folder (it holds __init__.py), and "
        "data there would be mixed into the package; export into a folder of its own, e.g. exports/himga_locomo, "
        "and load it by that path (--card-only writes only the card)"
    )
    with pytest.raises(ConfigurationError) as e:
        export("locomo", package, data_dir=shared_data / "locomo")
    assert str(e.value) == message
    assert sorted(p.relative_to(package) for p in package.rglob("*")) == before  # nothing written
    from himga.cli import main

    monkeypatch.chdir(package.parent)
    assert main(["export", "locomo", "himga_locomo", "--data-dir", str(shared_data / "locomo")]) == 2
    assert sorted(p.relative_to(package) for p in package.rglob("*")) == before


def test_card_only_with_data_writes_the_export_card_and_nothing_else(shared_data, tmp_path, capsys, monkeypatch):
    """`himga export locomo himga_locomo --card-only --data-dir …`: the card a full export has (split sizes,
    source table) into the package folder, nothing else: how the committed card is regenerated."""
    package = _package_copy(tmp_path)
    (package / "README.md").write_text("---\npretty_name: LoCoMo (HiMGA-normalized)\n---\nold\n", encoding="utf-8")
    before = sorted(p.relative_to(package) for p in package.rglob("*"))
    from himga.cli import main

    monkeypatch.chdir(package.parent)
    assert main(["export", "locomo", "himga_locomo", "--card-only", "--data-dir", str(shared_data / "locomo")]) == 0
    assert capsys.readouterr().out == "locomo/default: 10 rows on the card\ncard: himga_locomo/README.md\n"
    assert sorted(p.relative_to(package) for p in package.rglob("*")) == before
    assert (package / "README.md").read_text(encoding="utf-8") == (ROOT / "himga_locomo" / "README.md").read_text(
        encoding="utf-8"
    )


def test_an_export_folder_loads_by_its_path_without_himga(shared_data, tmp_path):
    """The docs' export folder `exports/himga_locomo`, loaded by that path from the project root, without himga."""
    project = _package_copy(tmp_path).parent
    export("locomo", project / "exports" / "himga_locomo", data_dir=shared_data / "locomo")
    ds = build_dataset("locomo", path=shared_data / "locomo")
    _assert_same_as_builder(_load_without_himga(tmp_path, "exports/himga_locomo", cwd=project), ds)


def test_docs_say_in_one_place_what_a_name_resolves_to():
    """Issue 17 §9: the export page says once which one ``"himga_locomo"`` is; its examples export elsewhere."""
    page = (ROOT / "docs" / "datasets-export-and-hub.md").read_text(encoding="utf-8")
    assert page.count("## What a name resolves to") == 1
    assert "himga export locomo exports/himga_locomo" in page
    assert 'datasets.load_dataset("exports/himga_locomo", split="test")' in page
    for path in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        text = path.read_text(encoding="utf-8")
        assert "export locomo himga_locomo --" not in text.replace("export locomo himga_locomo --card-only", ""), path


def test_the_locomo_card_says_non_commercial_in_words():
    """Issue 17 §12: the `cc-by-nc-4.0` tag alone does not tell a reader; the text says it."""
    locomo = render_card("locomo", dict.fromkeys(all_configs("locomo")))
    body = locomo.split("\n---\n", 1)[1]  # the text, not the front matter's tag
    assert (
        "License of the data: `cc-by-nc-4.0` (Creative Commons Attribution-NonCommercial 4.0 International: "
        "non-commercial use only, with attribution)" in body
    )
    assert "non-commercial" in (ROOT / "himga_locomo" / "README.md").read_text(encoding="utf-8").split("\n---\n", 1)[1]
    lme = render_card("longmemeval", dict.fromkeys(all_configs("longmemeval")))
    assert "License of the data: `mit` (the MIT License)" in lme and "non-commercial" not in lme


# --- a shard count that 2, 4, 8 and 16 ranks divide --------------------------------------


def test_shard_count_rule():
    from himga.publish import SHARD_BYTES, shard_count

    M = 2_737_100_077  # LongMemEval-M: ~2.7 GB of Arrow data, 500 rows
    assert [shard_count(500, b) for b in (15e6, 277e6, M, 9 * SHARD_BYTES)] == [16, 16, 16, 16]
    assert shard_count(500, 17 * SHARD_BYTES) == 32  # never more than ~500 MB per file
    assert shard_count(10, 2_366_972) == 1  # LoCoMo: fewer rows than 16, one file
    assert shard_count(20, 2_366_972) == 16 and shard_count(97, 3e6) == 16
    assert shard_count(500, M, num_shards=5) == 5 and shard_count(3, 1e3, num_shards=8) == 3
    with pytest.raises(ConfigurationError, match=r"^num_shards: expected a positive integer, got 0$"):
        shard_count(500, M, num_shards=0)


@pytest.mark.parametrize("world_size", [4, 8])
def test_ranks_get_disjoint_complete_balanced_whole_shards(shared_data, tmp_path, world_size):
    from datasets.distributed import split_dataset_by_node

    source = shared_data / "longmemeval" / "longmemeval_oracle_sample.json"
    out = tmp_path / "export"
    export("longmemeval", out, ["oracle"], data_dir=source)
    files = sorted((out / "data" / "oracle").glob("*.parquet"))
    assert len(files) == 16 and files[0].name == "test-00000-of-00016.parquet"
    it = datasets.load_dataset(str(out), "oracle", split="test", streaming=True)
    assert it.num_shards == 16
    parts = []
    for rank in range(world_size):
        part = split_dataset_by_node(it, rank=rank, world_size=world_size)
        assert part.num_shards == 16 // world_size  # "shards" mode: whole files, none decoded twice
        parts.append([row["sample_id"] for row in part])
    ids = [s.sample_id for s in load_longmemeval(source, config="oracle", cache_dir=tmp_path / "c")]
    assert sorted(i for p in parts for i in p) == sorted(ids) and len(ids) == 97  # complete and disjoint
    assert max(map(len, parts)) - min(map(len, parts)) <= 7  # balanced: at most one shard (6 or 7 rows) apart


def test_num_shards_override_on_the_cli(shared_data, tmp_path, capsys):
    from himga.cli import main

    assert (
        main(
            [
                "export",
                "longmemeval",
                str(tmp_path / "e"),
                "--config",
                "oracle",
                "--num-shards",
                "5",
                "--data-dir",
                str(shared_data / "longmemeval" / "longmemeval_oracle_pair.json"),
            ]
        )
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "e" / "data" / "oracle").iterdir()) == [
        "test-00000-of-00002.parquet",
        "test-00001-of-00002.parquet",
    ]  # 2 rows: at most one file per row
