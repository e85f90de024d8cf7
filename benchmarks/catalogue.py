"""The catalogue of games the discovery benchmarks run (``discover.py``, ``commands.py``): one ``Case`` each.

Imported by the scripts once the project's packages are on the path (``sys.path.append`` of this folder).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import make_game

__all__ = ["Case", "CASES", "catalogue"]


@dataclass(frozen=True)
class Case:
    """One catalogue game: a key for ``--cases``, a label, the game and the rule to expect."""

    key: str
    label: str
    game: str
    params: dict = field(default_factory=dict)
    expect: str = ""
    control: bool = False  # a negative control: no rule should verify
    budget: dict = field(default_factory=dict)  # find_rule's take-and-break budget (heaps), a CLI option too

    def make(self):
        return make_game(self.game, **self.params)

    def words(self) -> list[str]:
        """The game as ``discover`` takes it: its name, its ``name=value`` words and its budget options.

        Examples
        --------
        >>> Case("sub134", "subtraction {1,3,4}", "subtraction", {"subtract": (1, 3, 4)}).words()
        ['subtraction', 'subtract=1,3,4']
        """
        params = [f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else str(v).lower()}"
                  for k, v in self.params.items()]
        options = [word for k, v in self.budget.items() for word in (f"--{k}", str(v))]
        return [self.game, *params, *options]


CASES = [
    Case("nim2", "Nim, 2 heaps", "nim", {"heaps": 2}, "a xor b = 0"),
    Case("nim3", "Nim, 3 heaps", "nim", {"heaps": 3}, "xor of all = 0"),
    Case("nim4", "Nim, 4 heaps", "nim", {"heaps": 4}, "xor of all = 0"),
    Case("nim5", "Nim, 5 heaps", "nim", {"heaps": 5}, "xor of all = 0"),
    Case("misere3", "misere Nim, 3 heaps", "nim", {"heaps": 3, "misere": True},
         "if max <= 1: xor = 1, else xor = 0"),
    Case("misere4", "misere Nim, 4 heaps", "nim", {"heaps": 4, "misere": True},
         "if max <= 1: xor = 1, else xor = 0"),
    Case("wythoff", "Wythoff", "wythoff", {}, "min(a, b) = floor(phi |a - b|)"),
    Case("euclid", "Euclid", "euclid", {}, "a zero coordinate, or a != b and max <= floor(phi min)"),
    Case("sub123", "subtraction {1,2,3}", "subtraction", {"subtract": (1, 2, 3)}, "n mod 4 = 0"),
    Case("sub134", "subtraction {1,3,4}", "subtraction", {"subtract": (1, 3, 4)}, "n mod 7 in {0, 2}"),
    Case("sub237", "subtraction {2,3,7}", "subtraction", {"subtract": (2, 3, 7)}, "n mod 5 in {0, 1}"),
    Case("kayles", "Kayles (octal 0.77), Grundy", "octal", {"code": "0.77"},
         "period 12 from n = 71, exceptions listed"),
    Case("lasker", "Lasker's Nim, Grundy", "lasker", {}, "n - 1 / n / n / n + 1 by n mod 4"),
    Case("chomp2", "Chomp, 2 rows", "chomp", {"rows": 2}, "a = b + 1"),
    Case("moore3", "STRETCH Moore Nim_2, 3 heaps", "moore", {"heaps": 3, "k": 2},
         "digit sums mod 3 = 0, i.e. all heaps equal on 3 heaps"),
    Case("moore4", "STRETCH Moore Nim_2, 4 heaps", "moore", {"heaps": 4, "k": 2},
         "every binary digit column sum divisible by 3"),
    Case("grundy_game", "CONTROL Grundy's game", "grundy_game", {}, "no rule known: none may verify",
         control=True, budget={"heaps": 1 << 17}),  # the default budget runs 540 s
    Case("wythoff_nd3", "CONTROL Wythoff, 3 heaps", "wythoff_nd", {"heaps": 3},
         "no rule known: none may verify", control=True),
]


def catalogue(case: Case) -> bool:
    """Whether a case is one of the catalogue's games proper (neither a stretch goal nor a negative control)."""
    return not case.control and not case.label.startswith("STRETCH")
