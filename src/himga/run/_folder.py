"""A run folder: ``manifest.json`` (what makes two runs comparable), ``records.jsonl`` (one line per answered
question, appended and flushed to disk as each answer arrives), ``samples.jsonl`` (one line per ingested sample).

A rerun into the folder continues: the questions with a record are not asked again. A rerun whose manifest differs
in a field that changes the number (:data:`COMPARED`) is refused, naming the field. A folder that holds anything else
than a run is refused.
"""

from __future__ import annotations

import json
import os
import queue
import threading
from pathlib import Path

from himga.errors import ConfigurationError, SourceFormatError
from himga.run._outputs import write_text

__all__ = ["COMPARED", "MANIFEST", "RECORDS", "SAMPLES", "RunFolder"]

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
SAMPLES = "samples.jsonl"
_OURS = {MANIFEST, RECORDS, SAMPLES, "judge_requests.jsonl"}

#: The manifest fields that change the number: a rerun that differs in one is refused.
COMPARED = (
    "dataset",
    "config",
    "options",
    "sources",
    "gold",
    "subset",
    "selection",
    "shard",
    "memory",
    "top_k",
    "answer_prompt",
    "answer_model",
    "answer_parameters",
)


class RunFolder:
    """The folder of one run (or one shard of it).

    Raises (on construction):
        ConfigurationError: ``path`` is a file, or a folder holding other files than a run's.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise ConfigurationError(
                f"--out {str(self.path)!r} is a file: a run writes a folder (manifest.json, "
                "records.jsonl); name a folder"
            )
        if self.path.is_dir():
            others = sorted(p.name for p in self.path.iterdir() if p.name not in _OURS and not p.name.startswith("."))
            if others:
                raise ConfigurationError(
                    f"--out {str(self.path)!r} holds other files than a run's ({', '.join(others[:5])}"
                    f"{', ...' if len(others) > 5 else ''}): name an empty or a new folder"
                )
            if (self.path / RECORDS).exists() and not (self.path / MANIFEST).is_file():
                raise ConfigurationError(
                    f"--out {str(self.path)!r} holds records without a manifest: not a run "
                    "folder himga can continue; name another folder"
                )
        self._lock = threading.Lock()
        self._queue: queue.Queue | None = None

    # --- the manifest ---------------------------------------------------------------------------------------------

    def manifest(self) -> dict | None:
        """The manifest written, or ``None`` for a new run.

        Raises:
            SourceFormatError: a manifest that is not a JSON object.
        """
        path = self.path / MANIFEST
        if not path.is_file():
            return None
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise SourceFormatError(str(path), "$", f"not a run manifest ({e})") from None
        if not isinstance(value, dict):
            raise SourceFormatError(str(path), "$", "not a run manifest (expected an object)")
        return value

    def resume(self, manifest: dict, selected) -> set[str]:
        """The view question ids this folder's records answer, once it is checked that they continue the run
        ``manifest`` describes over the questions ``selected`` (read once; nothing is written).

        Raises:
            ConfigurationError: the folder's run differs from ``manifest`` in a field of :data:`COMPARED` (``--out
                runs/bm25 holds a run whose top_k differs: 10 there, 5 now; ...``; while nothing is answered the
                settings may change); records answer questions ``selected`` does not hold (copied from another run).
            SourceFormatError: :meth:`records`' damage.
        """
        records = self.records()
        answered = {r["view_question_id"] for r in records}
        if records:
            self._check_same(manifest)
        if foreign := answered - set(selected):
            named = sorted(
                r.get("question_id", r["view_question_id"]) for r in records if r["view_question_id"] in foreign
            )
            raise ConfigurationError(
                f"--out {str(self.path)!r}: {len(foreign)} records answer questions this run does not ask "
                f"({', '.join(named[:3])}{', ...' if len(named) > 3 else ''}): records of another run were copied in; "
                "move the folder aside and run into a new --out"
            )
        return answered

    def _check_same(self, manifest: dict) -> None:
        old = self.manifest()
        if old is None:
            return
        for name in COMPARED:
            if old.get(name) != manifest.get(name):
                verb = "differ" if name.endswith("s") else "differs"
                there, now = _brief(old.get(name)), _brief(manifest.get(name))
                if there == now:  # the names agree, the rest does not (an edited manifest): show it whole
                    there, now = _brief(old.get(name), whole=True), _brief(manifest.get(name), whole=True)
                raise ConfigurationError(
                    f"--out {str(self.path)!r} holds a run whose {name} {verb}: {there} there, {now} now; rerun with "
                    "the same settings to continue it, or name another folder"
                )

    def write_manifest(self, manifest: dict) -> None:
        """Write ``manifest.json`` whole or not at all."""
        self.path.mkdir(parents=True, exist_ok=True)
        write_text(self.path / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")

    # --- the records ----------------------------------------------------------------------------------------------

    def records(self) -> list[dict]:
        """Every record written; a last line a killed process cut (no newline yet) is left out, and overwritten by the
        next.

        Raises:
            SourceFormatError: a complete line that is no record of a run (not JSON, not an object, no
                ``view_question_id``), or a second record of a question: ``records.jsonl: line 11: ...``; the folder
                was edited or holds another file.
        """
        path = self.path / RECORDS
        if not path.is_file():
            return []
        *lines, _tail = path.read_bytes().split(b"\n")  # the tail: "" after a last newline, else the cut line
        out, seen = [], {}
        for n, line in enumerate(lines, 1):
            try:
                value = json.loads(line)
            except (ValueError, UnicodeDecodeError) as e:
                raise SourceFormatError(
                    str(path), f"line {n}", f"not a record of a run ({_reason(e)}); {_DAMAGED}"
                ) from None
            if not isinstance(value, dict) or not isinstance(value.get("view_question_id"), str):
                detail = f"not a record of a run (no view_question_id); {_DAMAGED}"
                raise SourceFormatError(str(path), f"line {n}", detail)
            if (first := seen.setdefault(value["view_question_id"], n)) != n:
                detail = (
                    f"answers {value.get('question_id', value['view_question_id'])} again (line {first}); {_DAMAGED}"
                )
                raise SourceFormatError(str(path), f"line {n}", detail)
            out.append(value)
        return out

    def start_appending(self) -> None:
        """Cut a last line a killed process left unfinished, so that the next record starts on a line of its own."""
        path = self.path / RECORDS
        if not path.is_file():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(path, "r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)

    def append(self, name: str, record: dict) -> None:
        """Append one line to ``name``: written, flushed and ``fsync``'d by the folder's writer thread, which commits
        the lines of every thread that arrived meanwhile at once (one ``fsync`` a batch, not a line); a kill loses no
        line written, only those still queued, at most the questions in flight. Without :meth:`open_writer`, the line
        is written and ``fsync``'d before returning."""
        try:
            line = (json.dumps(record, ensure_ascii=False) + "\n").encode()
        except UnicodeEncodeError:  # a lone surrogate (a memory's text, a model's reply): escaped, read back the same
            line = (json.dumps(record) + "\n").encode()
        if self._queue is not None:
            self._queue.put((name, line))
            return
        with self._lock, open(self.path / name, "ab") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def open_writer(self) -> None:
        """Start the writer thread that :meth:`append` hands its lines to (:meth:`close_writer` ends it)."""
        self._queue = queue.Queue()
        self._writer = threading.Thread(target=self._write_batches, name="himga-records", daemon=True)
        self._writer.start()

    def close_writer(self) -> None:
        """Write what is queued, ``fsync`` it, and end the writer thread."""
        if self._queue is None:
            return
        self._queue.put(None)
        self._writer.join()
        self._queue = None

    def _write_batches(self) -> None:
        files: dict[str, object] = {}
        try:
            while True:
                batch = [self._queue.get()]
                while True:  # every line queued meanwhile joins this commit
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                for item in batch:
                    if item is not None:
                        name, line = item
                        if name not in files:
                            files[name] = open(self.path / name, "ab")
                        files[name].write(line)
                for f in files.values():
                    f.flush()
                    os.fsync(f.fileno())
                if None in batch:
                    return
        finally:
            for f in files.values():
                f.close()


_DAMAGED = "the run folder was edited or damaged: move it aside and run into a new --out"


def _reason(error: Exception) -> str:
    return "not UTF-8" if isinstance(error, UnicodeDecodeError) else f"invalid JSON: {error}"


def _brief(value, *, whole: bool = False) -> str:
    """``value`` as JSON, at most 120 characters (300 ``whole``); a memory or an answer prompt by its name (and
    arguments) unless ``whole``."""
    named = isinstance(value, dict) and isinstance(value.get("name"), str)
    if named and not whole:
        value = value["name"] if not value.get("args") else {"name": value["name"], "args": value["args"]}
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    limit = 300 if whole else 120
    return text if len(text) <= limit else text[: limit - 3] + "..."
