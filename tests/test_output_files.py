"""Output files (posreal.runtime.output_files): atomic, never over an existing file without --force, never
through a symlink, results files locked against a second run, a full disk an I/O error (exit 74).

The full disk is injected (``os.fsync`` or ``os.write`` raising ENOSPC); each test checks the previous
file is intact byte for byte and no temporary file is left in the directory.  Each refusal has its
control: the same write with ``--force`` (or to a new path) goes through.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from posreal.cli import main
from posreal.runtime import output_files
from posreal.runtime.output_files import EXIT_IO, AppendLog, OutputFileError, OutputIOError, write_atomic

ROOT = Path(__file__).resolve().parents[1]
TABLE = ["table", "--pes", "nope", "--tasks", "copy", "--train-length", "4", "--lengths", "8"]
SEARCH = ["search", "conjecture", "--seed", "3", "--budget", "2", "--families", "registry", "--json"]


def _enospc(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# ----------------------------------------------------------------------------- the module
def test_a_new_file_is_written_and_an_existing_one_only_with_force(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    assert write_atomic(path, "first\n", "output file") is True
    with pytest.raises(OutputFileError, match="it exists; accepted: a new file, or --force"):
        write_atomic(path, "second\n", "output file")
    assert path.read_text() == "first\n"
    assert write_atomic(path, "second\n", "output file", force=True) is True          # control: --force replaces
    assert path.read_text() == "second\n"
    assert write_atomic(path, "second\n", "output file") is False                     # the same bytes: nothing to do
    assert _listing(tmp_path) == ["out.json"]


def test_a_full_disk_at_fsync_leaves_the_previous_file_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)                      # a short path: messages shorten paths past 80 characters
    path = Path("out.json")
    path.write_bytes(b"previous content\n")
    monkeypatch.setattr(output_files.os, "fsync", _enospc)
    with pytest.raises(OutputIOError) as err:
        write_atomic(path, "x" * 100_000, "output file", force=True)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == b"previous content\n"
    assert _listing(tmp_path) == ["out.json"]                                         # no temporary left


@dataclass
class _FullDisk:
    """A file object that accepts ``room`` bytes, then fails as a full disk does."""
    inner: object
    room: int

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            self.inner.write(data[:self.room])                                  # type: ignore[attr-defined]
            self.room = 0
            _enospc()
        self.room -= len(data)
        return self.inner.write(data)                                           # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.inner.close()                                                      # type: ignore[attr-defined]


def test_a_full_disk_in_the_middle_of_a_write_leaves_no_half_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fdopen = os.fdopen
    monkeypatch.setattr(output_files.os, "fdopen", lambda fd, mode: _FullDisk(fdopen(fd, mode), 4096))
    path = tmp_path / "b.json"
    with pytest.raises(OutputIOError, match="No space left on device"):
        write_atomic(path, "y" * 10_000, "--out file")
    assert _listing(tmp_path) == []                                                  # no 4096-byte b.json
    monkeypatch.undo()
    assert write_atomic(path, "y" * 10_000, "--out file") and path.stat().st_size == 10_000   # control


def test_a_symlink_is_never_followed_into_a_write(tmp_path: Path) -> None:
    target, link = tmp_path / "precious.txt", tmp_path / "link.json"
    target.write_text("keep me\n")
    link.symlink_to(target)
    for force in (False, True):
        with pytest.raises(OutputFileError, match="symbolic link"):
            write_atomic(link, "overwritten\n", "output file", force=force)
        with pytest.raises(OutputFileError, match="symbolic link"):
            AppendLog(link)
    assert target.read_text() == "keep me\n" and link.is_symlink()


def test_an_append_that_fills_the_disk_is_cut_back_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)                      # a short path: messages shorten paths past 80 characters
    path = Path("r.jsonl")
    with AppendLog(path) as log:
        log.write('{"index": 0}\n')
        write = os.write

        def half(fd: int, data: bytes) -> int:
            write(fd, bytes(data[:len(data) // 2]))
            _enospc()
            return 0
        monkeypatch.setattr(output_files.os, "write", half)
        with pytest.raises(OutputIOError, match=str(path.name)):
            log.write('{"index": 1, "padding": "' + "z" * 1000 + '"}\n')
        monkeypatch.setattr(output_files.os, "write", write)                          # (the cwd stays)
        assert path.read_text() == '{"index": 0}\n'                                   # the half line is gone
        log.write('{"index": 1}\n')                                                   # control: the next write works
    assert path.read_text() == '{"index": 0}\n{"index": 1}\n'


def test_a_second_append_log_on_one_file_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    first = AppendLog(path)
    with pytest.raises(OutputFileError, match="another run is writing it"):
        AppendLog(path)
    first.close()
    AppendLog(path).close()                                                           # control: free again


# ----------------------------------------------------------------------------- the commands
def test_table_plot_refuses_an_existing_file_without_force(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    plot = tmp_path / "a.png"
    plot.write_bytes(b"not a png, but mine")
    assert main([*TABLE, "--plot", str(plot)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "it exists" in err and "--force" in err
    assert plot.read_bytes() == b"not a png, but mine"
    assert main([*TABLE, "--plot", str(plot), "--force"]) == 0                         # control
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_table_plot_on_a_full_disk_exits_74_naming_the_file_and_keeps_the_old_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.chdir(tmp_path)                      # a short path: messages shorten paths past 80 characters
    plot = Path("a.png")
    plot.write_bytes(b"old figure")
    monkeypatch.setattr(output_files.os, "fsync", _enospc)
    assert main([*TABLE, "--plot", str(plot), "--force"]) == EXIT_IO == 74
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(plot) in err and "No space left on device" in err
    assert plot.read_bytes() == b"old figure" and _listing(tmp_path) == ["a.png"]


def test_table_plot_through_a_symlink_is_refused_and_the_target_untouched(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture) -> None:
    target, link = tmp_path / "other.png", tmp_path / "link.png"
    target.write_bytes(b"someone else's file")
    link.symlink_to(target)
    for extra in ([], ["--force"]):
        assert main([*TABLE, "--plot", str(link), *extra]) == 2
        assert "symbolic link" in capsys.readouterr().err
    assert target.read_bytes() == b"someone else's file"


def test_search_colspan_refuses_an_existing_out_before_searching(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from posreal.counterexamples import colspan
    out, link = tmp_path / "b.json", tmp_path / "l.json"
    out.write_text("my notes\n")
    link.symlink_to(out)
    searched: list[str] = []
    monkeypatch.setattr(colspan, "find_static", lambda: searched.append("static") or ([], None))
    assert main(["search", "colspan", "--out", str(out)]) == 2
    assert main(["search", "colspan", "--out", str(link), "--force"]) == 2
    err = capsys.readouterr().err
    assert "it exists" in err and "symbolic link" in err and searched == []
    assert out.read_text() == "my notes\n"


def test_search_conjecture_out_existing_whitespace_and_force(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text("  \n\n \n")
    assert main([*SEARCH, "--out", str(out), "--resume"]) == 2                        # S5: not appended to
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "empty or blank" in err
    assert main([*SEARCH, "--out", str(out)]) == 2
    assert "--resume to continue it, --force to start it over" in capsys.readouterr().err
    assert out.read_text() == "  \n\n \n"
    assert main([*SEARCH, "--out", str(out), "--force"]) in (0, 1)                     # control: started over
    assert json.loads(out.read_text().splitlines()[0])["type"] == "header"
    capsys.readouterr()
    assert main([*SEARCH, "--out", str(out), "--resume"]) in (0, 1)                    # and it resumes
    assert json.loads(capsys.readouterr().out)["skipped_already_done"] == 2


_HOLDER = textwrap.dedent("""
    import sys, time
    from posreal.runtime.output_files import AppendLog
    log = AppendLog(sys.argv[1])
    print("locked", flush=True)
    time.sleep(60)
""")


@pytest.mark.subprocess
def test_a_second_concurrent_resume_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Another process holds the results file (as a running --resume does): this resume is refused."""
    out = tmp_path / "r.jsonl"
    assert main([*SEARCH, "--out", str(out)]) in (0, 1)
    before = out.read_bytes()
    capsys.readouterr()
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(out)], stdout=subprocess.PIPE, text=True,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert main([*SEARCH, "--out", str(out), "--resume"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "another run is writing it" in err
        assert out.read_bytes() == before
    finally:
        holder.kill()
        holder.wait(timeout=30)
    time.sleep(0.1)
    assert main([*SEARCH, "--out", str(out), "--resume"]) in (0, 1)                   # control: free again
    capsys.readouterr()


def test_a_second_experiment_run_in_a_locked_directory_is_refused(tmp_path: Path) -> None:
    from posreal.experiment.grid import QUICK
    from posreal.experiment.runner import RECORDS, _prepare
    from posreal.theory.errors import SpecError
    _, first = _prepare(tmp_path, QUICK, resume=True)
    try:
        with pytest.raises(SpecError, match="another run is writing it"):
            _prepare(tmp_path, QUICK, resume=True)
    finally:
        first.close()
    (tmp_path / RECORDS).write_text('{"partial": ')
    with pytest.raises(SpecError, match=f"already holds {RECORDS}.*--force to start it over"):
        _prepare(tmp_path, QUICK, resume=False)
    records, log = _prepare(tmp_path, QUICK, resume=False, force=True)               # control: started over
    log.close()
    assert records == [] and (tmp_path / RECORDS).read_text() == ""


def test_exported_obligations_are_not_replaced_without_force(tmp_path: Path) -> None:
    from posreal.checks.smt.obligations import write_obligations

    @dataclass
    class _Obligation:
        filename: str
        body: str

        def text(self) -> str:
            return self.body

    (path,) = write_obligations([_Obligation("a.smt2", "(check-sat)\n")], tmp_path)
    assert write_obligations([_Obligation("a.smt2", "(check-sat)\n")], tmp_path) == [path]   # the same: fine
    path.write_text("; edited by hand\n")
    with pytest.raises(OutputFileError, match="it exists"):
        write_obligations([_Obligation("a.smt2", "(check-sat)\n")], tmp_path)
    assert path.read_text() == "; edited by hand\n"
    write_obligations([_Obligation("a.smt2", "(check-sat)\n")], tmp_path, force=True)
    assert path.read_text() == "(check-sat)\n"


def test_exit_74_is_documented_in_the_readme_and_the_cli_page() -> None:
    assert "74" in (ROOT / "README.md").read_text(encoding="utf-8").split("xit code", 1)[1][:600]
    assert "74" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split("Exit codes", 1)[1][:600]


def test_force_never_starts_over_a_file_another_run_is_writing(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "r.jsonl"
    assert main([*SEARCH, "--out", str(out)]) in (0, 1)
    before = out.read_bytes()
    capsys.readouterr()
    with AppendLog(out):                                   # a run holding it
        assert main([*SEARCH, "--out", str(out), "--force"]) == 2
        assert "another run is writing it" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert main([*SEARCH, "--out", str(out), "--force"]) in (0, 1)                   # control: free, started over
    capsys.readouterr()


def test_search_colspan_out_on_a_full_disk_exits_74_and_keeps_the_old_bundle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """S2: ``search colspan --out b.json`` on a full disk left 4,096 bytes of truncated JSON and said exit 2.
    Now: exit 74, one line naming the file, the previous bundle intact, no temporary file left.  The search is
    replaced by the shipped certificates of each kind (what it would find); the control writes them."""
    from posreal.counterexamples import colspan

    @dataclass
    class Stats:
        def to_json(self) -> dict:
            return {}

    shipped = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted((ROOT / "counterexamples" / "certificates").glob("*.json"))]
    static = [c for c in shipped if c["kind"] == "static-colspan"]
    dynamic = [c for c in shipped if c["kind"] == "dynamic-colspan"]
    assert static and dynamic
    monkeypatch.setattr(colspan, "find_static", lambda: (static, Stats()))
    monkeypatch.setattr(colspan, "find_dynamic", lambda **kwargs: (dynamic, Stats()))
    monkeypatch.chdir(tmp_path)                      # a short path: messages shorten paths past 80 characters
    out = Path("b.json")
    out.write_text("previous bundle\n")
    with monkeypatch.context() as full:
        full.setattr(output_files.os, "fsync", _enospc)
        assert main(["search", "colspan", "--out", str(out), "--force", "--json"]) == EXIT_IO
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(out) in err and "No space left on device" in err, err
    assert out.read_text() == "previous bundle\n" and _listing(tmp_path) == ["b.json"]
    assert main(["search", "colspan", "--out", str(out), "--force", "--json"]) == 0      # control: the disk has room
    assert json.loads(out.read_text())["certificates"] and _listing(tmp_path) == ["b.json"]
    capsys.readouterr()
