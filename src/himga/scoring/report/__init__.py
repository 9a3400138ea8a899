"""The report of a scored run: the official table (:mod:`.official`) and the named judges' side by side
(:mod:`.judged`), their cells formatted by one rule (:mod:`.cells`)."""
