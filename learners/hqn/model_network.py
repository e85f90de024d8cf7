"""The HQN paper's Model-Network: a small feed-forward classifier of cold (P) and hot (N) positions.

One hidden layer of sigmoid units, a sigmoid output, cross-entropy loss, Adam steps; as in the paper, the error limit and the iteration cap are drawn at random for each
model (so over- and under-fitted models both occur and play decides between them).  Inputs
are the coordinates divided by the training bound, so a model trained on a 12 x 12 board
can be asked about any board.  torch is imported here only.
"""

from __future__ import annotations

import numpy as np

from cgbase.optional import torch_module

__all__ = ["NeuralModelBuilder", "NeuralModel"]


class NeuralModel:
    """A trained network; ``cold(positions)`` says which positions it believes are P."""

    def __init__(self, net, scale: float, epochs: int, loss: float):
        self.net, self.scale, self.epochs, self.loss = net, scale, epochs, loss

    def cold_probability(self, positions) -> np.ndarray:
        torch = torch_module("the neural model network")
        x = torch.as_tensor(np.asarray(positions, dtype=np.float32) / self.scale)
        with torch.no_grad():
            return torch.sigmoid(self.net(x)).numpy().ravel()

    def cold(self, positions) -> np.ndarray:
        return self.cold_probability(positions) > 0.5

    def describe(self) -> str:
        return f"network ({self.epochs} epochs, cross-entropy {self.loss:.3f})"


class NeuralModelBuilder:
    """Builds ``NeuralModel`` s from labelled positions (the HQN paper's ``modelBuild``).

    Examples
    --------
    >>> positions = np.array([[a, b] for a in range(8) for b in range(8)])
    >>> model = NeuralModelBuilder(hidden=8).build(None, positions, positions[:, 0] == positions[:, 1], None, 7,
    ...                                           np.random.default_rng(0))
    >>> model.cold([[3, 3], [0, 7]]).tolist()
    [True, False]
    """

    name = "neural"

    def __init__(self, hidden: int = 16, learning_rate: float = 0.5, error_limit=(0.005, 0.05),
                 iterations=(500, 3000)):
        self.hidden, self.learning_rate = hidden, learning_rate
        self.error_limit, self.iterations = error_limit, iterations

    def build(self, game, positions, cold, weights, bound: int, rng: np.random.Generator) -> NeuralModel:
        """Train a fresh network on ``positions`` labelled ``cold`` (weights: per-row confidence)."""
        torch = torch_module("the neural model network")
        torch.set_num_threads(1)  # a network this small runs fastest on one thread
        torch.manual_seed(int(rng.integers(2**31)))
        dims = np.asarray(positions).shape[1]
        net = torch.nn.Sequential(torch.nn.Linear(dims, self.hidden), torch.nn.Sigmoid(),
                                  torch.nn.Linear(self.hidden, 1))
        x = torch.as_tensor(np.asarray(positions, dtype=np.float32) / bound)
        y = torch.as_tensor(np.asarray(cold, dtype=np.float32)).reshape(-1, 1)
        w = None if weights is None else torch.as_tensor(np.asarray(weights, dtype=np.float32)).reshape(-1, 1)
        limit = float(rng.uniform(*self.error_limit))
        cap = int(rng.integers(self.iterations[0], self.iterations[1] + 1))
        optimiser = torch.optim.Adam(net.parameters(), lr=self.learning_rate * 0.1)
        loss_fn = torch.nn.BCEWithLogitsLoss(weight=w)
        loss = torch.tensor(float("inf"))
        epoch = 0
        for epoch in range(1, cap + 1):
            optimiser.zero_grad()
            loss = loss_fn(net(x), y)
            loss.backward()
            optimiser.step()
            if loss.item() < limit:
                break
        return NeuralModel(net, float(bound), epoch, float(loss.item()))
