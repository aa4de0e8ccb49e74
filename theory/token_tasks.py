"""Token tasks: tasks whose targets depend on the tokens, kept apart from the positional registry.

Main definitions (definitions.md#what-escapes):

* tokens x = (x_0..x_{n-1}) over a vocabulary; a token task gives, for a token sequence, scored rows
  and a target key per row;
* ``match``: rows i whose token occurred before (some j < i with x_j = x_i); target = the latest
  such j (:class:`Match`);
* ``induction``: length n = 2m + 1 with m >= 2; position 0 holds a BOS token equal to no other,
  positions 1..m hold distinct tokens and x_{m+k} = x_k (k = 1..m); rows i in [m + 1, 2m - 1];
  target t(i) = i - m + 1, the key right after the earlier occurrence of x_i (:class:`Induction`,
  :func:`induction_layout`).  As a positional task it is the growing offset m - 1.

Spec strings are parsed only by :func:`parse_token_task` (a malformed spec, or ``induction`` at a
length that is not 2m + 1 with m >= 2, is a one-line :class:`~posreal.theory.errors.SpecError`);
the positional parser :func:`posreal.theory.tasks.parse_task` refuses these names (one line naming
what it accepts).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.errors import SpecError, bad_value

TOKEN_TASK_NAMES = ("match", "induction")
TOKEN_TASK_FORMS = "match, induction (token tasks; no arguments)"
BOS = -1
"""The BOS token of the ``induction`` layout (equal to no vocabulary token, which are >= 0)."""


@dataclass(frozen=True)
class InductionLayout:
    """The ``induction`` grid of length n = 2m + 1: its scored rows and their targets."""

    length: int
    half: int                 # m
    rows: np.ndarray          # (m - 1,) rows m+1 .. 2m-1
    targets: np.ndarray       # (m - 1,) t(i) = i - m + 1

    @property
    def sources(self) -> np.ndarray:
        """The earlier occurrence of each row's token, s(i) = i - m: (m - 1,)."""
        return self.rows - self.half


def induction_layout(length: object) -> InductionLayout:
    """Rows and targets of ``induction`` at ``length``; a one-line SpecError unless length = 2m + 1, m >= 2."""
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 5 or length % 2 == 0:
        raise bad_value("length for induction", length,
                        "an odd length n = 2m + 1 with m >= 2 (the layout needs n = 2m + 1: BOS, m tokens, "
                        "their repeat)")
    m = (int(length) - 1) // 2
    rows = np.arange(m + 1, 2 * m, dtype=np.int64)     # (m - 1,)
    return InductionLayout(int(length), m, rows, rows - m + 1)


class TokenTask:
    """A task whose scored rows and targets depend on the token sequence."""

    name = ""

    def rows_and_targets(self, tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scored rows (ascending) and their targets for one token sequence (n,): (r,), (r,)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Match(TokenTask):
    """Rows whose token occurred before; target = the latest earlier occurrence."""

    name = "match"

    def rows_and_targets(self, tokens):
        x = np.asarray(tokens)                               # (n,)
        rows, targets = [], []
        last: dict[int, int] = {}
        for i, tok in enumerate(x.tolist()):
            if tok in last:
                rows.append(i)
                targets.append(last[tok])
            last[tok] = i
        return np.array(rows, dtype=np.int64), np.array(targets, dtype=np.int64)


@dataclass(frozen=True)
class Induction(TokenTask):
    """The induction layout (BOS, m distinct tokens, their repeat); rows m+1..2m-1, target i - m + 1."""

    name = "induction"

    def rows_and_targets(self, tokens):
        x = np.asarray(tokens)                               # (n,)
        layout = induction_layout(int(x.size))
        check_induction_tokens(x)
        return layout.rows, layout.targets


def check_induction_tokens(tokens: np.ndarray) -> None:
    """A SpecError unless ``tokens`` follows the layout: BOS at 0 only, x_1..x_m distinct, x_{m+k} = x_k."""
    x = np.asarray(tokens)                                   # (n,)
    m = induction_layout(int(x.size)).half
    first = x[1:m + 1]                                       # (m,)
    ok = (x[0] == BOS and not np.any(x[1:] == BOS) and np.unique(first).size == m
          and np.array_equal(x[m + 1:], first))
    if not ok:
        raise SpecError(f"invalid induction tokens of length {x.size}; accepted: BOS ({BOS}) at 0, m distinct "
                        "tokens >= 0 at 1..m, their repeat at m+1..2m")


def induction_tokens(length: int, vocab: int, rng: np.random.Generator) -> np.ndarray:
    """A random sequence of the induction layout: (n,) with m distinct tokens drawn from {0..vocab-1}."""
    m = induction_layout(length).half
    if vocab < m:
        raise bad_value("vocabulary size", vocab, f"at least m = {m} (the first half holds distinct tokens)")
    first = rng.choice(vocab, size=m, replace=False)        # (m,)
    return np.concatenate(([BOS], first, first)).astype(np.int64)


_TASKS = {"match": Match(), "induction": Induction()}


def is_token_task(spec: object) -> bool:
    """Whether ``spec`` names a token task (possibly malformed, e.g. ``induction:3``)."""
    return isinstance(spec, TokenTask) or (isinstance(spec, str)
                                           and spec.strip().partition(":")[0] in TOKEN_TASK_NAMES)


def parse_token_task(spec: object) -> TokenTask:
    """The token task of a spec string (the only parser of token-task specs); one-line SpecError otherwise."""
    if isinstance(spec, TokenTask):
        return spec
    if isinstance(spec, str) and spec.strip() in _TASKS:
        return _TASKS[spec.strip()]
    raise bad_value("token task", spec, TOKEN_TASK_FORMS)
