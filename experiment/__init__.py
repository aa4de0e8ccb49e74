"""The trained-head experiment (THEORY-experiment.md): does α_L separate the cells that
length-generalize?

Modules, one job each:

* :mod:`posreal.experiment.model` — the one-head model (positional-only attention shared by every
  sequence of a length), its loss and hand-written gradients, and a per-sequence reference;
* :mod:`posreal.experiment.optim` — Adam in numpy;
* :mod:`posreal.experiment.train` — one training recipe, training one model, measuring it at each L;
* :mod:`posreal.experiment.grid` — the quick and full grids, stable per-model seeds;
* :mod:`posreal.experiment.runner` — JSON-lines records, resume, parallel jobs;
* :mod:`posreal.experiment.summary` — the 2×2 table, agreement, disagreements, (64, 128) stability;
* :mod:`posreal.experiment.plots` — figures of α_L and measured accuracy against L.
"""
