"""The ``himga_locomo`` dataset: the LoCoMo builder (:mod:`.locomo`) and its dataset card (``README.md``)."""
