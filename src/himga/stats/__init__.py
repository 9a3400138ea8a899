"""Describing a built dataset: :mod:`.summary` (``himga stats``: samples, sessions, turns and QA pairs by question type)
and :mod:`.plot` (``himga stats --plot``, with the optional matplotlib)."""
