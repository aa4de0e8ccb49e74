"""posreal's runtime: the machinery every command runs on, none of it mathematics.

Modules: :mod:`~posreal.runtime.resources` (the memory and work budget, bounded input files, the
``--max-memory`` / ``--max-work`` budgets), :mod:`~posreal.runtime.executors` (process pools and Dask
clusters for ``--jobs`` / ``--scheduler``), :mod:`~posreal.runtime.output_files` (atomic writes, ``--force``,
the lock of a resumed results file), :mod:`~posreal.runtime.user_code` (running a user's ``py:`` function
inside the error contract), :mod:`~posreal.runtime.provenance` (tool versions for certificates and pages),
:mod:`~posreal.runtime.markdown` (the Markdown tables and provenance lines of the reports) and
:mod:`~posreal.runtime.scipy_lazy` (SciPy imported on first use, for start-up time).

Layering: the runtime imports no posreal package but two standard-library leaf modules of the theory,
:mod:`posreal.theory.errors` (the error types every command reports) and :mod:`posreal.theory.modes` (the
arithmetic mode a memory estimate depends on); tests/test_import_layers.py keeps it so.  The figures of the
theory are :mod:`posreal.plots`.
"""
