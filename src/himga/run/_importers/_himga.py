"""himga's own run records: a ``himga run`` folder (``records.jsonl`` with its ``manifest.json``), its
``records.jsonl``, or a file ``himga import`` wrote. Records hold the item id (``question_id``), so they are joined
by it, their question text checked; every field they hold is kept as it is."""

from __future__ import annotations

import re
from collections.abc import Mapping

from himga.run._importers._fieldmap import Entry, FieldMap
from himga.run._importers._layout import Layout, first_record, keys_of, register

__all__ = ["HIMGA", "READ"]

_ITEM_ID = re.compile(r"\S+:\d+")
#: The fields the map reads; every other field of a record is kept as it is.
READ = ("question_id", "question", "response", "verdicts")


def _shape(document) -> bool:
    record = first_record(document, "$")
    return (
        isinstance(record, Mapping)
        and isinstance(record.get("question_id"), str)
        and _ITEM_ID.fullmatch(record["question_id"]) is not None
        and bool({"response", "hypothesis", "run"} & keys_of(record))
    )


def _extra(entry: Entry) -> dict:
    return {k: v for k, v in entry.record.items() if k not in READ}


HIMGA = register(
    Layout(
        "himga",
        "himga's run records (a himga run folder, its records.jsonl, or himga import's output)",
        FieldMap(
            records="$",
            item_id="question_id",
            question="question",
            response="response",
            verdicts="verdicts",
            optional=("response", "verdicts"),
        ),
        _shape,
        extra=_extra,
    )
)
