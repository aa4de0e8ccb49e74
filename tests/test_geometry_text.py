"""The text of ``posreal alpha`` in each geometry (posreal.theory.geometry's ``text_summary``): heading, table header,
rows and footnote, word for word, on planted documents (every branch: exact or not, with and without a reason,
an α and no α)."""

from __future__ import annotations

import pytest

from posreal.theory.geometry import DECLARED, Geometry

HEAD = "relbias · offset:1 · L0 = 8 · mode float"


def _counts(**extra: int) -> dict:
    return {"realized": 5, "failed": 2, "undecided": 1, "total": 8, "structural_ties": 3, **extra}


def _l2_document(exact: bool, reason: str | None) -> dict:
    return {"selected": {"norm": 1.2345678, "support": 3, "constraints": 7, "exact": exact, "reason": reason},
            "rows": {"16": _counts(), "32": _counts(realized=0)},
            "alpha": {"16": 0.625, "32": None}, "alpha_exact": {"16": "5/8"}}


# Exists because a mutant survived: the ℓ2 heading's reason and the header word "total" were unchecked.
def test_l2_text_summary_is_the_documented_heading_header_and_rows() -> None:
    heading, header, rows, note = DECLARED[Geometry.L2].text_summary(HEAD, _l2_document(True, "a planted reason"))
    assert heading == (f"{HEAD}\nθ*: norm 1.23457, 3 support vectors of 7 constraints (exact KKT certificate)"
                       " — a planted reason")
    assert header == ["L", "alpha", "realized", "failed", "undecided", "total", "structural ties"]
    # the exact α when there is one, else 4 decimals, "—" for none; counts in the header's order
    assert rows == [["16", "5/8", 5, 2, 1, 8, 3], ["32", "—", 0, 2, 1, 8, 3]]
    assert note is None
    plain, _, float_rows, _ = DECLARED[Geometry.L2].text_summary(HEAD, {**_l2_document(False, None),
                                                                       "alpha_exact": {}})
    assert plain == f"{HEAD}\nθ*: norm 1.23457, 3 support vectors of 7 constraints"   # control: neither suffix
    assert float_rows[0][1] == "0.6250"


def _face_document(face: str, exact: bool, reason: str | None) -> dict:
    return {"selected": {"geometry": "linf", "value": 2.5, "face": face, "face_dimension": 2, "exact": exact,
                         "reason": reason},
            "rows": {"16": _counts(realized_by_some=6), "32": _counts(realized_by_some=0)},
            "alpha_interval": {"16": [0.625, 0.75], "32": None}}


@pytest.mark.parametrize("geometry", [Geometry.LINF, Geometry.L1])
def test_face_text_summary_is_the_documented_heading_header_rows_and_note(geometry: Geometry) -> None:
    heading, header, rows, note = DECLARED[geometry].text_summary(HEAD, _face_document("face", True, "why"))
    assert heading == (f"{HEAD} · geometry linf\nθ*_q: ‖θ‖ = 2.5, optimal set a face (dimension ≤ 2)"
                       " (exact LP certificate) — why")
    assert header == ["L", "alpha interval", "every θ", "some θ", "no θ", "undecided", "total", "structural ties"]
    assert rows == [["16", "[0.6250, 0.7500]", 5, 6, 2, 1, 8, 3], ["32", "—", 5, 0, 2, 1, 8, 3]]
    assert note == ("alpha interval: [rows realized by every optimal θ, rows realized by some optimal θ] / rows "
                    "(\"some\" is per row)")
    point, *_ = DECLARED[geometry].text_summary(HEAD, _face_document("point", False, None))
    assert point == f"{HEAD} · geometry linf\nθ*_q: ‖θ‖ = 2.5, optimal set one point"    # control: no suffix
