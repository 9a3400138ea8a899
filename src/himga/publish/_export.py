"""Export: a Hub-ready folder (Parquet + dataset card) that ``datasets`` reads without himga.

Layout of an export folder::

    README.md                                   the dataset card (:mod:`himga.publish._card`)
    data/<config>/test-00000-of-0000N.parquet   the rows, with SAMPLE_FEATURES in the Parquet schema metadata

``<config>`` is an export config (:mod:`himga.publish._export_configs`): a builder config with the published
gold, or a gold variant beside it (LoCoMo ``gold="audited"``: ``data/audited/``), so that
``datasets.load_dataset(repo, "audited")`` picks the audited rows and nothing mixes them with the published ones;
an audited config's shards also record ``builder_config`` and ``gold`` (variant, errata file, its sha256).

``datasets.load_dataset(OUT_DIR)`` (or the Hub repository it is pushed to) then gives the builder's
features and rows. Parquet row groups are kept to about :data:`ROW_GROUP_BYTES` of Arrow data (a few rows
for LongMemEval-M, whose rows are ~5 MB), so the Hub viewer and streaming readers hold one small group at
a time; shards hold about :data:`SHARD_BYTES`. Each shard's schema metadata also records, under
``himga``, its dataset, config and source files (:class:`~himga.publish._source_labels.SourceFile`), from which the
card's source table is written and which :func:`~himga.publish._read_export.checked_export` checks before a push.

An export is never seen half-written. Every config's shards are written and closed inside a hidden
staging folder (``.himga-export.incomplete``, which ``datasets``' data-file patterns skip), and the new
card beside them. Only then are they moved into place, by renames in this order: the replaced configs'
old ``data/<config>`` folders out, the card in (if that fails, the old folders go back), the new
``data/<config>`` folders in. The card goes in before the data because Parquet files without a card are
loaded anyway (``datasets`` infers one split from every file it sees), and a config on a card whose
folder is missing fails on its recorded split size. So at any instant a load of any config either fails
or returns exactly the rows of a complete export (the previous one under the previous card, or this one
under its card), and until the renames start an interrupted export leaves the previous export, or
nothing loadable. Running it again completes it. ``data/<config>/`` belongs to the export: re-exporting
a config replaces the whole folder, but only one that an earlier export of the same dataset wrote (its
card and its shards' himga records say so); anything else in the way (a file of your own, a filesystem
root) is an error naming it, raised before anything is written
(:func:`~himga.publish._read_export.check_export_target`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock

from himga.catalog import Benchmark, benchmark
from himga.data.loaders import build_dataset
from himga.errors import ConfigurationError
from himga.publish._card import SPLIT, SplitSize, render_card
from himga.publish._export_configs import VIEWS, export_configs, export_name, gold_options, gold_record, view_name
from himga.publish._export_folder import commit, kept_configs
from himga.publish._read_export import (
    METADATA_KEY,
    STAGING,
    STAGING_MARK,
    check_card,
    check_export_target,
    checked_export,
    exported_configs,
)
from himga.publish._source_labels import checked_sources, select_configs
from himga.run import check_outputs, source_inputs
from himga.sources import cache_root

__all__ = [
    "ROW_GROUP_BYTES",
    "SHARD_BYTES",
    "SHARD_MULTIPLE",
    "all_configs",
    "checked_export",
    "export",
    "exported_configs",
    "shard_count",
]

logger = logging.getLogger("himga.publish")

#: Target Arrow bytes per Parquet row group (at least one row per group).
ROW_GROUP_BYTES = 16 * 2**20
#: Parquet compression codec of exported files.
PARQUET_COMPRESSION = "zstd"
#: Target Arrow bytes per Parquet file (as ``Dataset.push_to_hub``'s default ``max_shard_size``).
SHARD_BYTES = 500 * 2**20
#: The shard count of an export is a multiple of this (see :func:`shard_count`): it divides 2, 4, 8 and 16 ranks.
SHARD_MULTIPLE = 16


def _lock_path(out: Path) -> Path:
    """The lock held while an export writes ``out``: in ``$HIMGA_CACHE/export-locks/``, one per output
    folder (its resolved path's sha256), so that nothing but the export is left in ``out``."""
    key = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    folder = cache_root() / "export-locks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{key}.lock"


def all_configs(entry: Benchmark) -> list[str]:
    """The builder's config names of dataset ``name``, in declaration order.

    Raises:
        ConfigurationError: unknown dataset.
    """
    return benchmark(entry).configs


def shard_count(rows: int, num_bytes: float, shard_bytes: int = SHARD_BYTES, num_shards: int | None = None) -> int:
    """How many Parquet files a config is written as: ``num_shards`` when given, else a multiple of
    :data:`SHARD_MULTIPLE` (16: S, M and oracle get 16 files, M's ~170 MB each) with at most about
    ``shard_bytes`` of Arrow data per file, so that ``split_dataset_by_node(..., world_size=2, 4, 8 or 16)``
    gives every rank whole, equal files ("shards" mode). A split of fewer rows than that is one file.
    Never more files than rows.
    """
    if num_shards is not None:
        if num_shards < 1:
            raise ConfigurationError(f"num_shards: expected a positive integer, got {num_shards!r}")
        return min(num_shards, max(rows, 1))
    natural = max(1, math.ceil(num_bytes / shard_bytes))
    if rows < SHARD_MULTIPLE:
        return max(1, min(rows, natural))
    return min(SHARD_MULTIPLE * math.ceil(natural / SHARD_MULTIPLE), rows // SHARD_MULTIPLE * SHARD_MULTIPLE)


def _write_config(
    ds, folder: Path, row_group_bytes: int, shard_bytes: int, metadata: dict, num_shards: int | None = None
) -> SplitSize:
    """Write one config's rows as ``folder/test-0000i-of-0000N.parquet`` (``folder`` is created new)."""
    folder.mkdir(parents=True)
    num_bytes = ds.info.splits[SPLIT].num_bytes if ds.info.splits and SPLIT in ds.info.splits else ds.data.nbytes
    rows = ds.num_rows
    row_bytes = num_bytes / rows if rows else 1
    rows_per_group = max(1, int(row_group_bytes // row_bytes))
    num_shards = shard_count(rows, num_bytes, shard_bytes, num_shards)
    schema = ds.features.arrow_schema  # carries the features as metadata; raw columns are plain JSON text
    schema = schema.with_metadata({**schema.metadata, METADATA_KEY: json.dumps(metadata).encode()})
    for index in range(num_shards):
        shard = ds.shard(num_shards, index, contiguous=True).with_format("arrow")
        path = folder / f"{SPLIT}-{index:05d}-of-{num_shards:05d}.parquet"
        # pyarrow directly: Dataset.to_parquet (datasets 5.2) forces snappy on every column; zstd is
        # ~30% smaller here and read by every Parquet reader the Hub uses.
        with pq.ParquetWriter(path, schema=schema, compression=PARQUET_COMPRESSION) as writer:
            for batch in shard.iter(batch_size=rows_per_group):
                _check_decodes(batch, ds)
                writer.write_table(batch.cast(schema), row_group_size=rows_per_group)
    return SplitSize(num_examples=rows, num_bytes=num_bytes)


def _check_decodes(batch, ds) -> None:
    """Refuse to publish rows whose text is not UTF-8 any more (a cache altered on disk): a ``CacheError``."""
    try:
        batch.validate(full=True)
    except pa.ArrowInvalid as e:
        from himga.cache import undecodable

        raise undecodable(Path(ds.cache_files[0]["filename"]).parent, e) from None


def _view_rows(path: str):
    """The system view rows of the Samples in the Arrow cache files ``path`` (``;``-joined)."""
    from himga.data import samples_from_dataset, system_view
    from himga.schema.view import system_row

    ds = datasets.concatenate_datasets([datasets.Dataset.from_file(p) for p in path.split(";")])
    for sample in samples_from_dataset(ds):
        yield system_row(system_view(sample))


def _view_dataset(ds, cache_dir: str | Path | None):
    """``ds``'s Samples as the system view (:data:`~himga.schema.view.SYSTEM_FEATURES`), written to the cache once."""
    from himga.schema.view import SYSTEM_FEATURES

    files = ";".join(f["filename"] for f in ds.cache_files)
    return datasets.Dataset.from_generator(
        _view_rows,
        features=SYSTEM_FEATURES,
        gen_kwargs={"path": files},
        cache_dir=str(cache_dir) if cache_dir is not None else None,
        split=datasets.Split.TEST,  # the split it is (the progress bar says "Generating test split", not "train")
    )


def export(
    name: str,
    out_dir: str | Path,
    configs: Sequence[str] | None = None,
    *,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    row_group_bytes: int = ROW_GROUP_BYTES,
    shard_bytes: int = SHARD_BYTES,
    card_only: bool = False,
    num_shards: int | None = None,
    gold: str | None = None,
    errata: str | Path | None = None,
    view: str | None = None,
) -> dict[str, SplitSize | None]:
    """Build the configs of dataset ``name`` and write them with their card to ``out_dir``.

    Configs already exported to ``out_dir`` by an earlier call (a ``data/<config>/`` folder with Parquet
    files and an entry in the existing card) stay on the new card, so configs can be exported one at a
    time. Re-exporting a config replaces its shards. The card's source table names the files each config
    was built from (name, size, sha256) and whether each is the builder's pinned file. An interrupted
    export leaves the previous export (or nothing loadable); running it again completes it.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        out_dir: The export folder (created if needed).
        configs: Configs to export. Default: with ``data_dir``, the configs whose source file it holds
            (LongMemEval: by file name, e.g. ``longmemeval_oracle.json`` → ``oracle`` and
            ``oracle_original``; a file whose name says no config needs ``configs``); without, all of the
            builder's (LoCoMo: ``default``; LongMemEval: ``s``, ``m``, ``oracle``, ``s_original``,
            ``m_original``, ``oracle_original``). See :func:`himga.publish._source_labels.select_configs`.
        data_dir: A folder of source files (or one file), as for the builder; default: the pinned
            sources, found or downloaded by :func:`himga.utils.get_dataset`.
        cache_dir: The ``datasets`` cache folder.
        row_group_bytes: Target Arrow bytes per Parquet row group.
        shard_bytes: Target Arrow bytes per Parquet file.
        card_only: Write only ``README.md``. With ``data_dir``: the card an export of those files has
            (split sizes, source table; the data is written to a temporary folder and dropped: how the
            committed ``himga_locomo/README.md`` is made). Without: the card of the configs already in
            ``out_dir``, or, when it holds no data, of every config without split sizes, listing the pinned
            files (how the committed ``himga_longmemeval/README.md`` is made: the full files are not at hand).
        num_shards: Parquet files per config (default :func:`shard_count`'s multiple of 16).
        gold: The gold variant of the rows (LoCoMo: ``"published"``, the default, or ``"audited"``). Another
            variant than the default is exported as a config of its own, named by
            :func:`~himga.publish._export_configs.export_name` (LoCoMo ``audited``: ``data/audited/``,
            ``datasets.load_dataset(OUT_DIR, "audited")``), beside the published ``default``; its shards
            and the card record the variant and the errata file's name and sha256.
        errata: With ``gold="audited"``: a user's errata file (default: the pinned one).
        view: ``"system"``: export the system view of the configs instead (:func:`himga.data.system_view`: no gold,
            a date on every message, generated ids; :data:`~himga.schema.view.SYSTEM_FEATURES`), as the config
            ``system`` (LoCoMo: ``data/system/``) or ``<config>_system``, beside the others.

    Returns:
        Export config → split size (``None`` if unknown), for every config on the written card, in card
        order (:func:`~himga.publish._export_configs.export_configs`).

    Raises:
        ConfigurationError: unknown dataset, config or gold variant, ``gold``/``errata`` for a benchmark
            without gold variants; ``out_dir`` is, holds or is inside a source file or folder, is a file or a link
            to nothing, or cannot be written (:func:`himga.run.check_outputs`); a config whose file ``data_dir`` does
            not give (or whose name says another config); a source file that is another config's pinned file;
            ``out_dir`` is a filesystem root or holds, where the export writes, anything an export of ``name`` did not
            write (see :func:`~himga.publish._read_export.check_export_target`; nothing is changed).
        SourceFormatError, DownloadError, ChecksumError: as for building the dataset.
    """
    out = Path(out_dir)
    entry = benchmark(name)
    name = entry.name
    options = gold_options(entry, gold, errata)
    if view is not None and (view not in VIEWS or options):
        raise ConfigurationError(
            f"{name}: view: expected one of {', '.join(VIEWS)} (without gold/errata: a view has no gold), got {view!r}"
        )
    outputs, inputs = {"out_dir": out_dir}, {"source": data_dir, "errata": errata}
    check_card(entry, out)  # never overwrite a README.md that is not this dataset's card
    if card_only and data_dir is not None:  # the card an export of these files has, and nothing else
        check_export_target(name, out, [])
        check_outputs(outputs, inputs, folders=outputs)  # not among the sources, writable
        with tempfile.TemporaryDirectory(prefix="himga-card-") as tmp:
            sizes = export(
                entry,
                Path(tmp) / "export",
                configs,
                data_dir=data_dir,
                cache_dir=cache_dir,
                num_shards=num_shards,
                gold=gold,
                errata=errata,
                view=view,
            )
            out.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(tmp) / "export" / "README.md", out / "README.md")
        return sizes
    builder_configs = [] if card_only else select_configs(entry, configs, data_dir)
    targets = {
        view_name(entry, c, view) if view else export_name(entry, c, options.get("gold")): c for c in builder_configs
    }  # export config → builder config
    wanted = list(targets)
    check_export_target(name, out, wanted)  # never remove what himga did not write; changes nothing
    check_outputs(outputs, inputs, folders=outputs)  # not among the sources, writable
    described: dict = {}  # each file hashed once, before any build
    sources = {
        target: checked_sources(entry, config, data_dir, described=described) for target, config in targets.items()
    }
    for config in set(targets.values()):  # the pinned files too
        check_outputs(outputs, {**inputs, **source_inputs(entry, config, data_dir)}, folders=outputs)
    record = gold_record(entry, options) if wanted else None  # the errata file hashed (or fetched) before any build
    out.mkdir(parents=True, exist_ok=True)
    staging = out / STAGING
    with FileLock(_lock_path(out)):
        check_export_target(name, out, wanted)  # again, now that no other export can change it
        shutil.rmtree(staging, ignore_errors=True)  # left by an export that was killed (it holds STAGING_MARK)
        try:
            staging.mkdir()
            (staging / STAGING_MARK).write_text(f"{name}\n", encoding="utf-8")
            written: dict[str, SplitSize] = {}
            for target, config in targets.items():
                ds = build_dataset(entry, config, path=data_dir, cache_dir=cache_dir, **options)
                if view is not None:
                    ds = _view_dataset(ds, cache_dir)
                    variant = {"builder_config": config, "view": view}
                else:
                    variant = (
                        {} if target == config else {"builder_config": config, "gold": record}
                    )  # published: as before variants
                metadata = {
                    "dataset": name,
                    "config": target,
                    **variant,
                    "sources": [s.to_dict() for s in sources[target]],
                }
                written[target] = _write_config(
                    ds, staging / target, row_group_bytes, shard_bytes, metadata, num_shards
                )
                logger.info("%s/%s: %d rows staged in %s", name, target, ds.num_rows, staging)
            kept = kept_configs(entry, out, wanted)
            order = [c.name for c in export_configs(entry)]
            sizes = {c: written[c] if c in written else kept[c][0] for c in order if c in written or c in kept}
            sources.update({c: kept[c][1] for c in kept})
            golds = {c: record if c in written else kept[c][2] for c in sizes}
            if not sizes:
                if any((out / "data").glob(f"*/{SPLIT}-*.parquet")):
                    raise ConfigurationError(
                        f"{name}: {out} holds Parquet files without a card entry or a himga source record; export them "
                        "again"
                    )
                sizes, sources, golds = dict.fromkeys(all_configs(entry)), None, None
            (staging / "README.md").write_text(render_card(entry, sizes, sources, golds), encoding="utf-8")
            commit(out, staging, wanted)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return sizes
