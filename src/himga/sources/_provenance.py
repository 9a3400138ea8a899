"""Provenance of local source files: is this file byte-identical to a pinned official file, or does it hold
the same data re-serialised?

:func:`provenance` gives the line ``himga validate`` and ``himga stats`` print per source file
(``locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok``); :func:`warn_if_modified` is the one
warning a build gives for a modified pinned file under ``$HIMGA_DATASETS_ROOT``. A file's sha256 is
computed once per process: the builders hash a file in the same read as the parse and record it
(:func:`record_sha256`), and :func:`file_sha256` reuses it while the file is unchanged. Likewise its
content fingerprint (:mod:`himga.sources._content`), computed in the build's parse and recorded with
:func:`record_content`: a file whose bytes differ from a pin's but whose content fingerprint equals the
pin's is "the same content, re-serialised"; for LoCoMo, whose pin has a content tree, a file whose content
differs is reported with the first differing record path.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from himga.errors import SourceFormatError
from himga.jsonio import file_identity
from himga.sources import _remote, _verified
from himga.sources._content import ContentDigest, content_sha256, csv_rows, first_difference
from himga.sources._pin import RemoteFile

__all__ = [
    "file_label",
    "file_sha256",
    "pin_coverage",
    "provenance",
    "provenance_lines",
    "record_content",
    "record_sha256",
    "warn_if_modified",
]

logger = logging.getLogger("himga.sources")


#: (resolved path, size, mtime_ns, ctime_ns, inode) → sha256, for this process: a file is hashed once per
#: build. The full identity of :func:`himga.sources._checks.file_identity`: an edit followed by ``touch -r`` or
#: ``cp -p`` keeps size and mtime but never ctime, so it is never reported with the old hash.
_SHA256_SEEN: dict[tuple, str] = {}


def _stat_key(path: Path) -> tuple:
    return (str(path.resolve()), *file_identity(path.stat()))


#: (resolved path, file identity) → (content fingerprint, {pinned content fingerprint: first differing path}).
_CONTENT_SEEN: dict[tuple, tuple[str, dict[str, str | None]]] = {}

#: Files up to this size are parsed by :func:`provenance` for their content fingerprint when no build of
#: this process recorded it (LoCoMo's 2.8 MB; never a LongMemEval file, whose pins hold no content fingerprint).
_PARSE_LIMIT = 64 * 2**20


@cache
def _tree(path: str) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def record_content(path: str | Path, fingerprint: str, pins: Iterable[RemoteFile] = (), value: Any = None) -> None:
    """Remember the content fingerprint of ``path`` computed by the build's parse.

    Args:
        path: The source file.
        fingerprint: Its content fingerprint (:class:`himga.sources._content.ContentDigest`).
        pins: The dataset's pins; for each with a content tree whose content differs, the first differing
            path of ``value`` is found now (while the parsed value is at hand).
        value: The parsed JSON value (LoCoMo's whole file), or ``None`` (a streamed file).
    """
    differences = {}
    if value is not None:
        for pin in pins:
            if pin.content_tree and pin.content_sha256 and pin.content_sha256 != fingerprint:
                differences[pin.content_sha256] = first_difference(_tree(pin.content_tree), value)
    _CONTENT_SEEN[_stat_key(Path(path))] = (fingerprint, differences)


def _content(path: Path, pins: list[RemoteFile]) -> tuple[str, dict[str, str | None]] | None:
    """The recorded content of ``path``, else (when a pin has a content fingerprint and the file is small) parsed
    now."""
    key = _stat_key(path)
    if key in _CONTENT_SEEN or not any(pin.content_sha256 for pin in pins) or path.stat().st_size > _PARSE_LIMIT:
        return _CONTENT_SEEN.get(key)
    from himga.jsonio.jsonlines import is_json_lines, iter_json_lines
    from himga.jsonio.reader import load_json  # one read: the parse and the sha256

    digest = hashlib.sha256()
    try:
        if path.suffix.lower() == ".csv":  # its rows, whatever the line endings
            value = csv_rows(path, digest=digest)
        elif is_json_lines(path):  # its records as an array (ContentDigest's items)
            content = ContentDigest()
            for _line, record in iter_json_lines(path, digest=digest):
                content.item(record)
            record_sha256(path, digest.hexdigest())
            record_content(path, content.hexdigest(), pins)
            return _CONTENT_SEEN[key]
        else:
            value = load_json(path, digest=digest)
    except SourceFormatError:
        return None  # not JSON (nor CSV): its bytes are all there is to compare
    record_sha256(path, digest.hexdigest())
    record_content(path, content_sha256(value), pins, value)
    return _CONTENT_SEEN[key]


def record_sha256(path: str | Path, sha256: str) -> None:
    """Remember the sha256 of ``path`` as computed by a reader that read every byte (the build's parse)."""
    _SHA256_SEEN[_stat_key(Path(path))] = sha256


def file_sha256(path: str | Path) -> str:
    """The sha256 of ``path``: remembered from this process's build when the file is unchanged, else read.

    Raises:
        OSError: the file cannot be read.
    """
    key = _stat_key(Path(path))
    if key not in _SHA256_SEEN:
        _SHA256_SEEN[key] = _verified.sha256_of(path)
    return _SHA256_SEEN[key]


def provenance(path: str | Path, pins: Iterable[RemoteFile], *, sha256: str | None = None) -> str:
    """One line saying whether a local source file is byte-identical to a pinned official file.

    The file is hashed only when needed: not when this process's build already did (:func:`record_sha256`),
    nor when its size matches no pin (it cannot be byte-identical to one) and no pin has a content
    fingerprint. When a pin has one (LoCoMo) and no build of this process recorded the file's, a file of
    up to 64 MiB is parsed once for it (:func:`record_content`).

    Args:
        path: The local file.
        pins: Every pinned file of the dataset (:meth:`himga.catalog.Benchmark.pins`).
        sha256: The file's sha256 if already known; default :func:`file_sha256`.

    Returns:
        ``"locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok"``; for other bytes with a pinned
        content fingerprint, ``"locomo10.json: same content as snap-research/locomo@3eb6f2c (re-serialised;
        sha256 <hex>)"`` or ``"locomo10.json: differs in content from snap-research/locomo@3eb6f2c at
        $[0].qa[1] (sha256 <hex>)"``; or ``"locomo10.json: differs from
        the pinned locomo10.json: a modified copy or another release (sha256 <hex>)"`` (``(<n> bytes,
        pinned <m>)`` when the size already differs); for a pin without a known sha256,
        ``"... sha256 <hex> (no sha256 is pinned for <repo@rev> to compare with)"``; for a compressed file
        (gzip, bzip2, xz; the sha256 is the compressed file's), ``"locomo10.json.gz: same content as
        snap-research/locomo@3eb6f2c (gzip-compressed; sha256 <hex>)"`` or ``"x.json.gz: gzip-compressed,
        not a pinned file (the pins are uncompressed; sha256 <hex>)"``; for any other name,
        ``"mine.json: not a pinned file (sha256 <hex>)"``.

    Raises:
        OSError: the file cannot be read.
    """
    path = Path(path)
    pins = [part for pin in pins for part in pin.files]  # a pin of several files is its files
    named = [pin for pin in pins if pin.accepts(path)]
    if named and named[0].layout_path is not None:  # one file of a layout: named by its place in it
        return _provenance(path, named[0].layout_path, pins, named, sha256)
    return _provenance(path, path.name, pins, named, sha256)


def _provenance(path: Path, name: str, pins: list[RemoteFile], named: list[RemoteFile], sha256: str | None) -> str:
    """:func:`provenance` of ``path``, shown as ``name``, against ``pins`` (single files), ``named`` those whose name it
    has."""
    size = path.stat().st_size
    digest = sha256 or _SHA256_SEEN.get(_stat_key(path))
    if digest is None and any(pin.size is None or pin.size == size for pin in pins):
        digest = file_sha256(path)
    for pin in pins:
        if digest is not None and pin.sha256 == digest:
            return f"{name} = {pin.origin}{'' if pin.accepts(path) else f' ({pin.local_path})'}, sha256 ok"
    content = _content(path, pins)  # parses the file (and hashes it in the same read) when nothing recorded it
    digest = digest or _SHA256_SEEN.get(_stat_key(path))
    if (compressed := _compression(path)) is not None:  # the pins are uncompressed: never the pinned file itself
        digest = digest or file_sha256(path)
        same = next((pin for pin in pins if content is not None and pin.content_sha256 == content[0]), None)
        if same is not None:
            return f"{name}: same content as {same.origin} ({compressed}-compressed; sha256 {digest})"
        return f"{name}: {compressed}-compressed, not a pinned file (the pins are uncompressed; sha256 {digest})"
    if digest is None:
        if named:
            return (
                f"{name}: differs from the pinned {named[0].local_path}: a modified copy or another release "
                f"({size:,} bytes, pinned {named[0].size:,})"
            )
        return f"{name}: not a pinned file ({size:,} bytes; no pin has that size)"
    if content is not None:
        fingerprint, differences = content
        for pin in pins:
            if pin.content_sha256 == fingerprint:
                return f"{name}: same content as {pin.origin} (re-serialised; sha256 {digest})"
        for pin in named:
            if pin.content_sha256 is not None:
                where = f" at {differences[pin.content_sha256]}" if differences.get(pin.content_sha256) else ""
                return f"{name}: differs in content from {pin.origin}{where} (sha256 {digest})"
    if any(pin.sha256 is None for pin in named):
        origins = ", ".join(pin.origin for pin in named if pin.sha256 is None)
        return f"{name}: sha256 {digest} (no sha256 is pinned for {origins} to compare with)"
    if named:
        return (
            f"{name}: differs from the pinned {named[0].local_path}: a modified copy or another release "
            f"(sha256 {digest})"
        )
    return f"{name}: not a pinned file (sha256 {digest})"


def _compression(path: Path) -> str | None:
    """``"gzip"``, ``"bzip2"`` or ``"xz"`` for a compressed file (read by the builders), else ``None``."""
    from himga.jsonio.compressed import compression_of

    with open(path, "rb") as f:
        return compression_of(f.read(6))


def warn_if_modified(path: str | Path, sha256: str, pins: Iterable[RemoteFile], *, content: str | None = None) -> None:
    """Log one warning (logger ``himga.sources._provenance``) when a file under ``$HIMGA_DATASETS_ROOT`` has a pinned
    name but another checksum and (when ``content``, its content fingerprint, is given) other content. Called by
    the builders, once per file and build, with the sha256 computed while parsing (which it also records for
    :func:`file_sha256`)."""
    record_sha256(path, sha256)
    root = _remote.datasets_root()
    path = Path(path)
    if root is None or not path.resolve().is_relative_to(root.resolve()):
        return
    named = [part for pin in pins for part in pin.files if part.accepts(path) and part.sha256 is not None]
    if content is not None and any(pin.content_sha256 == content for pin in named):
        return  # the same data, re-serialised
    if named and all(pin.sha256 != sha256 for pin in named):
        pin = named[0]
        logger.warning(
            "himga: warning: %s: differs from the pinned %s (%s): a modified copy or another release (sha256 %s, "
            "pinned %s); "
            "the official file is %s",
            path,
            pin.local_path,
            pin.origin,
            sha256,
            pin.sha256,
            pin.url,
        )


def file_label(path: str | Path, pins: Iterable[RemoteFile]) -> str:
    """A source file's name in messages, reports and cards: its place in the repository's layout when it is a file of
    one of ``pins`` (BEAM ``chats/100K/3/chat.json``: every chat's file is ``chat.json``), else its base name."""
    return next((part.shown_name(path) for pin in pins for part in pin.files if part.accepts(path)), Path(path).name)


def pin_coverage(pin: RemoteFile, files: Iterable[tuple[str, str | None]]) -> tuple[list[str], list[str]]:
    """How a set of files compares with a pin of several files (:attr:`RemoteFile.parts`): the one rule of "these files
    are that pin" for every route (``himga stats``/``validate``'s source line, the export card's source table).

    Args:
        pin: A pin with parts (BEAM's ``chats/100K``, REALTALK's ``data``).
        files: ``(name, sha256)`` per file, the name as :func:`file_label` shows it: a part's ``local_path``
            (``chats/100K/3/chat.json``), or its base name when the parts' base names are distinct (REALTALK's flat
            copy of ``data/``).

    Returns:
        ``(files not in the pin, the pin's files not given)``, names in the order given and in the pin's order. Both
        empty (and every sha256 a part's) means the files are exactly the pin's: a copy of a pinned chat under another
        number (``chats/100K/21``) or an 11th REALTALK chat is not in the pin, whatever its bytes.
    """
    parts = {part.local_path: part.sha256 for part in pin.parts}
    flat = {
        Path(name).name: name for name in parts
    }  # a flat copy names a part by its base name, when those are distinct
    flat = flat if len(flat) == len(parts) else {}
    given = [(name if name in parts else flat.get(name, name), sha256) for name, sha256 in files]
    extra = [name for name, sha256 in given if name not in parts or (parts[name] is not None and parts[name] != sha256)]
    names = {name for name, _sha256 in given}
    return extra, [name for name in parts if name not in names]


def _part_names(files: list[Path], pin: RemoteFile) -> list[str]:
    """Each file's name against a pin of several files: the part's ``local_path`` it is by its place in the layout
    (``.../chats/100K/3/chat.json``), else its path below the copy's root (``chats/100K/21/chat.json``, REALTALK's
    ``Chat_1_Emi_Elise.json``), for :func:`pin_coverage`."""
    root = None
    for f in files:
        if (part := next((p for p in pin.parts if p.accepts(f)), None)) is not None:
            root = f.parents[len(Path(part.local_path).parts) - 1]
            break
    names = []
    for f in files:
        part = next((p.local_path for p in pin.parts if p.accepts(f)), None)
        names.append(
            part or (f.relative_to(root).as_posix() if root is not None and f.is_relative_to(root) else f.name)
        )
    return names


def _listing(names: list[str], shown: int = 5) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def provenance_lines(entry, files: list[str | Path]) -> list[str]:
    """One :func:`provenance` line per local source file of benchmark ``entry`` (a :class:`himga.entry.Benchmark`);
    more than three files that are all pinned files in one line: ``"40 files =
    mohammadtavakoli78/BEAM@b2a3ee8, sha256 ok"`` when they are exactly the files of a pin of several
    (:func:`pin_coverage`), else ``"40 of 42 files = mohammadtavakoli78/BEAM@b2a3ee8, sha256 ok; not in the pinned
    chats/100K: chats/100K/21/chat.json, ...; pinned but not given: ..."``."""
    pins = list(entry.pins().values())
    lines = [provenance(f, pins) for f in files]
    if len(lines) > 3 and all(line.endswith(", sha256 ok") for line in lines):  # a release of many files, all pinned
        origins = sorted({line.split(" = ", 1)[1].removesuffix(", sha256 ok").split(" (", 1)[0] for line in lines})
        paths = [Path(f) for f in files]
        covered = [
            (pin, pin_coverage(pin, zip(_part_names(paths, pin), map(file_sha256, paths)))) for pin in pins if pin.parts
        ]
        folders = [
            (pin, found) for pin, found in covered if len(found[0]) < len(paths)
        ]  # pins holding any of the files
        if len(folders) == 1:
            pin, (extra, missing) = folders[0]
            if extra or missing:
                out = f"{len(lines) - len(extra)} of {len(lines)} files = {', '.join(origins)}, sha256 ok"
                out += f"; not in the pinned {pin.filename}: {_listing(extra)}" if extra else ""
                return [out + (f"; pinned but not given: {_listing(missing)}" if missing else "")]
        return [f"{len(lines)} files = {', '.join(origins)}, sha256 ok"]
    return lines
