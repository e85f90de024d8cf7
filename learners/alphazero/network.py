"""AlphaZero's policy-value network over afterstates, its loss and its training step.

One network ``f`` maps an encoded position ``x`` (``learners.encoders``, seen by the player to
move there) to two numbers: ``v(x) = tanh(out[0])``, the value of ``x`` for the player to move,
and ``l(x) = out[1]``, a logit.  The policy at a position ``s`` with options ``s_1 .. s_k``
(the positions its moves lead to: its *afterstates*) is ``p(a | s) = softmax_a l(s_a)``, so one
network serves every game whatever its moves: Nim's "take t from heap i", a Hex stone or a
Notakto mark on any of several boards are all just the position they lead to.  Evaluating a
leaf ``s`` of the search is one batched call on ``[s, s_1, .., s_k]``, which also gives the
values ``v(s_a)`` of its children (the search starts their Q from ``-v(s_a)``).

Networks: ``"mlp"`` (the encoding flattened, ReLU layers of ``hidden`` units) and ``"conv"``
(``layers`` 3 x 3 convolutions of ``channels`` filters over the planes of a board game, then
one ReLU layer of ``hidden[0]`` units); both end in a linear layer with the two outputs.

The loss of a batch of samples ``(s, options, pi, z)`` is the Notakto paper's (and Silver et al.'s)
``mean (z - v(s))^2 - mean sum_a pi_a log p(a | s)``; weight decay is the optimiser's
(Adam's L2 term).  torch is imported here only, when a network is built.
"""

from __future__ import annotations

import math

import numpy as np

from cgbase.memory import check_memory
from cgbase.optional import torch_module

__all__ = ["build_network", "PolicyValue", "NETWORKS", "BYTES_PER_WEIGHT"]

NETWORKS = ("mlp", "conv")
BYTES_PER_WEIGHT = 16  # float32 weight, its gradient and Adam's two moments: a network is refused beyond memory


def build_network(kind: str, shape: tuple[int, ...], hidden=(64, 64), channels: int = 32, layers: int = 3):
    """A fresh ``torch.nn.Sequential`` from encoded positions of ``shape`` to (value logit, policy logit).

    Examples
    --------
    >>> net = build_network("conv", (3, 5, 5), hidden=(32,), channels=8, layers=2)
    >>> sum(p.numel() for p in net.parameters())
    7306
    """
    hidden = tuple(int(h) for h in hidden)
    check_memory(BYTES_PER_WEIGHT * _weights(kind, shape, hidden, channels, layers),
                 f"a {kind} network of hidden widths {','.join(map(str, hidden))} on inputs of shape {shape}",
                 "use narrower layers (hidden) or fewer channels")
    torch = torch_module("AlphaZero")
    nn = torch.nn
    if kind == "mlp":
        width = int(np.prod(shape))
        modules: list = [nn.Flatten()]
        for h in hidden:
            modules += [nn.Linear(width, h), nn.ReLU()]
            width = h
        modules.append(nn.Linear(width, 2))
        return nn.Sequential(*modules)
    if kind == "conv":
        if len(shape) != 3:
            raise ValueError(f"a conv network reads board planes (planes, n, n), not inputs of shape {shape}: "
                             f"use network='mlp'")
        planes, n, _ = shape
        modules = []
        for i in range(layers):
            modules += [nn.Conv2d(planes if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        top = hidden[0] if hidden else 64
        modules += [nn.Flatten(), nn.Linear(channels * n * n, top), nn.ReLU(), nn.Linear(top, 2)]
        return nn.Sequential(*modules)
    raise ValueError(f"unknown network {kind!r}: use one of {', '.join(NETWORKS)}")


def _weights(kind: str, shape: tuple[int, ...], hidden: tuple[int, ...], channels: int, layers: int) -> int:
    """The number of weights ``build_network`` would make (an exact int, however large)."""
    if kind == "conv" and len(shape) == 3:
        planes, n, _ = shape
        top = hidden[0] if hidden else 64
        convs = sum(((planes if i == 0 else channels) * 9 + 1) * channels for i in range(layers))
        return convs + (channels * n * n + 1) * top + (top + 1) * 2
    widths = [math.prod(shape), *hidden, 2]
    return sum((a + 1) * b for a, b in zip(widths, widths[1:]))


class PolicyValue:
    """A network with its encoder: evaluation for the search, and the training step.

    Parameters
    ----------
    net : torch.nn.Module
    encoder : learners.encoders.Encoder
    device : str
        ``"cpu"`` or ``"cuda"``.
    """

    def __init__(self, net, encoder, device: str = "cpu"):
        self.torch = torch_module("AlphaZero")
        self.net, self.encoder, self.device = net.to(device), encoder, device

    def outputs(self, positions) -> tuple[np.ndarray, np.ndarray]:
        """``(v, l)`` of an (m, dims) array of positions: values for the player to move, and logits."""
        torch = self.torch
        positions = np.asarray(positions, dtype=np.int64)
        if positions.shape[0] == 0:
            return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.float32)
        with torch.inference_mode():
            out = self.net(torch.from_numpy(self.encoder(positions)).to(self.device))
            out = out.float().cpu().numpy()
        return np.tanh(out[:, 0]), out[:, 1]

    def outputs_chunked(self, positions, chunk: int = 65536) -> tuple[np.ndarray, np.ndarray]:
        """``outputs`` over a long array, a chunk at a time."""
        parts = [self.outputs(positions[i:i + chunk]) for i in range(0, len(positions), chunk)]
        if not parts:
            return self.outputs(positions)
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def evaluate(self, leaves, options) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the search: the leaves' values, their options' logits and the options' Q from the mover's side."""
        v, logit = self.outputs(np.concatenate([leaves, options]) if len(options) else leaves)
        n = len(leaves)
        return v[:n], logit[n:], -v[n:]

    def loss(self, positions, options, counts, pi, z):
        """The batch loss ``(value part, policy part)`` as tensors (see the module docstring).

        ``options`` holds the options of every sample one after another (``counts[i]`` of sample
        ``i``), ``pi`` the target probabilities padded to (batch, widest).
        """
        torch = self.torch
        b = len(positions)
        x = torch.from_numpy(self.encoder(np.concatenate([positions, options]))).to(self.device)
        out = self.net(x)
        v = torch.tanh(out[:b, 0])
        width = pi.shape[1]
        mask = np.arange(width)[None, :] < counts[:, None]
        logits = torch.full((b, width), -1e9, device=self.device)
        logits[torch.from_numpy(mask).to(self.device)] = out[b:, 1]
        logp = torch.log_softmax(logits, dim=1)
        target = torch.from_numpy(pi).to(self.device)
        value_loss = ((torch.from_numpy(z).to(self.device) - v) ** 2).mean()
        policy_loss = -(target * logp).sum(dim=1).mean()
        return value_loss, policy_loss

    def state(self) -> dict:
        """The network's weights as numpy arrays (for checkpoints and snapshots)."""
        return {k: v.detach().cpu().numpy().copy() for k, v in self.net.state_dict().items()}

    def load_state(self, state: dict) -> None:
        torch = self.torch
        self.net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in state.items()})
