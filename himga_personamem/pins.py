"""PersonaMem's pinned sources: per split, the questions CSV and the shared contexts JSON Lines file of the authors'
Hugging Face dataset (``bowen-upenn/PersonaMem``, now ``bowen-upenn/PersonaMem-v1``), by name and content.

Imports no builder (and so no ``datasets``): the catalogue entry's pins (``himga sources``) are read from here, and
each builder config returns its own (:meth:`himga_personamem.personamem.PersonamemConfig.remote_file`).
"""

from __future__ import annotations

from himga.sources import RemoteFile, listing_sha256

__all__ = ["CONFIGS", "REPOSITORY", "UNCONFIRMED", "contexts_name", "pins", "questions_name"]

#: The splits, in builder order (the default first): the file names' ``<size>``.
CONFIGS = ("32k", "128k", "1M")
#: The Hub dataset (``bowen-upenn/PersonaMem`` redirects there, as the users of the files below report).
REPOSITORY = "bowen-upenn/PersonaMem-v1"

# The Hub cannot be reached from the machines this was written on: nothing below was confirmed against the Hub itself.
# 32k: revision a8076d56 of bowen-upenn/PersonaMem-v1, the sizes and sha256 below, as independent users of the files
# publish them in their own code and notes (found 2026-12-07 with a search of public code for the revision and the
# sha256: 10 pins of both sha256, 2 of them with this revision and these sizes, 2 at another revision, fd7c30f0, with
# the same sha256). Measured here on ../shared/data/personamem: shared_contexts_32k.jsonl has that size and sha256
# byte for byte; questions_32k.csv has LF line endings where the Hub file has CRLF, and with CRLF restored it has that
# size (1,305,366 bytes = 1,304,777 + 589 line ends) and sha256. The content fingerprints (the CSV's rows as lists of
# cells, header first; the JSON Lines file's records as an array: :mod:`himga.sources._content`) were measured on the
# shared copy, so a copy of either line ending is recognised as the same content. The revision 2d676b2a of the
# `benchmark` config could not be looked up.
# 128k and 1M: no copy here, no size known, no revision confirmed: not downloaded; a local copy is read. The sha256 that
# independent code publishes for the Hub files (128k: questions f0e137c3..., contexts 733cc009..., 2 pins each; 1M:
# questions f24db37c..., 1 pin; 1M contexts: none found) are pinned, so a copy of those bytes says so.
_REVISION = "a8076d5608c93ba2a28983cd78aa99b01a163ae7"
_EVIDENCE = (
    "unconfirmed against the Hub (unreachable here): revision, sizes and sha256 as pinned by independent public code, "
    "searched 2026-12-07; the shared copy's JSONL has that sha256, its CSV with CRLF line endings too"
)
#: Why the 128k and 1M splits have no revision.
UNCONFIRMED = (
    "not yet confirmed: the Hugging Face copy could not be reached from the machines this was written on "
    "(sha256 as independent public code pins them)"
)
#: Split → ((questions size, sha256, content fingerprint), (contexts size, sha256, content fingerprint), contexts).
_FILES: dict[str, tuple[tuple, tuple, int | None]] = {
    "32k": (
        (
            1_305_366,
            "cccd34cf53e0bc4d9536c04cff5ca045156d9a4e227e83327112482840bbc93c",
            "4dd33fcd017b0d74594aab97a9c6656773cc1b684dec67146bb76209708c053a",
        ),
        (
            5_613_210,
            "217247ebfec9e8442fc53570c795ab69f21aad08745f7de78d9beab51b122d4a",
            "298c2cdc36c079dc6403b2c00b7f98c0f8d25615f1fe381fb8f0a66004a2096d",
        ),
        37,
    ),
    "128k": (
        (None, "f0e137c3167fadbffbce5be2786105283c3299972c4ac1f158939155fd1578a7", None),
        (None, "733cc009e84a138b386c9e40adea741565db01074f73af4058fd039b42951726", None),
        None,
    ),
    "1M": (
        (None, "f24db37c1ef49e8f3cc6585da3d7e1638bb9bfb32c95df4de065e4666e448e1f", None),
        (None, None, None),
        None,
    ),
}


def questions_name(config: str) -> str:
    """The questions file of split ``config``: ``questions_32k.csv``."""
    return f"questions_{config}.csv"


def contexts_name(config: str) -> str:
    """The shared contexts file of split ``config``: ``shared_contexts_32k.jsonl``."""
    return f"shared_contexts_{config}.jsonl"


def _part(name: str, size: int | None, sha256: str | None, content: str | None, confirmed: bool) -> RemoteFile:
    revision = _REVISION if confirmed else None
    return RemoteFile(
        name,
        f"https://huggingface.co/datasets/{REPOSITORY}/resolve/{revision or 'main'}/{name}",
        sha256,
        repo_id=REPOSITORY if confirmed else None,
        revision=revision,
        size=size,
        repo=REPOSITORY,
        licence=None,
        evidence=_EVIDENCE if confirmed else UNCONFIRMED,
        content_sha256=content,
        layout_path=name,
    )


def _pin(config: str) -> RemoteFile:
    (q_size, q_sha, q_content), (c_size, c_sha, c_content), contexts = _FILES[config]
    confirmed = None not in (q_size, q_sha, c_size, c_sha)
    parts = (
        _part(questions_name(config), q_size, q_sha, q_content, confirmed),
        _part(contexts_name(config), c_size, c_sha, c_content, confirmed),
    )
    return RemoteFile(
        ".",
        f"https://huggingface.co/datasets/{REPOSITORY}" + (f"/tree/{_REVISION}" if confirmed else ""),
        listing_sha256([{"path": p.local_path, "sha256": p.sha256} for p in parts]) if confirmed else None,
        revision=_REVISION if confirmed else None,
        size=q_size + c_size if confirmed else None,
        path=".",
        repo=REPOSITORY,
        licence=None,
        evidence=_EVIDENCE if confirmed else UNCONFIRMED,
        rows=contexts,
        parts=parts,
    )


def pins() -> dict[str, RemoteFile]:
    """Split → its pin (the questions CSV and the contexts file as ``parts``), in builder order
    (:attr:`himga.entry.Benchmark.pinned`)."""
    return {config: _pin(config) for config in CONFIGS}
