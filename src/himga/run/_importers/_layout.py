"""Layouts by name: each published layout is one :class:`Layout` (a field map, how to recognise its shape, what it
adds beyond the map), registered by the module that defines it; ``--layout auto`` asks each in turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from himga.errors import SourceFormatError
from himga.registry import Registry
from himga.run._importers._fieldmap import Entry, FieldMap, records_at

__all__ = ["LAYOUTS", "Layout", "first_record", "keys_of", "layout_named", "layouts", "recognise", "register"]


def _no_facts(document: Any) -> dict:
    return {}


@dataclass(frozen=True)
class Layout:
    """One published layout.

    Attributes:
        name: Its name (``--layout zep``).
        title: What files it reads and where they come from.
        fields: Where its records and fields are.
        shape: ``document -> bool``: whether a document has this layout's shape (``--layout auto``).
        facts: ``document -> dict``: what the file says of the whole run (``judge_model``, ``answer_model``, and
            ``totals``: the counts it states, checked against the records).
        extra: ``entry -> dict``: the himga fields a record gives beyond the map (the retrieved items of a context).
    """

    name: str
    title: str
    fields: FieldMap
    shape: Callable[[Any], bool]
    facts: Callable[[Any], dict] = _no_facts
    extra: Callable[[Entry], dict] | None = None


#: Every layout by name, in the order registered (and tried by ``--layout auto``).
LAYOUTS: Registry[Layout] = Registry("layout", sort=False)


def register(layout: Layout) -> Layout:
    """Add ``layout`` under its name; returns it."""
    return LAYOUTS.register(layout.name, layout)


def layouts() -> dict[str, Layout]:
    """Every registered layout by name, in the order registered."""
    return LAYOUTS.all()


def layout_named(name: str) -> Layout:
    """The layout called ``name``.

    Raises:
        ConfigurationError: ``unknown layout 'x': expected one of zep, evermemos, ...``.
    """
    return LAYOUTS.named(name)


def first_record(document: Any, records: str) -> Mapping | None:
    """The first record where ``records`` (a :attr:`FieldMap.records` path) says the records are, or ``None``."""
    key, grouped = records_at(records)
    value = document.get(key) if key is not None and isinstance(document, Mapping) else document
    if key is not None and not isinstance(document, Mapping):
        return None
    if grouped:
        if not isinstance(value, Mapping):
            return None
        value = next((v for v in value.values() if isinstance(v, list) and v), None)
    if not isinstance(value, list) or not value or not isinstance(value[0], Mapping):
        return None
    return value[0]


def recognise(document: Any, file: str) -> Layout:
    """The layout whose shape ``document`` has (the first registered that recognises it).

    Raises:
        SourceFormatError: no layout recognises it: the layouts are listed, and the field map that reads any other.
    """
    for layout in LAYOUTS.all().values():
        if layout.shape(document):
            return layout
    names = "; ".join(f"{layout.name}: {layout.title}" for layout in LAYOUTS.all().values())
    raise SourceFormatError(
        file,
        "$",
        f"no layout recognises this file's shape (layouts: {names}); name one with --layout, or read it with a "
        "field map (--field-map MAP.json: where the records are and which field is the question, the response, the "
        "verdicts, the category and the conversation)",
    )


def keys_of(record: Mapping | None) -> set[str]:
    """The keys of a record (none for ``None``), for shape tests."""
    return set(record) if isinstance(record, Mapping) else set()
