"""The himga exception hierarchy.

Every error himga raises on bad input is a :class:`HimgaError`. Source-format errors carry the file
name and the JSON path of the offending record, msgspec-style::

    locomo10.json: $[3].qa[17].category: expected 1-5, got 7

``datasets`` wraps exceptions raised while a builder generates rows in
``datasets.exceptions.DatasetGenerationError``; the himga facade re-raises the original himga error,
and the wrapper, when a user calls ``datasets`` directly, names ours as its ``__cause__``.
"""

from __future__ import annotations

import os
import re

__all__ = [
    "CacheError",
    "ChecksumError",
    "ConfigurationError",
    "DateFormatError",
    "DownloadError",
    "EndpointError",
    "HimgaError",
    "MissingDependencyError",
    "SourceChangedError",
    "SourceFormatError",
    "SourceUnreadableError",
    "UploadError",
    "counted",
    "redacted",
    "redacted_argument",
    "shown",
    "type_name",
    "value_shown",
]

_TOKEN_VARIABLES = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "OPENAI_API_KEY")  # the Hub's and the judge's (himga judge)
_HF_TOKEN = re.compile(r"\bhf_[A-Za-z0-9]{8,}")
_BEARER = re.compile(r"(?i)\b(bearer)\s+[^\s'\",;]+")
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s'\"]+@")
#: Argument names whose values are never written: ``api_key``, ``token``, ``password``, ``hf_secret``, ...
_SECRET_NAME = re.compile(r"(?i)(key|token|secret|passw|credential|auth)")


def redacted(text: str) -> str:
    """``text`` without anything that looks like a Hugging Face token or the judge's API key.

    Removes the values of ``HF_TOKEN``, ``HUGGING_FACE_HUB_TOKEN`` and ``OPENAI_API_KEY`` (at least 8 characters), any
    ``hf_…`` token, the credential after ``Bearer`` and the user and password of a URL (``http://user:key@host`` ->
    ``http://***@host``), each replaced by ``***``: an error body from an endpoint that echoes the request's
    ``Authorization`` header must never print the token.
    """
    for variable in _TOKEN_VARIABLES:
        if len(value := os.environ.get(variable, "")) >= 8:
            text = text.replace(value, "***")
    return _URL_CREDENTIALS.sub(r"\1***@", _BEARER.sub(r"\1 ***", _HF_TOKEN.sub("***", text)))


def redacted_argument(name: str, value: object) -> object:
    """An argument as a file may record it (a memory's ``--memory-arg`` in a run's manifest): ``***`` when its name
    says it is a secret (``api_key``, ``password``, ``token``; not ``api_key_env``, which names a variable), a string
    :func:`redacted`, anything else as given."""
    if _SECRET_NAME.search(name) and not name.endswith("_env"):
        return "***"
    return redacted(value) if isinstance(value, str) else value


def shown(text: object) -> str:
    """``text`` as it may be shown in a message or a report: as is when printable, else ``repr``-escaped.

    A file name or id holding a newline, ESC or NUL would reach a terminal raw (a forged second line,
    an escape sequence); its ``repr`` shows ``'bad\\nFAKE: all good.json'`` on one line instead.
    """
    text = str(text)
    return text if text.isprintable() else repr(text)


class HimgaError(Exception):
    """Base class of every himga error."""


class SourceFormatError(HimgaError, ValueError):
    """A source file is not what the benchmark's format requires.

    Attributes:
        file: The file's name (not its full path).
        path: The JSON path of the offending value, e.g. ``$[3].qa[17].category``; ``$`` for the
            whole document.
        detail: What was expected and what was found.
    """

    def __init__(self, file: str, path: str, detail: str) -> None:
        self.file = file
        self.path = path
        self.detail = detail
        super().__init__(f"{shown(file)}: {shown(path)}: {detail}")

    def __reduce__(self):  # keep the three fields across process boundaries (num_proc)
        return (type(self), (self.file, self.path, self.detail))


class CacheError(HimgaError):
    """A built Arrow cache cannot be used: damaged (cut short, emptied, altered), read-only while
    incomplete, or its disk filled up while it was written. The message names the cache folder and
    what to do (remove the folder to rebuild, build where it is writable, free space).

    Attributes:
        folder: The cache folder concerned (a ``str`` path).
    """

    def __init__(self, folder: object, detail: str) -> None:
        self.folder = str(folder)
        self.detail = detail
        super().__init__(detail)

    def __reduce__(self):
        return (type(self), (self.folder, self.detail))


class SourceChangedError(HimgaError):
    """A source file was rewritten, replaced or deleted while it was being read.

    Its identity (size, ``mtime_ns``, ``ctime_ns``, inode) differed before and after the read; the rows
    read are discarded, nothing is cached. Load again once the file is no longer being written.

    Attributes:
        file: The file's name (not its full path).
    """

    def __init__(self, file: str) -> None:
        self.file = file
        super().__init__(
            f"{shown(file)}: the source changed while it was read (its size, mtime, ctime or inode differ before and "
            "after); nothing was cached: load it again once it is no longer being written"
        )

    def __reduce__(self):
        return (type(self), (self.file,))


class SourceUnreadableError(HimgaError, OSError):
    """A source file or folder exists but cannot be read (no permission, an I/O error): one wording on every
    route, ``locomo: source '/data/u/locomo10.json' is unreadable (Permission denied)``. Also an ``OSError``, so
    ``except OSError`` still catches it.

    Attributes:
        path: The file or folder that could not be read (a ``str``), also ``filename``.
        errno, strerror: Those of the operating system's error (``errno.EACCES``, ``"Permission denied"``).
    """

    def __init__(self, name: str, path: object, strerror: str, errno: int | None = None) -> None:
        super().__init__(errno, strerror)
        self.name, self.path, self.filename = name, str(path), str(path)
        self.detail = f"{name}: source {shown(repr(str(path)))} is unreadable ({strerror})"

    def __str__(self) -> str:
        return self.detail

    def __reduce__(self):
        return (type(self), (self.name, self.path, self.strerror, self.errno))


class ChecksumError(HimgaError):
    """A downloaded or local source file does not have its pinned sha256."""


class DownloadError(HimgaError):
    """A source file could not be fetched (offline, not found, network failure)."""


class UploadError(HimgaError):
    """Pushing to the Hugging Face Hub failed (no token, offline, invalid repository id, network or permission)."""


class ConfigurationError(HimgaError, ValueError):
    """An unknown dataset or config name, or an invalid option value."""


class EndpointError(HimgaError):
    """A model endpoint that cannot be reached or refuses the key: said before any work is queued."""


class DateFormatError(HimgaError, ValueError):
    """A date string in none of the formats :mod:`himga.schema.dates` knows, or an inconsistent one.

    Attributes:
        value: The offending string (or value).
        detail: What is wrong with it.
    """

    def __init__(self, value: object, detail: str) -> None:
        self.value = value
        self.detail = detail
        super().__init__(f"cannot parse date {value!r}: {detail}")

    def __reduce__(self):
        return (type(self), (self.value, self.detail))


class MissingDependencyError(HimgaError, ImportError):
    """An optional dependency (an extra such as ``himga[plot]``) is not installed."""


def type_name(value: object) -> str:
    """The JSON name of a Python value's type, for "expected X, got Y" messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in agreement, as messages and summaries write counts: ``1 question``, ``2 questions``,
    ``1,000 records`` (``plural``: when it is not ``noun + "s"``, e.g. ``counted(2, "query", "queries")``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def value_shown(value: object) -> str:
    """What an "expected X, got Y" message says of a JSON scalar that is not the integer expected: an integer as
    itself (``7``), a boolean, a string or another number with its type (``boolean true``, ``number 2.0``, ``string
    '2'``, cut after 40 characters), anything else by its JSON type name (:func:`type_name`: ``null``, ``array``)."""
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (float, str)):
        text = repr(value)
        return f"{type_name(value)} {text if len(text) <= 40 else text[:39] + '…'}"
    return type_name(value)
