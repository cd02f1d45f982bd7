"""Dataset audits: leakage checks (:mod:`.checks`), natural-distribution negative sampling
(:mod:`.sampling`), and the audit plans of the built-in datasets (:mod:`.plans`)."""
