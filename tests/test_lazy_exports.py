"""The lazy exports of ``posreal.theory`` (PEP 562 ``__getattr__``/``__dir__``), in process: ``dir``
lists them and the first look-up caches each in the package's namespace.  (That ``posreal --help`` imports
nothing heavy is checked in a fresh process by tests/test_startup.py.)"""

from __future__ import annotations

import posreal.theory as theory_package


# Exists because a mutant survived: dir(posreal.theory) could omit its lazy exports.
def test_theory_package_lists_its_lazy_exports():
    from posreal import theory

    assert {"compute_alpha", "select", "gradient_descent", "parse_pe"} <= set(dir(theory))


# Exists because a mutant survived: a lazy export could be imported again on every look-up.
def test_lazy_export_is_cached_in_the_package(monkeypatch):
    """PEP 562: the first ``posreal.theory.load_table`` imports it and stores it in the package's namespace,
    so later look-ups (and ``from posreal.theory import load_table``) find the function itself."""
    from posreal.theory import tables

    monkeypatch.delitem(theory_package.__dict__, "load_table", raising=False)
    first = theory_package.load_table
    assert first is tables.load_table
    assert theory_package.__dict__["load_table"] is tables.load_table
    assert theory_package.load_table is tables.load_table
