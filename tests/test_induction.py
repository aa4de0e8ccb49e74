"""α_L^ind of the induction circuit (E3): against an independent dense two-layer simulation on hidden cells,
the implication α(offset:1) = 1 ⟹ α^ind = 1, row-by-row failures, the three arithmetic modes, one-line errors."""

import json
import random

import numpy as np
import pytest

from posreal.cli import main
from posreal.theory.alpha import compute_alpha
from posreal.theory.defaults import TAXONOMY_PES
from posreal.theory.errors import SpecError
from posreal.theory.extension import parse_extension
from posreal.theory.arithmetic import Mode
from posreal.theory.induction import Condition, LayerOneRoutes, Route, circuit_rows, induction_alpha
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED
from posreal.theory.token_tasks import BOS, induction_layout
from posreal.theory.transfer_operator import naive_kernel_matrix


def independent_alpha(pe, ext, train_length, length):
    """From scratch: θ* of offset:1, the dense kernel of the transferred PE, each row's maximizer, and layer 2 run on a
    token sequence of the layout.  None when a row has a near-tie (float cannot decide it)."""
    sel = compute_alpha(pe, "offset:1", train_length, [length], extension=ext).selection
    pe_l = parse_extension(ext).at_length(sel.pe, length, train_length)
    dense = naive_kernel_matrix(pe_l, sel.theta, length, train_length)         # (L, L)
    route = []
    for j in range(length):
        row = dense[j, : j + 1]
        order = np.sort(row)[::-1]
        if j and order[0] - order[1] <= 1e-9 * max(1.0, abs(order[0])):
            return None
        route.append(int(np.argmax(row)))
    m = (length - 1) // 2
    x = [BOS] + [10 + k for k in range(m)] * 2                                 # distinct first half, repeated
    hits = 0
    for i in range(m + 1, 2 * m):
        scores = [int(x[i] == x[route[j]]) for j in range(i + 1)]
        best = [j for j, s in enumerate(scores) if s == max(scores)]
        hits += best == [i - m + 1]
    return hits / (m - 1)


def test_hidden_cells_match_an_independent_simulation(capsys):
    rng = random.Random(2026)
    pes = ["rope:16", "rope:8", "rope:32", "xpos:16", "abssin:16", "fire", "relbias", "t5", "dual:colbias"]
    checked = 0
    for _ in range(10):
        pe = rng.choice(pes)
        ext = rng.choice(["none", "pi", "ntk", "yarn"]) if pe.split(":")[0] in ("rope", "xpos", "abssin") else "none"
        train = rng.choice([8, 12, 16])
        L = 2 * rng.randint(train // 2, 40) + 1
        code = main(["alpha", "--pe", pe, "--task", "induction", "--extension", ext, "--train-length", str(train),
                     "--lengths", str(L), "--json"])
        doc = json.loads(capsys.readouterr().out)
        assert code == 0
        if doc["realizable"] is not True:
            continue
        expected = independent_alpha(pe, ext, train, L)
        if expected is None:
            assert doc["rows"][str(L)]["undecided"] >= 0
            continue
        assert doc["alpha"][str(L)] == pytest.approx(expected, abs=0), (pe, ext, train, L)
        checked += 1
    assert checked >= 5


def test_alpha_one_implies_alpha_ind_one_on_registry_pes():
    seen = 0
    for pe in TAXONOMY_PES:
        for ext in ("none", "pi", "ntk", "yarn"):
            try:
                res = induction_alpha(pe, 16, [33, 65], extension=ext)
            except SpecError:
                continue
            for L in res.lengths if res.realizable else ():
                if res.offset1.alpha(L) == 1.0:
                    assert res.alpha(L) == 1.0, (pe, ext, L)
                    seen += 1
    assert seen >= 5


def test_the_converse_fails_and_failures_are_named_row_by_row():
    res = induction_alpha("rope:16", 16, [257])
    assert res.offset1.alpha(257) < 1 and res.alpha(257) == independent_alpha("rope:16", "none", 16, 257)
    pi = induction_alpha("rope:16", 16, [65], extension="pi")
    rows = pi.circuits[65]
    first = pi.offset1.outcomes[65]
    lost_t = {int(r) for r, s in zip(first.rows, first.status) if s != REALIZED}
    for i, t in zip(rows.rows.tolist(), rows.targets.tolist()):
        assert ("a" in [c.value for c in rows.failed.get(i, ())]) == (t in lost_t)
    m = induction_layout(65).half
    bound = sum(1 for t in range(2, m + 1) if t not in lost_t) / (m - 1)
    assert pi.alpha(65) <= bound


def test_modes_agree_on_a_rational_pe_and_certified_runs():
    exact = induction_alpha("relbias", 16, [33, 65], mode="exact").to_json()
    flt = induction_alpha("relbias", 16, [33, 65]).to_json()
    assert exact["alpha"] == flt["alpha"] and exact["alpha_exact"]["33"] == "1" and exact["mode"] == "exact"
    cert = induction_alpha("rope:16", 16, [33], mode="certified").to_json()
    assert cert["mode"] == "certified" and cert["alpha"]["33"] == flt["alpha"]["33"]
    with pytest.raises(SpecError):
        induction_alpha("rope:16", 16, [33], mode="exact")            # exact is for rational PEs


def test_not_realizable_layer_one_gives_null():
    doc = induction_alpha("abscol:16", 16, [33]).to_json()
    assert doc["realizable"] is False and doc["alpha"] == {"33": None}


@pytest.mark.parametrize("lengths", [[32], [33, 64], [3]])
def test_lengths_that_do_not_fit_the_layout_are_refused(lengths):
    with pytest.raises(SpecError) as err:
        induction_alpha("rope:16", 16, lengths)
    assert "\n" not in str(err.value) and "2m + 1" in str(err.value)


def test_length_below_train_length_is_refused():
    with pytest.raises(SpecError):
        induction_alpha("rope:16", 16, [9])


def test_an_induction_result_names_a_per_length_mode_only_when_one_differs():
    same = induction_alpha("relbias", 16, [33, 65], mode="exact").to_json()
    assert same["mode"] == "exact" and "decided_in" not in same
    assert "decided_in" not in induction_alpha("relbias", 16, [33]).to_json()


def _routes(**changed: tuple[Route, tuple[int, ...]]) -> LayerOneRoutes:
    """Length 7 (m = 3: rows 4, 5 with t = 2, 3 and s = 1, 2); every row j routes uniquely to j - 1 (row 0 to 0)
    except the rows named r<j>=(kind, route set)."""
    kinds, sets = [Route.UNIQUE] * 7, [(max(j - 1, 0),) for j in range(7)]
    for name, (kind, keys) in changed.items():
        kinds[int(name[1:])], sets[int(name[1:])] = kind, keys
    return LayerOneRoutes(7, Mode.EXACT, kinds, sets)


# Exists because a mutant survived: a decided other row routing to s was not taken as a failure of (c).
@pytest.mark.parametrize("changed, status, failed, undecided", [
    # the shift circuit: route₁(t) = s, route₁(i) = i - 1 ≠ i, and only t routes to s: both rows realized
    ({}, [REALIZED, REALIZED], {}, {}),
    # row 3 routes (decided) to 1 = s(4) ∈ [1, 4]: (c) fails for row 4; and row 3 = t(5) misses s(5) = 2: (a) fails
    ({"r3": (Route.UNIQUE, (1,))}, [FAILED, FAILED], {4: (Condition.C,), 5: (Condition.A,)}, {}),
    # row 3 may route to 1 or 2 (undecided): (c) of row 4 and (a) of row 5 are open, neither fails
    ({"r3": (Route.UNDECIDED, (1, 2))}, [UNDECIDED, UNDECIDED], {}, {4: (Condition.C,), 5: (Condition.A,)}),
    # row 4 routes to itself (decided): (b) fails for row 4 only
    ({"r4": (Route.UNIQUE, (4,))}, [FAILED, REALIZED], {4: (Condition.B,)}, {}),
], ids=["shift", "decided-rival", "undecided-rival", "self-route"])
def test_circuit_rows_read_conditions_a_b_c_off_hand_made_routes(changed, status, failed, undecided):
    rows = circuit_rows(_routes(**changed))
    assert rows.rows.tolist() == [4, 5] and rows.targets.tolist() == [2, 3]
    assert (rows.status.tolist(), rows.failed, rows.undecided) == (status, failed, undecided)
