"""A folder nobody can write to, as a CD or a read-only share is."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from db import database as database_module


@contextmanager
def read_only_folder(
    folder: Path, files: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """`files` on a read-only mount (what a CD or a read-only share is: even root cannot write
    there); where mounting is not allowed, read-only permissions, with `writable` answering as
    it would for a user who is not root."""
    folder.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(folder)], capture_output=True
        ).returncode
        == 0
    )
    for name, data in files.items():
        (folder / name).write_bytes(data)
    if mounted:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        assert not os.access(folder / next(iter(files)), os.W_OK)
    else:
        for name in files:
            (folder / name).chmod(0o444)
        folder.chmod(0o555)
        monkeypatch.setattr(database_module, "writable", lambda _p: False)
    try:
        yield folder
    finally:
        if mounted:  # lazily: a connection the test left open must not keep it mounted
            subprocess.run(["umount", "-l", str(folder)], check=False)
        else:
            folder.chmod(0o755)
