"""REALTALK's pinned source: the ten conversations ``data/Chat_<n>_<A>_<B>.json`` of danny911kr/REALTALK at a commit.

Imports no builder (and so no ``datasets``): the catalogue entry's pins (``himga sources``) are read from here, and
the builder's config returns the same object (:meth:`himga_realtalk.realtalk.RealtalkConfig.remote_file`).
"""

from __future__ import annotations

from himga.sources import RemoteFile, listing_sha256

__all__ = ["PINS", "RELEASE", "pins"]

# danny911kr/REALTALK `data/Chat_<n>_<A>_<B>.json` at b903e06 ("feat: data analysis", the main branch's head).
# Confirmed 2026-12-03 in a snapshot of github.com/danny911kr/REALTALK: each file's size and sha256 from
# `git show b903e06:data/<file>` (the files last changed in 8ed04b9, 2025-02-19), byte-identical to
# ../shared/data/realtalk (its SHA256SUMS); content fingerprints measured on them. No licence file, none in the README.
_REPO = "danny911kr/REALTALK"
_REVISION = "b903e06a9770bf4e5fe9018c3e132889666d3b4a"
_EVIDENCE = "revision, size and sha256 confirmed 2026-12-03 in a snapshot of github.com/danny911kr/REALTALK"
#: (file, size, sha256, content fingerprint), in chat order.
_FILES = (
    (
        "Chat_1_Emi_Elise.json",
        236990,
        "4e947998a751a1ba2c3710fc873b90fbcbc234fda7a5e4e75db2b762e0f25a36",
        "631f0773b261cd9262006e10e47419d52b0b2eb783c1973d387e553901840aa3",
    ),
    (
        "Chat_2_Kevin_Elise.json",
        228327,
        "4ac6e319c206731aa9a025c93325eb1edb43686cf39473f058c87ae7deb2d62a",
        "e34a427e57d495073c279bef75e73101cfa36c895e0db1706bcf4eeffc3a401c",
    ),
    (
        "Chat_3_Kevin_Paola.json",
        231570,
        "10c9208016538cbe7a28aafa6cfd72587b072677964c36ec242159fdf58961f2",
        "b93f981ec3d622839630a84f91a0bd9d2f5de7433fc1ca4b9b9942006f8160d3",
    ),
    (
        "Chat_4_Emi_Paola.json",
        232501,
        "80aa012ed6a918f5b317bd942b4d4811a158d27a6e07b7a5c6182994107a9367",
        "d7b08788ba4cd38ff09d965549ff90fca88844155554b97bea822c387e1f96b6",
    ),
    (
        "Chat_5_Nicolas_Nebraas.json",
        466832,
        "32dd7c45786b1a26861dc1574a1bb698a855196fd2ae3fc0c091f3c9ab2d6d06",
        "4e24d2a0f079a20513df1c6364a4a8b6a57694cd5376978c1097f0f35914fc71",
    ),
    (
        "Chat_6_Vanessa_Nicolas.json",
        467008,
        "9d5ee072ab5a0667ef71d5644d7cd3a4c6777a1e6e2252bf306f310d982e40ac",
        "f74e80a0ada0e42a8cbf9a4cf0f320ef83b75cd34029a9d3526eff12d0674000",
    ),
    (
        "Chat_7_Nebraas_Vanessa.json",
        383849,
        "b5716bb093217980e747dec0d98996829b569febc09587a025efc6b79806e9ce",
        "678681e400f9cc9ba32e381fa2a0b3688ca3a586c42d35ff2094a9d9c5d8d25a",
    ),
    (
        "Chat_8_Akib_Muhhamed.json",
        364402,
        "814f64ad7e8a46f0398f550fe84184e2ba495a292290b9ff96ffc95448280800",
        "5b0d125110feb780697343e9c4436817f3d6cc7c7eeb8c70200611c57db6b0d4",
    ),
    (
        "Chat_9_Fahim_Akib.json",
        400397,
        "05b9b4331bf0e25a2a64dc89c404622c83a61ab5e7c935fb7d844449caf6dd39",
        "5aaa117b0c4e2870486364cadbdec7cfa7f6cc851461b3e5492ec1da3401abb8",
    ),
    (
        "Chat_10_Fahim_Muhhamed.json",
        283618,
        "26135a9e3482f40bea4c71de570a2d994a361848111067e60587be1dd82a0127",
        "2bb210fc0e112471b984d5f485bed98537917bff3beab57e7298e0af3162c706",
    ),
)
#: The ten pinned files, the parts of :data:`RELEASE`.
PINS = tuple(
    RemoteFile(
        name,
        f"https://raw.githubusercontent.com/{_REPO}/{_REVISION}/data/{name}",
        sha256,
        revision=_REVISION,
        size=size,
        path=f"data/{name}",
        repo=_REPO,
        rows=1,
        licence=None,
        evidence=_EVIDENCE,
        content_sha256=content,
        layout_path=f"data/{name}",
    )
    for name, size, sha256, content in _FILES
)
#: The pinned source: the folder ``data/`` of the ten conversations (sha256 of their listing: ``find data -maxdepth 1
#: -name '*.json' | LC_ALL=C sort | xargs sha256sum | sha256sum`` in a checkout at :data:`_REVISION`), found in the
#: repository's layout (``<folder>/data/Chat_1_Emi_Elise.json``: a checkout is one) or downloaded file by file
#: (:func:`himga.sources.pinned_files`). No licence is stated upstream (``licence`` is ``None``, as BEAM's).
RELEASE = RemoteFile(
    "data",
    f"https://github.com/{_REPO}/tree/{_REVISION}/data",
    listing_sha256([{"path": p.path, "sha256": p.sha256} for p in PINS]),
    revision=_REVISION,
    size=sum(p.size for p in PINS),
    path="data",
    repo=_REPO,
    rows=len(PINS),
    licence=None,
    evidence=_EVIDENCE,
    parts=PINS,
)


def pins() -> dict[str, RemoteFile]:
    """Config name → its pinned source: ``{"default": RELEASE}`` (:attr:`himga.entry.Benchmark.pinned`)."""
    return {"default": RELEASE}
