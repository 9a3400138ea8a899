"""``himga run merge``: shards' folders joined into one run, as one unsharded run would have written it."""

from __future__ import annotations

from pathlib import Path

from himga.errors import ConfigurationError, counted

__all__ = ["merge_runs"]


def merge_runs(folders: list[str | Path], out: str | Path) -> dict:
    """Join the folders of a run's shards (``--shard I/N``, every ``I`` once) into ``out``.

    The manifests must agree in every field that changes the number but the shard, the shards must be disjoint and
    complete (0 to N-1, each finished), and the records are written in dataset order.

    Returns:
        The merged manifest.

    Raises:
        ConfigurationError: fewer than two folders; a folder that is no finished shard; manifests that differ (the
            field named); shards missing or given twice; a question answered in two shards; ``out`` that holds a
            run or other files.
    """
    import json

    from himga.run._folder import COMPARED, RECORDS, SAMPLES, RunFolder
    from himga.run._outputs import write_text

    if len(folders) < 2:
        raise ConfigurationError("himga run merge: give the folders of every shard (two or more)")
    runs = [RunFolder(f) for f in folders]
    manifests = []
    for folder in runs:
        manifest = folder.manifest()
        if manifest is None:
            raise ConfigurationError(f"{folder.path}: no manifest.json: not a run folder")
        if not manifest.get("shard"):
            raise ConfigurationError(f"{folder.path}: not a shard (its run has no --shard)")
        if not manifest.get("completed"):
            raise ConfigurationError(f"{folder.path}: shard {manifest['shard']} is not finished: rerun its command")
        manifests.append(manifest)
    first = manifests[0]
    for folder, manifest in zip(runs[1:], manifests[1:], strict=True):
        for name in COMPARED:
            if name not in ("shard", "selection") and manifest.get(name) != first.get(name):
                raise ConfigurationError(
                    f"{folder.path}: its {name} differs from {runs[0].path}'s: not shards of one run"
                )
    shards = [tuple(int(x) for x in m["shard"].split("/")) for m in manifests]
    n = shards[0][1]
    indices = sorted(i for i, _ in shards)
    if any(total != n for _, total in shards) or indices != list(range(n)):
        raise ConfigurationError(
            f"shards {', '.join(m['shard'] for m in manifests)}: expected each of 0/{n} to {n - 1}/{n} once"
        )
    records, samples, owner = [], [], {}
    for folder in runs:
        for record in folder.records():
            if record["view_question_id"] in owner:
                raise ConfigurationError(
                    f"question {record['question_id']} is answered in {owner[record['view_question_id']]} "
                    f"and in {folder.path}: the shards overlap"
                )
            owner[record["view_question_id"]] = folder.path
            records.append(record)
        path = folder.path / SAMPLES
        samples += (
            [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
            if path.is_file()
            else []
        )
    target = RunFolder(out)
    if target.manifest() is not None:
        raise ConfigurationError(f"--out {str(target.path)!r} holds a run: name a new folder for the merged one")
    records.sort(key=_dataset_order)
    target.path.mkdir(parents=True, exist_ok=True)
    write_text(target.path / RECORDS, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    write_text(target.path / SAMPLES, "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in samples))
    merged = {
        **first,
        "shard": None,
        "merged_from": [str(f.path) for f in runs],
        "answered": len(records),
        "selection": {**first.get("selection", {}), "questions": sum(m["selection"]["questions"] for m in manifests)},
        "started": min(m["started"] for m in manifests),
        "ended": max(m.get("ended", "") for m in manifests),
    }
    for key in ("score", "summary", "judge_requests"):
        merged.pop(key, None)  # a shard's; the merged run is scored as a whole by himga score
    target.write_manifest(merged)
    print(
        f"merged {counted(len(runs), 'shard')}: {counted(len(records), 'record')} into {target.path}; score it with "
        f"himga score {first['dataset']} {target.path / RECORDS}"
    )
    return merged


def _dataset_order(record: dict) -> tuple:
    """A record's place in dataset order: its view sample id's questions in order (``v…:q<n>``)."""
    view = record["view_question_id"]
    sample, _, n = view.rpartition(":q")
    return record.get("order", 0), sample, int(n) if n.isdigit() else 0
