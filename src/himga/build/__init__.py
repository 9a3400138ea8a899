"""Building and caching: the guarded builder base class, the cache manifest and its check, running a
builder with himga's cache key, and the ``datasets.load_dataset`` registration.

:mod:`.guarded` (the builders' base class: a checked, read-only-shareable cache; the one error unwrap),
:mod:`.manifest` (the checksum manifest of a cache folder and ``himga verify``), :mod:`.prepare`
(``make_builder``, ``prepare``, the cache key), :mod:`.progress` (the row progress bar), :mod:`.registration`
(``datasets.load_dataset("himga_locomo")``).
"""
