"""Where the raw benchmark files come from: pinned remote files, local folders, verified downloads, provenance.

:class:`RemoteFile` is one pinned file (the pins themselves live in each builder folder's ``pins.py``, which imports no
builder: ``himga_locomo.pins.pins()``, the catalogue entry's :meth:`~himga.entry.Benchmark.pins` and what each builder
config's ``remote_file()`` returns). Resolution order of :func:`get_dataset` (as in the HiMGA seed):

1. ``$HIMGA_DATASETS_ROOT/<name>/`` when the variable is set (your own copies; nothing is downloaded;
   a set variable without that folder is a :class:`~himga.errors.ConfigurationError`, never a download);
2. ``$HIMGA_CACHE/<name>/`` (default ``~/.cache/himga/<name>/``), filled on first use by downloading the
   pinned source file. A download goes to a temporary name in that folder and is moved into place only
   after its sha256 matches, so an interrupted or corrupted download is never used; a file found there is
   checked the same way (:func:`check_cached`).

Whether a local file is byte-identical to a pinned one, or holds the same content, is :func:`provenance`'s
answer; :func:`offline_switch` is the one offline decision. The modules behind this face are private.
"""

from himga.sources._checks import (
    OneFileEach,
    check_source_kind,
    folder_blocker,
    named_paths,
    path_kind,
    reading_sources,
    source_path,
    unreadable_source,
)
from himga.sources._content import ContentDigest, canonical, content_sha256, content_tree, csv_rows, first_difference
from himga.sources._folder import SOURCE_SUFFIXES, check_source_entry, json_files, no_source_files
from himga.sources._known import KnownFolder, order_folders, register_folders
from himga.sources._offline import OFFLINE_SWITCHES, offline_switch
from himga.sources._pin import RemoteFile, listing_sha256
from himga.sources._provenance import (
    file_label,
    file_sha256,
    pin_coverage,
    provenance,
    provenance_lines,
    record_content,
    record_sha256,
    warn_if_modified,
)
from himga.sources._remote import (
    cache_root,
    dataset_folder,
    datasets_root,
    download,
    get_dataset,
    pinned_files,
    pinned_source,
    where_to_put,
)
from himga.sources._verified import check_cached, sha256_of

__all__ = [
    "OFFLINE_SWITCHES",
    "SOURCE_SUFFIXES",
    "ContentDigest",
    "KnownFolder",
    "OneFileEach",
    "RemoteFile",
    "cache_root",
    "canonical",
    "check_cached",
    "check_source_entry",
    "check_source_kind",
    "content_sha256",
    "content_tree",
    "csv_rows",
    "dataset_folder",
    "datasets_root",
    "download",
    "file_label",
    "file_sha256",
    "first_difference",
    "folder_blocker",
    "get_dataset",
    "json_files",
    "listing_sha256",
    "named_paths",
    "no_source_files",
    "offline_switch",
    "order_folders",
    "path_kind",
    "pin_coverage",
    "pinned_files",
    "pinned_source",
    "provenance",
    "provenance_lines",
    "reading_sources",
    "record_content",
    "record_sha256",
    "register_folders",
    "sha256_of",
    "source_path",
    "unreadable_source",
    "warn_if_modified",
    "where_to_put",
]
