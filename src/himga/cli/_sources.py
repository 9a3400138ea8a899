"""``himga sources``: every pinned source file, its local copies, and whether the remote still serves it.

The pins are the builder configs' :meth:`remote_file` (collected by
:meth:`himga.catalog.Benchmark.pins`). ``--check`` asks the remote without downloading the data:
Hub files through ``huggingface_hub.get_hf_file_metadata`` (for LFS files the ETag is the sha256 and
the size comes with it), GitHub raw files with an HTTP ``HEAD`` request (status and size; GitHub sends
no sha256, the download verifies it).
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from dataclasses import dataclass

from himga.catalog import NAMES, benchmark
from himga.sources import RemoteFile, cache_root, datasets_root, file_sha256, provenance

__all__ = ["Check", "all_pins", "check_pin", "check_pins", "describe_pins", "local_copy"]


def all_pins(names: list[str] | None = None) -> list[tuple[str, str, RemoteFile]]:
    """``(dataset, config, pin)`` for every config of each dataset in ``names`` (default: all), then
    ``(folder, label, pin)`` for the other files its builder reads (:meth:`~himga.catalog.Benchmark.auxiliary_pins`:
    ``("locomo-audit", "errata", ...)``), each once (LoCoMo and LoCoMo-Plus read the same errata)."""
    names = names or list(NAMES)
    return [(name, config, pin) for name in names for config, pin in benchmark(name).pins().items()] + list(
        dict.fromkeys(pin for name in names for pin in benchmark(name).auxiliary_pins())
    )


def local_copy(name: str, pin: RemoteFile) -> str:
    """Where a copy of ``pin`` already is: ``"verified copy at ..."``, ``"... differs ..."`` or ``"none ..."``.

    A copy under ``$HIMGA_DATASETS_ROOT/<name>/`` is hashed (once per process); one in ``$HIMGA_CACHE``
    was verified when it was downloaded (it is moved into place only after its sha256 matched).
    """
    if pin.parts:
        return _local_copies(name, pin)
    if pin.revision is None:  # nothing pinned to download (BEAM 1M, 10M)
        return f"no pinned revision to download: a copy is read with --data-dir, or from $HIMGA_DATASETS_ROOT/{name}/"
    root = datasets_root()
    if root is not None:
        folder = root / name
        nested = [folder / pin.filename] if "/" in pin.filename else []  # the audit's ap-baseline/v1/... files
        for path in nested + (sorted(folder.iterdir()) if folder.is_dir() else []):
            if path.is_file() and (
                pin.accepts_name(path.name) or path in nested
            ):  # the names the builders read it under
                if pin.sha256 is not None and path.stat().st_size == pin.size and file_sha256(path) == pin.sha256:
                    return f"verified copy at {path}"
                return (
                    f"{folder}/{provenance(path, [pin])}"  # says how it differs (hashes only a file of the pinned size)
                )
        return f"none under $HIMGA_DATASETS_ROOT/{name}/ (it is set, so nothing is downloaded)"
    path = cache_root() / name / pin.filename
    if path.is_file():
        return f"verified copy at {path}" if pin.sha256 else f"copy at {path} (no sha256 pinned to verify it)"
    return "none (downloaded into $HIMGA_CACHE on first use)"


def _local_copies(name: str, pin: RemoteFile) -> str:
    """:func:`local_copy` of a pin of several files: how many are there, verified (or which first differs)."""
    root = datasets_root()
    folder = (root if root is not None else cache_root()) / name
    present = [part for part in pin.parts if (folder / part.local_path).is_file()]
    where = f"{folder / pin.filename}/"  # a pin of the top folder ("."): the folder itself
    if not present:
        if pin.revision is None:  # nothing pinned to download (PersonaMem 128k, 1M)
            return "none: no pinned revision to download; a copy is read with --data-dir, or from " + (
                f"$HIMGA_DATASETS_ROOT/{name}/"
            )
        return (
            f"none under $HIMGA_DATASETS_ROOT/{name}/ (it is set, so nothing is downloaded)"
            if root is not None
            else "none (downloaded into $HIMGA_CACHE on first use)"
        )
    if root is None:  # the download cache: each file was verified when it was downloaded
        return f"{len(present)} of {len(pin.parts)} files, verified, at {where}"
    for part in present:
        path = folder / part.local_path
        if path.stat().st_size != part.size or file_sha256(path) != part.sha256:
            return f"{len(present)} of {len(pin.parts)} files at {where}; {provenance(path, [part])}"
    return f"{len(present)} of {len(pin.parts)} files, verified, at {where}"


def describe_pins(names: list[str] | None = None) -> str:
    """The text of ``himga sources``: one block per dataset/config (URL, revision, size, sha256, licence, local
    copy)."""
    blocks = []
    for name, config, pin in all_pins(names):
        blocks.append(
            "\n".join(
                [
                    f"{name}/{config}: {pin.filename}"
                    + (f"/ ({len(pin.parts)} files; sha256: of their sha256sum listing)" if pin.parts else ""),
                    f"  url       {pin.url}",
                    f"  revision  {pin.revision or 'unknown'}",
                    f"  size      {f'{pin.size:,} bytes' if pin.size is not None else 'unknown'}",
                    f"  sha256    {pin.sha256 or 'unknown'}",
                    f"  licence   {pin.licence or 'unknown'}",
                    f"  evidence  {pin.evidence or 'unconfirmed'}",
                    f"  local     {local_copy(name, pin)}",
                ]
            )
        )
    return "\n\n".join(blocks)


@dataclass(frozen=True)
class Check:
    """The answer of the remote about one pin.

    Attributes:
        status: ``"ok"``, ``"missing"`` (HTTP 404 or another error status), ``"differs"`` (size or
            sha256), ``"unreachable"`` (no answer: offline, DNS, timeout) or ``"unpinned"`` (no revision is pinned
            yet, nothing to ask: BEAM 1M and 10M).
        detail: The rest of the line, e.g. ``"2,805,274 bytes (HTTP 200)"``.
    """

    status: str
    detail: str

    @property
    def ok(self) -> bool:
        return self.status in ("ok", "unpinned")


def _compare(pin: RemoteFile, size: int | None, sha256: str | None) -> Check:
    if pin.size is not None and size is not None and size != pin.size:
        return Check("differs", f"size differs: pinned {pin.size:,} bytes, remote {size:,} bytes")
    if pin.sha256 is not None and sha256 is not None and sha256 != pin.sha256:
        return Check("differs", f"sha256 differs: pinned {pin.sha256}, remote {sha256}")
    sizes = f"{size:,} bytes" if size is not None else "size not sent"
    if pin.sha256 is None and sha256 is not None:
        return Check("ok", f"{sizes}; no sha256 pinned: remote sha256 {sha256} (pin it)")
    if pin.sha256 is None or sha256 is None:
        return Check(
            "ok", f"{sizes}; sha256 {'not sent by the remote, checked on download' if pin.sha256 else 'unknown'}"
        )
    return Check("ok", f"{sizes}, sha256 matches")


def check_pin(pin: RemoteFile, *, timeout: float = 10) -> Check:
    """Ask the remote whether ``pin`` still resolves, without downloading it.

    Hub files (``pin.repo_id``): ``huggingface_hub.get_hf_file_metadata`` at the pinned revision (honours
    ``HF_ENDPOINT``); the ETag of an LFS file is its sha256. Other URLs: an HTTP ``HEAD`` request.

    Returns:
        A :class:`Check`; never raises for network or HTTP errors.
    """
    if pin.repo_id is not None:
        from huggingface_hub import get_hf_file_metadata, hf_hub_url
        from huggingface_hub.errors import HfHubHTTPError

        url = hf_hub_url(
            pin.repo_id,
            pin.filename,
            repo_type="dataset",
            revision=pin.revision,
            endpoint=os.environ.get("HF_ENDPOINT"),
        )
        try:
            meta = get_hf_file_metadata(url, timeout=timeout)
        except HfHubHTTPError as e:
            status = getattr(e.response, "status_code", None)
            return Check("missing", f"HTTP {status} for {url}" if status else f"{type(e).__name__}: {e}")
        except Exception as e:
            return Check("unreachable", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        etag = meta.etag if meta.etag and len(meta.etag) == 64 else None  # LFS files: the sha256
        return _compare(pin, meta.size, etag)
    request = urllib.request.Request(pin.url, method="HEAD", headers={"Accept-Encoding": "identity"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            check = _compare(pin, int(length) if length and length.isdigit() else None, None)
            return Check(check.status, f"{check.detail} (HTTP {response.status})")
    except urllib.error.HTTPError as e:
        return Check("missing", f"HTTP {e.code} for {pin.url}")
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        return Check("unreachable", f"{type(reason).__name__}: {reason}")


def _check_all(pin: RemoteFile) -> Check:
    """:func:`check_pin`, or for a pin of several files each of them: the first that is not ok, else one ok line."""
    if pin.revision is None:
        return Check("unpinned", "no revision pinned (not yet confirmed): nothing to check")
    if not pin.parts:
        return check_pin(pin)
    for part in pin.parts:
        if not (check := check_pin(part)).ok:
            return Check(check.status, f"{part.local_path}: {check.detail}")
    return Check("ok", f"{len(pin.parts)} files, {pin.size:,} bytes in all (sizes match; sha256 checked on download)")


def check_pins(names: list[str] | None = None) -> tuple[list[str], bool]:
    """The lines of ``himga sources --check`` and whether every pin is ok.

    One line per file, ``<dataset>/<config> <file>: <status>: <detail>``; offline (any switch of
    :func:`himga.sources._offline.offline_switch`, or no remote answers at all) a single line saying so.
    """
    from himga.sources import offline_switch

    if switch := offline_switch():
        return [f"offline: {switch} is set; no pin was checked (unset it to check)"], False
    pins = all_pins(names)
    checks = [_check_all(pin) for _name, _config, pin in pins]
    if (asked := [c for c in checks if c.status != "unpinned"]) and all(c.status == "unreachable" for c in asked):
        return [f"offline: no remote answered ({asked[0].detail}); no pin was checked"], False
    lines = [
        f"{name}/{config} {pin.filename}: {check.status}: {check.detail}"
        for (name, config, pin), check in zip(pins, checks)
    ]
    return lines, all(c.ok for c in checks)
