"""Declarations: every PE family, task family and length-extension type declares itself once, in its own module.

Main definitions (definitions.md#linear-pe, #length-extension):

* :class:`PEFamily` — a PE spec family (``rope``, ``t5``, ``table``…): its catalogue entry (formula, kind,
  parameters, reference, spec grammar and aliases), its parser, whether its features are never rational (the
  verifier's "not checkable" names) and, for a published PE, the spec the taxonomy shows;
* :class:`TaskFamily` — a positional task family (``offset:c``, ``copy``…): its grammar and parser;
* :class:`TransferType` — a length-extension type (``pi``, ``yarn``, ``hf``…): its spec names, parser,
  catalogue lines (formula, reference) and whether ``--extension all`` runs it;
* :func:`declare_pe`, :func:`declare_task` and :func:`declare_transfer` are called by the module that defines the
  family; everything else is derived here: the spec parsers' lookup (:func:`pe_family`, :func:`task_family`,
  :func:`transfer_type`), the accepted-forms text of every error message (:func:`pe_forms`, :func:`task_forms`,
  :func:`extension_forms`), ``posreal pes`` and ``posreal extensions`` (:func:`pe_families`,
  :func:`transfer_types`), the names a user PE may not take (:func:`reserved_pe_names`), the verifier's name lists
  (checked against these in a test) and the published PEs of the taxonomy (:func:`published_pes`);
* plugins: the modules named in the environment variable ``POSREAL_PLUGINS`` (comma-separated) and the entry
  points of the group ``posreal.plugins`` are imported once, on first use, so a user's PE family or extension
  type in a file of its own declares itself like the built-in ones.

Standard library only (the built-in families are loaded on first use, by importing the spec parsers).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from posreal.theory.errors import SpecError, quote

PLUGINS_VARIABLE = "POSREAL_PLUGINS"
PLUGIN_GROUP = "posreal.plugins"
BUILT_IN = ("posreal.theory.pe_specs", "posreal.theory.extension", "posreal.theory.tasks")   # declare the built-ins


@dataclass(frozen=True)
class PEFamily:
    """One PE spec family.  ``parse(name, rest, spec)`` builds the encoding from the text after the name (``rest``
    keeps its leading colon: ``":16"``, ``":"`` or ``""``; ``name`` is the name or alias as written) and raises
    SpecError on a bad one (:mod:`posreal.theory.spec_args` reads the parameters)."""

    entry: Any                      # posreal.theory.pe_catalogue.CatalogueEntry: form, aliases, formula, reference
    parse: Callable[[str, str, str], Any]
    rank: float                     # place in ``posreal pes`` and in the accepted-forms text
    never_rational: bool = False    # no instance has rational features (the verifier: "not checkable")
    published: str | None = None    # the spec of a published PE in the taxonomy (e.g. "xpos:16")
    linear: bool = True             # False: parsed elsewhere (learned:d), listed for reference

    @property
    def names(self) -> tuple[str, ...]:
        """The spec name and its aliases (``clipped``, ``relbias``)."""
        return tuple(_name(form) for form in (self.entry.form, *self.entry.aliases))

    @property
    def form(self) -> str:
        """The spec grammar with its aliases, as the accepted-forms text shows it."""
        aliases = [_name(a) for a in self.entry.aliases]
        return self.entry.form + (f" (or {', '.join(aliases)})" if aliases else "")


@dataclass(frozen=True)
class ExtensionEntry:
    """One line of ``posreal extensions``: the spec form, what s is, the formula and the reference."""

    spec: str
    factor: str
    formula: str
    reference: str


@dataclass(frozen=True)
class TransferType:
    """One length-extension type.  ``parse(name, rest, spec)`` builds the transfer from the text after the name
    (``rest`` keeps its leading colon, as for :class:`PEFamily`)."""

    name: str
    forms: tuple[str, ...]          # the spec grammar(s): "ntk", "ntk:S"
    parse: Callable[[str, str, str], Any]
    entries: tuple[ExtensionEntry, ...]   # its lines of ``posreal extensions``
    rank: float
    in_all: tuple[str, ...] = ()    # the specs ``--extension all`` runs (e.g. ("pi",))


@dataclass(frozen=True)
class TaskFamily:
    """One positional task family.  ``parse(name, rest, spec)`` builds the task from the text after the name
    (``rest`` keeps its leading colon, as for :class:`PEFamily`); ``form`` is its grammar (``offset:c``)."""

    name: str
    form: str
    parse: Callable[[str, str, str], Any]
    rank: float


@dataclass
class _Declarations:
    pes: dict[str, PEFamily] = field(default_factory=dict)            # name or alias -> family
    transfers: dict[str, TransferType] = field(default_factory=dict)
    tasks: dict[str, TaskFamily] = field(default_factory=dict)
    loaded: bool = False


_DECLARED = _Declarations()


def _name(form: str) -> str:
    """The spec name of a grammar: ``t5[:B[:M]]`` -> ``t5``, ``rope:d[:base]`` -> ``rope``."""
    return form.split("[", 1)[0].split(":", 1)[0]


def _take(table: dict[str, Any], what: str, names: tuple[str, ...], new: Any, form: Callable[[Any], Any]) -> None:
    """Enter ``new`` under ``names``; a name another declaration (another ``form``) holds is refused, and then
    none is taken."""
    for name in names:
        other = table.get(name)
        if other is not None and form(other) != form(new):
            raise SpecError(f"{what} name {name!r} is declared twice ({form(other)} and {form(new)})")
    for name in names:
        table[name] = new


def declare_pe(family: PEFamily) -> PEFamily:
    """Declare a PE family under its name and aliases; a name already taken by another family is refused."""
    _take(_DECLARED.pes, "PE", family.names, family, lambda f: f.entry.form)
    return family


def declare_transfer(kind: TransferType) -> TransferType:
    """Declare a length-extension type under its name; a name already taken by another type is refused."""
    _take(_DECLARED.transfers, "extension", (kind.name,), kind, lambda t: t.forms)
    return kind


def declare_task(family: TaskFamily) -> TaskFamily:
    """Declare a positional task family under its name; a name already taken by another family is refused."""
    _take(_DECLARED.tasks, "task", (family.name,), family, lambda t: t.form)
    return family


def load() -> None:
    """Import the built-in families and the plugins once (a plugin that fails to import is a one-line error)."""
    if _DECLARED.loaded:
        return
    _DECLARED.loaded = True
    for module in BUILT_IN:
        importlib.import_module(module)
    names = [n.strip() for n in os.environ.get(PLUGINS_VARIABLE, "").split(",") if n.strip()]
    for name in names:                      # a plugin's sys.exit at import is a refusal too, never a silent exit
        try:
            importlib.import_module(name)
        except (Exception, SystemExit) as err:
            raise SpecError(f"invalid plugin {quote(name)} in {PLUGINS_VARIABLE}: {type(err).__name__}: "
                            f"{quote(str(err))}; accepted: importable module names, comma-separated") from None
    for point in metadata.entry_points(group=PLUGIN_GROUP):
        try:
            point.load()
        except (Exception, SystemExit) as err:
            raise SpecError(f"invalid plugin {quote(point.name)} (entry point of {PLUGIN_GROUP}): "
                            f"{type(err).__name__}: {quote(str(err))}") from None


def pe_family(name: str) -> PEFamily | None:
    """The PE family declared under ``name`` (or an alias), or None."""
    load()
    return _DECLARED.pes.get(name)


def pe_families() -> list[PEFamily]:
    """Every declared PE family once, in catalogue order."""
    load()
    unique = {id(f): f for f in _DECLARED.pes.values()}
    return sorted(unique.values(), key=lambda f: (f.rank, f.entry.form))


def pe_forms() -> str:
    """The accepted-forms text of a bad PE spec, from the declarations."""
    forms = ", ".join(f.form for f in pe_families())
    return f"{forms}, or a register_pe name (d even; 'posreal pes' lists them)"


def reserved_pe_names() -> frozenset[str]:
    """Names a user PE may not take: every declared spec name and alias."""
    load()
    return frozenset(_DECLARED.pes)


def never_rational_names() -> frozenset[str]:
    """Spec names whose features are never rational (the verifier calls such PEs not checkable)."""
    return frozenset(name for f in pe_families() if f.never_rational for name in f.names)


def published_pes() -> tuple[str, ...]:
    """The published PEs of the taxonomy, as their declarations spell them, in catalogue order."""
    return tuple(f.published for f in pe_families() if f.published)


def transfer_type(name: str) -> TransferType | None:
    """The length-extension type declared under ``name``, or None."""
    load()
    return _DECLARED.transfers.get(name)


def transfer_types() -> list[TransferType]:
    """Every declared length-extension type, in catalogue order."""
    load()
    return sorted(_DECLARED.transfers.values(), key=lambda t: (t.rank, t.name))


def extension_forms() -> str:
    """The accepted-forms text of a bad extension spec, from the declarations."""
    forms = ", ".join(form for t in transfer_types() for form in t.forms)
    return f"{forms}; 'posreal extensions' lists them"


def named_extensions() -> tuple[str, ...]:
    """The extensions ``--extension all`` runs, in catalogue order."""
    return tuple(spec for t in transfer_types() for spec in t.in_all)


def task_family(name: str) -> TaskFamily | None:
    """The positional task family declared under ``name``, or None."""
    load()
    return _DECLARED.tasks.get(name)


def task_forms() -> str:
    """The accepted-forms text of a bad task spec, from the declarations."""
    load()
    families = sorted(_DECLARED.tasks.values(), key=lambda t: (t.rank, t.name))
    return ", ".join(f.form for f in families) + ", dual:TASK"
