"""A builder config's user options, declared once as fields: ``field(default=..., metadata={"help": ...})``, their
allowed values as the field's ``Literal[...]`` type (like ``ParquetConfig.on_bad_files`` in ``datasets``).

Everything else is derived from those fields: the options a route accepts (:func:`user_options`), the check of
their values (:func:`check_option_values`) and the command line's flags, choices and help (:mod:`himga.cli`).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass

from himga.errors import ConfigurationError

__all__ = ["Option", "check_option_values", "option_specs", "user_options"]


@dataclass(frozen=True)
class Option:
    """One user option of a builder config.

    Attributes:
        name: The keyword (``category_order``); the command line's flag is ``--category-order``.
        choices: The allowed values (the field's ``Literal`` values), or ``None`` for a free value (a path).
        default: The default value.
        help: What it does, for ``--help`` and the card.
        metavar: The command line's placeholder for a free value (``FILE``), or ``None``.
    """

    name: str
    choices: tuple[str, ...] | None
    default: object
    help: str
    metavar: str | None = None


def option_specs(config_class: type) -> tuple[Option, ...]:
    """The user options of ``config_class``: its fields whose metadata has a ``help``, in field order."""
    hints = typing.get_type_hints(config_class)
    out = []
    for f in dataclasses.fields(config_class):
        if "help" not in f.metadata:
            continue
        kind = hints.get(f.name)
        choices = typing.get_args(kind) if typing.get_origin(kind) is typing.Literal else None
        out.append(Option(f.name, choices, f.default, f.metadata["help"], f.metadata.get("metavar")))
    return tuple(out)


def user_options(config_class: type) -> tuple[str, ...]:
    """The names of :func:`option_specs`: the keywords a user may pass (listed in messages)."""
    return tuple(o.name for o in option_specs(config_class))


def check_option_values(config: object) -> None:
    """Refuse a value outside an option's ``Literal`` values.

    Raises:
        ConfigurationError: ``category_order: expected one of ['authors', 'seed'], got 'paper'``.
    """
    for option in option_specs(type(config)):
        value = getattr(config, option.name)
        if option.choices is not None and value not in option.choices:
            raise ConfigurationError(f"{option.name}: expected one of {list(option.choices)}, got {value!r}")
