"""Tests of the per-recipe summary against witnesses (posreal.experiment.summary,
posreal.experiment.predictions): interval witnesses predict only when both ends agree, the
measurements whose ends differ are counted as not agreeing and listed, cosines are taken with
the witness's θ, the provenance sums the runs that trained, and ℓ2 witnesses reproduce the
records' α."""

from __future__ import annotations

import numpy as np
import pytest

from posreal.experiment.summary import cosine, not_learned, provenance, summarize_recipe, prediction_table
from posreal.experiment.predictions import Prediction, compute_predictions


def _rec(task: str, length: int, acc: float, seed: int = 0, theta: tuple = (1.0, 0.0), train_acc: float = 1.0) -> dict:
    return {"pe": "pe", "task": task, "vocab": 8, "width": 16, "seed": seed, "length": length, "train_length": 16,
            "realizable": True, "alpha": None, "token_accuracy": acc, "attention_accuracy": acc,
            "train_token_accuracy": train_acc, "theta": list(theta), "theta_norm": 1.0,
            "recipe": {"name": "r", "threshold": 0.95}, "seconds": 0.0}


def _prediction(alpha: dict, theta: tuple = (1.0, 0.0)) -> Prediction:
    return Prediction("linf", "pe", "t", True, alpha, np.array(theta))


def test_interval_prediction_counts_only_agreeing_ends():
    w = {("pe", "a"): _prediction({32: (1.0, 1.0), 64: (0.5, 1.0), 128: (0.2, 0.4)}),
         ("pe", "b"): _prediction({32: (0.9, 0.9), 64: (1.0, 1.0), 128: (0.0, 1.0)}, theta=(0.0, 1.0))}
    records = [_rec("a", 32, 1.0), _rec("a", 64, 1.0), _rec("a", 128, 0.1),       # agree, differ, agree
               _rec("b", 32, 1.0), _rec("b", 64, 0.2), _rec("b", 128, 0.3)]       # disagree, disagree, differ
    t = prediction_table(records, w, 0.95)
    assert t["table"] == {"alpha_one": {"generalizes": 1, "fails": 1},
                          "alpha_below_one": {"generalizes": 1, "fails": 1}}
    assert t["total"] == 6 and t["agreeing"] == 2 and t["agreement_rate"] == pytest.approx(2 / 6)
    assert t["ends_differ"]["measurements"] == 2 and t["ends_differ"]["generalizes"] == 1
    assert [(c["task"], c["length"], c["alpha"]) for c in t["ends_differ"]["cells"]] == [
        ("a", 64, [0.5, 1.0]), ("b", 128, [0.0, 1.0])]
    assert {(c["task"], c["length"], c["kind"]) for c in t["disagreeing_cells"]} == {
        ("b", 32, "alpha_below_one_generalizes"), ("b", 64, "alpha_one_fails")}
    # cosines: model of cell a has θ = (1, 0) = θ*; model of cell b has θ ⟂ θ*
    assert t["cosine"]["models"] == 2 and t["cosine"]["min"] == pytest.approx(0.0)
    assert t["cosine"]["cells"][0]["mean"] == pytest.approx(1.0)


def test_a_point_prediction_is_the_plain_two_by_two():
    """Negative control of the interval rule: with lo = hi nothing is set apart."""
    w = {("pe", "a"): _prediction({32: (1.0, 1.0), 64: (0.5, 0.5)})}
    t = prediction_table([_rec("a", 32, 0.99), _rec("a", 64, 0.99)], w, 0.95)
    assert t["ends_differ"]["measurements"] == 0 and t["agreeing"] == 1 and t["total"] == 2


def test_cosine_and_not_learned():
    assert cosine([1.0, 1.0], np.array([2.0, 0.0])) == pytest.approx(2 ** -0.5)
    assert cosine([0.0, 0.0], np.array([1.0, 0.0])) is None
    nl = not_learned([_rec("a", 32, 1.0, seed=0, train_acc=0.5), _rec("a", 64, 1.0, seed=0, train_acc=0.5),
                      _rec("a", 32, 1.0, seed=1)], 0.95)
    assert (nl["models"], nl["of"]) == (1, 2)


def test_unavailable_geometry_is_reported_not_guessed():
    w = {("pe", "a"): Prediction("l2", "pe", "a", True, {32: (1.0, 1.0)}, np.array([1.0, 0.0]))}
    s = summarize_recipe([_rec("a", 32, 1.0)], {"l2": w, "linf": "no module"}, 0.95)
    assert s["agreement"] == {"l2": 1.0, "linf": None} and s["unavailable_witnesses"] == {"linf": "no module"}


def test_provenance_sums_the_runs_that_trained():
    runs = [{"models_trained": 10, "wall_seconds": 30.0, "jobs": 2, "peak_rss_mib": {"parent": 100.0,
             "largest_child": 200.0}, "load_average": {"start": [1, 1, 1], "end": [2, 2, 2]}},
            {"models_trained": 0, "wall_seconds": 1.0, "jobs": 1}]
    p = provenance(runs)
    assert p["models_trained"] == 10 and p["wall_seconds"] == 30.0 and p["models_per_minute"] == 20.0
    assert p["peak_rss_mib"]["bound"] == 500.0


def test_l2_prediction_is_the_records_alpha():
    lengths = [32, 64]
    w = compute_predictions(["abscol:16", "relbias"], ["position:0", "offset:1"], 16, lengths)["l2"]
    assert not isinstance(w, str)
    assert w[("abscol:16", "position:0")].alpha[64] == (0.578125, 0.578125)
    assert w[("relbias", "offset:1")].alpha[32] == (1.0, 1.0)
    assert w[("relbias", "offset:1")].theta is not None


def test_linf_prediction_holds_where_the_l2_one_does_not():
    """abscol:16 · position:0 at L0 = 16: α^(2) = 0.578 / 0.289 at L = 64 / 128, while every ℓ∞
    optimum realizes every row there (a value found outside the project with an independent LP)."""
    w = compute_predictions(["abscol:16"], ["position:0"], 16, [64, 128])
    linf = w["linf"]
    assert not isinstance(linf, str)
    assert linf[("abscol:16", "position:0")].alpha == {64: (1.0, 1.0), 128: (1.0, 1.0)}
    assert w["l2"][("abscol:16", "position:0")].alpha[128] == (0.2890625, 0.2890625)
    assert linf[("abscol:16", "position:0")].theta is not None


# --------------------------------------------------------------------------- under length extensions
def _ext(rec: dict, method: str, token: float, attention: float) -> dict:
    rec.setdefault("extensions", {})[method] = {"token_accuracy": token, "attention_accuracy": attention,
                                                "generalizes": token >= 0.95}
    return rec


def test_extension_summary_replaces_the_measurement_and_keeps_the_attention_verdict():
    from posreal.experiment.summary import extension_records, extension_summary
    plain = [_ext(_rec("a", 32, 1.0), "pi", 0.5, 1.0),             # α^pi = 1: token fails, attention holds
             _ext(_rec("a", 64, 1.0), "pi", 0.2, 0.1),             # α^pi < 1: both fail — agree
             _rec("b", 32, 1.0)]                                    # no measurement under pi (a PE it refuses)
    projected = extension_records(plain, "pi")
    assert [(r["task"], r["length"], r["token_accuracy"], r["attention_accuracy"]) for r in projected] == [
        ("a", 32, 0.5, 1.0), ("a", 64, 0.2, 0.1)]
    assert plain[0]["token_accuracy"] == 1.0                       # the record itself is not changed
    w = {("pe", "a"): Prediction("l2", "pe", "a", True, {32: (1.0, 1.0), 64: (0.03, 0.03)}, np.array([1.0, 0.0]))}
    s = extension_summary(plain, "pi", {"l2": w, "linf": "no module"}, 0.95)
    table = s["witnesses"]["l2"]
    assert s["measurements"] == 2 and table["total"] == 2 and table["agreeing"] == 1
    assert table["table"] == {"alpha_one": {"generalizes": 0, "fails": 1},
                              "alpha_below_one": {"generalizes": 0, "fails": 1}}
    assert table["attention_verdict"]["agreement_rate"] == 1.0     # by attention both agree
    assert s["agreement"] == {"l2": 0.5, "linf": None} and "cosine" not in table
    cell = next(c for c in s["cells"] if c["length"] == 32)
    assert cell["token_accuracy"]["mean"] == 0.5 and cell["token_accuracy_without_extension"]["mean"] == 1.0


def test_summarize_recipe_has_one_entry_per_extension():
    w = {("pe", "a"): Prediction("l2", "pe", "a", True, {32: (1.0, 1.0)}, np.array([1.0, 0.0]))}
    recs = [_ext(_rec("a", 32, 1.0), "ntk", 0.99, 1.0)]
    s = summarize_recipe(recs, {"l2": w}, 0.95, {"ntk": {"l2": w}})
    assert list(s["extensions"]) == ["ntk"] and s["extensions"]["ntk"]["agreement"] == {"l2": 1.0}
    assert summarize_recipe(recs, {"l2": w}, 0.95)["extensions"] == {}


def test_extension_predictions_skip_the_pes_a_method_refuses():
    from posreal.experiment.predictions import compute_extension_predictions
    out = compute_extension_predictions(["relbias", "alibi"], ["position:0"], 16, [32], ["pi", "ntk"])
    assert set(out["pi"]["l2"]) == {("alibi", "position:0")} and out["ntk"]["l2"] == {}
    assert out["pi"]["l2"][("alibi", "position:0")].alpha[32] == (1.0, 1.0)
