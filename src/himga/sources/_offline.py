"""Whether himga may use the network: one decision for every download, pin check and push.

``huggingface_hub`` and ``datasets`` each honour their own offline switches, read from the environment
once, at their import (``huggingface_hub/constants.py``: ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE``;
``datasets/config.py``: ``HF_DATASETS_OFFLINE``, else the hub's value). himga is offline when any of them
is on, whether set in the environment now or in the libraries' copies (set by code, or at import), so
that no switch a user knows from either library leads to name look-ups and retries.
"""

from __future__ import annotations

import os
import sys

__all__ = ["OFFLINE_SWITCHES", "offline_switch"]

#: The environment variables that switch ``huggingface_hub`` or ``datasets`` offline, in the order named.
OFFLINE_SWITCHES = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE")

# The values both libraries read as "on" (``ENV_VARS_TRUE_VALUES``, compared upper-cased).
_TRUE = {"1", "ON", "YES", "TRUE"}


def offline_switch() -> str | None:
    """The name of the offline switch that is on, or ``None`` when himga may use the network.

    Checks each of :data:`OFFLINE_SWITCHES` in the environment (``1``/``true``/``yes``/``on``, any case),
    then the copies the libraries made if they are imported: ``huggingface_hub.constants.HF_HUB_OFFLINE``
    and ``datasets.config.HF_HUB_OFFLINE`` / ``HF_DATASETS_OFFLINE``.

    Returns:
        E.g. ``"HF_DATASETS_OFFLINE"``: the name to show in a message (``"<file>: ... and
        HF_DATASETS_OFFLINE is set"``).
    """
    for name in OFFLINE_SWITCHES:
        if os.environ.get(name, "").strip().upper() in _TRUE:
            return name
    hub = sys.modules.get("huggingface_hub.constants")
    if hub is not None and getattr(hub, "HF_HUB_OFFLINE", False):
        return "HF_HUB_OFFLINE"
    config = sys.modules.get("datasets.config")
    if config is not None and (
        getattr(config, "HF_HUB_OFFLINE", False) or getattr(config, "HF_DATASETS_OFFLINE", False)
    ):
        return "HF_DATASETS_OFFLINE"
    return None
