"""Hidden states a hook took from an FSDP2 / tensor-parallel target are DTensors; saved with
torch.save as they were (SpecForge's data_*.ckpt keys), each rank's file holds its shard and a
device mesh. `drafter eval` refused such a file as "not a torch.save of tensors: it pickles
other objects, which are not loaded (a pickle can run code)" with a hint about numpy arrays:
nothing named the DTensors or the fix. It now says what they are and how to save them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.eagle3._world import drafter_app, informative_world, runner

world = informative_world("h72_dtensor_dump", seed=72)

# a one-rank gloo group over a file store (no network), in its own process: the states of
# the world's first sample as an FSDP2 target's hook hands them over, saved as SpecForge does
_SAVE = textwrap.dedent("""
    import sys, torch, torch.distributed as dist
    from safetensors.torch import load_file
    store, sample, out = sys.argv[1:4]
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=0, world_size=1)
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import Shard, distribute_tensor
    mesh = init_device_mesh("cpu", (1,))
    t = load_file(sample)
    h = t["hidden_states"].float()
    torch.save({"input_ids": t["token_ids"],
                "aux_hidden_state": distribute_tensor(h[:, :-1].reshape(h.shape[0], -1), mesh, [Shard(0)]),
                "hidden_state": distribute_tensor(h[:, -1], mesh, [Shard(0)]),
                "loss_mask": torch.ones(h.shape[0], dtype=torch.long)}, out)
    dist.destroy_process_group()
""")


def _dtensor_dump(world, tmp_path):
    data = tmp_path / "dtensor"
    data.mkdir()
    subprocess.run([sys.executable, "-c", _SAVE, str(tmp_path / "store"),
                    str(world / "data" / "hs_0.safetensors"), str(data / "data_0.ckpt")],
                   check=True, timeout=120)
    return data


def _eval_args(world, data) -> list[str]:
    return ["eval", "--model", str(world / "draft"), "--data", str(data), "--target",
            str(world / "target")]


def test_dtensors_loaded_are_named_not_a_crash(world, tmp_path):
    # this process imported torch.distributed.tensor (speculators does): torch.load reads the
    # DTensors, which reached the draft's fc as "unexpected RuntimeError: aten.mm.default got
    # mixed torch.Tensor and DTensor"
    data = _dtensor_dump(world, tmp_path)
    assert "torch.distributed.tensor" in sys.modules
    result = runner.invoke(drafter_app, _eval_args(world, data))
    assert result.exit_code == 2, result.output
    _said_right(" ".join(result.output.split()), data)


def test_dtensors_refused_by_torch_load_are_named(world, tmp_path):
    # a fresh `spec-debug` process: torch 2.6+ refuses DTensors unless torch.distributed.tensor
    # is imported; that was said as "it pickles other objects" with a numpy hint
    data = _dtensor_dump(world, tmp_path)
    done = subprocess.run([sys.executable, "-m", "spec_debug", "drafter", *_eval_args(world, data)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    _said_right(" ".join((done.stdout + done.stderr).split()), data)


def _said_right(said: str, data) -> None:
    path = data / "data_0.ckpt"
    assert (f"{path}: its tensors are DTensors (torch.distributed.tensor: states of a sharded "
            "FSDP2 or tensor-parallel model saved as they were), which hold one rank's shard "
            "and its device mesh, not the sample") in said, said
    assert ("hint: save plain tensors: .full_tensor() of each (a collective: on every rank, "
            "then save from one) before torch.save") in said, said
    assert "pickles other objects" not in said and "numpy" not in said
