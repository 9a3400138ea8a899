"""What ``--memory`` / ``--memory-arg`` name: a reference memory, a user's ``module:Class``, a class or a factory,
resolved to a factory and the description the manifest records."""

from __future__ import annotations

import json
import os
import pkgutil
import sys
from collections.abc import Callable, Mapping
from typing import Any

from himga.errors import ConfigurationError, redacted_argument

__all__ = ["parse_memory_args", "resolve_memory"]


def parse_memory_args(pairs: list[str] | None) -> dict[str, Any]:
    """``["budget=4000", "unit=turn"]`` (``--memory-arg K=V``) as ``{"budget": 4000, "unit": "turn"}``: a value that
    reads as JSON (a number, ``true``, a list) is that, any other is the string.

    Raises:
        ConfigurationError: an item without ``=``, or a key given twice.
    """
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigurationError(f"--memory-arg {pair!r}: expected KEY=VALUE")
        if key.strip() in out:
            raise ConfigurationError(f"--memory-arg {key.strip()}: given twice")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out


def resolve_memory(memory: Any, args: Mapping[str, Any] | None = None) -> tuple[Callable[[], Any], dict]:
    """``(factory, description)`` of what ``--memory`` / ``memory=`` names: a reference memory's name, an importable
    ``module:Class``, a memory class, or a factory (``() -> memory``).

    Raises:
        ConfigurationError: a name that is neither; a class that is no memory (no ``reset``, ``ingest``,
            ``retrieve``); arguments the class refuses; a factory that returns no memory.
    """
    from himga.memory import is_memory, reference_memories

    args = dict(args or {})
    label = memory if isinstance(memory, str) else None
    if isinstance(memory, str):
        references = reference_memories()
        if memory in references:
            memory = references[memory]
        elif ":" in memory:
            module, _, name = memory.partition(":")
            if not module.strip() or not name.strip():
                raise ConfigurationError(f"--memory {memory!r}: expected module:Class, both named (mymem:MyMemory)")
            memory = _import_class(label)
            if not isinstance(memory, type):
                raise ConfigurationError(
                    f"--memory {label}: {getattr(memory, '__qualname__', label)} is no memory: "
                    "expected a class (himga.memory.BaseMemory, or reset, ingest and retrieve)"
                )
        else:
            raise ConfigurationError(
                f"--memory {label}: expected a reference memory ({', '.join(references)}) or module:Class of your own"
            )
    if isinstance(memory, type):
        if not is_memory(memory):
            raise ConfigurationError(
                f"--memory {label or memory.__qualname__}: {memory.__qualname__} is no memory: "
                "expected himga.memory.BaseMemory or a class with reset, ingest and retrieve"
            )
        cls = memory

        def factory():
            return cls(**args)
    elif callable(memory):
        if args:
            raise ConfigurationError("memory arguments go with a memory class or name, not with a factory")
        factory = memory
    else:
        raise ConfigurationError(f"memory: expected a name, a class or a factory, got {type(memory).__name__}")
    try:
        probe = factory()
    except Exception as e:  # the user's constructor: its arguments, or whatever it raises
        hint = (
            " (give arguments with --memory-arg NAME=VALUE)"
            if isinstance(e, TypeError) and "argument" in str(e)
            else ""
        )
        raise ConfigurationError(
            f"--memory {label or getattr(memory, '__qualname__', memory)}: "
            f"{'' if isinstance(e, TypeError) else type(e).__name__ + ': '}{e}{hint}"
        ) from None
    if not all(callable(getattr(probe, m, None)) for m in ("reset", "ingest", "retrieve")):
        raise ConfigurationError(f"memory factory returned {type(probe).__name__}, no memory (reset, ingest, retrieve)")
    described = probe.describe() if callable(getattr(probe, "describe", None)) else {}
    name = label or described.get("name") or f"{type(probe).__module__}:{type(probe).__qualname__}"
    info = {
        "name": name,
        "args": {k: redacted_argument(k, v) for k, v in args.items()},
        "version": described.get("version"),
        "reads_gold": bool(described.get("reads_gold", getattr(probe, "reads_gold", False))),
        **{k: v for k, v in described.items() if k not in ("name", "version", "reads_gold")},  # a tokenizer, a budget
    }
    return factory, info


def _import_class(label: str):
    """The object ``module:Name`` names, the current folder first on the import path (as ``python -m`` has it), so
    that ``--memory mymem:MyMemory`` finds ``./mymem.py``.

    Raises:
        ConfigurationError: the module cannot be imported (not found, a syntax error, an error while importing).
    """
    added = "" not in sys.path and os.getcwd() not in sys.path
    if added:
        sys.path.insert(0, os.getcwd())
    try:
        return pkgutil.resolve_name(label)
    except Exception as e:  # ImportError, SyntaxError, or whatever the user's module raises on import
        where = f" (line {e.lineno} of {e.filename})" if isinstance(e, SyntaxError) and e.lineno else ""
        raise ConfigurationError(
            f"--memory {label}: cannot import it ({type(e).__name__}: {e}{where}); the module must be importable "
            "from the current folder or installed"
        ) from None
    finally:
        if added:
            sys.path.remove(os.getcwd())
