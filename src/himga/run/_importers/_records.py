"""One imported record, built from one record of a published file by its layout (the fields are listed in
:mod:`himga.run._importers._import`)."""

from __future__ import annotations

from himga.errors import SourceFormatError, type_name
from himga.run._importers._fieldmap import Entry, FieldMap, lookup
from himga.run._importers._layout import Layout
from himga.schema.ids import session_id_of_key

__all__ = ["build_record", "carried_run", "category_of", "verdicts_of"]


def category_of(value, file: str, where: str) -> int | str | None:
    """An integer category (``2``, ``"2"``), a name (kept for the label map), or ``None`` when absent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise SourceFormatError(file, where, f"expected a category (an integer or a name), got {type_name(value)}")
    if isinstance(value, int) or value.strip().isdigit():
        return int(value)
    return value


def verdicts_of(value, file: str, where: str) -> list:
    """One verdict per judge run: a boolean or a number in [0, 1], a list of them, or an object of them (runs in key
    order)."""
    runs = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else [value]
    if not runs:
        raise SourceFormatError(file, where, "expected at least one verdict, got none")
    for n, v in enumerate(runs):
        ok = isinstance(v, bool) or (isinstance(v, (int, float)) and 0 <= v <= 1)
        if not ok:
            place = (
                f"{where}.{list(value)[n]}"
                if isinstance(value, dict)
                else f"{where}[{n}]"
                if isinstance(value, list)
                else where
            )
            got = type_name(v) if not isinstance(v, (int, float)) else f"{v!r}"
            raise SourceFormatError(file, place, f"expected a verdict (a boolean, or a number in [0, 1]), got {got}")
    return runs


def build_record(entry: Entry, fmap: FieldMap, chosen: Layout, item: str, file: str) -> dict:
    consumed = {p for p in fmap.paths().values()}
    extra = chosen.extra(entry) if chosen.extra is not None else {}
    record: dict = {"question_id": item, "question": lookup(entry, fmap.question)[1]}
    if fmap.response and (found := lookup(entry, fmap.response))[0]:
        if not isinstance(found[1], str):
            raise SourceFormatError(
                file, f"{entry.where}.{fmap.response}", f"expected a string, got {type_name(found[1])}"
            )
        record["response"] = found[1]
    if fmap.verdicts and (found := lookup(entry, fmap.verdicts))[0]:
        record["verdicts"] = verdicts_of(found[1], file, f"{entry.where}.{fmap.verdicts}")
    latency = {}
    for phase, path in fmap.latency_ms.items():
        found, value = lookup(entry, path)
        if found:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SourceFormatError(file, f"{entry.where}.{path}", f"expected milliseconds, got {type_name(value)}")
            latency[phase] = value
    if latency:
        record["latency_ms"] = latency
    for key, path in (("retrieved_ids", fmap.retrieved_ids), ("context_tokens", fmap.context_tokens)):
        if path and (found := lookup(entry, path))[0]:
            record[key] = found[1]
    if fmap.retrieved_sessions and (found := lookup(entry, fmap.retrieved_sessions))[0]:
        keys = found[1]
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            where = f"{entry.where}.{fmap.retrieved_sessions}"
            raise SourceFormatError(file, where, f"expected a list of session keys, got {type_name(keys)}")
        record["retrieved_sessions"] = [session_id_of_key(k) or k for k in keys]
    if fmap.context and (found := lookup(entry, fmap.context))[0]:
        record["retrieved"] = [{"text": found[1]}]
    record.update(extra)
    if "source" not in extra:
        src = {"where": entry.where}
        for key, path in (("category", fmap.category), ("gold", fmap.gold), ("id", fmap.id)):
            if path and (found := lookup(entry, path))[0]:
                src[key] = found[1]
        rest = {k: v for k, v in entry.record.items() if k not in consumed and k not in extra}
        if rest:
            src["fields"] = rest
        record["source"] = src
    return record


def carried_run(records: list[dict], run: dict, file: str, sha256: str | None = None) -> dict:
    """The run the records name: the one they carry (records ``himga import`` wrote, read again: with
    ``records_file`` and ``records_sha256``, the file read now, when it is not the published file), else ``run``,
    which each record then carries.

    Raises:
        SourceFormatError: records of more than one run, or some with a run and some without.
    """
    carried = [
        (r["source"].get("where", "?") if isinstance(r.get("source"), dict) else "?", r.get("run")) for r in records
    ]
    named = [(where, value) for where, value in carried if value is not None]
    if not named:
        for record in records:
            record["run"] = run
        return run
    first = named[0][1]
    if isinstance(first, dict) and sha256 is not None and sha256 != first.get("sha256"):
        first = {**first, "records_file": file, "records_sha256": sha256}  # what was read: a copy may be edited
    if len(named) < len(records) or any(value != named[0][1] for _, value in named):
        other = next(((w, v) for w, v in carried if v != first), None)
        detail = f"{other[0]} is of run {other[1].get('name') if isinstance(other[1], dict) else other[1]!r}"
        raise SourceFormatError(
            file,
            "$",
            f"records of more than one run: {named[0][0]} is of run "
            f"{first.get('name') if isinstance(first, dict) else first!r}, {detail}",
        )
    return first
