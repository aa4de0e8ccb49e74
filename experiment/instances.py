"""The positional-loss recipes on the conjecture search's open-tie instances (the committed certificates).

Main definitions (the docs' Experiment page, "Open-tie instances"):

* :func:`open_tie_files` — the committed certificates whose instance is an open tie of the search
  (kinds ``open-tie``, ``residual-levels``, ``symmetric-tie`` in ``counterexamples/certificates``);
* :func:`measure_instance` — one instance (feature table, task, L0, L): α_L, α♯_L with its verdict on every row,
  α_L^(∞), and each positional-loss recipe's attention accuracy at L with its realized rows and convergence
  diagnostics; the gradient-descent recipe is compared with α♯ row by row on the rows α♯ decides.

The tables are registered under their certificate's names for the time of the measurement and unregistered after.
"""

from __future__ import annotations

import json
from pathlib import Path

from posreal.experiment.positional import realized_rows, train_positional
from posreal.experiment.recipes import Recipe
from posreal.theory.alpha import compute_alpha
from posreal.theory.pe_specs import parse_pe
from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.tasks import parse_task

KINDS = ("open-tie", "residual-levels", "symmetric-tie")
CERTIFICATES = Path(__file__).resolve().parent.parent / "counterexamples" / "certificates"


def open_tie_files(directory: Path = CERTIFICATES) -> list[Path]:
    """The committed certificates of open-tie instances, sorted by name."""
    out = []
    for path in sorted(directory.glob("*.json")):
        doc = json.loads(path.read_text())
        if doc.get("kind") in KINDS and "tables" in doc.get("instance", {}):
            out.append(path)
    return out


def measure_instance(path: Path, recipes: tuple[Recipe, ...]) -> dict:
    """α_L, α♯_L, α_L^(∞) and every positional recipe's measurement on the certificate's instance."""
    inst = json.loads(path.read_text())["instance"]
    names = list(inst["tables"])
    for name, table in inst["tables"].items():
        register_pe(name, table["rows"], table["kind"])
    try:
        pe, task = parse_pe(inst["pe"]), parse_task(inst["task"])
        L0, L = int(inst["train_length"]), int(inst["length"])
        plain = compute_alpha(pe, task, L0, [L], limit=True)
        linf = compute_alpha(pe, task, L0, [L], geometry="linf")
        out: dict = {"certificate": path.name, "pe": inst["pe"], "task": inst["task"], "train_length": L0,
                     "length": L, "row": inst.get("row"), "realizable": plain.realizable}
        if not plain.realizable or plain.limits is None:
            return out
        sharp = plain.limits[L]
        rows = task.rows(L)
        verdicts = {int(r): "won" for r, st in zip(plain.outcomes[L].rows, plain.outcomes[L].status) if st == 1}
        verdicts.update({int(r.row): r.verdict.value for r in sharp.rows})
        out.update({"alpha": plain.alpha(L), "alpha_sharp": [float(sharp.low), float(sharp.high)],
                    "alpha_linf": list(linf.alpha_interval.get(L, (0.0, 1.0))), "rows": len(rows),
                    "row_verdicts": {str(k): v for k, v in sorted(verdicts.items())}, "recipes": {}})
        for recipe in recipes:
            recipe = recipe.with_changes(train_length=L0)
            run = train_positional(pe, task, L0, recipe, (L,))
            won = realized_rows(pe, task, run, L, L0)                  # (m,) bool
            realized = [int(r) for r in rows[won]]
            entry = {"attention_accuracy": float(won.mean()) if won.size else 1.0, "realized_rows": realized,
                     "convergence": run.convergence.to_json(), "horizon": run.horizon()}
            decided = {r: v for r, v in verdicts.items() if v != "undecided"}
            entry["against_alpha_sharp"] = {
                "decided_rows": len(decided),
                "disagreeing_rows": sorted(r for r, v in decided.items() if (r in realized) != (v == "won"))}
            out["recipes"][recipe.name] = entry
        return out
    finally:
        for name in names:
            unregister_pe(name)


def measure_instances(recipes: tuple[Recipe, ...], directory: Path = CERTIFICATES) -> list[dict]:
    """Measure every open-tie certificate of ``directory`` under the recipes."""
    return [measure_instance(path, recipes) for path in open_tie_files(directory)]
