"""``import_run``: a published run's file read by its layout, each record joined to its LoCoMo question, and the
records ``himga score`` reads written with everything else the file holds.

An imported record (one JSON object per line, in the file's order):

- ``question_id`` (the item id, ``conv-26:0``), ``question`` (the file's text: the join's key, checked by ``himga
  score``), ``response`` (the system's answer; none in a retrieval run);
- ``verdicts``: the file's own verdicts, one per judge run, as written (booleans or numbers in [0, 1]);
- ``latency_ms`` (``{phase: ms}`` under the file's names), ``retrieved`` (``[{"text"}]``), ``retrieved_ids`` (turn
  ids), ``retrieved_sessions`` (the Sample's session ids), ``context_tokens``, where the file holds them;
- ``source``: ``where`` (the record's JSON path), ``category`` and ``gold`` as written, ``id`` (the file's own id),
  ``fields`` (every other field of the record, unchanged);
- ``run``: ``name``, ``layout``, ``file``, ``sha256``, ``judge`` (the registered judge, else ``null``),
  ``judge_model``, ``answer_model``, ``verdict_kind`` (``judge`` or ``recall``), ``runs`` (verdicts per question),
  ``gold``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from himga.errors import ConfigurationError, SourceFormatError, counted
from himga.run._importers._checks import categories, gold_copied, own_ids
from himga.run._importers._fieldmap import Entry, FieldMap, check_fields, entries, lookup
from himga.run._importers._join import Wanted, check_join, join, locomo_questions
from himga.run._importers._layout import Layout, layout_named, recognise
from himga.run._importers._published import published_run
from himga.run._importers._read import Source, read_source
from himga.run._importers._records import build_record, carried_run, category_of
from himga.run._importers._summary import summary_lines

__all__ = ["ImportedRun", "import_run"]


@dataclass
class ImportedRun:
    """A published run, imported.

    Attributes:
        records: The imported records, in the file's order (see the module docstring).
        run: What the records carry under ``run``.
        report: What the import found: ``records``, ``joined``, ``left_out`` (``[where, why]`` of unmatched records
            left out under ``allow_unmatched``), ``ties``, ``normalized``, ``categories``, ``gold``, ``stated`` (the
            file's own totals), ``published``.
        lines: The summary ``himga import`` prints.
    """

    records: list[dict]
    run: dict
    report: dict
    lines: list[str] = field(default_factory=list)

    def jsonl(self) -> str:
        """The records as JSON Lines (UTF-8 kept, one object per line)."""
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records)


def _samples(samples, data_dir, cache_dir, options):
    if samples is not None:
        return list(samples)
    from himga.data.lazy import qa_samples
    from himga.data.loaders import build_dataset

    return list(qa_samples(build_dataset("locomo", path=data_dir, cache_dir=cache_dir, **options)))


def _names(pairs, fmap: FieldMap, file: str) -> tuple[str | None, dict]:
    """The label map a file's category names are in: the map's own, or (``"auto"``) the one that explains most
    records; ``(name, {label key: category})``."""
    from himga.scoring import LOCOMO_SCORER, label_key, matching_map

    maps = LOCOMO_SCORER.type_maps
    if not pairs:
        return None, {}
    name = fmap.category_names if fmap.category_names not in (None, "auto") else matching_map(pairs, maps)[0]
    if name is None:
        raise SourceFormatError(file, "$", f"category names in no known label map ({', '.join(maps)})")
    return name, {label_key(label): c for c, label in maps[name].items()}


def import_run(
    path: str | Path,
    layout: str = "auto",
    *,
    field_map: FieldMap | dict | None = None,
    samples=None,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    allow_unmatched: bool = False,
    name: str | None = None,
    **options,
) -> ImportedRun:
    """Import a published LoCoMo run: read it by its layout, join each record to its question by conversation and
    question text, and build the records ``himga score`` reads, with everything else the file holds.

    Args:
        path: The file (JSON, JSON Lines, gzip ...) or a ``himga run`` folder.
        layout: A layout's name (:func:`himga.run.layouts`), or ``"auto"``: the one that recognises the file's shape.
        field_map: Read a file of another layout by this map (a :class:`FieldMap` or its JSON form).
        samples: The LoCoMo Samples to join to (default: built from ``data_dir`` or the pinned file).
        data_dir, cache_dir, **options: As :func:`himga.data.load_dataset` (``gold="audited"`` marks the gold
            differences the audit corrects).
        allow_unmatched: Leave out the records that join no question (and say how many) instead of failing.
        name: The run's name in tables (default: the known published run's, else the file's name).

    Returns:
        The :class:`ImportedRun`.

    Raises:
        ConfigurationError: an unknown layout, a bad field map, no such file.
        SourceFormatError: not JSON or a cut compressed file; a layout that does not match (the missing fields, with
            the first record's path); verdicts that are no booleans or numbers in [0, 1]; records with different
            numbers of verdicts; no record that is a LoCoMo question (another benchmark's file); unmatched records
            (unless ``allow_unmatched``); two records on one question (always; listed).
    """
    source = read_source(path)
    chosen = _layout(layout, field_map, source)
    fmap = chosen.fields
    items, held = _read(source, chosen, named=layout != "auto" and field_map is None)
    questions = locomo_questions(_samples(samples, data_dir, cache_dir, options))
    wanted, label_map = _categories_read([_wanted(e, fmap, source.name) for e in items], questions, fmap, source.name)
    joined = join(wanted, questions, fmap.scope)
    kept = check_join(joined, wanted, source.name, allow_unmatched)
    records = [
        build_record(entry, fmap, chosen, item, source.name)
        for entry, item in zip(items, joined.items, strict=True)
        if item is not None
    ]
    by_item = {q.item: q for rows in questions for q in rows}
    gold = gold_copied(records, by_item)
    run = carried_run(records, _run(source, chosen, name, records, gold), source.name, source.sha256)
    report = {
        "file": source.name,
        "sha256": source.sha256,
        "records": len(items),
        "joined": len(records),
        "left_out": kept,
        "ties": joined.ties,
        "normalized": joined.normalized,
        "fields": held,
        "categories": categories(wanted, joined, by_item, label_map),
        "ids": own_ids(records),
        "gold": gold,
        "stated": chosen.facts(source.document).get("stated", {}),
        "published": (p.as_dict() if (p := published_run(run["sha256"])) else None),
    }
    out = ImportedRun(records, run, report)
    how = "read by a field map" if field_map is not None else "recognised by its shape" if layout == "auto" else "named"
    out.lines = summary_lines(out, chosen, how)
    return out


def _categories_read(wanted: list[Wanted], questions, fmap: FieldMap, file: str) -> tuple[list[Wanted], str | None]:
    """Category names read as LoCoMo's integers: the records joined once without them, the names read in the label
    map that explains the joined records (integers are kept); ``(records, the map's name or None)``."""
    if not any(isinstance(w.category, str) for w in wanted):
        return wanted, None
    first = join([replace(w, category=None) for w in wanted], questions, fmap.scope)
    category_of = {q.item: q.category for rows in questions for q in rows}
    pairs = [
        (category_of[i], w.category)
        for w, i in zip(wanted, first.items, strict=True)
        if i and isinstance(w.category, str)
    ]
    label_map, by_label = _names(pairs, fmap, file)
    from himga.scoring import label_key

    read = [
        replace(w, category=by_label.get(label_key(w.category), w.category)) if isinstance(w.category, str) else w
        for w in wanted
    ]
    return read, label_map


def _layout(layout: str, field_map, source: Source) -> Layout:
    if field_map is not None:
        fmap = field_map if isinstance(field_map, FieldMap) else FieldMap.from_dict(field_map)
        _check_names(fmap)
        return Layout("fields", "read by a field map", fmap, lambda _: True)
    if layout == "auto":
        return recognise(source.document, source.name)
    return layout_named(layout)


def _check_names(fmap: FieldMap) -> None:
    """A field map's names of things himga registers, checked before the file is read.

    Raises:
        ConfigurationError: ``category_names`` neither ``auto`` nor a label map of LoCoMo's; ``judge`` no registered
            judge of LoCoMo.
    """
    from himga.scoring import LOCOMO_SCORER, judges_named

    maps = LOCOMO_SCORER.type_maps
    if fmap.category_names not in (None, "auto") and fmap.category_names not in maps:
        raise ConfigurationError(
            f"field map: category_names: expected auto or one of {', '.join(maps)}, got {fmap.category_names!r}"
        )
    if fmap.judge is not None:
        try:
            judges_named(fmap.judge, "locomo")
        except ConfigurationError as e:
            raise ConfigurationError(f"field map: judge: {e}") from None


def _read(source: Source, chosen: Layout, *, named: bool) -> tuple[list[Entry], dict[str, int]]:
    """The records of the file and the fields each holds; a layout named that does not match says what is missing
    and which layout the file's shape is."""
    other = None
    if named and not chosen.shape(source.document):
        try:
            other = recognise(source.document, source.name)
        except SourceFormatError:
            other = None  # no layout recognises it: the named one's field checks say what is missing
    try:
        items = entries(source.document, chosen.fields, source.name, chosen.name)
        for entry in items:
            entry.where = source.where(entry.where)
        held = check_fields(items, chosen.fields, source.name, chosen.name)
    except SourceFormatError as e:
        if other is None:
            raise
        raise SourceFormatError(e.file, e.path, f"{e.detail}; {_shape_of(other)}") from None
    if other is not None:
        raise SourceFormatError(source.name, "$", f"layout {chosen.name} does not match: {_shape_of(other)}")
    return items, held


def _shape_of(other: Layout) -> str:
    return f"the file has the shape of layout {other.name} ({other.title}): --layout {other.name}, or auto"


def _wanted(entry: Entry, fmap: FieldMap, file: str) -> Wanted:
    def get(path):
        return lookup(entry, path)[1] if path is not None else None

    category = category_of(get(fmap.category), file, f"{entry.where}.{fmap.category}")
    return Wanted(entry.where, get(fmap.conversation), get(fmap.question), category, get(fmap.gold), get(fmap.item_id))


def _run(source: Source, chosen: Layout, name: str | None, records: list[dict], gold: dict) -> dict:
    """What the records carry under ``run``: the file, its judge and models (a known published file's, else what the
    file and its layout say), the verdicts per question, the gold.

    Raises:
        SourceFormatError: records with different numbers of verdicts.
    """
    fmap, facts, known = chosen.fields, chosen.facts(source.document), published_run(source.sha256)
    runs: dict[int, list[str]] = {}
    for record in records:
        if "verdicts" in record:
            runs.setdefault(len(record["verdicts"]), []).append(record["source"].get("where", "?"))
    if len(runs) > 1:
        counts = ", ".join(f"{k} in {counted(len(v), 'record')} (first {v[0]})" for k, v in sorted(runs.items()))
        raise SourceFormatError(source.name, "$", f"records hold different numbers of verdicts: {counts}")
    judge, judge_model = fmap.judge, facts.get("judge_model") or fmap.judge_model
    answer_model = facts.get("answer_model") or fmap.answer_model
    if known is not None:
        judge, judge_model, answer_model = known.judge, known.judge_model, known.answer_model
    run_gold = gold["gold"]
    if source.manifest is not None:  # a himga run: its answer model and the gold variant it was run against
        answer_model, variant = source.manifest.get("answer_model"), source.manifest.get("gold")
        run_gold = variant.get("variant") if isinstance(variant, dict) else variant
    default = known.name if known else source.path.stem if source.manifest is None else source.path.parent.name
    verdicts = next(iter(runs), 0)
    return {
        "name": name or default,
        "layout": chosen.name,
        "file": source.name,
        "sha256": source.sha256,
        "judge": judge if verdicts else None,  # no verdicts in the file: no judge gave any
        "judge_model": judge_model if verdicts else None,
        "answer_model": answer_model,
        "verdict_kind": fmap.verdict_kind if verdicts else None,
        "runs": verdicts,
        "gold": run_gold,
    }
