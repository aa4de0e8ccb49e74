"""The installed distribution is one namespace: building the wheel and installing it into a fresh
virtual environment adds exactly one top-level package, ``posreal``, whose subpackages import
from a directory that holds a ``theory.py``, a ``checks.py`` and a ``counterexamples.py``.

The wheel is built offline from a copy of the source tree (``pip wheel --no-deps
--no-build-isolation``: setuptools and wheel come from the dev extra) and installed with
``--no-deps --no-index`` into a venv made with ``--system-site-packages`` (numpy and the rest need
no network).  Every imported module must come from the venv's own site-packages — not from the
checkout, not from an editable install elsewhere on the machine, not from the decoy modules.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess   # every test here starts a process

ROOT = Path(__file__).resolve().parents[1]
SUBPACKAGES = ("posreal.theory", "posreal.checks", "posreal.counterexamples", "posreal.experiment",
               "posreal.counterexamples.verifier.verify", "posreal.cli")
DECOYS = ("theory", "checks", "counterexamples", "experiment")
SKIP_IN_COPY = shutil.ignore_patterns(".git", "site", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis",
                                      "runs", ".venv", "*.egg-info", ".mypy_cache", ".ruff_cache")

def _run(argv: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_NO_INPUT"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, \
        f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("packaging")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=SKIP_IN_COPY)
    dist = tmp / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist),
          str(source)], cwd=tmp)
    wheels = sorted(dist.glob("*.whl"))
    assert len(wheels) == 1, wheels

    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], cwd=tmp)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        cwd=tmp).stdout.strip())
    assert purelib.is_relative_to(venv)
    before = set(os.listdir(purelib)) if purelib.is_dir() else set()
    # the system pip, run by the venv's interpreter, installs into the venv (sys.prefix)
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheels[0])], cwd=tmp)
    after = set(os.listdir(purelib))

    work = tmp / "work"
    work.mkdir()
    for name in DECOYS:     # a user's own modules that share the old top-level names
        (work / f"{name}.py").write_text(f"raise ImportError('the decoy {name}.py in the working directory "
                                         "was imported')\n")
    return {"python": python, "purelib": purelib, "new": after - before, "work": work, "wheel": wheels[0]}


def test_exactly_one_new_top_level_package(installed):
    new = installed["new"]
    packages = sorted(n for n in new if not n.endswith((".dist-info", ".pth")) and n != "__pycache__")
    assert packages == ["posreal"], sorted(new)
    assert [n for n in new if n.endswith(".dist-info")] == ["positional_realizability-0.1.0.dist-info"]
    for name in DECOYS:
        assert not (installed["purelib"] / name).exists(), f"site-packages holds a top-level {name!r}"


def test_every_installed_file_lives_under_posreal(installed):
    record = (installed["purelib"] / "positional_realizability-0.1.0.dist-info" / "RECORD").read_text()
    paths = [line.split(",")[0] for line in record.splitlines() if line]
    outside = [p for p in paths if not p.startswith(("posreal/", "positional_realizability-0.1.0.dist-info/"))
               and not p.replace("\\", "/").split("/")[-1].startswith("posreal")]   # the console script
    assert outside == [], outside
    for sub in ("theory", "checks", "counterexamples/verifier", "experiment", "commands"):
        assert any(p.startswith(f"posreal/{sub}/") for p in paths), f"the wheel has no posreal/{sub}/"


def test_typing_marker_and_certificates_are_installed(installed):
    package = installed["purelib"] / "posreal"
    assert (package / "py.typed").is_file()
    shipped = sorted(p.name for p in (ROOT / "counterexamples" / "certificates").glob("*.json"))
    installed_certs = sorted(p.name for p in (package / "counterexamples" / "certificates").glob("*.json"))
    assert shipped and installed_certs == shipped


def test_subpackages_import_from_the_venv_beside_decoy_modules(installed):
    script = ("import importlib, json\n"
              f"names = {list(SUBPACKAGES)!r}\n"
              "print(json.dumps({n: importlib.import_module(n).__file__ for n in names}))\n")
    proc = _run([str(installed["python"]), "-c", script], cwd=installed["work"])
    files = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(files) == set(SUBPACKAGES)
    for name, path in files.items():
        assert Path(path).resolve().is_relative_to(installed["purelib"].resolve()), f"{name} came from {path}"


def test_console_entry_works_beside_decoy_modules(installed):
    python, work = str(installed["python"]), installed["work"]
    proc = _run([python, "-m", "posreal", "--help"], cwd=work)
    assert proc.stdout.startswith("usage: posreal")
    cert = installed["purelib"] / "posreal" / "counterexamples" / "certificates" / "open_tie_designed_log2.json"
    proc = _run([python, "-m", "posreal", "verify", str(cert)], cwd=work)
    assert "verified" in proc.stdout


def test_the_decoys_are_importable_where_posreal_is_not_involved(installed):
    """Control: the decoy modules do shadow a bare ``import theory`` from that directory, so the
    imports above would have failed had posreal still installed top-level ``theory``/``checks``."""
    proc = subprocess.run([str(installed["python"]), "-c", "import theory"], cwd=installed["work"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "decoy theory.py" in proc.stderr
