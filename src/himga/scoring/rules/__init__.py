"""The official rules himga computes without a model: LoCoMo's answer F1 (:mod:`.locomo`), which REALTALK reuses."""
