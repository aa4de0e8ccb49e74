"""The trained-head experiment (THEORY-experiment.md): does α_L separate the cells that
length-generalize?

Modules, one job each:

* :mod:`checks.empirical.model` — the one-head model (positional-only attention shared by every
  sequence of a length), its loss and hand-written gradients, and a per-sequence reference;
* :mod:`checks.empirical.optim` — Adam in numpy;
* :mod:`checks.empirical.train` — one training recipe, training one model, measuring it at each L;
* :mod:`checks.empirical.grid` — the quick and full grids, stable per-model seeds;
* :mod:`checks.empirical.runner` — JSON-lines records, resume, parallel jobs;
* :mod:`checks.empirical.summary` — the 2×2 table, agreement, disagreements, (64, 128) stability;
* :mod:`checks.empirical.plots` — figures of α_L and measured accuracy against L.
"""
