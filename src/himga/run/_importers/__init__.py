"""Importers of published runs: one small module per layout (Zep's, EverMemOS's, the LoCoMo audit's, mem0's,
Agent Memory Benchmark's, MemPalace's, himga's own), each a :class:`Layout` registered by its module; a file of
another layout is read by a :class:`FieldMap`. :func:`import_run` joins every record to its LoCoMo question by
conversation and question text and builds the records ``himga score`` reads (``docs/published-runs.md``).
"""

from himga.run._importers._fieldmap import FieldMap
from himga.run._importers._import import ImportedRun, import_run
from himga.run._importers._layout import Layout, layout_named, layouts, recognise
from himga.run._importers._published import PUBLISHED, PublishedRun, published_run, reproduction

# The layouts, in the order --layout auto tries them: each module registers its own.
from himga.run._importers import _zep, _evermemos, _locomo_audit, _mem0, _amb, _mempalace, _himga  # noqa: F401  isort: skip

__all__ = [
    "PUBLISHED",
    "FieldMap",
    "ImportedRun",
    "Layout",
    "PublishedRun",
    "import_run",
    "layout_named",
    "layouts",
    "published_run",
    "recognise",
    "reproduction",
]
