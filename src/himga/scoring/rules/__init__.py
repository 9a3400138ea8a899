"""The official rules himga computes without a model: LoCoMo's answer F1 (:mod:`._locomo`), which REALTALK reuses, and
PersonaMem's letter rule (:mod:`._personamem`)."""
