"""AlphaZero's checkpoints: network, optimiser, replay queue, generator state, snapshots and history.

One compressed file (written atomically) holds every array and a JSON record naming the run
(learner, game, bound, start and the fit's budget per iteration).  A fit resumes from it only
when the run matches; as every random draw comes from the saved generator, a resumed fit ends
with exactly the network an uninterrupted fit would.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np

from cgbase.files import atomic_savez, json_text
from cgbase.reading import Field, read_npz
from cgbase.version import __version__

__all__ = ["save_run", "load_run", "META"]

FORMAT = "cgdiscover-alphazero-checkpoint/1"
_COUNT = Field("int", low=0, high=2**53)
#: the meta record: the run's identity, its progress (counts, learning curve with null for rates without games,
#: generator state, clocks, a guided run's rule record), the optimiser's layout and the number of network snapshots
META = {"identity": Field("object"),
        "progress": Field("object", fields={
            "iteration": _COUNT, "games": _COUNT, "history": Field("list", items=Field("object", open=True)),
            "rng": Field("object", open=True, fields={"bit_generator": Field("str"), "state": Field("object")}),
            "elapsed": Field("number", low=0), "cpu": Field("number", low=0),
            "guide": Field("object", required=False, fields={"wins": _COUNT, "games": _COUNT})}),
        "optimizer": Field("object", fields={"layout": Field("object"),
                                             "param_groups": Field("list", items=Field("object", open=True))}),
        "snapshots": Field("int", low=0, high=1000)}


def _optimizer_arrays(state: dict) -> tuple[dict, dict]:
    arrays, layout = {}, {}
    for index, entry in state["state"].items():
        layout[str(index)] = sorted(entry)
        for name, value in entry.items():
            arrays[f"opt/{index}/{name}"] = np.asarray(value.detach().cpu().numpy() if hasattr(value, "detach")
                                                       else value)
    groups = [{k: list(v) if isinstance(v, tuple) else v for k, v in g.items()} for g in state["param_groups"]]
    return arrays, {"layout": layout, "param_groups": groups}


def _optimizer_state(arrays: dict, record: dict, torch) -> dict:
    state = {}
    for index, names in record["layout"].items():
        state[int(index)] = {name: torch.from_numpy(np.array(arrays[f"opt/{index}/{name}"])) for name in names}
    groups = [{k: tuple(v) if k == "betas" else v for k, v in g.items()} for g in record["param_groups"]]
    return {"state": state, "param_groups": groups}


def save_run(path, identity: dict, progress: dict, network: dict, optimizer: dict, replay: dict, snapshots: list,
             extra: dict) -> None:
    """Write a checkpoint.

    ``progress`` is JSON (iteration, games, history, generator state); ``network`` the weights;
    ``optimizer`` the torch optimiser's ``state_dict()``; ``replay`` the queue's arrays;
    ``snapshots`` earlier networks' weights; ``extra`` more named arrays.
    """
    arrays = {f"net/{k}": v for k, v in network.items()}
    opt_arrays, opt_record = _optimizer_arrays(optimizer)
    arrays.update(opt_arrays)
    arrays.update({f"replay/{k}": np.asarray(v) for k, v in replay.items()})
    for i, snap in enumerate(snapshots):
        arrays.update({f"snap/{i}/{k}": v for k, v in snap.items()})
    arrays.update({f"extra/{k}": v for k, v in extra.items()})
    meta = {"format": FORMAT, "version": __version__, "identity": identity, "progress": progress,
            "optimizer": opt_record, "snapshots": len(snapshots)}
    arrays["meta"] = np.array(json_text(meta))
    atomic_savez(os.fspath(path), arrays)


def load_run(path, identity: dict, torch):
    """The saved run at ``path`` as a dict, or None when there is no file; ``ValueError`` for another run's."""
    if path is None or not os.path.exists(os.fspath(path)):
        return None
    arrays, meta = read_npz(path, FORMAT, "AlphaZero checkpoint", META, ("net/", "opt/", "replay/", "snap/", "extra/"))
    if meta["identity"] != json.loads(json.dumps(identity)):
        raise ValueError(f"{path} is the checkpoint of another run ({meta.get('identity')}); "
                         f"remove it or pass another path")
    try:
        def part(prefix):
            return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}

        progress = dict(meta["progress"])
        progress["history"] = [{k: math.nan if v is None else v for k, v in record.items()}
                               for record in progress["history"]]
        return {"progress": progress, "network": part("net/"),
                "optimizer": _optimizer_state(arrays, meta["optimizer"], torch), "replay": part("replay/"),
                "snapshots": [part(f"snap/{i}/") for i in range(int(meta["snapshots"]))], "extra": part("extra/")}
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ValueError(f"{path} is not a readable AlphaZero checkpoint ({err})") from None
