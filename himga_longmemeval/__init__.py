"""The ``himga_longmemeval`` dataset: the LongMemEval builder (:mod:`.longmemeval`) and its dataset card (``README.md``)."""
