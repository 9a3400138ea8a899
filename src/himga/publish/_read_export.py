"""Reading an export folder of :mod:`himga.publish._export`: its configs, its shards' himga records, a check
that it holds the named dataset's data (what :func:`himga.publish._push.push` runs before any network call), and
a check that an export may write there (:func:`check_export_target`: it never removes what it did not write).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from himga.catalog import Benchmark, benchmark
from himga.errors import ConfigurationError
from himga.publish._card import SPLIT

__all__ = [
    "LOCK",
    "METADATA_KEY",
    "STAGING",
    "STAGING_MARK",
    "check_export_target",
    "checked_export",
    "exported_configs",
    "shard_metadata",
]

#: Key of himga's entry (JSON: dataset, config, sources) in a shard's Parquet schema metadata.
METADATA_KEY = b"himga"
#: Hidden names in an export folder: the staging folder of a running export, and its lock.
STAGING, LOCK = ".himga-export.incomplete", ".himga-export.lock"
#: The file an export writes first into its staging folder: a leftover folder holding it is himga's to remove.
STAGING_MARK = ".himga-staging"
_SHARD_NAME = re.compile(rf"{SPLIT}-\d{{5}}-of-\d{{5}}\.parquet")


def shard_metadata(path: str | Path) -> dict | None:
    """himga's entry in a shard's schema metadata (``dataset``, ``config``, ``sources``), or ``None``."""
    raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
    return json.loads(raw) if raw is not None else None


def _foreign(name: str, config: str, folder: Path) -> Path | None:
    """The first entry of ``folder`` (``data/<config>``) that an export of ``name``/``config`` did not write."""
    if folder.is_symlink() or not folder.is_dir():
        return folder
    for entry in sorted(folder.iterdir()):
        if entry.is_symlink() or not entry.is_file() or not _SHARD_NAME.fullmatch(entry.name):
            return entry
        try:
            meta = shard_metadata(entry) or {}
        except Exception:
            return entry
        if (meta.get("dataset"), meta.get("config")) != (name, config):
            return entry
    return None


def check_export_target(name: str, folder: str | Path, configs: Sequence[str]) -> None:
    """Check that an export of ``configs`` of dataset ``name`` into ``folder`` removes only what himga wrote.

    An export replaces ``data/<config>/`` of each exported config and clears a staging folder left by a
    killed export. It may do so only when they are an earlier himga export's of the same dataset: the
    folder's ``README.md`` is ``name``'s card (:func:`check_card`), ``data/<config>`` is a real folder
    holding only ``test-NNNNN-of-NNNNN.parquet`` shards whose himga metadata names ``name``/``config``,
    and the staging folder holds himga's mark (:data:`STAGING_MARK`). Reads only; changes nothing.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        folder: The export folder (need not exist).
        configs: The configs to be exported (their ``data/<config>`` folders would be replaced).

    Raises:
        ConfigurationError: ``folder`` is a filesystem root or not a folder, or (with ``configs`` to write) a
            Python package folder (it holds ``__init__.py``: ``himga_locomo/`` of a checkout); its ``README.md`` is not
            ``name``'s card; ``data/<config>`` exists without this dataset's card, or is not a folder, or
            holds anything but this config's himga shards (the message names the first such entry); the
            staging folder or the lock file is not himga's.
    """
    folder = Path(folder)
    resolved = folder.resolve()
    if resolved == Path(resolved.anchor):
        raise ConfigurationError(
            f"{name}: refusing to export into the filesystem root {str(folder)!r}: give a folder of its own"
        )
    if folder.exists() and not folder.is_dir():
        raise ConfigurationError(f"{name}: cannot export into {str(folder)!r}: it exists and is not a folder")
    if configs and (folder / "__init__.py").exists():
        raise ConfigurationError(
            f"{name}: refusing to export into {str(folder)!r}: it is a Python package folder (it holds __init__.py), "
            "and data "
            "there would be mixed into the package; export into a folder of its own, e.g. "
            f"exports/{benchmark(name).load_name}, "
            "and load it by that path (--card-only writes only the card)"
        )
    card = check_card(name, folder)
    fix = "move it away or export into an empty folder; himga removes only what an export of this dataset wrote"
    staging = folder / STAGING
    if (staging.exists() or staging.is_symlink()) and (staging.is_symlink() or not (staging / STAGING_MARK).is_file()):
        raise ConfigurationError(f"{name}: {str(staging)!r} was not made by himga export (no {STAGING_MARK}): {fix}")
    lock = folder / LOCK
    if (lock.exists() or lock.is_symlink()) and (lock.is_symlink() or not lock.is_file() or lock.stat().st_size):
        raise ConfigurationError(f"{name}: {str(lock)!r} is not himga's (empty) lock file: {fix}")
    data = folder / "data"
    if (data.exists() or data.is_symlink()) and (data.is_symlink() or not data.is_dir()):
        raise ConfigurationError(f"{name}: {str(data)!r} is not a folder: {fix}")
    for config in configs:
        target = data / config
        if not (target.exists() or target.is_symlink()):
            continue
        if not card:
            raise ConfigurationError(
                f"{name}: {str(target)!r} exists but {str(folder)!r} has no himga card of {name} (README.md): {fix}"
            )
        if (entry := _foreign(name, config, target)) is not None:
            what = "is not a folder" if entry == target else f"was not written by an export of {name}/{config}"
            raise ConfigurationError(f"{name}: {str(entry)!r} {what}: {fix}")


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
            "export, or a README of your own; use an empty folder or this dataset's export folder"
        )
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
    from himga.publish._export_configs import export_configs

    entry = benchmark(entry)
    name, known = entry.name, [c.name for c in export_configs(entry)]  # LoCoMo: default, audited
    folder = Path(folder)
    if unknown := [c for c in configs or () if c not in known]:
        raise ConfigurationError(f"{name}: unknown config {unknown[0]!r}; expected one of {known}")
    present = exported_configs(folder)
    if not present or not (folder / "README.md").is_file():
        raise ConfigurationError(
            f"{name}: nothing to push from {folder} (expected README.md and data/<config>/{SPLIT}-*.parquet)"
        )
    card = check_card(entry, folder)
    on_card = [c["config_name"] for c in card.get("configs") or []]
    if missing := [c for c in configs or () if c not in on_card or c not in present]:
        raise ConfigurationError(
            f"{name}: config {', '.join(missing)} is not in the export {folder} (it has "
            f"{', '.join(c for c in on_card if c in present)})"
        )
    selected = [c for c in on_card if c in (configs or present)]
    if not selected:
        raise ConfigurationError(
            f"{name}: nothing to push from {folder}: the card lists {', '.join(on_card) or 'no config'}, the data has "
            f"{', '.join(present)}"
        )
    for config in selected:
        for shard in sorted((folder / "data" / config).glob(f"{SPLIT}-*.parquet")):
            meta = shard_metadata(shard) or {}
            if (meta.get("dataset"), meta.get("config")) != (name, config) or not meta.get("sources"):
                found = (
                    f"{meta.get('dataset')}/{meta.get('config')}" if meta else "no himga source record; export it again"
                )
                raise ConfigurationError(f"{name}: {shard.relative_to(folder)} is not {name}/{config} data ({found})")
            values = pq.read_table(shard, columns=["dataset"]).column(0).unique().to_pylist()
            if values != [name]:
                raise ConfigurationError(f"{name}: {shard.relative_to(folder)} holds rows of dataset {values}")
    return selected
