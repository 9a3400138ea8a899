"""The card's field reference: every column of :data:`~himga.schema.features.SAMPLE_FEATURES`, nested ones
included, with its type and its meaning, read from the ``Attributes:`` sections of the dataclass docstrings
in :mod:`himga.schema.sample` (so the card never says what the code does not)."""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing

import datasets

from himga.schema.features import SAMPLE_FEATURES
from himga.schema.sample import QuestionType, Sample

__all__ = ["field_reference"]

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def _markdown(text: str) -> str:
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    return text.replace("``", "`").replace("|", "\\|")


def _attribute_docs(cls: type) -> dict[str, str]:
    """``{field: description}`` from the ``Attributes:`` section of a Google-style class docstring."""
    docs: dict[str, str] = {}
    lines = inspect.getdoc(cls).splitlines()
    start = lines.index("Attributes:") + 1
    name = None
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break
        if m := re.match(r"    (\w+): (.*)", line):
            name = m.group(1)
            docs[name] = m.group(2).strip()
        elif name and line.strip():
            docs[name] += " " + line.strip()
    return {k: _markdown(v) for k, v in docs.items()}


def _type_name(feature: object) -> str:
    if isinstance(feature, datasets.List):
        return f"list<{_type_name(feature.feature)}>"
    if isinstance(feature, dict):
        return "struct"
    return feature.dtype


def _dataclass_in(tp: object) -> type | None:
    for arg in (tp, *typing.get_args(tp)):
        if dataclasses.is_dataclass(arg):
            return arg
    return None


def field_reference() -> list[tuple[str, str, str]]:
    """Every column of :data:`SAMPLE_FEATURES`, nested ones included, as ``(path, type, meaning)``.

    Paths use ``[]`` for list items (``sessions[].messages[].role``). Meanings are the ``Attributes:``
    entries of the dataclass docstrings; ``question_type`` also lists the :class:`QuestionType` values.
    """
    rows: list[tuple[str, str, str]] = []

    def walk(cls: type, features: dict, prefix: str) -> None:
        docs = _attribute_docs(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            feature = features[f.name]
            meaning = docs.get(f.name, "")
            if hints[f.name] is QuestionType:
                meaning += " One of " + ", ".join(f"`{t.value}`" for t in QuestionType) + "."
            is_json = hints[f.name] is dict or typing.get_origin(hints[f.name]) is dict  # a raw column
            rows.append((prefix + f.name, "string (JSON)" if is_json else _type_name(feature), meaning))
            if (sub := _dataclass_in(hints[f.name])) is not None:
                is_list = isinstance(feature, datasets.List)
                walk(sub, feature.feature if is_list else feature, prefix + f.name + ("[]." if is_list else "."))

    walk(Sample, SAMPLE_FEATURES, "")
    return rows
