"""The statements of theory/statements.py: the results in order, stable ids, one-line errors."""

import pytest

from posreal.theory.errors import SpecError
from posreal.theory.statements import CONJECTURE, METHODS, STATEMENT_IDS, STATEMENTS, THEOREM, statement

EXPECTED_IDS = ("theorem1", "theorem2", "proposition4", "underdetermination", "expressivity", "conjecture",
                "geometry")


def test_the_results_in_order():
    assert STATEMENT_IDS == EXPECTED_IDS


@pytest.mark.parametrize("cid", EXPECTED_IDS)
def test_each_statement_is_complete(cid):
    st = statement(cid)
    assert st.id == cid and st is STATEMENTS[cid]
    assert st.name and st.conclusion and st.hypotheses and st.symbols
    assert st.section.startswith("THEORY.md §2") or (cid == "geometry" and st.section)
    assert st.status == (CONJECTURE if cid == "conjecture" else THEOREM)
    assert st.checks and set(st.checks) <= set(METHODS)
    doc = st.to_json()
    assert doc["id"] == cid and doc["checks"] == list(st.checks)


def test_unknown_id_is_a_one_line_spec_error():
    with pytest.raises(SpecError) as err:
        statement("theorem3")
    message = str(err.value)
    assert "\n" not in message and "'theorem3'" in message
    assert all(cid in message for cid in EXPECTED_IDS)


def test_non_string_id_is_rejected():
    with pytest.raises(SpecError):
        statement(2)  # type: ignore[arg-type]
