"""Defect class: outputs go only to regular files, new paths or earlier results, whole, with the usual permissions.

A device, a FIFO, a symbolic link, a folder where a file belongs, a file where a folder belongs, a missing or
unwritable parent: each is refused before any work, in one line with status 2, and nothing is replaced or left
behind. Files are written with mode 0666 less the umask (before, every ``.npz`` was 0600).
"""

from __future__ import annotations

import os
import stat

import pytest

from cgbase.files import atomic_folder, check_output_file, check_output_folder, write_text


@pytest.fixture
def targets(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    real = tmp_path / "real.txt"
    real.write_text("keep")
    link = tmp_path / "link.npz"
    link.symlink_to(real)
    folder = tmp_path / "folder"
    folder.mkdir()
    return {"fifo": fifo, "link": link, "folder": folder, "missing": tmp_path / "nowhere" / "x.npz", "real": real}


@pytest.mark.parametrize("kind", ["fifo", "link", "folder", "missing"])
@pytest.mark.parametrize("option, suffix, argv", [
    ("--save", ".npz", ("solve", "wythoff", "--bound", "5")),
    ("--plot", ".png", ("solve", "wythoff", "--bound", "5")),
    ("--checkpoint", ".npz", ("learn", "nim", "heaps=2", "--bound", "2", "--episodes", "10")),
])
def test_special_targets_are_refused_before_any_work(cli, one_error_line, targets, kind, option, suffix, argv,
                                                      monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    target = targets[kind]
    if kind != "folder" and not str(target).endswith(suffix):
        target = target.with_suffix(suffix) if kind == "missing" else target
    before = sorted(os.listdir(tmp_path))
    one_error_line(*cli(*argv, option, str(target)))
    assert sorted(os.listdir(tmp_path)) == before
    assert targets["real"].read_text() == "keep" and stat.S_ISFIFO(os.stat(targets["fifo"]).st_mode)


@pytest.mark.parametrize("argv", [("report", "subtraction"), ("learn", "nim", "heaps=2", "--bound", "2",
                                                               "--episodes", "10"),
                                  ("tournament", "nim", "heaps=2", "--bound", "2", "--episodes", "10")])
@pytest.mark.parametrize("kind", ["fifo", "link", "real"])
def test_an_output_folder_that_is_not_a_folder_is_refused(cli, one_error_line, targets, argv, kind):
    one_error_line(*cli(*argv, "--out", str(targets[kind])))
    assert targets["real"].read_text() == "keep"


def test_devices_are_never_written():
    for device in ("/dev/null", "/dev/full", "/dev/zero"):
        if os.path.exists(device):
            with pytest.raises(ValueError, match="character device"):
                check_output_file(device, "--save")
            with pytest.raises(ValueError, match="not a folder"):
                check_output_folder(device)


def test_files_and_folders_get_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        write_text(tmp_path / "a.txt", "x")
        with atomic_folder(tmp_path / "report") as out:
            write_text(out / "index.md", "# x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.txt").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "report").st_mode) == 0o755
    assert stat.S_IMODE(os.stat(tmp_path / "report" / "index.md").st_mode) == 0o644


def test_a_failed_run_leaves_no_folder(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, _ = cli("learn", "octal", "--episodes", "10")  # a sum of heaps: refused after the folder is chosen
    assert code == 2 and list(tmp_path.iterdir()) == []
    code, _, _ = cli("alphazero", "nim", "--hidden", "a,b")
    assert code == 2 and list(tmp_path.iterdir()) == []
