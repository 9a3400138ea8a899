"""The leniency probe of ``himga score --probe``: the pinned file of the audit's wrong answers, and the false-accept
rates a probe report carries into a run's report (``--probe-report``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from himga.errors import ConfigurationError, SourceFormatError

__all__ = ["attach_leniency", "leniency_lines", "probe_file"]


def probe_file(entry, args: argparse.Namespace) -> tuple[Path, dict]:
    """The pinned probe file of ``--probe`` and its identity for the report."""
    from himga.sources import get_dataset, sha256_of

    folder, pin = entry.auxiliary_pin(f"probe-{args.probe}")
    path = get_dataset(folder, files=[pin]) / pin.filename
    if not path.is_file():
        raise ConfigurationError(
            f"{args.dataset}: {path} does not exist; put {pin.repo}'s {pin.filename} there ({pin.url})"
        )
    digest = sha256_of(path)
    return path, {
        "set": args.probe,
        "file": pin.filename,
        "sha256": digest,
        "is_pin": digest == pin.sha256,
        "pin": f"{pin.origin} {pin.filename}",
    }


def attach_leniency(paths: list[str], reports: list[dict]) -> None:
    """Attach the false-accept rates of probe reports to the reports of the same judge (name and template sha256)."""
    from himga.jsonio.reader import load_json
    from himga.sources import sha256_of

    for path in paths:
        probe = load_json(path)
        runs = probe.get("reports") if isinstance(probe, dict) and "reports" in probe else [probe]
        if not all(
            isinstance(r, dict) and isinstance(r.get("probe"), dict) and isinstance(r.get("judge"), dict) for r in runs
        ):
            raise SourceFormatError(
                Path(path).name, "$", "expected the --out report of himga score --probe ... --judge ..."
            )
        for report in reports:
            for r in runs:
                if (r["judge"]["name"], r["judge"]["template_sha256"]) == (
                    report["judge"]["name"],
                    report["judge"]["template_sha256"],
                ):
                    report.setdefault("false_accept", []).append(
                        {
                            "probe": r["probe"]["set"],
                            "report": Path(path).name,
                            "sha256": sha256_of(path),
                            "model_requested": r["judge"]["model_requested"],
                            "models_answered": r["judge"]["models_answered"],
                            "overall": r["overall"],
                            "per_type": {row["type"]: row for row in r["per_type"]},
                        }
                    )
        if not any(r["judge"]["name"] == rep["judge"]["name"] for r in runs for rep in reports):
            raise ConfigurationError(
                f"--probe-report {Path(path).name}: a probe of judge "
                f"{', '.join(r['judge']['name'] for r in runs)}, not of "
                f"{', '.join(x['judge']['name'] for x in reports)}"
            )


def leniency_lines(reports: list[dict]) -> list[str]:
    """One line per probe rate :func:`attach_leniency` attached: ``false-accept: judge evermemos (gpt-4o-mini) accepts
    0.6281 [0.6043, 0.6520] of the probe v2 wrong answers (probe.json): ...``."""
    lines = []
    for report in reports:
        for fa in report.get("false_accept", []):
            o = fa["overall"]
            ci = f" [{o['ci95'][0]:.4f}, {o['ci95'][1]:.4f}]" if o.get("ci95") else ""
            models = ", ".join(fa["models_answered"]) or fa["model_requested"]
            per = ", ".join(
                f"{t} {row['mean']:.4f}" for t, row in fa["per_type"].items() if row.get("mean") is not None
            )
            lines.append(
                f"false-accept: judge {report['judge']['name']} ({models}) accepts {o['mean']:.4f}{ci} of the "
                f"probe {fa['probe']} wrong answers ({fa['report']}): {per}"
            )
    return lines
