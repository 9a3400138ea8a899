"""Reading JSON with the file and the record path in every error.

:mod:`.reader` (whole files and streamed arrays: :func:`~.reader.load_json`, :func:`~.reader.iter_array_items`),
with its one-pass fast path :mod:`._fast` (``msgspec``: every check folded into one parse; the canonical JSON
text of the content fingerprint, :func:`canonical`, fed to a :class:`ContentDigest`), run in a second process
beside the parse for a large file (:mod:`._beside`) and the full reader, :mod:`._full`, with its internals
:mod:`._duplicate_keys` (duplicate object keys are errors,
never a silent last-wins), :mod:`._depth` (a nesting limit before any parser sees the bytes) and :mod:`._sniff` (a file
that is not JSON at all: HTML, a Git LFS pointer, a
compressed file); :mod:`._identity` (a file's identity, and a change during a read); :mod:`.jsonlines` (JSON Lines
sources, one record a line); :mod:`.rawcell` (the ``raw`` cell: a dict as JSON text, ``None`` for an empty one).
"""

from himga.jsonio._content import ContentDigest
from himga.jsonio._depth import MAX_DEPTH
from himga.jsonio._fast import canonical
from himga.jsonio._identity import Identity, check_unchanged, file_identity
from himga.jsonio.rawcell import raw_text
from himga.jsonio.reader import iter_array_items, load_json

__all__ = [
    "MAX_DEPTH",
    "ContentDigest",
    "Identity",
    "canonical",
    "check_unchanged",
    "file_identity",
    "iter_array_items",
    "load_json",
    "raw_text",
]
