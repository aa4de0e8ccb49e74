"""Regenerate the certificates the project ships in ``counterexamples/certificates/``.

Run ``python -m posreal.counterexamples.shipped`` (about a minute).  What is written:

* ``static_*.json`` — the static form of the flaw on the registry (``alibi``, ``dual:alibi``);
* ``dynamic_*.json`` — the dynamic form on the small integer tables found by
  :func:`posreal.counterexamples.colspan.find_dynamic` (seed 0);
* ``open_tie_designed_log2.json`` — :data:`posreal.counterexamples.designed.LOG2_TIE`;
* ``open_tie_seed1_*.json`` — open ties of the conjecture search (seed 1, all families) listed in
  :data:`SEARCH_ROWS`: won ones, lost ones and one that the non-degenerate closed form leaves open; their
  float evidence is the gradient flow (:mod:`posreal.theory.flow`);
* ``residual_levels_*.json``, ``symmetric_tie_*.json`` (format version 2) — open ties of seed 1's table
  instances decided by the residual levels (a second and a third level, a max-entropy limit) and by a
  symmetry, listed in :data:`LEVEL_ROWS` (:mod:`posreal.counterexamples.residual_certificates`).

Files are replaced (regenerating is the point).  Every file is replayed by ``tests/test_certificates.py``.
"""

from __future__ import annotations

from pathlib import Path

from posreal.counterexamples.certificate_writer import write
from posreal.counterexamples.certify import open_tie_certificate
from posreal.counterexamples.colspan import find_dynamic, find_static
from posreal.counterexamples.designed import LOG2_TIE
from posreal.theory.random_instances import instance

DIRECTORY = Path(__file__).with_name("certificates")
STATIC_CELLS = (("alibi", "position:0"), ("dual:alibi", "offset:0"))
SEARCH_SEED = 1
SEARCH_ROWS: tuple[tuple[int, int], ...] = (   # (index, row): from `posreal search conjecture --seed 1 --budget 4000`
    (614, 3), (1133, 3), (2283, 3), (3079, 3),   # α♯ and the flow: won (counterexamples to the Conjecture)
    (2283, 4), (1286, 4),                        # α♯ and the flow: lost (as α_L says)
    (1509, 3),                                   # α♯ undecided (no strict complementarity); the flow still drifts
)
LEVEL_FAMILIES = ("relative", "column", "general")
LEVEL_ROWS: tuple[tuple[str, int, int], ...] = (   # (kind, index, row) of seed 1's table instances
    ("residual-levels", 174, 3),     # ⟨θ_2, v⟩ < 0: lost, the margin falls like -log log t
    ("residual-levels", 641, 3),     # ⟨θ_2, v⟩ = 0, ⟨θ_3, v⟩ > 0: won like log log log t
    ("residual-levels", 10091, 3),   # a dependent support: the max-entropy limit 2 log((√13 - 1)/6) < 0
    ("symmetric-tie", 878, 3),       # the swap of two coordinates keeps the margin at 0: lost
)
GD_STEPS = 20000   # gradient-descent steps of the dynamic-colspan certificates' float evidence


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text).strip("_")


def regenerate(directory: Path = DIRECTORY) -> list[Path]:
    """Write the shipped certificates into ``directory``; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    static, _ = find_static()
    for cert in static:
        cell = (cert["instance"]["pe"], cert["instance"]["task"])
        if cell in STATIC_CELLS:
            path = directory / f"static_{_slug(cell[0])}_{_slug(cell[1])}.json"
            write(cert, path, force=True)
            written.append(path)
    dynamic, _ = find_dynamic(evidence_steps=GD_STEPS)
    for cert in dynamic:
        inst = cert["instance"]
        path = directory / f"dynamic_{_slug(inst['pe'])}_{_slug(inst['task'])}.json"
        write(cert, path, force=True)
        written.append(path)
    path = directory / "open_tie_designed_log2.json"
    write(open_tie_certificate(LOG2_TIE, name="designed log 2 tie"), path, force=True)
    written.append(path)
    for index, row in SEARCH_ROWS:
        path = directory / f"open_tie_seed{SEARCH_SEED}_{index}_row{row}.json"
        write(open_tie_certificate(instance(SEARCH_SEED, index), row), path, force=True)
        written.append(path)
    written += regenerate_levels(directory)
    return written


def regenerate_levels(directory: Path = DIRECTORY) -> list[Path]:
    """Only the format-version-2 certificates of :data:`LEVEL_ROWS`."""
    from posreal.counterexamples.residual_certificates import levels_certificate, symmetric_certificate
    written = []
    for kind, index, row in LEVEL_ROWS:
        make = levels_certificate if kind == "residual-levels" else symmetric_certificate
        path = directory / f"{_slug(kind)}_seed{SEARCH_SEED}_{index}_row{row}.json"
        write(make(instance(SEARCH_SEED, index, LEVEL_FAMILIES), row), path, force=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for p in regenerate():
        print(p)
