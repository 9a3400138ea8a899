"""Reading an export folder of :mod:`himga.publish.export`: its configs, its shards' himga records, and a check
that it holds the named dataset's data (what :func:`himga.publish.export.push` runs before any network call).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from himga.publish.card import SPLIT
from himga.catalog import Benchmark, benchmark
from himga.errors import ConfigurationError

__all__ = ["METADATA_KEY", "checked_export", "exported_configs", "shard_metadata"]

#: Key of himga's entry (JSON: dataset, config, sources) in a shard's Parquet schema metadata.
METADATA_KEY = b"himga"


def shard_metadata(path: str | Path) -> dict | None:
    """himga's entry in a shard's schema metadata (``dataset``, ``config``, ``sources``), or ``None``."""
    raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
    return json.loads(raw) if raw is not None else None


def exported_configs(out_dir: str | Path) -> list[str]:
    """The configs with Parquet files in an export folder, sorted."""
    return sorted({p.parent.name for p in Path(out_dir).glob(f"data/*/{SPLIT}-*.parquet")})


def check_card(entry: Benchmark, folder: str | Path) -> dict:
    """The YAML metadata of ``folder/README.md`` if it is dataset ``name``'s card (by its ``pretty_name``).

    Returns:
        The card's metadata; ``{}`` when there is no ``README.md``.

    Raises:
        ConfigurationError: ``README.md`` is another dataset's card, or no himga card at all (a
            project's own README: an export must not overwrite it, nor a push publish it).
    """
    from huggingface_hub.repocard import metadata_load

    entry = benchmark(entry)
    name, title = entry.name, entry.title
    path = Path(folder) / "README.md"
    if not path.is_file():
        return {}
    card = metadata_load(path) or {}
    if card.get("pretty_name") != title:
        raise ConfigurationError(
            f"{name}: {path} is not a {title} card (pretty_name {card.get('pretty_name')!r}): another dataset's "
            "export, or a README of your own; use an empty folder or this dataset's export folder")
    return card


def checked_export(entry: Benchmark, folder: str | Path, configs: Sequence[str] | None = None) -> list[str]:
    """The configs of an export folder of dataset ``name`` to push, after checking they are ``name``'s data.

    Checks that ``README.md`` is ``name``'s card, that each config is on it and has shards, that every
    shard records (in its metadata) this dataset, this config and its source files, and that every row's
    ``dataset`` column is ``name``. Reads the card, the Parquet footers and one column; no network.

    Args:
        entry: The benchmark.
        folder: The export folder.
        configs: The configs to push; default every config on the card.

    Returns:
        Config names, in card order.

    Raises:
        ConfigurationError: no card or no data (nothing to push), another dataset's card or data, a
            requested config not in the export, or shards without himga's source record (exported by an
            older himga: export again).
    """
    entry = benchmark(entry)
    name, known = entry.name, entry.configs
    folder = Path(folder)
    if unknown := [c for c in configs or () if c not in known]:
        raise ConfigurationError(f"{name}: unknown config {unknown[0]!r}; expected one of {known}")
    present = exported_configs(folder)
    if not present or not (folder / "README.md").is_file():
        raise ConfigurationError(f"{name}: nothing to push from {folder} (expected README.md and data/<config>/{SPLIT}-*.parquet)")
    card = check_card(entry, folder)
    on_card = [c["config_name"] for c in card.get("configs") or []]
    if missing := [c for c in configs or () if c not in on_card or c not in present]:
        raise ConfigurationError(f"{name}: config {', '.join(missing)} is not in the export {folder} (it has {', '.join(c for c in on_card if c in present)})")
    selected = [c for c in on_card if c in (configs or present)]
    if not selected:
        raise ConfigurationError(f"{name}: nothing to push from {folder}: the card lists {', '.join(on_card) or 'no config'}, the data has {', '.join(present)}")
    for config in selected:
        for shard in sorted((folder / "data" / config).glob(f"{SPLIT}-*.parquet")):
            meta = shard_metadata(shard) or {}
            if (meta.get("dataset"), meta.get("config")) != (name, config) or not meta.get("sources"):
                found = f"{meta.get('dataset')}/{meta.get('config')}" if meta else "no himga source record; export it again"
                raise ConfigurationError(f"{name}: {shard.relative_to(folder)} is not {name}/{config} data ({found})")
            values = pq.read_table(shard, columns=["dataset"]).column(0).unique().to_pylist()
            if values != [name]:
                raise ConfigurationError(f"{name}: {shard.relative_to(folder)} holds rows of dataset {values}")
    return selected
