"""posreal: a proof companion for positional realizability, as one importable namespace.

Subpackages (imports only point down): :mod:`posreal.theory` (definitions and computations),
:mod:`posreal.checks` (engines that check the statements), :mod:`posreal.counterexamples`
(the invalid outside-colspan argument, the conjecture search, certificates and their
standard-library verifier), :mod:`posreal.experiment` (trained heads against α_L) and
:mod:`posreal.cli` (the ``posreal`` console script).

In the repository the subpackages are the top-level folders ``theory/``, ``checks/``,
``counterexamples/`` and ``experiment/``; ``pyproject.toml`` maps them with setuptools'
``package-dir`` (wheel and editable installs).  Run from a source checkout without installing,
this ``__init__`` adds the checkout's root to the package path so the same names resolve.
"""

import os as _os

_HERE = _os.path.dirname(_os.path.abspath(__file__))
_ROOT = _os.path.dirname(_HERE)
if (not _os.path.isdir(_os.path.join(_HERE, "theory"))
        and _os.path.isfile(_os.path.join(_ROOT, "pyproject.toml"))
        and _os.path.isfile(_os.path.join(_ROOT, "theory", "__init__.py"))):
    __path__.append(_ROOT)  # source checkout: posreal.theory is <root>/theory, and so on
