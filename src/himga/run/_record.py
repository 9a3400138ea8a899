"""A record of every run: which data, gold rules, scorer and prompts produced a report.

Like lm-evaluation-harness's results JSON (``config``, ``versions``, ``n-samples``): two reports from the same
inputs are byte-identical but for the one timestamp field ``run.created``.
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
from importlib import metadata
from pathlib import Path

from himga.entry import Benchmark
from himga.jsonio.run_inputs import InputFile
from himga.run._identity import GoldIdentity
from himga.sources import file_label, file_sha256
from himga.version import __version__

__all__ = ["dumps_report", "run_record"]


def _versions() -> dict[str, str | None]:
    out = {"himga": __version__, "python": platform.python_version()}
    for package in ("nltk", "regex", "numpy"):  # the libraries the scores are computed with
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = None
    return out


def source_record(entry: Benchmark, files: list[str | Path]) -> list[dict]:
    """Per source file: name, sha256 and the pin it equals (``"snap-research/locomo@3eb6f2c…"``) or ``None``.

    Raises:
        OSError: a file cannot be read.
    """
    pins = [part for pin in entry.pins().values() for part in pin.files]
    out = []
    for path in files:
        digest = file_sha256(path)
        pin = next((p for p in pins if p.sha256 == digest), None)
        name = file_label(path, pins)
        out.append(
            {
                "name": name,
                "sha256": digest,
                "is_pin": pin is not None,
                "pin": f"{pin.origin} {pin.repo_path if pin.layout_path else pin.filename}"
                if pin is not None
                else None,
            }
        )
    return out


def _input(file) -> dict[str, str]:
    if isinstance(file, InputFile):
        return {"name": file.name, "sha256": file.sha256}
    return {"name": Path(file).name, "sha256": file_sha256(file)}


def run_record(
    entry: Benchmark,
    config: str | None,
    files: list[str | Path],
    report: dict,
    *,
    inputs: dict[str, InputFile | str | Path] | None = None,
    label_models: list[str] | None = None,
    created: str | None = None,
    identity: dict | None = None,
    judge=None,
) -> dict:
    """The ``run`` block of a report.

    Args:
        entry: The benchmark (:func:`himga.catalog.benchmark`): its scorer and pins.
        config: The builder config the Samples came from.
        files: The source files read (:func:`himga.cache.build_files`).
        report: The report of :func:`~himga.scoring.report._official.score_samples` (for the counts).
        inputs: ``{"predictions"|"labels": file}``: the run's own files, recorded by name and sha256: an
            :class:`~himga.jsonio.run_inputs.InputFile` (the sha256 of the bytes it was read from, also from a
            pipe) or a path (hashed here).
        label_models: The judge models named in a labels file.
        created: The timestamp (default: now, UTC, ISO 8601, seconds).
        identity: :func:`himga.run.run_identity` of the data scored: its gold variant, errata sha256 and
            subset fingerprint go into ``gold`` and ``subset`` (default: the published gold, no subset).
        judge: The official judge that gave the labels (a :class:`~himga.scoring.Judge`, the variant scored), or
            ``None`` for a score himga computed.

    Returns:
        ``{"created", "versions", "dataset", "config", "sources", "inputs", "gold_options", "gold", "subset",
        "scorer", "judge", "scored", "missing"}``: ``gold`` is ``{"variant", "errata", "errata_sha256"}``,
        ``subset`` ``{"ids", "fingerprint"}`` or ``None``.

    Raises:
        OSError: a file cannot be read.
    """
    bench = entry.scorer
    described = None if judge is None else {**judge.describe(), "models_in_labels": label_models or []}
    return {
        "created": created or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        "versions": _versions(),
        "dataset": entry.name,
        "config": config,
        "sources": source_record(entry, files),
        "inputs": {k: _input(f) for k, f in sorted((inputs or {}).items())},
        "gold_options": bench.gold_options(),
        "gold": identity["gold"] if identity else GoldIdentity("published").as_dict(),
        "subset": {"ids": identity["ids"], "fingerprint": identity["subset_fingerprint"]}
        if identity and identity["ids"] is not None
        else None,
        "scorer": {"metric": bench.metric, **bench.source},
        "judge": described,
        "scored": report["scored"],
        "missing": len(report["missing"]),
    }


def dumps_report(report: dict) -> str:
    """The report as deterministic JSON text (key order as built, two-space indent, UTF-8 kept, final newline)."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
