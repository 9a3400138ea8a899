"""Reading a published run's file: a JSON document (gzip, bzip2 or xz read as they are), JSON Lines, or a ``himga
run`` folder; with the sha256 of the bytes read."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError, type_name

__all__ = ["Source", "read_source"]


@dataclass
class Source:
    """A file read.

    Attributes:
        name: The file's name; sha256: of its bytes (of ``records.jsonl`` for a run folder).
        document: The JSON value (JSON Lines: the list of its records).
        lines: For JSON Lines, the line number of each record (``$[i]`` is named ``line N``).
        manifest: A ``himga run`` folder's ``manifest.json``.
    """

    name: str
    sha256: str
    document: Any
    lines: list[int] | None = None
    manifest: dict | None = None
    path: Path = field(default_factory=Path)

    def where(self, place: str) -> str:
        """``$[3]`` of JSON Lines as ``line 4`` (its line number); other paths as they are."""
        if self.lines is not None and place.startswith("$[") and "]" in place:
            index, _, rest = place[2:].partition("]")
            return f"line {self.lines[int(index)]}{rest}"
        return place


def read_source(path: str | Path) -> Source:
    """Read a published run's file (or a ``himga run`` folder).

    Raises:
        ConfigurationError: no such file or folder; a folder that is no run folder.
        SourceFormatError: not JSON (a cut gzip: ``expected a complete gzip file``), an empty file.
    """
    from himga.jsonio.jsonlines import is_json_lines, iter_json_lines
    from himga.jsonio.reader import load_json

    path = Path(path)
    manifest = None
    if path.is_dir():
        records, found = path / "records.jsonl", path / "manifest.json"
        if not records.is_file() or not found.is_file():
            raise ConfigurationError(
                f"{str(path)!r} is a folder without records.jsonl and manifest.json: not a himga run folder"
            )
        manifest = load_json(found)
        if not isinstance(manifest, dict):
            raise SourceFormatError("manifest.json", "$", f"expected an object, got {type_name(manifest)}")
        path = records
    elif not path.is_file():
        raise ConfigurationError(f"{str(path)!r}: no such file")
    digest = hashlib.sha256()
    if is_json_lines(path):
        lines, values = [], []
        for number, value in iter_json_lines(path, digest=digest):
            lines.append(number)
            values.append(value)
        return Source(path.name, digest.hexdigest(), values, lines, manifest, path)
    document = load_json(path, digest=digest)
    return Source(path.name, digest.hexdigest(), document, None, manifest, path)
