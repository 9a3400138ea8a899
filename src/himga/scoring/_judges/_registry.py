"""The registry: the built-in judges and every catalogue entry's own, by name."""

from __future__ import annotations

from himga.errors import ConfigurationError
from himga.scoring._judges._evermemos import EVERMEMOS
from himga.scoring._judges._magma import MAGMA
from himga.scoring._judges._mem0 import MEM0
from himga.scoring._judges._memos import MEMOS
from himga.scoring._judges._type import Judge
from himga.scoring._judges._zep import ZEP

__all__ = ["BUILT_IN", "judge_named", "judges", "judges_for"]

#: The judges himga holds itself, besides the benchmarks' own (``Benchmark.judges``); LongMemEval's and BEAM's are
#: added by :func:`judges` (they live with those benchmarks' official rules, :mod:`himga.scoring._longmemeval` and
#: :mod:`himga.scoring._beam_judges`).
BUILT_IN: tuple[Judge, ...] = (MEM0, ZEP, MEMOS, EVERMEMOS, MAGMA)


def judges() -> dict[str, Judge]:
    """Every registered judge by name: LongMemEval's, BEAM's two, the built-in LoCoMo judges, then each catalogue
    entry's own.

    Raises:
        ConfigurationError: two judges share a name.
    """
    from himga.entry import entry_named, entry_names
    from himga.scoring._beam_judges import BEAM_JUDGES
    from himga.scoring._longmemeval import LONGMEMEVAL_JUDGE

    found = [LONGMEMEVAL_JUDGE, *BEAM_JUDGES, *BUILT_IN]
    for name in entry_names():
        found += list(entry_named(name).judges)
    out: dict[str, Judge] = {}
    for judge in found:
        if judge.name in out and out[judge.name] is not judge:
            raise ConfigurationError(f"two judges are called {judge.name!r}")
        out[judge.name] = judge
    return out


def judge_named(name: str) -> Judge:
    """The judge called ``name``.

    Raises:
        ConfigurationError: ``unknown judge 'x': expected one of beam, beam-fixed, evermemos, locomo_plus, longmemeval, magma, mem0, memos, zep``.
    """
    registry = judges()
    if name not in registry:
        raise ConfigurationError(f"unknown judge {name!r}: expected one of {', '.join(sorted(registry))}")
    return registry[name]


def judges_for(dataset: str) -> list[Judge]:
    """The registered judges that apply to ``dataset``, in registry order."""
    return [j for j in judges().values() if j.applies_to(dataset)]
