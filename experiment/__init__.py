"""The trained-head experiment.

Does α_L separate the cells that length-generalize, and does each optimizer follow its own geometry's witness?  (The
docs' Experiment page.)

Modules, one job each:

* :mod:`posreal.experiment.model` — the one-head model (positional-only attention shared by every
  sequence of a length), its loss and hand-written gradients, and a per-sequence reference;
* :mod:`posreal.experiment.recipes` — the recipes ``adam``, ``signum``, ``gd``, fixed up front;
* :mod:`posreal.experiment.optim` — Adam, Signum and normalized gradient descent in numpy;
* :mod:`posreal.experiment.train` — the one-by-one reference trainer and the measurement at each L;
* :mod:`posreal.experiment.batched` — the batched trainer (a leading model axis) and its memory model;
* :mod:`posreal.experiment.grid` — the quick and full grids, stable per-model seeds;
* :mod:`posreal.experiment.runner` — batches as the unit of work, JSON-lines records, resume,
  parallel jobs, run provenance;
* :mod:`posreal.experiment.predictions` — α_L^(q) and θ*_q of every geometry, at summary time;
* :mod:`posreal.experiment.summary` — per recipe and witness: the 2×2 table, agreement,
  disagreements, cosines, (64, 128) stability;
* :mod:`posreal.experiment.plots` — figures of α_L and measured accuracy against L.
"""

if __name__ != "posreal.experiment":   # the subpackage posreal.experiment (posreal/experiment -> ../experiment)
    raise ImportError(f"import posreal.experiment, not {__name__}: the repository's top-level folders are "
                      "subpackages of posreal, never packages of their own")
