"""Tests for the first twenty survivors of the seed-2 mutation sample (``benchmarks/mutation.py --seed 2``).

Written after that run listed its survivors (``benchmarks/mutation-report-seed2.md``).  Each pins a
behaviour the suite did not check:

* the certificate verifier: an output file path is returned as given; one-line errors name the
  offending value (a non-object top level, an unknown field, a malformed ``instance.row`` or
  ``claims.margin``); a row's feature matrix Ψ_i; a verdict carries the certificate's name;
  strict complementarity of a prediction is strict; the exact sign of a prediction whose
  coefficients have different denominators;
* α: the exact-mode error names the accepted modes; ℓ∞ rows in certified mode are labelled certified;
  the exact sweep selects θ* exactly; ``compute_alpha`` decides rows with the tolerance it is given;
  exact row outcomes keep their targets; the interval margin of a PE of width 0;
* a learned PE object in ``parse_pe`` is named by its spec, not its repr.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import numpy as np
from certificate_edits import row_features
from posreal.counterexamples.verifier import schema
from posreal.counterexamples.certificate_writer import check_output_file
from posreal.counterexamples.verifier.certificate import load
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import VERIFIED, verify_certificate, verify_document
from certificate_edits import message as _message, certificate as _certificate, resealed as _resealed


# ------------------------------------------------------------------ certificate verifier
def test_check_output_file_returns_the_path_it_was_given(tmp_path):
    """A writable output file path is returned as that path (not the description of what it is)."""
    target = tmp_path / "verdicts.json"
    assert check_output_file(target) == target
    assert check_output_file(str(target), "verdict file") == target


def test_load_refuses_a_non_object_top_level_naming_the_file_and_what_is_accepted(tmp_path):
    """A certificate file whose top level is a JSON list is a one-line error naming the file, the
    type found and what is accepted."""
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    message = _message(lambda: load(path), CertificateError)
    assert "list.json" in message and "top level is list;" in message
    assert "accepted: a JSON object" in message


def test_row_features_is_psi_of_the_row_at_every_key():
    """Ψ_i = [ψ(i, j)]_{j ≤ i}; for alibi ψ(i, j) = -(i - j), so row 2 is [(-2,), (-1,), (0,)]."""
    assert row_features("alibi", 2, 4) == [(F(-2),), (F(-1),), (F(0),)]
    # relbias:1 at L0 = 4 is the one-hot of min(i - j, 1) in width 2
    assert row_features("relbias:1", 2, 4) == [(F(0), F(1)), (F(0), F(1)), (F(1), F(0))]


def test_unknown_field_error_names_the_field():
    """An unknown field in a certificate object is named in the error, with the accepted fields."""
    message = _message(lambda: schema.keys({"row": 1, "rowz": 2}, {"row"}, set(), "instance"), CertificateError)
    assert "'rowz'" in message and "in instance" in message and "accepted: row" in message


def test_malformed_row_is_reported_at_instance_row():
    """A row that is not an integer is reported at ``instance.row`` (the field's real path)."""
    doc = copy.deepcopy(_certificate("static_alibi_position_0.json"))
    doc["instance"]["row"] = "4"
    message = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert "instance.row" in message and "XX" not in message


def test_malformed_margin_of_a_dynamic_certificate_is_reported_at_claims_margin():
    """A dynamic certificate's margin that is not a rational string is reported at ``claims.margin``."""
    doc = copy.deepcopy(_certificate("dynamic_cxc0x130_reverse.json"))
    doc["claims"]["margin"] = "abc"
    message = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert "at claims.margin;" in message


def test_verdict_carries_the_certificate_name():
    """The verdict names the certificate it is about (the name the caller gave)."""
    verdict = verify_certificate(_certificate("dynamic_cxc0x130_reverse.json"), "my-certificate")
    assert verdict.verdict == VERIFIED
    assert verdict.name == "my-certificate"
    assert verdict.to_json()["name"] == "my-certificate"


def _designed_open_tie() -> dict:
    # offset:0 at L0 = 3 on the relative table f(0) = 0, f(1) = -e1, f(2) = -e2: the training differences
    # are z(1,1,0) = f(0) - f(1) = e1, z(2,2,0) = f(0) - f(2) = e2, z(2,2,1) = e1; θ* = (1, 1, 0).
    doc = copy.deepcopy(_certificate("open_tie_designed_log2.json"))
    assert doc["claims"]["selected"]["theta"] == ["1/1", "1/1", "0/1"]
    return doc


def test_strict_complementarity_fails_for_an_off_support_difference_with_product_one():
    """Dropping z = e2 from the support leaves it off the support with ⟨θ*, e2⟩ = 1 exactly: strict
    complementarity (⟨θ*, z⟩ > 1 off the support) must fail, not pass."""
    doc = _designed_open_tie()
    doc["claims"]["selected"]["support"] = doc["claims"]["selected"]["support"][:1]   # keep pair [1, 1, 0]
    pred = doc["claims"]["rivals"][0]["prediction"]
    pred["coefficients"], pred["multiplicities"] = pred["coefficients"][:1], pred["multiplicities"][:1]
    verdict = verify_certificate(_resealed(doc))
    what = "claims.rivals[0].prediction: strict complementarity (⟨θ*, z⟩ > 1 off the support)"
    assert what in verdict.failures and what not in verdict.checked


def test_prediction_sign_uses_the_common_denominator_of_the_coefficients():
    """The sign of Σ c_s log(n_s/λ_s) is exact: with n = (2, 1), λ = (1, 1) and c = (1/4, 1/3) it is
    sign(1/4 · log 2 + 1/3 · log 1) = +1 (the exponents need the common denominator 12, not the last
    coefficient's 3, which would round 1/4 · 3 down to 0)."""
    doc = _designed_open_tie()
    pred = doc["claims"]["rivals"][0]["prediction"]
    assert pred["multiplicities"] == [2, 1]
    assert [s["lambda"] for s in doc["claims"]["selected"]["support"]] == ["1/1", "1/1"]
    pred["coefficients"] = ["1/4", "1/3"]
    pred["sign"] = 1
    verdict = verify_certificate(_resealed(doc))
    what = "claims.rivals[0].prediction: sign of the predicted limit is 1"
    assert what in verdict.checked and what not in verdict.failures


# ------------------------------------------------------------------ α
def test_exact_mode_for_an_irrational_pe_names_what_is_accepted():
    """--exact on an irrational PE says which PEs are rational and what to use otherwise."""
    from posreal.theory.alpha import compute_alpha
    message = _message(lambda: compute_alpha("rope:4", "position:0", train_length=4, lengths=[8], mode="exact"))
    assert "invalid mode 'exact'" in message
    assert ("accepted: --exact for rational PEs (relbias, colbias, alibi, nope, rational tables, their duals), "
            "--certified otherwise") in message


def test_linf_rows_in_certified_mode_are_labelled_certified():
    """In ℓ∞ with mode certified, the rows under θ*_q are decided (and labelled) in certified mode."""
    from posreal.theory.alpha import compute_alpha
    result = compute_alpha("relbias:2", "offset:0", train_length=4, lengths=[8], mode="certified", geometry="linf")
    assert result.realizable
    assert result.outcomes[8].mode == "certified"


def test_exact_sweep_selects_theta_exactly():
    """An exact sweep of a rational cell selects θ* in exact arithmetic (it does not refuse for lack
    of an exact θ*): alibi·position:0 realizes every row (ψ(i, j) = -(i - j) and θ* = -1, so
    the kernel θ*·ψ(i, j) = i - j is largest at key 0, the target)."""
    from posreal.theory.alpha import alpha_sweep
    sweep = alpha_sweep("alibi", "position:0", train_length=4, max_length=16, mode="exact")
    assert sweep is not None
    assert list(sweep.realized) == list(sweep.total)


def test_compute_alpha_decides_rows_with_the_given_tolerance():
    """The tolerance given to ``compute_alpha`` is the one its row outcomes use."""
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.realization import DEFAULT_TOL
    tol = 0.25
    assert tol != DEFAULT_TOL
    result = compute_alpha("alibi", "position:0", train_length=4, lengths=[8], tol=tol)
    assert result.outcomes[8].tol == tol


def test_exact_row_outcomes_keep_the_targets():
    """Exact row outcomes record each row's target (position:0: every target is key 0)."""
    from posreal.theory.alpha import row_outcomes
    out = row_outcomes("alibi", "position:0", [F(-1)], 6, 4, mode="exact")
    assert out.targets is not None
    assert list(out.rows) == [0, 1, 2, 3, 4, 5]
    assert list(out.targets) == [0] * 6


def test_interval_margin_of_a_width_zero_pe_is_zero():
    """nope has width 0: every key scores exactly 0, so the enclosed margin of a row is [0, 0]."""
    from posreal.theory.certified import interval_margin
    from posreal.theory.pe_specs import parse_pe
    margin = interval_margin(parse_pe("nope"), np.zeros(0), 2, 0, 4)
    assert margin.a == 0 and margin.b == 0


# ------------------------------------------------------------------ encodings
def test_learned_pe_object_is_named_by_its_spec():
    """A learned PE passed as an object to ``parse_pe`` is named by its spec string in the error."""
    from posreal.theory.pe_specs import parse_learned, parse_pe
    message = _message(lambda: parse_pe(parse_learned("learned:3")))
    assert message.startswith("invalid PE 'learned:3'; accepted: a linear PE here")
