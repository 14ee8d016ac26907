"""Writing a file without ever writing through what is already at its path.

A pull request controls the tree siblint runs in: a symbolic link committed where siblint writes
(the report, the baseline, a source file for `--add-noqa`, a cache entry) must not redirect the
write. A complete new file is written beside the target and renamed over it; the rename replaces a
link instead of following it, and a reader never sees half a file.
"""

from __future__ import annotations

import os
import tempfile


def replace_file(path: str, data: bytes, mode: int | None = None, prefix: str = ".siblint-") -> None:
    """Put `data` at `path` through a temporary file in the same folder and a rename. `mode`: the
    new file's permissions (default: what `open(path, "w")` would create under the umask)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
