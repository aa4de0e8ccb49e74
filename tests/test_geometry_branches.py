"""No code outside the geometry module branches on which geometry it has (issue: geometry as an object).

The geometry module (``theory/geometry.py``) is the only place that knows how ℓ2, ℓ∞ and ℓ1 differ;
everything else asks the geometry object.  This test reads the source of every package module
(theory, checks, experiment, counterexamples, posreal's own modules) and refuses:

* a comparison with a geometry's name: ``Geometry.L2``, ``"linf"`` (``==``, ``!=``, ``is``, ``in``, also
  inside a tuple, list or set), or with a geometry class (``type(g) is LinfGeometry``);
* a ``match`` case on such a name;
* ``isinstance`` / ``issubclass`` with a geometry class;
* a table keyed by ``Geometry`` members (``{Geometry.LINF: ...}``), or a position in the list of names
  (``GEOMETRIES[1:]``: "every geometry but the first").

Tables keyed by name *strings* (plot styles) are data, not branches, and are allowed.  The negative
controls plant each refused form in a copy of a real module and check that it is found.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from posreal.theory.geometry import DECLARED, Geometry

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("theory", "checks", "experiment", "counterexamples", "posreal")
GEOMETRY_MODULES = {ROOT / "theory" / "geometry.py"}
NAMES = {g.value for g in Geometry}                                   # "l2", "linf", "l1"
MEMBERS = set(Geometry.__members__)                                   # "L2", "LINF", "L1"
CLASSES = {type(g).__name__ for g in DECLARED.values()} | {c.__name__ for g in DECLARED.values()
                                                           for c in type(g).__mro__[1:-1]}


def _is_member(node: ast.AST) -> bool:
    """``Geometry.L2`` (or ``x.Geometry.L2``)."""
    if not isinstance(node, ast.Attribute) or node.attr not in MEMBERS:
        return False
    base = node.value
    return (isinstance(base, ast.Name) and base.id == "Geometry") or (isinstance(base, ast.Attribute)
                                                                     and base.attr == "Geometry")


def _is_class(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id in CLASSES) or (isinstance(node, ast.Attribute)
                                                                   and node.attr in CLASSES)


def _names_a_geometry(node: ast.AST) -> bool:
    """A geometry's name, member or class, or a tuple / list / set holding one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_geometry(e) for e in node.elts)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip().lower() in NAMES
    return _is_member(node) or _is_class(node)


def branches(source: str, filename: str = "<source>") -> list[str]:
    """Every branch on a geometry in ``source``: "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare) and any(_names_a_geometry(n) for n in [node.left, *node.comparators]):
            found.append(f"{where}: comparison with a geometry")
        elif isinstance(node, ast.match_case) and any(
                _names_a_geometry(p.value) for p in ast.walk(node.pattern) if isinstance(p, ast.MatchValue)):
            found.append(f"{where}: match case on a geometry")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("isinstance", "issubclass") and any(_names_a_geometry(a) for a in node.args[1:])):
            found.append(f"{where}: isinstance with a geometry class")
        elif isinstance(node, ast.Dict) and any(k is not None and _is_member(k) for k in node.keys):
            found.append(f"{where}: table keyed by geometry members")
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute))
              and (node.value.id if isinstance(node.value, ast.Name) else node.value.attr) == "GEOMETRIES"):
            found.append(f"{where}: a position in the list of geometries")
    return found


def package_files() -> list[Path]:
    """The package's modules (posreal/theory and the like are links to the top-level folders: read once)."""
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(p.is_symlink() for p in [path, *path.parents] if ROOT in p.parents):
                continue
            out.append(path)
    return out


def test_no_branch_on_the_geometry_outside_the_geometry_module() -> None:
    files = package_files()
    assert len(files) > 100 and ROOT / "theory" / "alpha.py" in files      # the scan reads the package
    found = [b for path in files if path not in GEOMETRY_MODULES
             for b in branches(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert found == []


def test_the_geometry_module_itself_is_where_the_names_are_compared() -> None:
    """The same reading finds the comparisons that do belong there (the scan can see them)."""
    assert branches((ROOT / "theory" / "geometry.py").read_text(encoding="utf-8"))


PLANTED = [
    "if geometry is Geometry.L2:\n    pass\n",
    "ok = geometry is not posreal.theory.geometry.Geometry.LINF\n",
    "ok = args.geometry != 'l2'\n",
    "ok = (args.geometry or 'l2') == 'LINF'\n",
    "ok = getattr(args, 'geometry', None) not in (None, 'l2')\n",
    "ok = type(rule) is L1Geometry\n",
    "ok = isinstance(rule, LinfGeometry)\n",
    "ok = isinstance(rule, (int, _FaceGeometry))\n",
    "wrong = {Geometry.LINF: Geometry.L2, Geometry.L2: Geometry.LINF}\n",
    "for g in GEOMETRIES[1:]:\n    pass\n",
    "match geometry:\n    case Geometry.L1:\n        pass\n",
    "match name:\n    case 'linf' | 'l1':\n        pass\n",
]


@pytest.mark.parametrize("planted", PLANTED)
def test_a_planted_branch_is_found(planted: str) -> None:
    """Negative control: a real module with one planted branch on the geometry fails the rule."""
    source = (ROOT / "theory" / "alpha.py").read_text(encoding="utf-8")
    assert branches(source) == []
    found = branches(source + "\n\n" + planted)
    assert len(found) == 1, found


@pytest.mark.parametrize("allowed", [
    "rule = SelectionGeometry.parse(args.geometry)\n",
    "result = compute_alpha(pe, task, geometry='linf')\n",
    "STYLES = {'l2': '-', 'linf': '--'}\n",
    "if geometry.allows(Use.LIMIT):\n    pass\n",
    "geometry: Geometry = Geometry.LINF\n",
    "ok = value not in {g.value for g in Geometry}\n",
])
def test_asking_the_geometry_is_not_a_branch(allowed: str) -> None:
    assert branches(allowed) == []
