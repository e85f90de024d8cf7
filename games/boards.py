"""Bitboards on square and rhombus (Hex) boards: cells, lines of k, symmetries, canonical forms.

A board of ``n x n`` cells is one integer whose bit ``r * n + c`` is the cell in row ``r``,
column ``c`` (row 0 on top).  A symmetry is a permutation of the cells, given as an int64 array
``perm`` with ``perm[i]`` the cell that cell ``i`` goes to; a group of symmetries is an array of
shape ``(m, n * n)`` whose first row is the identity.

* A square board has the 8 symmetries of the square (``square_symmetries``): the identity,
  the rotations by 90, 180 and 270 degrees, and the reflections in the two axes and the two
  diagonals.
* A Hex board is a rhombus: cell ``(r, c)`` touches ``(r, c +- 1)``, ``(r +- 1, c)``,
  ``(r - 1, c + 1)`` and ``(r + 1, c - 1)``.  Its symmetries that keep each player's pair of
  sides are the identity and the rotation by 180 degrees (``hex_symmetries``).  The reflection
  in the long diagonal, ``(r, c) -> (c, r)``, keeps the adjacency but swaps the two pairs of
  sides: with the colours swapped too it maps a position to an equivalent one for the *other*
  player, so it is documented here but not part of the group.

Examples
--------
>>> perms = square_symmetries(3)
>>> perms.shape
(8, 9)
>>> canonical_board(0b000000100, perms)  # a corner stone: its least image is the top-left corner
1
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = [
    "MAX_BITS", "square_lines", "square_symmetries", "hex_symmetries", "permute_bits",
    "canonical_board", "popcount", "board_array", "check_board_size", "has_line", "bit_planes", "mover_planes",
]

MAX_BITS = 62  # a position's coordinates, packed together, must fit a non-negative int64 key


def check_board_size(n, what: str, largest: int) -> int:
    """Check a board side: an integer in ``[1, largest]``; ``what`` names the game in the message.

    Examples
    --------
    >>> check_board_size(4, "hex", 7)
    4
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"{what}: n must be an integer board side, got {n!r}")
    if n < 1:
        raise ValueError(f"{what}: n must be at least 1, got n={n}; use n >= 1")
    if n > largest:
        raise ValueError(f"{what}: n={n} is too large for a bitboard position; use n <= {largest}")
    return int(n)


def square_lines(n: int, k: int) -> np.ndarray:
    """Masks of every line of ``k`` consecutive cells (row, column, both diagonals) on an n x n board.

    Examples
    --------
    >>> [bin(m) for m in square_lines(2, 2)]
    ['0b11', '0b101', '0b1001', '0b1010', '0b110', '0b1100']
    """
    masks = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < n and 0 <= b < n for a, b in cells):
                    masks.append(sum(1 << (a * n + b) for a, b in cells))
    return np.array(masks, dtype=np.int64)


def _perm(n: int, image) -> np.ndarray:
    return np.array([image(i // n, i % n) for i in range(n * n)], dtype=np.int64)


def square_symmetries(n: int) -> np.ndarray:
    """The 8 symmetries of an n x n square board as cell permutations, identity first.

    Examples
    --------
    >>> square_symmetries(2).tolist()[:2]
    [[0, 1, 2, 3], [1, 3, 0, 2]]
    """
    m = n - 1
    images = [
        lambda r, c: r * n + c,              # identity
        lambda r, c: c * n + (m - r),        # rotation by 90 degrees
        lambda r, c: (m - r) * n + (m - c),  # rotation by 180 degrees
        lambda r, c: (m - c) * n + r,        # rotation by 270 degrees
        lambda r, c: r * n + (m - c),        # reflection left-right
        lambda r, c: (m - r) * n + c,        # reflection top-bottom
        lambda r, c: c * n + r,              # reflection in the main diagonal
        lambda r, c: (m - c) * n + (m - r),  # reflection in the anti-diagonal
    ]
    return np.stack([_perm(n, f) for f in images])


def hex_symmetries(n: int) -> np.ndarray:
    """The 2 symmetries of an n x n Hex rhombus that keep each player's sides: identity, 180 degrees.

    Examples
    --------
    >>> hex_symmetries(2).tolist()
    [[0, 1, 2, 3], [3, 2, 1, 0]]
    """
    m = n - 1
    return np.stack([_perm(n, lambda r, c: r * n + c), _perm(n, lambda r, c: (m - r) * n + (m - c))])


@nb.njit(cache=True, nogil=True)
def popcount(x):
    """Number of set bits of a non-negative int64 (a constant number of steps: the bit-sliced sum).

    Examples
    --------
    >>> popcount(0b1011), popcount((1 << 62) | 1)
    (3, 2)
    """
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@nb.njit(cache=True, nogil=True)
def has_line(bits, lines):
    """True when the bitboard ``bits`` holds one of the line masks (a Notakto board is then dead)."""
    for m in lines:
        if bits & m == m:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def permute_bits(bits, perm):
    """The bitboard whose cell ``perm[i]`` is set exactly when cell ``i`` of ``bits`` is set."""
    out = 0
    rest = bits
    i = 0
    while rest:
        if rest & 1:
            out |= np.int64(1) << perm[i]
        rest >>= 1
        i += 1
    return out


@nb.njit(cache=True, nogil=True)
def canonical_board(bits, perms):
    """The least image of a bitboard under a group of symmetries (rows of ``perms``)."""
    best = bits
    for s in range(1, perms.shape[0]):
        image = permute_bits(bits, perms[s])
        if image < best:
            best = image
    return best


def board_array(position, n: int) -> np.ndarray:
    """An n x n int array of a position: 1 for the first coordinate's stones, 2 for the second's, ...

    Examples
    --------
    >>> board_array((0b0001, 0b1000), 2).tolist()
    [[1, 0], [0, 2]]
    """
    board = np.zeros(n * n, dtype=np.int64)
    for player, bits in enumerate(position):
        bits = int(bits)
        for i in range(n * n):
            if bits >> i & 1:
                board[i] = player + 1
    return board.reshape(n, n)


def bit_planes(values, cells: int) -> np.ndarray:
    """The bits of each integer of ``values`` as floats: shape ``values.shape + (cells,)``, low bit first.

    Examples
    --------
    >>> bit_planes(np.array([5]), 4).tolist()
    [[1.0, 0.0, 1.0, 0.0]]
    """
    return ((np.asarray(values, dtype=np.int64)[..., None] >> np.arange(cells, dtype=np.int64)) & 1).astype(np.float32)


def mover_planes(positions, n: int, reflect: bool) -> np.ndarray:
    """Two-player boards (one bitboard per player): the mover's stones, the opponent's, a plane of ones.

    The first player is to move when both have as many stones. With ``reflect`` (Hex) the board is
    reflected in its long diagonal when the second player is to move, so the planes always show a
    player who joins top and bottom. Shape ``(m, 3, n, n)``.

    Examples
    --------
    >>> mover_planes(np.array([[1, 0]]), 2, reflect=False)[0, :2].tolist()  # the second player to move
    [[[0.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 0.0]]]
    """
    P = np.asarray(positions, dtype=np.int64).reshape(-1, 2)
    m = P.shape[0]
    second = np.bitwise_count(P[:, 0]) != np.bitwise_count(P[:, 1])
    out = np.ones((m, 3, n, n), dtype=np.float32)
    out[:, 0] = bit_planes(np.where(second, P[:, 1], P[:, 0]), n * n).reshape(m, n, n)
    out[:, 1] = bit_planes(np.where(second, P[:, 0], P[:, 1]), n * n).reshape(m, n, n)
    if reflect and second.any():
        out[second, :2] = out[second, :2].transpose(0, 1, 3, 2)
    return out
