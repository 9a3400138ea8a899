"""The judge-leniency probe of the LoCoMo audit: answers written to be wrong, as a built-in predictions set.

dial481/locomo-audit ``ap-baseline/``: for each of the 1,540 questions of categories 1-4, an answer a frontier
model wrote to be wrong knowing the gold, in two strategies, with three recorded verdicts each of the EverMemOS
judge (gpt-4o-mini, temperature 0). A judge that accepts such an answer false-accepts: the accepted share is its
false-accept rate (``himga score locomo --probe v2 --judge NAME``). The files are pinned like the errata
(:data:`himga_locomo.gold.ERRATA_PIN`) and found in the same ``locomo-audit/`` folder.
"""

from __future__ import annotations

from himga.sources import RemoteFile
from himga_locomo.gold import ERRATA_FOLDER

__all__ = ["PROBES", "PROBE_FOLDER", "PROBE_PINS"]

#: The folder the probe files are found in (the audit's, beside ``errors.json``).
PROBE_FOLDER = ERRATA_FOLDER

#: Probe set → what its wrong answers are (the audit's ``ap-baseline/README.md``).
PROBES = {
    "v1": "specific but wrong: every core fact shifted to a plausible alternative (the audit: 10.61% accepted)",
    "v2": "vague but on topic: no falsifiable detail (the audit: 62.81% accepted)",
}

_REVISION = "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539"
# Confirmed 2026-12-03 in a snapshot of github.com/dial481/locomo-audit at 9493fb4 (main's head): the blobs'
# sizes and sha256 equal ../shared/data/locomo-audit/ap-baseline.SHA256SUMS; LICENSE at 9493fb4 is CC BY-NC 4.0.
PROBE_PINS = {
    version: RemoteFile(
        f"ap-baseline/{version}/ap_eval_results_scored.json",
        f"https://raw.githubusercontent.com/dial481/locomo-audit/{_REVISION}/ap-baseline/{version}/ap_eval_results_scored.json",
        sha256,
        revision=_REVISION,
        size=size,
        repo="dial481/locomo-audit",
        licence="cc-by-nc-4.0",
        evidence="revision, size and sha256 confirmed 2026-12-03 in a snapshot of github.com/dial481/locomo-audit",
    )
    for version, sha256, size in (
        ("v1", "a83882eda3ff02fd04dace6edddd0ceed533a245fedb3069ffde02a9503c4e3a", 656_280),
        ("v2", "3c32acbdcf667967a4e1f9f541b06566ae5e7361dc92f79f9043af7d068adc6b", 645_227),
    )
}
