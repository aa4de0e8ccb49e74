"""posreal: a proof companion for positional realizability, as one importable namespace.

Subpackages (imports only point down): :mod:`posreal.theory` (definitions and computations),
:mod:`posreal.checks` (engines that check the statements), :mod:`posreal.counterexamples`
(the invalid outside-colspan argument, the conjecture search, certificates and their
standard-library verifier), :mod:`posreal.experiment` (trained heads against α_L) and
:mod:`posreal.cli` (the ``posreal`` console script).

In the repository the subpackages are the top-level folders ``theory/``, ``checks/``,
``counterexamples/`` and ``experiment/``, reached through the committed relative symlinks
``posreal/theory -> ../theory`` and so on: an install, mypy and mutmut see an ordinary package.

``posreal.__version__`` is the installed version (``posreal --version`` prints it).
"""


def __getattr__(name: str) -> str:
    """``posreal.__version__``: the installed distribution's version, read from its metadata on first use
    (importing :mod:`importlib.metadata` costs start-up time that ``posreal --help`` need not pay)."""
    if name != "__version__":
        raise AttributeError(f"module 'posreal' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        found = version("positional-realizability")
    except PackageNotFoundError:   # a source tree that was never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found
