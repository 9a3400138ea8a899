"""The registry of judges: every judge by name, registered by the module that defines it.

Like lm-evaluation-harness's ``@register_model``: a judge module calls :func:`register` on its :class:`Judge` when it
is imported. :mod:`himga.scoring.judges` imports the judges himga holds (LongMemEval's and BEAM's official ones, the
published LoCoMo judges); a benchmark folder's own judge (LoCoMo-Plus's) registers when the catalogue imports the
folder. Nothing here imports anything by name.
"""

from __future__ import annotations

from himga.errors import ConfigurationError
from himga.registry import Registry
from himga.scoring.judges._judge import Judge

__all__ = ["JUDGES", "judge_named", "judges", "judges_for", "judges_named", "register"]

#: Every judge by name, in the order registered.
JUDGES: Registry[Judge] = Registry("judge")


def register(judge: Judge) -> Judge:
    """Add ``judge`` to the registry under its name; returns it (so a module may write ``X = register(Judge(...))``).

    Raises:
        ConfigurationError: another judge has that name.
    """
    return JUDGES.register(judge.name, judge)


def judges() -> dict[str, Judge]:
    """Every registered judge by name, in the order registered (a copy)."""
    return JUDGES.all()


def judge_named(name: str) -> Judge:
    """The judge called ``name``.

    Raises:
        ConfigurationError: ``unknown judge 'x': expected one of beam, beam-fixed, evermemos, locomo_plus, longmemeval,
            magma, mem0, memos, zep``.
    """
    return JUDGES.named(name)


def judges_for(dataset: str) -> list[Judge]:
    """The registered judges that apply to ``dataset``, in registry order."""
    return [j for j in JUDGES.all().values() if j.applies_to(dataset)]


def judges_named(spec: str, dataset: str) -> list[Judge]:
    """The judges ``--judge a,b`` names, each applying to ``dataset``, in the order named.

    Raises:
        ConfigurationError: an unknown name, a name given twice, a judge of another benchmark.
    """
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(set(names)) != len(names):
        raise ConfigurationError(f"--judge {spec}: a judge named twice")
    found = [judge_named(n) for n in names]
    for judge in found:
        if not judge.applies_to(dataset):
            raise ConfigurationError(f"judge {judge.name!r} applies to {', '.join(judge.benchmarks)}, not {dataset}")
    return found
