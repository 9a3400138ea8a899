"""The Arrow ``datasets.Features`` of a Sample row, derived from the dataclasses in :mod:`.schema`.

One row is one :class:`~himga.schema.sample.Sample`. The mapping from field types is fixed:

==========================  ===============================================
dataclass field type        Arrow feature
==========================  ===============================================
``str`` / ``str | None``    ``Value("string")`` (nullable)
``QuestionType``            ``Value("string")`` — the member's value
``int`` / ``int | None``    ``Value("int64")`` (nullable)
``dict``                    ``Value("string")`` (``raw`` columns): JSON object text, ``null`` when empty
``list[str]``               ``List(Value("string"))``
``list[<dataclass>]``       ``List({...})`` of structs, never ``Sequence({...})``
``<dataclass>``             a struct ``{...}``
==========================  ===============================================

Every builder (``himga_locomo``, ``himga_longmemeval``, ...) declares :data:`SAMPLE_FEATURES`, so the datasets
concatenate.

``raw`` columns are plain strings holding JSON text, not ``datasets.Json()`` (an Arrow ``arrow.json``
extension type, new in ``datasets`` 4.7): a string column is read as text by every Parquet reader and by
every ``datasets`` version, and queried with the reader's own JSON functions (DuckDB ``json_extract``,
polars ``.str.json_path_match``). The local cache and an export therefore share one schema; the
converter (:mod:`.convert`) decodes the text to dicts.
"""

from __future__ import annotations

import dataclasses
import types
import typing

import datasets

from .sample import QuestionType, Sample

__all__ = ["SAMPLE_FEATURES", "features_for"]


def _feature_for_type(tp: object) -> object:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"unsupported union type {tp!r}")
        return _feature_for_type(args[0])
    if tp is str or tp is QuestionType:
        return datasets.Value("string")
    if tp is int:
        return datasets.Value("int64")
    if tp is dict or origin is dict:
        return datasets.Value("string")  # JSON text, see the module docstring
    if origin is list:
        (item,) = typing.get_args(tp)
        return datasets.List(_feature_for_type(item))
    if dataclasses.is_dataclass(tp):
        return features_for(tp)
    raise TypeError(f"no Arrow feature for field type {tp!r}")


def features_for(cls: type) -> dict[str, object]:
    """Map a dataclass of :mod:`.schema` to a ``{field name: feature}`` dict, in field order.

    Args:
        cls: A dataclass whose fields are typed with the types in the table above.

    Returns:
        A dict suitable as a struct inside ``datasets.Features``.

    Raises:
        TypeError: a field type outside the table above.
    """
    hints = typing.get_type_hints(cls)
    return {f.name: _feature_for_type(hints[f.name]) for f in dataclasses.fields(cls)}


#: The features of one Sample row, shared by every builder.
SAMPLE_FEATURES: datasets.Features = datasets.Features(features_for(Sample))
