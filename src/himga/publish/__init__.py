"""Publishing: a Hub-ready export (Parquet and the dataset card), its card, reading an export back, and the
labels of its source files (:func:`export`, :func:`push`, :func:`render_card`, :func:`checked_export`).
The modules behind this face are private.
"""

from himga.publish._card import SPLIT, SplitSize, card_title, code_cell, data_files_pattern, pin_note, render_card
from himga.publish._card_fields import field_reference
from himga.publish._export import SHARD_BYTES, all_configs, export, shard_count
from himga.publish._export_configs import (
    VIEWS,
    ExportConfig,
    export_config,
    export_configs,
    export_name,
    gold_options,
    gold_record,
    view_name,
)
from himga.publish._push import push, push_plan
from himga.publish._read_export import (
    METADATA_KEY,
    check_card,
    check_export_target,
    checked_export,
    exported_configs,
    shard_metadata,
)
from himga.publish._source_labels import (
    SourceFile,
    checked_sources,
    configs_named,
    describe,
    matching_pins,
    pinned_file,
    select_configs,
)

__all__ = [
    "METADATA_KEY",
    "SHARD_BYTES",
    "SPLIT",
    "VIEWS",
    "ExportConfig",
    "SourceFile",
    "SplitSize",
    "all_configs",
    "card_title",
    "check_card",
    "check_export_target",
    "checked_export",
    "checked_sources",
    "code_cell",
    "configs_named",
    "data_files_pattern",
    "describe",
    "export",
    "export_config",
    "export_configs",
    "export_name",
    "exported_configs",
    "field_reference",
    "gold_options",
    "gold_record",
    "matching_pins",
    "pin_note",
    "pinned_file",
    "push",
    "push_plan",
    "render_card",
    "select_configs",
    "shard_count",
    "shard_metadata",
    "view_name",
]
