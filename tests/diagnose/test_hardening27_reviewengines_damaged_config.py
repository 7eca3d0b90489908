"""A model folder whose config.json is there but is no usable file (review of round 27).

The round's fix named a hand-edited config.json; these other ways a copied model folder breaks
were still read as 'no model' or with the wrong cause: a 0-byte file (a copy cut short) told to
fix a trailing comma on line 1; a Hub-cache snapshot copied without its blobs/ (config.json a
link to a file that is not there) and a config.json that is a directory made the folder 'not
found'; a byte-order mark was blamed on a trailing comma; JSON nested deeper than Python's
recursion limit raised RecursionError through the probe."""

from __future__ import annotations

from spec_debug.probes import hidden_layout, hostfiles


def _folder(tmp_path, name="target"):
    folder = tmp_path / name
    folder.mkdir()
    return folder


def test_an_empty_config_is_a_copy_cut_short(tmp_path):
    folder = _folder(tmp_path)
    (folder / "config.json").write_bytes(b"")
    problem = hostfiles.config_and_problem(folder)[1]
    assert "empty (0 bytes)" in problem and "trailing comma" not in problem


def test_a_snapshot_copied_without_its_blobs_is_named_not_lost(tmp_path):
    folder = _folder(tmp_path)
    (folder / "config.json").symlink_to("../../blobs/0f3a9c")
    info = hostfiles.describe_model(str(folder), with_tensors=False)
    assert info["found"] is False and info["path"] == str(folder)
    assert "a link to ../../blobs/0f3a9c, which is not there" in info["config_error"]
    out = hidden_layout.run({"target_model": str(folder), "engine": "vllm"})
    assert "which is not there" in out["num_target_layers_unknown"]


def test_a_directory_named_config_json(tmp_path):
    folder = _folder(tmp_path)
    (folder / "config.json").mkdir()
    assert "a directory, not a file" in hostfiles.describe_model(str(folder), with_tensors=False)["config_error"]


def test_a_byte_order_mark_and_deep_nesting(tmp_path):
    bom = _folder(tmp_path, "bom")
    (bom / "config.json").write_bytes(b'\xef\xbb\xbf{"num_hidden_layers": 2}')
    problem = hostfiles.config_and_problem(bom)[1]
    assert "byte-order mark" in problem and "trailing comma" not in problem
    deep = _folder(tmp_path, "deep")
    (deep / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in hostfiles.config_and_problem(deep)[1]


def test_a_missing_config_and_a_good_one_are_unchanged(tmp_path):
    assert hostfiles.describe_model(str(tmp_path / "nowhere"), with_tensors=False) == {
        "name": str(tmp_path / "nowhere"), "found": False}
    good = _folder(tmp_path, "good")
    (good / "config.json").write_text('{"num_hidden_layers": 2}')
    assert hostfiles.config_and_problem(good) == ({"num_hidden_layers": 2}, None)


def test_a_pipe_or_a_device_is_not_read(tmp_path):
    # a FIFO named config.json would block the read and /dev/zero would never end it: the probe
    # must answer, naming the file, without reading it
    import os

    fifo = _folder(tmp_path, "fifo")
    os.mkfifo(fifo / "config.json")
    zero = _folder(tmp_path, "zero")
    (zero / "config.json").symlink_to("/dev/zero")
    for folder in (fifo, zero):
        info = hostfiles.describe_model(str(folder), with_tensors=False)
        assert "not a regular file" in info["config_error"] and info["found"] is False
