"""Put nltk's Punkt model (``punkt_tab``) into a venv's ``nltk_data``: BLEU-1 as the papers compute it tokenizes with
``nltk.word_tokenize``, which needs it (tests/scoring/test_paper_metrics.py).

CI reaches package registries only, and nltk downloads its data from GitHub, so the file comes from a wheel that ships
it unchanged: llama-index-core 0.14.25 holds ``llama_index/core/_static/nltk_cache/tokenizers/punkt_tab.zip``, the
``packages/tokenizers/punkt_tab.zip`` of nltk/nltk_data (4,319,076 bytes, sha256 below: the same digest as the file at
nltk/nltk_data@4f15a3d, as pinned by other projects; checked 2026-12-03). Usage: ``python .ci/install_punkt.py .venv``.
"""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL = "llama-index-core==0.14.25"
MEMBER = "llama_index/core/_static/nltk_cache/tokenizers/punkt_tab.zip"
SHA256 = "e57f64187974277726a3417ca6f181ec5403676c717672eef6a748a7b20e0106"


def main() -> None:
    venv = Path(sys.argv[1]).resolve()
    target = venv / "nltk_data" / "tokenizers"
    if (target / "punkt_tab" / "english").is_dir():
        return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "download", "--quiet", "--no-deps", "--dest", tmp, WHEEL],
            check=True,
        )
        [wheel] = Path(tmp).glob("*.whl")
        data = zipfile.ZipFile(wheel).read(MEMBER)
    if hashlib.sha256(data).hexdigest() != SHA256:
        sys.exit(f"{MEMBER} in {WHEEL}: sha256 {hashlib.sha256(data).hexdigest()}, expected {SHA256}")
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for item in archive.infolist():
            if item.is_dir() or Path(item.filename).is_absolute() or ".." in Path(item.filename).parts:
                continue
            if not item.filename.startswith("punkt_tab/"):
                continue
            path = target / item.filename
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(archive.read(item))


if __name__ == "__main__":
    main()
