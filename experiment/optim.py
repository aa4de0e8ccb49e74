"""Adam (Kingma & Ba 2015) in numpy, over a dict of named parameter arrays.

Main definition: m ← β1 m + (1-β1) g, v ← β2 v + (1-β2) g², θ ← θ - η m̂ / (√v̂ + ε) with the
bias corrections m̂ = m / (1-β1^k), v̂ = v / (1-β2^k).  Updates are in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Adam:
    lr: float = 1e-2
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    step_count: int = 0
    m: dict[str, np.ndarray] = field(default_factory=dict)
    v: dict[str, np.ndarray] = field(default_factory=dict)

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        """One update of every parameter in ``params`` (in place) from ``grads`` (same shapes)."""
        self.step_count += 1
        k = self.step_count
        c1 = 1.0 - self.beta1 ** k
        c2 = 1.0 - self.beta2 ** k
        for name, g in grads.items():
            if name not in self.m:
                self.m[name] = np.zeros_like(g)
                self.v[name] = np.zeros_like(g)
            m, v = self.m[name], self.v[name]
            m *= self.beta1
            m += (1.0 - self.beta1) * g
            v *= self.beta2
            v += (1.0 - self.beta2) * (g * g)
            params[name] -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)
