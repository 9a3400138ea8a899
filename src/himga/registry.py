"""A registry of named things, filled by the modules that define them (like lm-evaluation-harness's
``@register_model``): judges, answer prompts, reference memories, scorers. Nothing is imported by its name; a name
is looked up among what was registered."""

from __future__ import annotations

from typing import Generic, TypeVar

from himga.errors import ConfigurationError

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Names → things, in the order registered.

    Args:
        what: What a thing is, for messages (``"judge"``, ``"answer prompt"``).
        sort: List the names sorted in messages (else in the order registered).
        hint: Said after the names when a name is unknown (where the others register).
    """

    def __init__(self, what: str, *, sort: bool = True, hint: str = ""):
        self.what, self.sort, self.hint = what, sort, hint
        self._items: dict[str, T] = {}

    def register(self, name: str, item: T) -> T:
        """Add ``item`` under ``name``; returns it (registering the same object again is harmless).

        Raises:
            ConfigurationError: another thing has that name.
        """
        if self._items.setdefault(name, item) is not item:
            raise ConfigurationError(f"two {self.what}s are called {name!r}")
        return item

    def named(self, name: str) -> T:
        """The thing called ``name``.

        Raises:
            ConfigurationError: ``unknown judge 'x': expected one of beam, mem0, ...`` (with :attr:`hint`).
        """
        if name not in self._items:
            names = sorted(self._items) if self.sort else list(self._items)
            listed = ", ".join(names) or "none registered"
            raise ConfigurationError(f"unknown {self.what} {name!r}: expected one of {listed}{self.hint}")
        return self._items[name]

    def get(self, name: str) -> T | None:
        """The thing called ``name``, else ``None``."""
        return self._items.get(name)

    def all(self) -> dict[str, T]:
        """Every thing by name, in the order registered (a copy)."""
        return dict(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items
