"""α_L computed cell by cell (posreal.theory.alpha): train lengths, lengths and modes at their boundaries,
exact row outcomes, the all-lengths sweep against ``compute_alpha`` and the α documents.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory.alpha import alpha_sweep, compute_alpha, row_outcomes
from posreal.theory.arithmetic import MODE_FORMS
from posreal.theory.cell import check_train_length
from posreal.theory.tables import build_table
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.realization import REALIZED
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task

from certificate_edits import message as _message


# -------------------------------------------------------------------------- train lengths, lengths and modes
# Exists because a mutant survived: the lower end of check_train_length was unchecked.
def test_check_train_length_boundary():
    assert check_train_length(1) == 1
    assert check_train_length(np.int64(2)) == 2 and type(check_train_length(np.int64(2))) is int
    for bad in (0, -1, True, 1.0, "1"):
        with pytest.raises(SpecError, match=r"^invalid train length .*; accepted: an integer >= 1$"):
            check_train_length(bad)


# Exists because a mutant survived: exact mode's largest length was not checked on both sides.
def test_exact_mode_length_bound_at_the_boundary():
    from posreal.theory.cell import MAX_EXACT_LENGTH, Cell

    cell = Cell.parse("relbias", "offset:1", 16)
    assert cell.check_lengths([MAX_EXACT_LENGTH], mode="exact") == [MAX_EXACT_LENGTH]
    assert _message(lambda: cell.check_lengths([MAX_EXACT_LENGTH + 1], mode="exact")) == (
        f"invalid length {MAX_EXACT_LENGTH + 1}; accepted: lengths up to {MAX_EXACT_LENGTH} in exact mode "
        "(use float or --certified)")
    assert cell.check_lengths([MAX_EXACT_LENGTH + 1], mode="float") == [MAX_EXACT_LENGTH + 1]


# Exists because a mutant survived: compute_alpha's error for a bad mode could drop the value.
def test_bad_mode_is_named_with_its_value():
    with pytest.raises(SpecError) as err:
        compute_alpha("alibi", "position:0", 2, (2,), mode="bogus")
    assert str(err.value) == "invalid mode 'bogus'; accepted: " + MODE_FORMS


# Exists because a mutant survived: row_outcomes' error for an unknown mode could fail to list the modes.
def test_row_outcomes_refuses_an_unknown_mode_listing_the_modes() -> None:
    """The accepted modes are joined into the message (``", ".join(None)`` would raise a TypeError
    instead of the SpecError)."""
    text = _message(lambda: row_outcomes("relbias", "offset:1", [0.0] * 4, 8, 4, mode="fast"))
    assert text == "invalid mode 'fast'; accepted: float, exact, certified"
    assert MODE_FORMS == "float, exact, certified"


# Exists because a mutant survived: the exact-mode refusal of an irrational PE could drop what is accepted.
def test_exact_mode_for_an_irrational_pe_names_what_is_accepted():
    """--exact on an irrational PE says which PEs are rational and what to use otherwise."""
    from posreal.theory.alpha import compute_alpha
    message = _message(lambda: compute_alpha("rope:4", "position:0", train_length=4, lengths=[8], mode="exact"))
    assert "invalid mode 'exact'" in message
    assert ("accepted: --exact for rational PEs (relbias, colbias, alibi, nope, rational tables, their duals), "
            "--certified otherwise") in message


# Exists because a mutant survived: compute_alpha could ignore the tolerance it is given.
def test_compute_alpha_decides_rows_with_the_given_tolerance():
    """The tolerance given to ``compute_alpha`` is the one its row outcomes use."""
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.realization import DEFAULT_TOL
    tol = 0.25
    assert tol != DEFAULT_TOL
    result = compute_alpha("alibi", "position:0", train_length=4, lengths=[8], tol=tol)
    assert result.outcomes[8].tol == tol


# Exists because a mutant survived: row outcomes could record another tolerance than the one given.
def test_row_outcomes_record_the_tolerance_they_were_given():
    from posreal.theory.alpha import row_outcomes

    pe, task = parse_pe("relbias"), parse_task("offset:1")
    exact = row_outcomes(pe, task, [F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)], 8, 4, mode="exact", tol=1e-7)
    assert exact.tol == 1e-7 and exact.mode == "exact"
    assert row_outcomes(pe, task, [-0.25, 0.75, -0.25, -0.25], 8, 4, tol=1e-7).tol == 1e-7


# --------------------------------------------------------------------------- exact row outcomes
# Exists because a mutant survived: exact row outcomes could lose their targets.
def test_exact_row_outcomes_keep_the_targets():
    """Exact row outcomes record each row's target (position:0: every target is key 0)."""
    from posreal.theory.alpha import row_outcomes
    out = row_outcomes("alibi", "position:0", [F(-1)], 6, 4, mode="exact")
    assert out.targets is not None
    assert list(out.rows) == [0, 1, 2, 3, 4, 5]
    assert list(out.targets) == [0] * 6


# Exists because a mutant survived: exact row outcomes could lose their margins.
def test_exact_row_outcomes_carry_the_exact_margins():
    """alibi ψ(δ) = [-δ] with θ = -1 scores key j of row i by δ = i - j.  position:0 targets key 0 (score i);
    the best rival is key 1 (score i - 1): margin 1 on every row i ≥ 1, and None (+∞) on the one-key row 0."""
    out = row_outcomes("alibi", "position:0", [F(-1)], 4, 4, "exact")
    assert out.margins == [None, F(1), F(1), F(1)]
    assert list(out.status) == [REALIZED] * 4


# Exists because a mutant survived: exact row outcomes could lose their length.
def test_exact_row_outcomes_carry_their_length() -> None:
    """Exact-mode outcomes record the length of R_L (not None)."""
    sel = select("relbias", "offset:1", 4)
    assert sel.exact_theta is not None
    out = row_outcomes("relbias", "offset:1", sel.exact_theta, 8, 4, mode="exact")
    assert (out.length, out.mode) == (8, "exact")
    assert out.status.size == 7                   # offset:1 at L = 8: rows 1..7


# Exists because a mutant survived: exact row outcomes of a float θ were never computed.
def test_exact_row_outcomes_read_a_float_theta_as_its_binary_rational() -> None:
    """In exact mode a float entry of θ is the rational Fraction(x); the outcomes equal those of the same
    θ given as Fractions."""
    from posreal.theory.alpha import row_outcomes

    floats = [-0.25, 0.75, -0.25, 0.1]                         # 0.1 is the binary rational nearest 1/10
    from_floats = row_outcomes("relbias", "offset:1", floats, 12, 4, mode="exact")
    from_fractions = row_outcomes("relbias", "offset:1", [F(x) for x in floats], 12, 4, mode="exact")
    assert list(from_floats.margins) == list(from_fractions.margins)
    assert all(isinstance(m, F) for m in from_floats.margins)
    assert np.array_equal(from_floats.status, from_fractions.status)
    assert from_floats.exact_alpha == from_fractions.exact_alpha


# --------------------------------------------------------------------------- the all-lengths sweep
# Exists because a mutant survived: the sweep's refusal of length-dependent tasks was unchecked.
def test_all_lengths_sweep_refuses_tasks_whose_rows_move_with_the_length():
    with pytest.raises(SpecError) as err:
        alpha_sweep("relbias", "copy", 16)
    assert str(err.value) == ("invalid task 'copy' for the all-lengths sweep; accepted: tasks whose rows do not "
                              "depend on n (offset:c, position:p, half and their duals)")


# Exists because a mutant survived: a float sweep could select θ* in ℚ (select called without exact=).
def test_sweep_selects_in_the_mode_it_is_asked_for() -> None:
    """``select(pe, task, L0)`` without ``exact=`` selects in ℚ for every rational PE, so a float sweep
    would use the exact θ*.  On a table whose float rows misstate the rational ones (2⁵³ + 1 rounds to
    2⁵³: the rows (1, 1), (-1, -1) become (1, 1), (-1, 0)) the two selections disagree, and the sweep must
    agree with compute_alpha mode by mode."""
    big = 2 ** 53
    enc = build_table("rounded", [[0, big], [-1, big - 1], [1, big + 1]], "column")
    as_float = compute_alpha(enc, "position:0", 3, [3], mode="float").to_json()
    as_exact = compute_alpha(enc, "position:0", 3, [3], mode="exact").to_json()
    assert as_float["realizable"] is True and as_exact["realizable"] is False      # the modes disagree here
    sweep = alpha_sweep(enc, "position:0", 3, 3, mode="float")
    assert sweep is not None
    assert sweep.alpha[0] == as_float["alpha"]["3"]
    assert sweep.undecided[0] == as_float["rows"]["3"]["undecided"] == 2
    assert alpha_sweep(enc, "position:0", 3, 3, mode="exact") is None


# Exists because a mutant survived: the exact sweep was not compared with compute_alpha length by length.
def test_exact_sweep_agrees_with_compute_alpha() -> None:
    sweep = alpha_sweep("relbias", "position:0", 8, 64, mode="exact")
    assert sweep is not None
    lengths = [8, 16, 37, 64]
    expected = compute_alpha("relbias", "position:0", 8, lengths, mode="exact").to_json()
    assert expected["mode"] == "exact"
    for L in lengths:
        k = L - 8                                                   # sweep index of length L
        assert sweep.lengths[k] == L
        assert sweep.alpha[k] == expected["alpha"][str(L)]
    # relbias clips offsets at L0 - 1: from row L0 on, the target (offset i) shares a bucket with
    # offset L0 - 1, so only the rows i < L0 are realized
    assert sweep.realized[[8, 56]].tolist() == [8, 8]


# Exists because a mutant survived: an exact sweep could select θ* in float.
def test_exact_sweep_selects_theta_exactly():
    """An exact sweep of a rational cell selects θ* in exact arithmetic (it does not refuse for lack
    of an exact θ*): alibi·position:0 realizes every row (ψ(i, j) = -(i - j) and θ* = -1, so
    the kernel θ*·ψ(i, j) = i - j is largest at key 0, the target)."""
    from posreal.theory.alpha import alpha_sweep
    sweep = alpha_sweep("alibi", "position:0", train_length=4, max_length=16, mode="exact")
    assert sweep is not None
    assert list(sweep.realized) == list(sweep.total)


# Exists because a mutant survived: the exact sweep could decide rows with the selection's float θ.
def test_exact_sweep_uses_the_exact_theta_of_the_selection():
    """alibi·position:0 at L0 = 4: ψ(i, j) = -(i - j) and θ* = -1 (exact), so κ(i, j) = i - j peaks only
    at the target j = 0 on every row i ≥ 1 (row 0 has one key and counts as realized): all L rows of R_L
    are realized.  Given a selection whose float θ is +1 instead (κ peaks at j = i), the exact sweep still
    reads the exact θ*."""
    sel = select("alibi", "position:0", 4, mode="exact")
    assert sel.optimum is not None and sel.exact_theta == [-1]
    skewed = dataclasses.replace(sel, optimum=dataclasses.replace(sel.optimum, theta=np.array([1.0])))
    sweep = alpha_sweep("alibi", "position:0", 4, 8, mode="exact", selection=skewed)
    assert sweep is not None
    assert sweep.lengths.tolist() == [4, 5, 6, 7, 8]
    assert sweep.realized.tolist() == [4, 5, 6, 7, 8]
    assert sweep.total.tolist() == [4, 5, 6, 7, 8]


# Exists because a mutant survived: the sweep's tolerance was never shown to reach the float decisions.
def test_float_sweep_decides_rows_with_its_tolerance():
    """alibi·position:0 at L0 = 4, θ* = -1: κ(i, j) = i - j, so row i ≥ 1 has margin γ_i = 1 (key 0 over key 1)
    and target value κ(i, 0) = i.  With tol = 0.2 a row is realized iff 1 > 0.2·max(1, i), i.e. i ≤ 4; rows
    i ≥ 5 (margin positive but within tolerance) are undecided.  With the default tolerance every row is realized."""
    sweep = alpha_sweep("alibi", "position:0", 4, 8, mode="float", tol=0.2)
    assert sweep is not None
    assert sweep.lengths.tolist() == [4, 5, 6, 7, 8]
    assert sweep.realized.tolist() == [4, 5, 5, 5, 5]
    assert sweep.undecided.tolist() == [0, 0, 1, 2, 3]
    default = alpha_sweep("alibi", "position:0", 4, 8, mode="float")
    assert default is not None and default.realized.tolist() == [4, 5, 6, 7, 8]
    assert _message(lambda: alpha_sweep("alibi", "position:0", 4, 8, tol=-1.0)) == \
        "invalid tolerance -1.0; accepted: a finite number >= 0"


# --------------------------------------------------------------------------- documents and estimates
# Exists because a mutant survived: an undecided cell's JSON could say realizable: false.
def test_undecided_cell_reports_realizable_as_null(monkeypatch: pytest.MonkeyPatch) -> None:
    """When NNLS finds no feasible θ and no Farkas vector is found, the cell is undecided, and its
    JSON says ``realizable: null`` (not false: not realizable is a proved answer)."""
    from posreal.theory import selection
    from posreal.theory.alpha import compute_alpha

    def no_feasible_theta(z: np.ndarray) -> tuple[np.ndarray, float]:
        return np.zeros(z.shape[0]), 0.0

    monkeypatch.setattr(selection, "_nnls_ldp", no_feasible_theta)
    monkeypatch.setattr(selection, "_farkas", lambda z: None)
    result = compute_alpha("relbias", "offset:1", 4, [8], mode="float")
    assert result.selection.undecided and not result.realizable
    doc = result.to_json()
    assert doc["realizable"] is None
    assert doc["alpha"] == {"8": None} and doc["rows"] == {}
    assert doc["selected"]["status"] == "undecided"


# Exists because a mutant survived: the cell's estimate could plan a PE's cell with another kernel's formula.
def test_estimate_cell_picks_the_kernel_of_the_pe():
    from posreal.theory.cell import Cell
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.runtime.resources import cell_estimate
    from posreal.theory.tasks import parse_task

    task = parse_task("offset:1")                  # at L0 = 8: rows 1..7, Σ i = 28 training pairs, 7 distinct
    for spec, kernel, held, what in [("relbias", "profile", 7, "distinct training differences"),
                                     ("rope:4", "profile", 7, "distinct training differences"),
                                     ("abssin:4", "bilinear", 28, "training differences"),
                                     ("dual:abssin:4", "bilinear", 28, "training differences")]:
        pe = parse_pe(spec)
        assert Cell(pe, task, 8).estimate([16, 32], "float") == \
            cell_estimate(f"{pe} · offset:1", pe.dim(8), kernel, held, [16, 32], "float", what,
                          4 if spec == "rope:4" else 1), spec   # rope's structural ties: np.unique's copies
    register_pe("gen2", [[[(i + j) % 2] for j in range(32)] for i in range(32)], kind="general")   # (N, N, p = 1)
    try:
        pe = parse_pe("gen2")
        assert Cell(pe, task, 8).estimate([16, 32], "float") == \
            cell_estimate("gen2 · offset:1", 1, "dense", 28, [16, 32], "float", "training differences")
    finally:
        unregister_pe("gen2")


# -------------------------------------------------------------------------- which arithmetic decided the rows
@pytest.fixture
def face_table():
    """A relative table whose ℓ∞ optimum is a segment: the one constraint θ1 ≥ 1 leaves |θ2| ≤ 1 free."""
    from posreal.theory.tables import register_pe, unregister_pe
    register_pe("segment_face", [[1, 0], [0, 0], [0, 1]], kind="relative")
    yield "segment_face"
    unregister_pe("segment_face")


def test_certified_interval_on_a_larger_face_says_its_rows_were_decided_in_float(face_table):
    """Certified mode cannot certify LP decisions over a face of dimension ≥ 1: it says so, per length."""
    doc = compute_alpha(face_table, "offset:0", 2, [3], "certified", geometry="linf").to_json()
    assert doc["selected"]["face"] == "face" and doc["mode"] == "certified"
    assert doc["decided_in"] == {"3": "float"}
    float_doc = compute_alpha(face_table, "offset:0", 2, [3], "float", geometry="linf").to_json()
    assert "decided_in" not in float_doc                       # control: float mode decides in float, as asked
    assert float_doc["alpha_interval"] == doc["alpha_interval"]


def test_certified_interval_on_a_point_face_is_the_certified_rows_of_theta_q():
    result = compute_alpha("rope:16", "position:0", 16, [32, 64], "certified", geometry="linf")
    assert result.geometry_selection is not None and result.geometry_selection.face.point
    for L in (32, 64):
        rows = result.intervals[L]
        assert rows.certified and rows.decided_in.value == "certified"
        assert np.array_equal(rows.every, result.outcomes[L].status) and np.array_equal(rows.some, rows.every)
    assert "decided_in" not in result.to_json()


def test_exact_mode_without_an_exact_face_reports_float_rows_and_no_exact_alpha():
    """relbias·offset:1 under ℓ∞: the optimal point has no exact certificate of being a point, so the
    interval's rows are LP/float decisions; the mode asked for stays "exact" and ``decided_in`` says float."""
    doc = compute_alpha("relbias", "offset:1", 16, [32], "exact", geometry="linf").to_json()
    assert doc["mode"] == "exact" and doc["decided_in"] == {"32": "float"} and "alpha_exact" not in doc
    exact_doc = compute_alpha("relbias", "position:0", 16, [32], "exact", geometry="linf").to_json()
    assert "decided_in" not in exact_doc and exact_doc["alpha_exact"] == {"32": "1/2"}   # control: decided in ℚ


def test_the_mode_asked_for_is_never_rewritten():
    from posreal.theory.arithmetic import Mode
    for mode in Mode:
        pe = "relbias" if mode is Mode.EXACT else "rope:16"
        assert compute_alpha(pe, "offset:1", 16, [32], mode).mode is mode
