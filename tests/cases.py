"""Shared case table: the registry cells and reference values of α_L (definitions.md#transfer-coefficient).

The reference values were computed independently of this project (not by its code) and
are quoted there to three decimals; tests recompute them from the code and compare at the
quoted precision.  Several test files use this one table.
"""

from posreal.theory.defaults import REGISTRY_PES
from posreal.theory.defaults import REGISTRY_TASKS

TRAIN_LENGTH = 16
LENGTHS = (32, 64, 128, 256)

# (pe, task) -> α at LENGTHS, the independent reference values (None: not realizable at L0)
REFERENCE_ALPHA = {
    ("relbias", "offset:1"): ("1", "1", "1", "1"),
    ("relbias", "position:0"): (".5", ".25", ".125", ".0625"),
    ("rope:16", "offset:1"): ("1", "1", "1", ".690"),
    ("abscol:16", "position:0"): ("1", ".578", ".289", ".145"),
    ("abssin:16", "copy"): ("0", "0", "0", "0"),
    ("alibi", "position:0"): ("1", "1", "1", "1"),
    ("relbias", "reverse"): None,
    ("rope:16", "position:1"): None,
}

REGISTRY_CELLS = [(pe, task) for pe in REGISTRY_PES for task in REGISTRY_TASKS]
RATIONAL_PES = ("nope", "relbias", "alibi", "colbias")
SINUSOIDAL_PES = ("rope:16", "abssin:16", "abscol:16")
# cells on which gradient descent is expected to align with θ* quickly (at least 3 cells)
GD_CELLS = (("relbias", "offset:1"), ("colbias", "position:0"), ("rope:16", "offset:1"),
            ("abscol:16", "position:0"))


def quoted_decimals(text: str) -> int:
    """Number of decimals a reference value is quoted with ("1" -> 0, ".690" -> 3)."""
    return len(text.split(".")[1]) if "." in text else 0

# Length extensions (definitions.md#length-extension): rope:32 at L0 = 32, L = 1024, independent reference values
# per method, for offset:1 / offset:8 / position:0 / copy (quoted to three decimals).
EXTENSION_CELL = ("rope:32", 32, 1024)
EXTENSION_TASKS = ("offset:1", "offset:8", "position:0", "copy")
REFERENCE_EXTENSION = {
    "none": ("1", "1", ".039", "0"),
    "pi": (".001", ".001", "1", "1"),
    "ntk": ("1", ".155", ".108", "0"),
    "yarn": (".001", ".001", "1", "0"),
}
