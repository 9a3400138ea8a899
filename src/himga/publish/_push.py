"""Push an export to the Hub: the card and the Parquet files of the selected configs, never ``.py``.

The folder is checked first (:func:`~himga.publish._read_export.checked_export`: it holds the named
dataset's data, every shard says so), before any network call; without a folder, :func:`himga.publish._export.export`
writes one into a temporary folder first. :func:`push_plan` does all of that but the upload (``himga push
--dry-run``): no token is read, nothing is sent.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Sequence
from pathlib import Path

from himga.errors import UploadError, redacted
from himga.publish._card import data_files_pattern
from himga.publish._export import export
from himga.publish._read_export import checked_export

__all__ = ["push", "push_plan"]

logger = logging.getLogger("himga.publish")


def _upload_files(folder: Path, selected: list[str]) -> tuple[list[str], list[tuple[str, int]]]:
    """``(patterns, [(path, bytes)])``: the patterns ``upload_folder`` is given (which it also deletes stale files by)
    and the files of ``folder`` they select, as ``huggingface_hub`` selects them."""
    from huggingface_hub.utils import filter_repo_objects

    patterns = [data_files_pattern(c) for c in selected]
    local = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    chosen = filter_repo_objects(local, allow_patterns=["README.md", *patterns])
    return patterns, [(path, (folder / path).stat().st_size) for path in chosen]


def push_plan(
    name: str,
    repo_id: str,
    *,
    export_dir: str | Path | None = None,
    configs: Sequence[str] | None = None,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
) -> dict:
    """What :func:`push` would upload, found as it finds it (the repository id checked, the export made or read, its
    card and every shard checked), without a token or any network call: ``himga push --dry-run``.

    Returns:
        ``{"repo_id", "configs", "files": [(path, bytes)], "replaced": [pattern]}``: the files uploaded, and the
        patterns whose other files on the Hub would be deleted (the pushed configs' stale shards).

    Raises:
        ConfigurationError: as :func:`push` (unknown dataset or config, nothing to upload, another dataset's export).
        UploadError: an invalid ``repo_id``.
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as e:
        raise UploadError(f"--repo-id {repo_id!r}: expected ORG/NAME ({e})") from None
    with tempfile.TemporaryDirectory(prefix="himga-export-") as tmp:
        if export_dir is None:
            export(name, tmp, configs, data_dir=data_dir, cache_dir=cache_dir)
        folder = Path(tmp if export_dir is None else export_dir)
        selected = checked_export(name, folder, configs)
        patterns, files = _upload_files(folder, selected)
    return {"repo_id": repo_id, "configs": selected, "files": files, "replaced": patterns}


def push(
    name: str,
    repo_id: str,
    *,
    export_dir: str | Path | None = None,
    configs: Sequence[str] | None = None,
    private: bool = False,
    revision: str | None = None,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
) -> str:
    """Upload an export (card and Parquet files, never ``.py``) to the Hub dataset repository ``repo_id``.

    The token is whatever ``huggingface_hub`` finds (``HF_TOKEN``, else the stored ``hf auth login``);
    himga never reads, prints or logs it.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        repo_id: ``"ORG/NAME"``; created (as a dataset repository) if it does not exist.
        export_dir: An existing export folder to upload; default: export into a temporary folder first.
        configs: Configs to upload (default: all of the export's, or all of the builder's when exporting).
            The Parquet files of exactly these configs are replaced on the Hub (stale shards deleted);
            other configs' files are left alone.
        private: Create the repository as private.
        revision: A branch to push to (created from ``main`` if missing); default ``main``.
        data_dir: Sources for :func:`export` (used only when ``export_dir`` is not given).
        cache_dir: The ``datasets`` cache folder for :func:`export`.

    Returns:
        The URL of the commit.

    Raises:
        ConfigurationError: unknown dataset or config, nothing to upload, or a folder that is not an
            export of ``name`` (see :func:`checked_export`; checked before any network call).
        UploadError: no token, offline (any switch of :func:`himga.sources._offline.offline_switch`), an invalid
            ``repo_id``, or the Hub refused or could not be reached; checked before anything is exported where possible.
    """
    from huggingface_hub import HfApi, get_token
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    from himga.sources import offline_switch

    try:
        validate_repo_id(repo_id)
    except HFValidationError as e:
        raise UploadError(f"--repo-id {repo_id!r}: expected ORG/NAME ({e})") from None

    if switch := offline_switch():
        raise UploadError(f"cannot push to {repo_id}: {switch} is set")
    if get_token() is None:
        raise UploadError(f"cannot push to {repo_id}: no Hugging Face token; set HF_TOKEN or run `hf auth login`")
    if export_dir is not None:
        selected = checked_export(name, export_dir, configs)  # a wrong folder fails before any network call

    with tempfile.TemporaryDirectory(prefix="himga-export-") as tmp:
        if export_dir is None:
            export(name, tmp, configs, data_dir=data_dir, cache_dir=cache_dir)
            selected = checked_export(name, tmp, configs)
        folder = Path(tmp if export_dir is None else export_dir)
        patterns = [data_files_pattern(c) for c in selected]
        api = HfApi()
        try:
            api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
            if revision is not None:
                api.create_branch(repo_id, repo_type="dataset", branch=revision, exist_ok=True)
            commit = api.upload_folder(
                repo_id=repo_id,
                repo_type="dataset",
                folder_path=str(folder),
                revision=revision,
                allow_patterns=["README.md", *patterns],
                delete_patterns=patterns,
                commit_message=f"himga: {name} ({', '.join(selected)})",
            )
        except Exception as e:  # HTTP errors, connection failures, permissions: the first line of the Hub's message
            first = next((line.strip() for line in str(e).splitlines() if line.strip()), "")
            # without the token an endpoint may echo, on one line, and not chained: the cause's text holds it all
            raise UploadError(redacted(f"cannot push to {repo_id}: {type(e).__name__}: {first[:300]}")) from None
    logger.info("pushed %s (%s) to %s", name, ", ".join(selected), repo_id)
    return str(getattr(commit, "commit_url", commit))
