"""Kills of seed-9 surviving mutants (part b).

Pinned here:
- a selected claim without ``support`` is refused naming ``claims.selected.support`` (``verify._check_selected``);
- ``alpha.row_outcomes`` in exact mode reads a float θ as the binary rational it is;
- ``AlphaResult.to_json`` reports ``realizable`` as null (not false) for an undecided cell;
- ``certified.interval_margin`` reads the PE's features at the given L0 (``relbias`` clips at L0 - 1);
- ``training.gradient_descent`` starts from θ0 as floats (exact Fractions become float64 iterates);
- ``tables.read_text`` refuses a file that is larger than the limit when read (grown after its size was checked).
"""
from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from posreal.counterexamples.verifier import verify
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.errors import SpecError


# --------------------------------------------------------------------------- verifier
def test_selected_claim_without_support_names_claims_selected_support() -> None:
    """verify.x__check_selected__mutmut_45: the missing key is reported as ``claims.selected.support``."""
    claims = {"selected": {"theta": ["1/1"]}}
    with pytest.raises(CertificateError) as err:
        verify._check_selected(None, claims, verify._Check())  # type: ignore[arg-type]
    assert str(err.value) == "malformed certificate: missing claims.selected.support"


# --------------------------------------------------------------------------- alpha
def test_exact_row_outcomes_read_a_float_theta_as_its_binary_rational() -> None:
    """alpha.x_row_outcomes__mutmut_36: in exact mode a float entry of θ is the rational Fraction(x)
    (the mutant's Fraction(None) raises); the outcomes equal those of the same θ given as Fractions."""
    from posreal.theory.alpha import row_outcomes

    floats = [-0.25, 0.75, -0.25, 0.1]                         # 0.1 is the binary rational nearest 1/10
    from_floats = row_outcomes("relbias", "offset:1", floats, 12, 4, mode="exact")
    from_fractions = row_outcomes("relbias", "offset:1", [Fraction(x) for x in floats], 12, 4, mode="exact")
    assert list(from_floats.margins) == list(from_fractions.margins)
    assert all(isinstance(m, Fraction) for m in from_floats.margins)
    assert np.array_equal(from_floats.status, from_fractions.status)
    assert from_floats.exact_alpha == from_fractions.exact_alpha


def test_undecided_cell_reports_realizable_as_null(monkeypatch: pytest.MonkeyPatch) -> None:
    """alpha.xǁAlphaResultǁto_json__mutmut_22: when NNLS finds no feasible θ and no Farkas certificate
    is found, the cell is undecided, and its JSON says ``realizable: null`` (not false: not realizable
    is a proved answer)."""
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


# --------------------------------------------------------------------------- certified
def test_interval_margin_reads_features_at_the_training_length() -> None:
    """certified.x_interval_margin__mutmut_12: ``relbias`` (one-hot of min(k, L0 - 1)) needs L0 for its
    features (the mutant passes None and fails).  θ = (1, 2, 3, 4) at L0 = 4, row 5, target key 0:
    key k scores θ[min(k, 3)] = 1, 2, 3, 4, 4, 4, so the margin is 1 - 4 = -3, enclosed exactly."""
    from posreal.theory.certified import interval_margin
    from posreal.theory.pe_specs import parse_pe

    theta = np.array([1.0, 2.0, 3.0, 4.0])
    scores = [theta[min(k, 3)] for k in range(6)]
    expected = scores[0] - max(scores[1:])
    enclosure = interval_margin(parse_pe("relbias"), theta, 5, 0, 4)
    assert enclosure is not None
    assert float(enclosure.a) == float(enclosure.b) == expected == -3.0


# --------------------------------------------------------------------------- training
def test_gradient_descent_starts_from_theta0_as_floats() -> None:
    """training.x_gradient_descent__mutmut_127: θ0 is taken as a float array, so starting from the
    exact θ* (Fractions) gives float64 iterates, the same as starting from their float values (the
    mutant keeps an object array of Fractions, on which the loss's ``np.exp`` raises TypeError)."""
    from posreal.theory.selection import select
    from posreal.theory.training import gradient_descent

    exact = select("relbias", "offset:1", 4, exact=True).exact_theta
    assert exact is not None and all(isinstance(x, Fraction) for x in exact)
    from_exact = gradient_descent("relbias", "offset:1", 4, steps=3, theta0=exact)  # type: ignore[arg-type]
    from_floats = gradient_descent("relbias", "offset:1", 4, steps=3, theta0=np.array([float(x) for x in exact]))
    assert from_exact.thetas.dtype == np.float64
    assert np.array_equal(from_exact.thetas, from_floats.thetas)
    assert np.array_equal(from_exact.losses, from_floats.losses)


# --------------------------------------------------------------------------- tables
def test_table_file_grown_past_the_limit_after_its_size_was_checked_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tables.read_text reads one byte beyond the limit to see a file that is larger when read than its
    size said (it grew in between): such a file is refused, not cut to MAX_TABLE_BYTES + 1 bytes (a
    JSON table padded with blanks would otherwise be accepted above the limit)."""
    from posreal.theory import tables

    path = tmp_path / "grows.json"
    body = json.dumps({"kind": "relative", "rows": [[1]]})
    path.write_text(body)
    real_stat = os.stat

    def stat_then_grow(name: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        info = real_stat(name, *args, **kwargs)
        if isinstance(name, str) and name == str(path):
            with open(path, "a") as handle:
                handle.write(" " * (tables.MAX_TABLE_BYTES + 1 - len(body)))
        return info

    monkeypatch.setattr(tables.os, "stat", stat_then_grow)
    with pytest.raises(SpecError) as err:
        tables.read_text(str(path))
    assert str(err.value) == (f"invalid feature table file {str(path)!r}: it grew past the limit of "
                              f"{tables.MAX_TABLE_BYTES} bytes while being read; accepted: {tables.FORM}")
    assert path.stat().st_size == tables.MAX_TABLE_BYTES + 1
