"""The convolutional network of the Hex exploration paper: hexagonal filters, shared lower layers, a tower per head.

``layers`` convolutions of ``width`` filters with ReLU and "same" zero padding: the first of diameter
``first_diameter`` (5 in the paper), the others of diameter 3.  The last ``head_layers`` of them are
repeated for each head (the paper's Q and Q_exp networks share all but their top layers), and each
head ends in a 1 x 1 convolution to one output plane per move plane (``learners.exploration.boards``).
The output is a logit per head and move: ``(positions, heads, planes * n * n)``.

On Hex the filters are hexagonal: a square kernel masked to the cells within hex distance
``(d - 1) / 2`` of its centre.  On the rhombus cell (r, c) touches (r, c +- 1), (r +- 1, c),
(r - 1, c + 1) and (r + 1, c - 1), so the offsets within distance k are those with
``max(|dr|, |dc|, |dr + dc|) <= k``: 7 cells at diameter 3, 19 at diameter 5.  The set is symmetric
under the reflection the encoder applies for Hex's second player.  Other boards get square filters.
torch is imported only when a network is built.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cgbase.optional import torch_module


__all__ = ["hex_kernel_mask", "build_q_network"]


def hex_kernel_mask(diameter: int) -> np.ndarray:
    """The cells of a ``diameter`` x ``diameter`` kernel within hex distance ``(diameter - 1) / 2`` of its centre.

    Examples
    --------
    >>> hex_kernel_mask(3).astype(int).tolist()
    [[0, 1, 1], [1, 1, 1], [1, 1, 0]]
    >>> int(hex_kernel_mask(5).sum())
    19
    """
    if isinstance(diameter, bool) or not isinstance(diameter, (int, np.integer)) or diameter < 1 or diameter % 2 == 0:
        raise ValueError(f"a filter's diameter must be a positive odd integer, got {diameter!r}")
    k = diameter // 2
    dr, dc = np.mgrid[-k:k + 1, -k:k + 1]
    return np.maximum(np.maximum(np.abs(dr), np.abs(dc)), np.abs(dr + dc)) <= k


@cache
def _modules():
    """The network's torch classes, defined on first use (torch is imported lazily)."""
    torch = torch_module("the exploration learner")
    nn, functional = torch.nn, torch.nn.functional

    class MaskedConv(nn.Conv2d):
        """A "same" convolution whose kernel is multiplied by a fixed 0/1 mask."""

        def __init__(self, inputs: int, outputs: int, mask: np.ndarray):
            super().__init__(inputs, outputs, mask.shape[0], padding=mask.shape[0] // 2)
            self.register_buffer("mask", torch.as_tensor(mask, dtype=torch.float32))

        def forward(self, x):
            return functional.conv2d(x, self.weight * self.mask, self.bias, padding=self.padding)

    class QNetwork(nn.Module):
        """A shared trunk, then one tower and a 1 x 1 output convolution per head."""

        def __init__(self, trunk, towers):
            super().__init__()
            self.trunk, self.towers = trunk, nn.ModuleList(towers)

        def forward(self, x):
            shared = self.trunk(x)
            return torch.stack([tower(shared).flatten(1) for tower in self.towers], dim=1)

    return MaskedConv, QNetwork


def build_q_network(shape: tuple[int, int, int], planes: int, *, heads: int = 1, layers: int = 4, width: int = 32,
                    head_layers: int = 1, first_diameter: int = 5, hexagonal: bool = True):
    """A fresh network from encoded boards of ``shape`` (planes, n, n) to ``(m, heads, planes_out * n * n)`` logits.

    Parameters
    ----------
    shape : tuple
        The encoder's (input planes, n, n).
    planes : int
        Output planes (move planes of the game).
    heads : int
        1 (Q) or 2 (Q and Q_exp).
    layers, width : int
        Convolution layers (the first included) and filters per layer.
    head_layers : int
        Top convolution layers repeated per head (0: only the 1 x 1 outputs are apart).
    first_diameter : int
        Diameter of the first layer's filters (the paper: 5; its 5 x 5 runs used 3).
    hexagonal : bool
        Hexagonal filters (Hex) or square ones.

    Examples
    --------
    >>> net = build_q_network((3, 4, 4), 1, heads=2, layers=3, width=8)
    >>> torch = torch_module("the exploration learner")
    >>> tuple(net(torch.zeros(5, 3, 4, 4)).shape)
    (5, 2, 16)
    """
    for name, value, low in (("heads", heads, 1), ("layers", layers, 1), ("width", width, 1), ("planes", planes, 1),
                             ("head_layers", head_layers, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if head_layers >= layers:
        raise ValueError(f"head_layers ({head_layers}) must be fewer than layers ({layers}): the first layer is shared")
    MaskedConv, QNetwork = _modules()
    nn = torch_module("the exploration learner").nn

    def conv(i: int):
        diameter = first_diameter if i == 0 else 3
        mask = hex_kernel_mask(diameter) if hexagonal else np.ones_like(hex_kernel_mask(diameter))
        return [MaskedConv(shape[0] if i == 0 else width, width, mask), nn.ReLU()]

    trunk = nn.Sequential(*[m for i in range(layers - head_layers) for m in conv(i)])
    towers = [nn.Sequential(*[m for i in range(layers - head_layers, layers) for m in conv(i)],
                            nn.Conv2d(width, planes, 1)) for _ in range(heads)]
    return QNetwork(trunk, towers)
