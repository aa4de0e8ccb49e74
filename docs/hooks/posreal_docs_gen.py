"""Generators behind the ``<!-- posreal: NAME ARG... -->`` markers (see ``posreal_docs.py``).

Each generator returns Markdown computed from the code at build time: the registries
(``theory.encodings``, ``theory.tasks``), α_L (``theory.transfer``), the taxonomy
(``posreal.commands.table.taxonomy``, ``theory.plots.plot_taxonomy``), the claim runner
(``checks.runner`` / ``posreal check --json``), the statements (``theory.statements``), the
counterexample certificates and searches (``counterexamples``), the experiment summary
(``docs/data/experiment/summary.json``), the argparse parsers (``posreal.cli.build_parser``) and
the docstrings of ``theory.__all__``.

Rules: nothing is pasted by hand; an empty table is an error; a source that exists but does not
answer as its contract says is an error (``PluginError``); a source whose module or file does
not exist yet yields a plain "not yet built" notice and nothing else.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import inspect
import io
import json
import os
import re
import tempfile
import time
from dataclasses import fields, is_dataclass
from fractions import Fraction
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[2]          # the repository
DOCS = ROOT / "docs"
EXPERIMENT_SUMMARY = DOCS / "data" / "experiment" / "summary.json"
CERTIFICATES = ROOT / "counterexamples" / "certificates"

# Claim ids of THEORY.md §2; the statements module, once it exists, is the authority.
CLAIM_IDS = ("theorem1", "theorem2", "proposition4", "underdetermination", "expressivity", "conjecture")

FORMALIZATION = ("The precise definitions and statements on this site are <strong>this project's "
                 "formalization</strong> of the preprint's public abstract, not the preprint's own "
                 "text: where the abstract is silent, the choices are ours.")

_cache: dict = {}


def reset_cache() -> None:
    _cache.clear()


def cached(key):
    def wrap(fn):
        def inner(*args):
            k = (key, args)
            if k not in _cache:
                _cache[k] = fn(*args)
            return _cache[k]
        inner.__name__ = fn.__name__
        inner.__doc__ = fn.__doc__
        return inner
    return wrap


# --------------------------------------------------------------------------- helpers
def formalization_note(inline: bool) -> str:
    if inline:
        return f'!!! note "Whose formalization"\n    {FORMALIZATION}\n'
    return f'<div class="posreal-formalization" markdown>{FORMALIZATION}</div>'


def not_yet_built(what: str, source: str) -> str:
    return (f'!!! warning "Not yet built"\n    {what} is generated from `{source}`, which does not exist in '
            f"this checkout yet. Once it lands, this section is generated from it at build time "
            f"(and a failure to generate it stops the build).\n")


def provenance(source: str) -> str:
    return f'<p class="posreal-generated">Generated at build time from <code>{source}</code>.</p>'


def md_escape(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header, rows, source: str | None = None) -> str:
    rows = [list(r) for r in rows]
    if not rows:
        raise PluginError(f"generated table from {source or 'the code'} is empty")
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    out = "\n".join(lines) + "\n"
    if source:
        out += "\n" + provenance(source) + "\n"
    return out


def module_exists(name: str) -> bool:
    """True when the module's file exists (import errors inside it are then build errors)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def first_line(doc: str | None) -> str:
    return rst_to_md((doc or "").strip().split("\n\n")[0].replace("\n", " "))


def rst_to_md(text: str) -> str:
    text = re.sub(r":(?:func|class|mod|meth|attr|data|obj):`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def fmt_alpha(value) -> str:
    return "—" if value is None else f"{value:.3f}"


def fmt_seconds(value) -> str:
    try:
        return f"{float(value):.2f} s"
    except (TypeError, ValueError):
        return "—"


# --------------------------------------------------------------------------- registries
def gen_pe_registry(train_length: str = "16") -> str:
    """Every registry PE (and two shears, and learned:d), parsed and str()-ed by the code."""
    from theory.encodings import REGISTRY_PES, parse_pe
    L0 = int(train_length)
    specs = list(REGISTRY_PES) + ["dual:rope:16", "dual:relbias", "learned:8"]
    rows = []
    for spec in specs:
        pe = parse_pe(spec)
        text = str(pe)
        if str(parse_pe(text)) != text:
            raise PluginError(f"PE spec {spec!r} does not round-trip through str(): {text!r}")
        if getattr(pe, "linear", True):
            base = getattr(pe, "base", pe)
            index = "i − j" if pe.index == "offset" else "j"
            rows.append([f"`{spec}`", f"`{text}`", pe.kind, index, pe.dim(L0),
                         "yes" if pe.rational else "no (certified mode)",
                         first_line(type(base).__doc__) if base is pe else
                         f"the shear of `{base}`: ψ_S(i, j) = ψ(i, i − j)"])
        else:
            rows.append([f"`{spec}`", f"`{text}`", pe.kind, "—", "—", "—", first_line(type(pe).__doc__)])
    return table(["spec", "str(parse_pe(spec))", "kind", "key index k", f"p at L0 = {L0}", "exact mode",
                  "docstring"], rows, "theory.encodings.parse_pe, REGISTRY_PES")


def gen_task_registry(length: str = "8") -> str:
    """Every registry task (and two shears), with its rows and targets on a small grid."""
    from theory.tasks import REGISTRY_TASKS, parse_task
    n = int(length)
    rows = []
    for spec in list(REGISTRY_TASKS) + ["dual:copy", "dual:offset:1"]:
        task = parse_task(spec)
        text = str(task)
        if str(parse_task(text)) != text:
            raise PluginError(f"task spec {spec!r} does not round-trip through str(): {text!r}")
        R, t = task.rows_and_targets(n)
        pairs = ", ".join(f"{i}→{j}" for i, j in zip(R.tolist(), t.tolist()))
        rows.append([f"`{spec}`", f"`{text}`", task.task_class,
                     "no" if not task.rows_depend_on_length else "yes", pairs or "(none)"])
    return table(["spec", "str(parse_task(spec))", "class", "R_n depends on n", f"row → target at n = {n}"],
                 rows, "theory.tasks.parse_task, REGISTRY_TASKS")


# --------------------------------------------------------------------------- α_L and the taxonomy
def gen_alpha(pe: str, task: str, train_length: str = "16", lengths: str = "32,64,128,256",
              mode: str = "float") -> str:
    """α_L of one cell with the row counts behind it (``posreal alpha``)."""
    from theory.transfer import compute_alpha
    Ls = [int(x) for x in lengths.split(",")]
    result = compute_alpha(pe, task, int(train_length), Ls, mode)
    doc = result.to_json()
    src = f"theory.compute_alpha({pe!r}, {task!r}, train_length={train_length}, mode={mode!r})"
    if not result.realizable:
        return (f"`{pe}` · `{task}` at L0 = {train_length}: **not realizable at L0** "
                f"({doc['selected'].get('reason') or 'no θ realizes every training row'}).\n\n" + provenance(src))
    rows = []
    for L in map(str, sorted(Ls)):
        c = doc["rows"][L]
        alpha = doc.get("alpha_exact", {}).get(L) or fmt_alpha(doc["alpha"][L])
        rows.append([L, alpha, c["realized"], c["failed"], c["undecided"], c["structural_ties"], c["total"]])
    return table(["L", "α_L", "realized", "failed", "undecided", "structural ties", "|R_L|"], rows, src)


@cached("taxonomy")
def taxonomy_docs():
    from posreal.commands.table import taxonomy
    from theory.encodings import REGISTRY_PES
    from theory.tasks import REGISTRY_TASKS
    from theory.transfer import DEFAULT_LENGTHS, DEFAULT_TRAIN_LENGTH
    lengths = list(DEFAULT_LENGTHS)
    start = time.perf_counter()
    docs = taxonomy(list(REGISTRY_PES), list(REGISTRY_TASKS), DEFAULT_TRAIN_LENGTH, lengths, quiet=True)
    return docs, lengths, DEFAULT_TRAIN_LENGTH, time.perf_counter() - start


def gen_taxonomy_table() -> str:
    docs, lengths, L0, seconds = taxonomy_docs()
    rows = [[f"`{d['pe']}`", d["pe_kind"], f"`{d['task']}`", d["task_class"], "yes" if d["realizable"] else "no",
             *[fmt_alpha(d["alpha"].get(str(L))) for L in lengths]] for d in docs]
    return table(["PE", "kind", "task", "class", "realizable at L0", *[f"α_{L}" for L in lengths]], rows,
                 f"posreal.commands.table.taxonomy (every registry PE × task, L0 = {L0}; {seconds:.1f} s)")


def gen_taxonomy_grid() -> str:
    """PE × task at the largest length: the taxonomy at a glance."""
    docs, lengths, L0, _ = taxonomy_docs()
    L = str(max(lengths))
    pes = list(dict.fromkeys(d["pe"] for d in docs))
    tasks = list(dict.fromkeys(d["task"] for d in docs))
    by = {(d["pe"], d["task"]): d for d in docs}
    classes = {d["task"]: d["task_class"] for d in docs}
    kinds = {d["pe"]: d["pe_kind"] for d in docs}
    rows = []
    for pe in pes:
        cells = []
        for task in tasks:
            d = by[(pe, task)]
            cells.append("n.r." if not d["realizable"] else fmt_alpha(d["alpha"][L]))
        rows.append([f"`{pe}` ({kinds[pe]})", *cells])
    header = [f"α_{L} (L0 = {L0})", *[f"`{t}` ({classes[t]})" for t in tasks]]
    return table(header, rows, "posreal.commands.table.taxonomy") + \
        "\n*n.r.*: not realizable at L0 — no θ realizes every training row, so θ* does not exist.\n"


def asset_taxonomy_png() -> bytes:
    from theory.plots import plot_taxonomy
    docs, lengths, _, _ = taxonomy_docs()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "taxonomy.png")
        plot_taxonomy(docs, lengths, path)
        return Path(path).read_bytes()


def gen_taxonomy_figure() -> str:
    return ("![α_L against L for every registry PE and realizable task](generated/taxonomy.png)\n\n"
            + provenance("theory.plots.plot_taxonomy over posreal.commands.table.taxonomy"))


# --------------------------------------------------------------------------- claims and their checks
def _claims_from_document(doc) -> dict:
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise PluginError("claim report has no 'claims' list (contract: {'claims': [{'id', 'name', 'checks'}]})")
    out = {}
    for claim in doc["claims"]:
        if not isinstance(claim, dict) or "id" not in claim or not isinstance(claim.get("checks"), list):
            raise PluginError(f"malformed claim entry in the claim report: {str(claim)[:200]}")
        out[claim["id"]] = claim
    return out


def _runner_document():
    """The claim report, in-process: ``checks.runner`` if it exists, else ``posreal check --json``."""
    if module_exists("checks.runner"):
        runner = importlib.import_module("checks.runner")
        for name in ("report", "run_claims", "run_all", "run"):
            fn = getattr(runner, name, None)
            if callable(fn):
                return _call_runner(fn), f"checks.runner.{name}"
        raise PluginError("checks.runner exists but has none of report / run_claims / run_all / run")
    from posreal.cli import COMMANDS
    if "check" in COMMANDS:
        return _cli_json(["check", "--json"] + _fast_flags("check")), "posreal check --json"
    return None, None


def _call_runner(fn):
    params = inspect.signature(fn).parameters
    kwargs = {}
    for flag in ("skip_slow", "fast", "quick"):
        if flag in params:
            kwargs[flag] = True
    if "slow" in params:
        kwargs["slow"] = False
    result = fn(**kwargs)
    if hasattr(result, "to_json"):
        result = result.to_json()
    return result


def _fast_flags(command: str) -> list[str]:
    parser = _subparser(command)
    opts = {s for a in parser._actions for s in a.option_strings}
    for flag in ("--skip-slow", "--fast", "--quick", "--no-slow"):
        if flag in opts:
            return [flag]
    return []


def _cli_json(argv: list[str]):
    from posreal.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    text = out.getvalue()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PluginError(f"`posreal {' '.join(argv)}` (exit {code}) did not print one JSON document: {exc}; "
                          f"stderr: {err.getvalue().strip()[:300]}") from exc
    if code not in (0, 1):
        raise PluginError(f"`posreal {' '.join(argv)}` exited with {code}: {err.getvalue().strip()[:300]}")
    return doc


@cached("claims")
def claims_report():
    start = time.perf_counter()
    doc, source = _runner_document()
    if doc is None:
        return None, None, 0.0
    return _claims_from_document(doc), source, time.perf_counter() - start


def claim_ids() -> list[str]:
    if module_exists("theory.statements"):
        ids = _statement_ids()
        if ids:
            return ids
    return list(CLAIM_IDS)


_GOOD = ("proved", "passed")


def _check_ok(check: dict) -> bool:
    return check.get("verdict") in _GOOD and check.get("negative_control") in (None, "counterexample")


def _verdict(check: dict) -> str:
    v = str(check.get("verdict"))
    return f"**{v}**" if v in _GOOD else f"**{v.upper()}**"


def _control(check: dict) -> str:
    c = check.get("negative_control")
    if c is None:
        return "n/a"
    return str(c) if c == "counterexample" else f"**{str(c).upper()}** (expected counterexample)"


def gen_checks(claim_id: str) -> str:
    claims, source, seconds = claims_report()
    if claims is None:
        return not_yet_built("The table of checks for this claim", "checks.runner / posreal check --json")
    if claim_id not in claims:
        raise PluginError(f"claim {claim_id!r} is not in the claim report from {source} "
                          f"(it has: {', '.join(claims)})")
    checks = claims[claim_id]["checks"]
    if not checks:
        raise PluginError(f"claim {claim_id!r} has no checks in the report from {source}")
    rows = []
    for c in checks:
        detail = str(c.get("detail") or "")
        rows.append([md_escape(c.get("name", "")), c.get("method", "?"), _verdict(c), _control(c),
                     fmt_seconds(c.get("seconds")), detail[:160] + ("…" if len(detail) > 160 else "")])
    ok = sum(_check_ok(c) for c in checks)
    head = (f"**Latest verdicts** — {ok} of {len(checks)} checks good "
            f"(verdict proved/passed and, where there is one, the negative control refuted as it must be).\n\n")
    return head + table(["check", "method", "verdict", "negative control", "time", "detail"], rows,
                        f"{source}, run during this build ({seconds:.1f} s for every claim)")


def gen_claims_overview() -> str:
    claims, source, seconds = claims_report()
    ids = claim_ids()
    names = _statement_names()
    rows = []
    for cid in ids:
        link = f"[{names.get(cid, cid)}](results/{cid}.md)"
        if claims is None:
            rows.append([link, f"`{cid}`", "—", "runner not yet built"])
            continue
        if cid not in claims:
            raise PluginError(f"claim {cid!r} is missing from the claim report ({source})")
        checks = claims[cid]["checks"]
        methods = ", ".join(dict.fromkeys(str(c.get("method")) for c in checks))
        ok = sum(_check_ok(c) for c in checks)
        status = "all good" if checks and ok == len(checks) else f"**{len(checks) - ok} NOT GOOD**"
        rows.append([link, f"`{cid}`", methods or "—", f"{ok}/{len(checks)} good — {status}"])
    out = table(["result", "claim id", "methods", "latest verdicts"], rows,
                source and f"{source} ({seconds:.1f} s)" or "theory.statements (claim runner not yet built)")
    if claims is None:
        out += "\n" + not_yet_built("The verdict column", "checks.runner / posreal check --json")
    return out


def gen_claims_overview_from_results() -> str:
    """The same overview, with links relative to results/index.md."""
    return gen_claims_overview().replace("](results/", "](")


# --------------------------------------------------------------------------- statements
def _statements_module():
    return importlib.import_module("theory.statements") if module_exists("theory.statements") else None


def _all_statements(mod) -> list:
    for name in ("STATEMENTS", "statements", "ALL", "REGISTRY", "CLAIMS"):
        value = getattr(mod, name, None)
        if isinstance(value, dict):
            return list(value.values())
        if isinstance(value, (list, tuple)):
            return list(value)
    for name in ("all_statements", "statements"):
        fn = getattr(mod, name, None)
        if callable(fn):
            value = fn()
            return list(value.values()) if isinstance(value, dict) else list(value)
    raise PluginError("theory.statements has no list of statements (STATEMENTS / all_statements())")


def _statement_ids() -> list[str]:
    mod = _statements_module()
    return [str(getattr(s, "id")) for s in _all_statements(mod)] if mod else []


def _statement_names() -> dict:
    mod = _statements_module()
    if not mod:
        return {}
    return {str(s.id): str(getattr(s, "name", s.id)) for s in _all_statements(mod)}


def _lookup_statement(claim_id: str):
    mod = _statements_module()
    for name in ("get", "lookup", "statement", "by_id", "get_statement"):
        fn = getattr(mod, name, None)
        if callable(fn):
            return fn(claim_id)
    for s in _all_statements(mod):
        if getattr(s, "id", None) == claim_id:
            return s
    raise PluginError(f"theory.statements has no statement {claim_id!r}")


def gen_statement(claim_id: str) -> str:
    """The statement object as declared in ``theory.statements`` (its ``to_json()``)."""
    mod = _statements_module()
    if mod is None:
        return not_yet_built("The encoded statement object", "theory.statements")
    s = _lookup_statement(claim_id)
    doc = s.to_json() if hasattr(s, "to_json") else {k: getattr(s, k, None) for k in
                                                      ("name", "hypotheses", "conclusion", "symbols", "checks")}
    missing = [k for k in ("name", "hypotheses", "conclusion") if not doc.get(k)]
    if missing:
        raise PluginError(f"statement {claim_id!r} lacks {', '.join(missing)}")
    ind = "    "
    out = [f'??? abstract "As declared in code: `theory.statements.statement({claim_id!r})`"',
           f"{ind}**{md_escape(doc['name'])}** — status: {doc.get('status', '—')}.", "",
           f"{ind}*Hypotheses*", ""]
    out += [f"{ind}{n}. {md_escape(h)}" for n, h in enumerate(doc["hypotheses"], 1)]
    out += ["", f"{ind}*Conclusion*: {md_escape(doc['conclusion'])}", ""]
    symbols = doc.get("symbols") or {}
    if isinstance(symbols, dict) and symbols:
        out.append(f"{ind}*Symbols*: " + "; ".join(f"{md_escape(k)} — {md_escape(v)}" for k, v in symbols.items()) + ".")
        out.append("")
    if doc.get("checks"):
        out.append(f"{ind}*Checked by*: " + ", ".join(f"`{c}`" for c in doc["checks"]) + ".")
        out.append("")
    if doc.get("notes"):
        out.append(f"{ind}*Notes*: {md_escape(doc['notes'])}")
        out.append("")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- CLI and API references
def _subparser(command: str) -> argparse.ArgumentParser:
    from posreal.cli import build_parser
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[command]
    raise PluginError("posreal.cli.build_parser() has no subcommands")


def _option_rows(parser: argparse.ArgumentParser):
    rows = []
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        flags = ", ".join(f"`{s}`" for s in a.option_strings) or f"`{a.dest}` (positional)"
        if a.choices and not isinstance(a, argparse._SubParsersAction):
            value = " \\| ".join(f"`{c}`" for c in a.choices)
        elif a.nargs == 0:
            value = "—"
        else:
            value = f"`{a.metavar or a.dest.upper()}`"
        default = a.default
        if default in (None, argparse.SUPPRESS, False) or a.nargs == 0:
            default_text = "required" if a.required else "—"
        elif isinstance(default, list):
            default_text = "`" + ",".join(map(str, default)) + "`"
        else:
            default_text = f"`{default}`"
        rows.append([flags, value, default_text, (a.help or "").replace("%(default)s", str(default))])
    return rows


def gen_cli_reference() -> str:
    from posreal.cli import build_parser
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in subs._choices_actions}
    out = [f"```text\n{parser.format_usage().strip()}\n```\n", rst_to_md(parser.description or "") + "\n",
           table(["command", "what it does"], [[f"[`posreal {n}`](#posreal-{n})", helps.get(n, "")]
                                               for n in subs.choices], "posreal.cli.build_parser()")]
    for name, sp in subs.choices.items():
        out.append(f"\n## `posreal {name}` {{#posreal-{name}}}\n")
        if sp.description:
            out.append(rst_to_md(sp.description) + "\n")
        out.append(f"```text\n{sp.format_usage().strip()}\n```\n")
        rows = _option_rows(sp)
        if rows:
            out.append(table(["option", "value", "default", "meaning"], rows))
    out.append("\n" + provenance("posreal.cli.build_parser() (argparse), at build time"))
    return "\n".join(out)


def _signature(obj) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(…)"


def gen_api_reference() -> str:
    import theory
    out = [rst_to_md(inspect.getdoc(theory) or "") + "\n"]
    names = list(theory.__all__)
    if not names:
        raise PluginError("theory.__all__ is empty")
    for name in names:
        obj = getattr(theory, name)
        module = getattr(obj, "__module__", "theory")
        kind = "class" if inspect.isclass(obj) else "function"
        out.append(f"\n## `{name}` {{#{name.lower()}}}\n")
        sig = _signature(obj)
        out.append(f"```python\n{'class ' if kind == 'class' else ''}{module}.{name}{sig}\n```\n")
        doc = inspect.getdoc(obj)
        out.append(_doc_block(doc) if doc else "*This object has no docstring in the code.*\n")
        if inspect.isclass(obj) and is_dataclass(obj):
            rows = [[f"`{f.name}`", f"`{_type_name(f.type)}`"] for f in fields(obj) if not f.name.startswith("_")]
            if rows:
                out.append(table(["field", "type"], rows))
        if inspect.isclass(obj):
            methods = [(m, v) for m, v in vars(obj).items()
                       if not m.startswith("_") and (callable(v) or isinstance(v, property)) and inspect.getdoc(v)]
            for m, v in methods:
                label = "property" if isinstance(v, property) else f"{m}{_signature(v)}"
                out.append(f"- **`{label if isinstance(v, property) is False else m}`**"
                           f"{' (property)' if isinstance(v, property) else ''}: {first_line(inspect.getdoc(v))}")
            if methods:
                out.append("")
    out.append("\n" + provenance("inspect.signature / docstrings of theory.__all__, at build time"))
    return "\n".join(out)


def _type_name(tp) -> str:
    return tp if isinstance(tp, str) else getattr(tp, "__name__", str(tp))


def _doc_block(doc: str) -> str:
    """A docstring as Markdown: RST roles to code, ``::`` blocks to fenced code."""
    text = rst_to_md(doc)
    lines, out, in_code = text.splitlines(), [], False
    for line in lines:
        if in_code and line and not line.startswith("    "):
            out.append("```")
            in_code = False
        out.append(line[4:] if in_code else line)
        if line.rstrip().endswith("::") and not in_code:
            out[-1] = line.rstrip()[:-1]
            out.append("\n```text")
            in_code = True
    if in_code:
        out.append("```")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- counterexamples
def _certificate_files() -> list[Path]:
    return sorted(CERTIFICATES.glob("*.json")) if CERTIFICATES.is_dir() else []


def gen_certificates() -> str:
    files = _certificate_files()
    if not files:
        if CERTIFICATES.is_dir():
            raise PluginError(f"{CERTIFICATES.relative_to(ROOT)} exists but holds no *.json certificate")
        return not_yet_built("The table of committed certificates", "counterexamples/certificates/")
    from posreal.cli import COMMANDS
    can_verify = "verify" in COMMANDS
    rows = []
    for path in files:
        cert = json.loads(path.read_text())
        fmt = cert.get("format", "?")
        version = cert.get("version", cert.get("format_version", ""))
        kind = cert.get("kind") or cert.get("flaw") or cert.get("claim") or cert.get("type") or "—"
        summary = cert.get("summary") or cert.get("description") or cert.get("statement") or ""
        verdict = "—"
        if can_verify:
            verdict = _verify_certificate(path)
        rows.append([f"`{path.name}`", f"`{fmt}` {version}".strip(), md_escape(kind),
                     md_escape(str(summary))[:200], verdict])
    return table(["certificate", "format", "what it certifies", "summary", "`posreal verify` now"], rows,
                 "counterexamples/certificates/*.json" + (", each re-verified by `posreal verify`" if can_verify else ""))


def _verify_certificate(path: Path) -> str:
    from posreal.cli import main
    out, err = io.StringIO(), io.StringIO()
    argv = ["verify", str(path)]
    if "--json" in {s for a in _subparser("verify")._actions for s in a.option_strings}:
        argv.append("--json")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    if code == 2:
        raise PluginError(f"`posreal verify {path.name}` is a usage error: {err.getvalue().strip()[:300]}")
    # exit 0: the certificate's verdict re-derived; 1: it did not verify (shown, and loud)
    return "**verified**" if code == 0 else f"**DID NOT VERIFY** (exit {code})"


def _search_json(argv: list[str]):
    return _cli_json(argv)


def gen_search(kind: str) -> str:
    """The latest ``posreal search colspan|conjecture`` summary, run in-process with defaults."""
    from posreal.cli import COMMANDS
    if "search" not in COMMANDS:
        return not_yet_built(f"The {kind} search summary", "posreal search")
    argv = ["search", kind]
    sp = _subparser("search")
    opts = {s for a in sp._actions for s in a.option_strings}
    sub_actions = [a for a in sp._actions if isinstance(a, argparse._SubParsersAction)]
    if sub_actions:
        opts |= {s for a in sub_actions[0].choices[kind]._actions for s in a.option_strings}
    if "--json" not in opts:
        raise PluginError("`posreal search` has no --json option")
    argv.append("--json")
    for flag in ("--quick", "--fast"):
        if flag in opts:
            argv.append(flag)
            break
    doc = _search_json(argv)
    return _render_json_summary(doc, f"posreal {' '.join(argv)}")


def _render_json_summary(doc, source: str) -> str:
    if not isinstance(doc, dict) or not doc:
        raise PluginError(f"`{source}` returned no summary")
    rows = []
    for k, v in sorted(doc.items()):
        if k in ("versions",):
            continue
        if isinstance(v, (dict, list)):
            text = json.dumps(v, sort_keys=True, default=str)
            v = text if len(text) <= 200 else text[:200] + "…"
        rows.append([f"`{k}`", md_escape(v)])
    return table(["field", "value"], rows, source)


# --------------------------------------------------------------------------- experiment
@cached("experiment")
def experiment_summary():
    if not EXPERIMENT_SUMMARY.is_file():
        return None
    try:
        return json.loads(EXPERIMENT_SUMMARY.read_text())
    except json.JSONDecodeError as err:
        raise PluginError(f"{EXPERIMENT_SUMMARY.relative_to(ROOT)} is not JSON: {err}") from err


def gen_experiment(part: str) -> str:
    summary = experiment_summary()
    if summary is None:
        return not_yet_built("The experiment " + part, "docs/data/experiment/summary.json")
    return _render_json_summary(summary, "docs/data/experiment/summary.json")


GENERATORS = {
    "pe-registry": gen_pe_registry,
    "task-registry": gen_task_registry,
    "alpha": gen_alpha,
    "taxonomy-table": gen_taxonomy_table,
    "taxonomy-grid": gen_taxonomy_grid,
    "taxonomy-figure": gen_taxonomy_figure,
    "checks": gen_checks,
    "claims-overview": gen_claims_overview,
    "claims-overview-here": gen_claims_overview_from_results,
    "statement": gen_statement,
    "cli-reference": gen_cli_reference,
    "api-reference": gen_api_reference,
    "certificates": gen_certificates,
    "search": gen_search,
    "experiment": gen_experiment,
}

ASSETS = {
    "generated/taxonomy.png": asset_taxonomy_png,
}
