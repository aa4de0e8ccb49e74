"""Checks of what escapes the positional theory (E1-E3), each with a negative control.

Checks of what escapes the positional theory (E1-E3, definitions.md#what-escapes), each with a negative
control; the SMT proofs are in :mod:`posreal.checks.smt.escape_depth`, ``escape_content`` and ``escape_induction``.

Main checks (statement ids in brackets):

* :func:`check_route_lemma_property` [escape-depth] — random route maps (seeded): |S_K(i)| ≤ 2^K,
  S_K(i) ⊆ {0..i}, and changing tokens outside S_K(i) never changes row i's stream.  Control: a route that
  depends on the tokens must let a change outside S_K(i) move the stream.
* :func:`check_depth_bound_enumeration` [escape-depth] — β^(K) exactly for sort and addition (n = 6, V = 2)
  at K = 0..3: some row below 1 while 2^K < n, every row 1 once 2^K ≥ n, β^(0) ≥ the static β of the
  Expressivity bound; Monte Carlo (stated seed) for sort at n = 10.  Control: ``permutation`` (content-free)
  must have β^(K) = 1 for every K.
* :func:`check_match_property` [escape-content] — random rational r and β, every binary token pattern: the
  exact condition holds iff every sequence is realized; the first written condition implies it and is not
  necessary; :func:`~posreal.theory.content_head.override_row` is the first failing row of a slope.
  Control: r not decreasing (hypothesis (2) dropped) with (1), (3) kept must fail on some sequence.
* :func:`check_circuit_property` [escape-induction] — random route-set maps with ties: the row condition of
  :func:`~posreal.theory.induction.circuit_rows` equals running the two-layer circuit on tokens for every
  choice of tied routes (:func:`circuit_on_tokens`).  Control: the condition without (c) must disagree.
* :func:`check_induction_registry` [escape-induction] — every registry PE at L0 = 16 under none/pi/ntk/yarn
  where applicable, L = 33, 65: α^ind from ``induction_alpha`` equals an independent dense simulation
  (:func:`~posreal.theory.transfer_operator.naive_kernel_matrix` of the transferred PE, routes, the circuit on
  tokens), α(offset:1) = 1 ⟹ α^ind = 1, and α^ind ≤ the first-half bound.  Control: layer 1 trained on
  ``offset:2`` instead must lose rows (rope:16, L = 33).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from posreal.checks.base import FAILED, PASSED, CheckResult, Control, DeclaredCheck, timed
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.arithmetic import Mode
from posreal.theory.content_head import (match_condition, match_row_realized, override_row, stated_condition,
                                         unique_argmax)
from posreal.theory.defaults import TAXONOMY_PES
from posreal.theory.depth import depth_bound, read_sets, streams
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import static_routing_bound
from posreal.theory.induction import LayerOneRoutes, Route, circuit_rows, induction_alpha
from posreal.theory.realization import REALIZED
from posreal.theory.token_tasks import BOS, induction_layout

SEED = 20261204
EXTENSIONS = ("none", "pi", "ntk", "yarn")


# --------------------------------------------------------------------------- the circuit on tokens
def circuit_on_tokens(route: list[int], row: int, beta: int = 1) -> bool:
    """Whether the two-layer circuit realizes row ``row`` on the induction layout.

    Run the two-layer circuit on the induction layout (tokens 0..m-1, BOS): is row ``row`` realized?"""
    layout = induction_layout(len(route))
    m = layout.half
    tokens = [BOS] + list(range(m)) + list(range(m))
    scores = [beta * (tokens[row] == tokens[route[j]]) for j in range(row + 1)]
    return unique_argmax(scores) == row - m + 1


def circuit_every_choice(sets: list[tuple[int, ...]], row: int) -> bool:
    """Realized for every choice of a tied row's route (rows above ``row`` do not matter)."""
    head = [sets[j] for j in range(row + 1)]
    tail = [(0,)] * (len(sets) - row - 1)
    return all(circuit_on_tokens(list(choice) + [t[0] for t in tail], row) for choice in itertools.product(*head))


# --------------------------------------------------------------------------- E1
@claim_check("escape-depth", "property", "route lemma on random route maps")
def check_route_lemma_property(trials: int = 300) -> CheckResult:
    """Check the route lemma (E1) on random route maps, with a negative control."""
    def body() -> CheckResult:
        rng = np.random.default_rng(SEED)
        bad = []
        for _ in range(trials):
            n, depth = int(rng.integers(1, 13)), int(rng.integers(0, 5))
            maps = [[int(rng.integers(0, i + 1)) for i in range(n)] for _ in range(depth)]
            sets = read_sets(maps, n)
            x = rng.integers(0, 4, size=n)
            base = streams(x, maps)
            for i in range(n):
                if len(sets[i]) > 2 ** depth or max(sets[i]) > i:
                    bad.append(("size", n, depth, i))
                y = x.copy()
                outside = [p for p in range(n) if p not in sets[i]]
                y[outside] = rng.integers(4, 8, size=len(outside))
                if streams(y, maps)[i] != base[i]:
                    bad.append(("stream", n, depth, i))
        # control: layer 1 routes by the first token (content), so changing x_0 alone moves the read set
        control = None
        for _ in range(trials):
            n = int(rng.integers(3, 9))
            x = rng.integers(0, 4, size=n)
            routed = lambda seq, n=n: [[(int(seq[0]) + i) % (i + 1) for i in range(n)]]
            y = x.copy()
            y[0] = (x[0] + 1) % 4
            sets = read_sets(routed(x), n)
            i = n - 1
            if 0 not in sets[i] and streams(x, routed(x))[i] != streams(y, routed(y))[i]:
                control = f"n = {n}, x = {x.tolist()}: x_0 ∉ S_1({i}) = {sorted(sets[i])} yet the stream moves"
                break
        verdict = PASSED if not bad else FAILED
        return CheckResult("escape-depth", "route lemma on random route maps: |S_K(i)| ≤ 2^K, S_K(i) ⊆ {0..i}, "
                           "tokens outside S_K(i) never move the stream", "property", verdict,
                           Control.COUNTEREXAMPLE if control else Control.NO_COUNTEREXAMPLE,
                           detail=f"{trials} random stacks (seed {SEED}); violations {bad[:3]}; control (a "
                                  f"token-dependent route): {control or 'no counterexample found'}",
                           data={"seed": SEED, "trials": trials})
    return timed(body)


@claim_check("escape-depth", "enumeration", "β^(K) for sorting and addition")
def check_depth_bound_enumeration() -> CheckResult:
    """Check β^(K) < 1 for sorting and addition while 2^K < n (E1, exact enumeration)."""
    def body() -> CheckResult:
        lines, problems = [], []
        for spec in ("sort", "addition"):
            static = static_routing_bound(spec, 6, 2).beta
            for depth in range(4):
                bound = depth_bound(spec, 6, 2, depth)
                expect_below = 2 ** depth < 6
                if bound.below_one != expect_below:
                    problems.append(f"{spec} K={depth}: below one {bound.below_one}")
                if depth == 0 and any(a < s for a, s in zip(bound.beta, static)):
                    problems.append(f"{spec}: β^(0) below the static β")
                lines.append(f"{spec} n=6 V=2 K={depth}: min β^(K) = {min(bound.beta)}")
        mc = depth_bound("sort", 10, 2, 2, method="monte-carlo", samples=20_000, seed=SEED)
        if not mc.below_one:
            problems.append("sort n=10 K=2 Monte Carlo not below one")
        lines.append(f"sort n=10 V=2 K=2 Monte Carlo (seed {SEED}, 20000 samples): min β^(K) = {min(mc.beta):.4f}")
        control = all(not depth_bound("permutation", 6, 2, depth).below_one for depth in range(4))
        return CheckResult("escape-depth", "β^(K) < 1 for sorting and addition while 2^K < n (exact, n = 6, V = 2; "
                           "Monte Carlo at n = 10)", "enumeration", PASSED if not problems else FAILED,
                           Control.COUNTEREXAMPLE if control else Control.NO_COUNTEREXAMPLE,
                           detail="; ".join(lines + problems) + "; control: permutation (content-free) has β^(K) = 1 "
                                  f"at every K: {control}")
    return timed(body)


# --------------------------------------------------------------------------- E2
def _all_sequences_realized(vals: list[Fraction], beta: Fraction, row: int) -> bool:
    r = vals.__getitem__
    outcomes = [match_row_realized(r, beta, list(p) + [1], row) for p in itertools.product([0, 1], repeat=row)]
    return all(o for o in outcomes if o is not None)


def _slope(mu: Fraction, rho: Fraction):
    """r(δ) = -μδ for δ ≥ 1, r(0) = ρ."""
    return lambda d: -mu * d if d else rho


@claim_check("escape-content", "property", "match: exact condition by enumeration")
def check_match_property(trials: int = 1500) -> CheckResult:
    """Check E2's exact condition of ``match`` against every token sequence, on random cases."""
    def body() -> CheckResult:
        rng = np.random.default_rng(SEED)
        mismatches: list[tuple] = []
        loose = 0
        for _ in range(trials):
            row = int(rng.integers(1, 7))
            vals = [Fraction(int(rng.integers(-6, 7)), int(rng.integers(1, 4))) for _ in range(row + 1)]
            beta = Fraction(int(rng.integers(0, 13)), 2)
            exact = match_condition(vals.__getitem__, beta, row).holds
            if exact != _all_sequences_realized(vals, beta, row):
                mismatches.append((row, [str(v) for v in vals], str(beta)))
            stated = stated_condition(vals.__getitem__, beta, row)
            shape = match_condition(vals.__getitem__, beta, row)
            if stated and shape.self_below and shape.decreasing and not exact:   # sufficient under (1), (2)
                mismatches.append(("stated not sufficient", row))
            loose += exact and not stated
        for mu, weight, rho in ((1, 5, -100), (2, 5, -7), (Fraction(1, 3), 2, -50), (3, 1, -1)):
            o = override_row(mu, weight, rho)
            slope = _slope(Fraction(mu), Fraction(rho))
            first = next(i for i in range(1, 200) if not match_condition(slope, weight, i).holds)
            if first != o.row:
                mismatches.append(("override", mu, weight, rho, o.row, first))
        # control: drop (2) — keep (1) and (3) with a large β — some sequence must fail
        control = None
        for _ in range(trials):
            row = int(rng.integers(2, 7))
            vals = [Fraction(-20)] + [Fraction(int(v)) for v in rng.integers(0, 5, size=row)]
            cond = match_condition(vals.__getitem__, Fraction(50), row)
            if cond.self_below and cond.beta_margin and not cond.decreasing \
                    and not _all_sequences_realized(vals, Fraction(50), row):
                control = f"row {row}, r = {[str(v) for v in vals]}, β = 50"
                break
        return CheckResult("escape-content", "match: the exact condition holds iff every token sequence is realized; "
                           "the first written condition is sufficient, not necessary; the override row of a slope",
                           "property", PASSED if not mismatches and loose else FAILED,
                           Control.COUNTEREXAMPLE if control else Control.NO_COUNTEREXAMPLE,
                           detail=f"{trials} random (r, β, row) (seed {SEED}); mismatches {mismatches[:3]}; "
                                  f"{loose} instances where the exact condition holds and the first written one "
                                  f"does not; control (r not decreasing): {control or 'no counterexample found'}")
    return timed(body)


# --------------------------------------------------------------------------- E3
def _random_routes(rng: np.random.Generator, n: int) -> LayerOneRoutes:
    kinds, sets = [], []
    for j in range(n):
        if j and rng.random() < 0.6:
            keys: tuple[int, ...] = (j - 1,)
        else:
            size = min(j + 1, int(rng.integers(1, 3)))
            keys = tuple(sorted(rng.choice(j + 1, size=size, replace=False).tolist()))
        kinds.append(Route.UNIQUE if len(keys) == 1 else Route.TIED)
        sets.append(keys)
    return LayerOneRoutes(n, Mode.EXACT, kinds, sets)


@claim_check("escape-induction", "property", "circuit row condition against the circuit on tokens")
def check_circuit_property(trials: int = 400) -> CheckResult:
    """Check E3: the circuit's row condition equals running the two-layer circuit, on random routes."""
    def body() -> CheckResult:
        rng = np.random.default_rng(SEED)
        mismatches, control = [], None
        for _ in range(trials):
            n = 2 * int(rng.integers(2, 6)) + 1
            routes = _random_routes(rng, n)
            got = circuit_rows(routes)
            for i, status in zip(got.rows.tolist(), got.status.tolist()):
                truth = circuit_every_choice(routes.sets, i)
                if (status == REALIZED) != truth:
                    mismatches.append((n, i, routes.sets))
                without_c = status == REALIZED or set(got.failed.get(i, ())) <= {"c"}
                if control is None and without_c != truth:
                    control = f"n = {n}, row {i}, routes {routes.sets}"
        return CheckResult("escape-induction", "the circuit's row condition (a), (b), (c) equals running the two-layer "
                           "circuit on tokens for every choice of tied routes", "property",
                           PASSED if not mismatches else FAILED,
                           Control.COUNTEREXAMPLE if control else Control.NO_COUNTEREXAMPLE,
                           detail=f"{trials} random route maps with ties (seed {SEED}); mismatches {mismatches[:2]}; "
                                  f"control (condition (c) dropped) disagrees at: {control or 'nowhere'}")
    return timed(body)


def _dense_alpha(pe: str, ext: str, length: int, layer1: str = "offset:1") -> float | None:
    """α^ind by an independent route: the dense kernel of the transferred PE, routes by float argmax with the
    tolerance band, the circuit on tokens for every choice."""
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.extension import parse_extension
    from posreal.theory.transfer_operator import naive_kernel_matrix
    res = compute_alpha(pe, layer1, 16, [length], extension=ext)
    if not res.realizable:
        return None
    pe_l = parse_extension(ext).at_length(res.cell.pe, length, 16)
    dense = naive_kernel_matrix(pe_l, res.selection.theta, length, 16)          # (L, L), -inf above the diagonal
    sets = []
    for j in range(length):
        top = dense[j, : j + 1].max()
        sets.append(tuple(np.flatnonzero(dense[j, : j + 1] >= top - 1e-9 * max(1.0, abs(top))).tolist()))
    layout = induction_layout(length)
    if any(len(s) > 1 for s in sets[: layout.rows[-1] + 1]):
        return float("nan")   # a tie or near-tie: the float answer is undecided on some row
    route = [s[0] for s in sets]
    return sum(circuit_on_tokens(route, i) for i in layout.rows.tolist()) / layout.rows.size


@claim_check("escape-induction", "registry", "α^ind on registry PEs and extensions")
def check_induction_registry(lengths: tuple[int, ...] = (33, 65)) -> CheckResult:
    """Check E3 on the registry: α^ind against a dense two-layer computation, per PE and extension."""
    def body() -> CheckResult:
        problems, cells, compared = [], 0, 0
        for pe in TAXONOMY_PES:
            for ext in EXTENSIONS:
                try:
                    res = induction_alpha(pe, 16, lengths, extension=ext)
                except SpecError:
                    continue                 # the extension does not act on this PE
                if not res.realizable:
                    continue
                for L in lengths:
                    cells += 1
                    got, dense = res.alpha(L), _dense_alpha(pe, ext, L)
                    circuit = res.circuits[L]
                    if circuit.counts()["undecided"] == 0 and dense == dense:
                        compared += 1
                    if circuit.counts()["undecided"] == 0 and dense == dense and got != dense:
                        problems.append(f"{pe}/{ext}/L={L}: α^ind {got} ≠ dense {dense}")
                    if res.offset1.alpha(L) == 1.0 and got != 1.0:
                        problems.append(f"{pe}/{ext}/L={L}: α(offset:1) = 1 but α^ind = {got}")
                    m = induction_layout(L).half
                    first = res.offset1.outcomes[L]
                    bound = int(np.sum((first.status == REALIZED) & (first.rows >= 2) & (first.rows <= m))) / (m - 1)
                    if got is not None and got > bound:
                        problems.append(f"{pe}/{ext}/L={L}: α^ind {got} above the first-half bound {bound}")
        control = _dense_alpha("rope:16", "none", 33, layer1="offset:2")
        control_ok = control is not None and control < 1
        return CheckResult("escape-induction", "registry PEs × none/pi/ntk/yarn: α^ind equals a dense two-layer "
                           "simulation; α(offset:1) = 1 ⟹ α^ind = 1; α^ind ≤ the first-half bound", "registry",
                           PASSED if not problems and compared else FAILED,
                           Control.COUNTEREXAMPLE if control_ok else Control.NO_COUNTEREXAMPLE,
                           detail=f"{cells} (PE, extension, L) cells at L0 = 16, {compared} compared with the dense "
                                  f"simulation (the others have a near-tie in float); problems {problems[:3]}; control "
                                  f"(layer 1 selected for offset:2, rope:16, L = 33): α^ind = {control}")
    return timed(body)


ESCAPE_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
