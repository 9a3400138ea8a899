"""A field map: where a published run's records are and which field of a record holds what.

Every layout is one (:class:`FieldMap`); a file in a layout himga does not know is read by a field map given as JSON
(``himga import FILE --field-map MAP.json``). Paths are dotted keys with list indices: ``meta.sample_id``,
``gold_answers[0]``; ``@group`` is the key of the group a record sits in (``$.*``: an object of arrays, one per
conversation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from himga.errors import ConfigurationError, SourceFormatError, counted, type_name

__all__ = ["GROUP", "PATHS", "Entry", "FieldMap", "VerdictKind", "check_fields", "entries", "lookup", "records_at"]

#: The path of the key of the group a record sits in.
GROUP = "@group"
#: What a record's verdicts are: a judge's labels or scores, or a retrieval measure (MemPalace's recall).
VerdictKind = Literal["judge", "recall"]

_RECORDS = re.compile(r"\$(?:\.([A-Za-z_][\w-]*))?(\.\*)?")
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
#: The fields a map may name, in the order messages list them.
PATHS = (
    "conversation",
    "question",
    "response",
    "verdicts",
    "category",
    "gold",
    "id",
    "item_id",
    "retrieved_ids",
    "retrieved_sessions",
    "context",
    "context_tokens",
)


@dataclass(frozen=True)
class FieldMap:
    """Where a layout's records are and which field holds what.

    Attributes:
        records: ``"$"`` (the document is an array of records, or JSON Lines), ``"$.results"`` (an array under a
            key), ``"$.*"`` (an object of arrays, one per conversation) or ``"$.detailed_results.*"``.
        question: The question text (the join reads it).
        conversation: The conversation: a path, or ``"@group"``. Its value names a LoCoMo sample by id
            (``"conv-26"``) or by its place in ``locomo10.json`` (``3``, ``"3"``, ``"locomo_exp_user_3"``: from 0).
        response: The system's answer.
        verdicts: The file's own verdicts: a boolean or a number in [0, 1] (one run), a list of them or an object of
            them (one per judge run, in key order: ``llm_judgments``' ``judgment_1`` ...).
        category: The LoCoMo category: an integer, its digits as a string, or a name (``category_names``).
        gold: The gold answer the file copied (a string, an integer, or a list of them).
        id: The file's own question id (kept, cross-checked where it names the QA index).
        item_id: himga's item id (``conv-26:0``): records that hold it are joined by it (the question text checked).
        retrieved_ids: What was retrieved, as LoCoMo turn ids (``D1:3``), best first.
        retrieved_sessions: What was retrieved, as LoCoMo session keys (MemPalace's ``session_3``), best first; written
            as the Sample's session ids (``3``), which the retrieval scores read.
        context: The retrieved context as text (Agent Memory Benchmark's ``## Memory <k>`` blocks).
        context_tokens: The context's length in tokens, as the file counted it.
        latency_ms: ``{phase: path}`` of latencies in milliseconds (``{"duration": "duration_ms"}``).
        optional: The fields above a record may lack (the others must be in every record).
        category_names: The label map names are read in (a name of LoCoMo's ``TYPE_LABELS``), or ``"auto"``: the map
            that explains the most records.
        scope: The LoCoMo categories the file's questions come from, for a record without a category.
        verdict_kind: ``"judge"`` or ``"recall"``.
        judge: The registered judge that gave the verdicts, if one did; judge_model, answer_model: the models.
    """

    records: str
    question: str
    conversation: str | None = None
    response: str | None = None
    verdicts: str | None = None
    category: str | None = None
    gold: str | None = None
    id: str | None = None
    item_id: str | None = None
    retrieved_ids: str | None = None
    retrieved_sessions: str | None = None
    context: str | None = None
    context_tokens: str | None = None
    latency_ms: Mapping[str, str] = field(default_factory=dict)
    optional: tuple[str, ...] = ()
    category_names: str | None = None
    scope: tuple[int, ...] = (1, 2, 3, 4)
    verdict_kind: VerdictKind = "judge"
    judge: str | None = None
    judge_model: str | None = None
    answer_model: str | None = None

    def __post_init__(self):
        if not _RECORDS.fullmatch(self.records):
            raise ConfigurationError(
                f"field map: records: expected '$', '$.KEY', '$.*' or '$.KEY.*', got {self.records!r}"
            )
        if self.conversation is None and self.item_id is None:
            raise ConfigurationError("field map: expected 'conversation' (or 'item_id'), got neither")
        if self.verdict_kind not in get_args(VerdictKind):
            kinds = ", ".join(get_args(VerdictKind))
            raise ConfigurationError(f"field map: verdict_kind: expected one of {kinds}, got {self.verdict_kind!r}")
        if bad := [name for name in self.optional if name not in PATHS and name not in self.latency_ms]:
            raise ConfigurationError(f"field map: optional: {', '.join(map(repr, bad))} name no field of the map")

    @classmethod
    def from_dict(cls, value: Any, name: str = "field map") -> FieldMap:
        """A field map from its JSON form (the attribute names as keys; ``optional`` and ``scope`` as lists).

        Raises:
            ConfigurationError: not an object, an unknown key, a value of the wrong type.
        """
        known = {f.name for f in fields(cls)}
        if not isinstance(value, Mapping):
            raise ConfigurationError(
                f"{name}: expected an object of {', '.join(sorted(known))}, got {type_name(value)}"
            )
        if unknown := sorted(set(value) - known):
            raise ConfigurationError(f"{name}: unknown key {unknown[0]!r}: expected one of {', '.join(sorted(known))}")
        out = dict(value)
        for key, kind in (("optional", str), ("scope", int)):
            if key in out:
                if not isinstance(out[key], list) or not all(type(v) is kind for v in out[key]):
                    what = "names" if kind is str else "integers"
                    raise ConfigurationError(f"{name}: {key}: expected a list of {what}, got {out[key]!r}")
                out[key] = tuple(out[key])
        for key, item in out.items():
            if key in ("optional", "scope", "latency_ms"):
                continue
            if item is not None and not isinstance(item, str):
                raise ConfigurationError(f"{name}: {key}: expected a string, got {type_name(item)}")
        latency = out.get("latency_ms", {})
        if not isinstance(latency, Mapping) or not all(isinstance(v, str) for v in latency.values()):
            raise ConfigurationError(f"{name}: latency_ms: expected an object of phase: path")
        if "records" not in out or "question" not in out:
            raise ConfigurationError(f"{name}: expected at least 'records' and 'question'")
        return cls(**out)

    def paths(self) -> dict[str, str]:
        """``{field: path}`` of every field the map names (latencies as ``latency_ms.<phase>``)."""
        named = {name: getattr(self, name) for name in PATHS if getattr(self, name) is not None}
        return {**named, **{f"latency_ms.{phase}": path for phase, path in self.latency_ms.items()}}

    def is_optional(self, name: str) -> bool:
        """Whether field ``name`` of :meth:`paths` may be missing from a record."""
        return name in self.optional or name.removeprefix("latency_ms.") in self.optional


@dataclass
class Entry:
    """One record of the file: its JSON path, the key of its group (``None`` outside one) and the record."""

    where: str
    group: str | None
    record: dict


def records_at(records: str) -> tuple[str | None, bool]:
    """``(key, grouped)`` of a :attr:`FieldMap.records` path: ``"$.detailed_results.*"`` is
    ``("detailed_results", True)``."""
    key, grouped = _RECORDS.fullmatch(records).groups()
    return key, bool(grouped)


def lookup(entry: Entry, path: str) -> tuple[bool, Any]:
    """``(found, value)`` of ``path`` in a record (``"@group"``: its group's key)."""
    if path == GROUP:
        return entry.group is not None, entry.group
    value: Any = entry.record
    for key, index in _STEP.findall(path):
        if key and isinstance(value, Mapping) and key in value:
            value = value[key]
        elif index and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        else:
            return False, None
    return True, value


def entries(document: Any, fmap: FieldMap, file: str, layout: str) -> list[Entry]:
    """The records of ``document`` where ``fmap.records`` says they are, each with its JSON path.

    Raises:
        SourceFormatError: the document is not shaped so (``layout zep does not match ...``), a record that is no
            object, no record at all.
    """
    key, grouped = records_at(fmap.records)
    value, where = document, "$"
    if key is not None:
        if not isinstance(value, Mapping) or key not in value:
            raise SourceFormatError(
                file, f"$.{key}", f"{_named(layout)} does not match: no {key!r} (the records are at {fmap.records})"
            )
        value, where = value[key], f"$.{key}"
    if grouped:
        if not isinstance(value, Mapping) or not all(isinstance(v, list) for v in value.values()):
            raise SourceFormatError(
                file,
                where,
                f"{_named(layout)} does not match: expected an object of arrays (one per conversation), got "
                f"{type_name(value) if not isinstance(value, Mapping) else 'an object of other values'}",
            )
        found = [(f"{where}.{g}[{i}]", g, r) for g, items in value.items() for i, r in enumerate(items)]
    else:
        if not isinstance(value, list):
            raise SourceFormatError(
                file, where, f"{_named(layout)} does not match: expected an array of records, got {type_name(value)}"
            )
        found = [(f"{where}[{i}]", None, r) for i, r in enumerate(value)]
    out = []
    for place, group, record in found:
        if not isinstance(record, Mapping):
            raise SourceFormatError(file, place, f"expected a record (an object), got {type_name(record)}")
        out.append(Entry(place, group, dict(record)))
    if not out:
        raise SourceFormatError(file, where, f"no record at {fmap.records}")
    return out


def check_fields(items: list[Entry], fmap: FieldMap, file: str, layout: str) -> dict[str, int]:
    """Every required field in every record; returns ``{field: records holding it}``.

    Raises:
        SourceFormatError: required fields missing, each named with the first record lacking it and how many do
            (``$.locomo_exp_user_0[0]: layout zep does not match: no grade (1,540 of 1,540 records), ...``).
    """
    held = dict.fromkeys(fmap.paths(), 0)
    first: dict[str, str] = {}
    for entry in items:
        for name, path in fmap.paths().items():
            if lookup(entry, path)[0]:
                held[name] += 1
            else:
                first.setdefault(name, entry.where)
    missing = [n for n, count in held.items() if count < len(items) and not fmap.is_optional(n)]
    if missing:
        paths = fmap.paths()
        listed = ", ".join(f"{paths[n]} ({len(items) - held[n]:,} of {counted(len(items), 'record')})" for n in missing)
        reads = ", ".join(paths.values())
        raise SourceFormatError(
            file, first[missing[0]], f"{_named(layout)} does not match: no {listed}; {_named(layout)} reads {reads}"
        )
    return held


def _named(layout: str) -> str:
    """A layout as a message names it: ``layout zep``, or ``the field map`` (``--field-map``'s layout, ``fields``)."""
    return "the field map" if layout == "fields" else f"layout {layout}"
