"""What a run is computed on: its sources, its gold, its subset (:func:`run_identity`, the one place a report,
a subset and a qrels folder get these facts).

A subset's fingerprint is the sha256 of its ids, sorted, one a line, then an empty line, then the sorted
sha256s of the source files: the same ids drawn from another file have another fingerprint.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from himga.entry import Benchmark
from himga.sources import file_label, file_sha256, sha256_of

__all__ = ["GoldIdentity", "fingerprint", "gold_identity", "ids_of", "run_identity", "source_hashes"]


@dataclass(frozen=True)
class GoldIdentity:
    """Which gold answers rows carry: the variant and, for a variant read from an errata file, that file.

    Attributes:
        variant: ``"published"`` (the source's own gold), or a gold variant of the entry (LoCoMo ``"audited"``).
        errata: The errata file's name, ``None`` for the published gold.
        errata_sha256: Its sha256, ``None`` for the published gold.
    """

    variant: str
    errata: str | None = None
    errata_sha256: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        """``{"variant", "errata", "errata_sha256"}``: the form of reports, export metadata and ``identity.json``."""
        return {"variant": self.variant, "errata": self.errata, "errata_sha256": self.errata_sha256}


def gold_identity(entry: Benchmark, options: dict[str, Any]) -> GoldIdentity:
    """The gold of rows built with builder ``options`` (``gold=``, ``errata=``): the one place the errata file of a
    gold variant is found and hashed (a user's file named by ``errata=``, else the pinned one, found or downloaded
    once).

    Raises:
        ConfigurationError, DownloadError, ChecksumError: the errata file is missing or cannot be fetched.
    """
    variant = options.get("gold") or entry.default_gold
    if variant == entry.default_gold:
        return GoldIdentity(variant)
    path = entry.gold_variants.errata_file(options.get("errata"))
    return GoldIdentity(variant, path.name, sha256_of(path))


def fingerprint(ids: Iterable[str], source_sha256: Iterable[str]) -> str:
    """The subset fingerprint: sha256 of the sorted ids and the sorted source sha256s (see the module docstring)."""
    digest = hashlib.sha256()
    for i in sorted(ids):
        digest.update(f"{i}\n".encode())
    digest.update(b"\n")
    for sha in sorted(source_sha256):
        digest.update(f"{sha}\n".encode())
    return digest.hexdigest()


def ids_of(ids_file, known) -> set[str]:
    """The ids an ids file (:func:`~himga.jsonio.run_inputs.read_id_lines`) names, each a question of ``known``.

    Raises:
        ConfigurationError: ``ids.txt: 'conv-99:0' names no QA pair of the source (and 2 more)``.
    """
    from himga.errors import ConfigurationError
    from himga.scoring import brief

    wanted = [i for _, i in ids_file.lines]
    if unknown := [i for i in wanted if i not in known]:
        more = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
        raise ConfigurationError(f"{ids_file.name}: {brief(unknown[0])} names no QA pair of the source{more}")
    return set(wanted)


def source_hashes(entry: Benchmark, config: str | None, data_dir: str | Path | None) -> list[tuple[str, str]]:
    """``(file name, sha256)`` of every file a build of ``config`` reads from ``data_dir`` (each hashed once per
    process),
    the name as :func:`himga.sources.file_label` shows it (BEAM's ``chats/100K/3/chat.json``: every chat's file is
    ``chat.json``).

    Raises:
        ConfigurationError, DownloadError, ChecksumError: as :func:`himga.cache.build_files`.
    """
    from himga.cache import build_files

    pins = list(entry.pins().values())
    return [(file_label(path, pins), file_sha256(path)) for path in build_files(entry, config, data_dir)]


def run_identity(
    entry: Benchmark, config: str | None = None, *, data_dir: str | Path | None = None, ids: Any = None, **options: Any
) -> dict[str, Any]:
    """What a score was computed on, for a report: the sources, the gold variant, the subset.

    The one place a scoring report gets these facts (no build is run: only the source and errata files
    are hashed, each once per process).

    Args:
        entry: The benchmark (:func:`himga.catalog.benchmark`).
        config: The builder config.
        data_dir: A local folder or file instead of the pinned source.
        ids: The ids file the evaluation was restricted to, if any: a path, or the
            :class:`~himga.jsonio.run_inputs.InputFile` already read (:func:`~himga.jsonio.run_inputs.read_id_lines`).
        **options: The builder options used (LoCoMo: ``gold``, ``errata``, ``category_order``, ...).

    Returns:
        ``{"dataset", "config", "options", "sources": [{"file", "sha256"}], "gold", "ids",
        "subset_fingerprint"}``: ``gold`` is :meth:`GoldIdentity.as_dict` (:func:`gold_identity`);
        ``subset_fingerprint`` is :func:`fingerprint` of the ids file's ids (``None`` without ``ids``).

    Raises:
        ConfigurationError: an unknown option, a missing ids or errata file; DownloadError as for a build.
    """
    entry.check_options(options, run_identity)
    sources = source_hashes(entry, config, data_dir)
    gold = gold_identity(entry, options)
    if ids is not None and not hasattr(ids, "lines"):
        from himga.jsonio.run_inputs import read_id_lines

        ids = read_id_lines(ids)
    wanted = [i for _, i in ids.lines] if ids is not None else None
    return {
        "dataset": entry.name,
        "config": config,
        "options": {k: str(v) for k, v in sorted(options.items())},
        "sources": [{"file": f, "sha256": sha} for f, sha in sources],
        "gold": gold.as_dict(),
        "ids": ids.name if ids is not None else None,
        "subset_fingerprint": fingerprint(wanted, [sha for _, sha in sources]) if wanted is not None else None,
    }
