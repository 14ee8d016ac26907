"""File writes and changes. Reading is not a side effect; directory creation is left out as
idempotent. Writes inside a scratch area the tool made (`tempfile.TemporaryDirectory()`,
`NamedTemporaryFile`, `mkdtemp()`) vanish with it and are not side effects either, nor are files
under the system's temporary folder (`tempfile.gettempdir()`: a download cache)."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

# A pathlib path, also one its class methods make (`Path.home() / "notes"`).
_PATHS = "pathlib.Path pathlib.PurePath pathlib.Path.home pathlib.Path.cwd"

ROWS: tuple[Row, ...] = (
    *calls("open builtins.open io.open codecs.open gzip.open bz2.open lzma.open", "a file write", True, "file", "open"),
    # aiofiles does each operation in the loop's executor: a cancelled `await f.write(...)` leaves
    # the thread writing (aiofiles/threadpool/utils.py, `loop.run_in_executor`).
    *calls("aiofiles.open", "a file write", False, "file", "open", threaded=True),
    *calls("aiofiles.os.remove aiofiles.os.unlink aiofiles.os.rename aiofiles.os.replace aiofiles.os.rmdir",
           "a file change", False, "file", "path", threaded=True),
    # Archives written to a path (`ZipFile(p, "w")`, `tarfile.open(p, "w:gz")`, `make_archive(base, "zip")`).
    *calls("zipfile.ZipFile tarfile.open tarfile.TarFile", "an archive written", True, "file", "archive"),
    *calls("shutil.make_archive", "an archive written", True, "file", "path"),
    *calls(
        "shutil.move shutil.copy shutil.copy2 shutil.copyfile shutil.copytree shutil.rmtree "
        "os.remove os.unlink os.rename os.replace os.rmdir os.removedirs os.truncate",
        "a file change", True, "file", "path",
    ),
    *methods(_PATHS, "unlink rename replace rmdir touch", "a file change", True, "file", "path"),
    *(Row("method", p, ("open",), "a file write", True, "open", kind="file") for p in _PATHS.split()),
    anys("write_text write_bytes", "a file write", True, "file", "path"),
)

# Which positional arguments of a "call" row name the paths it changes (default: the first); a
# method row changes its receiver. `shutil.copy` changes only its destination.
PATH_ARGS: dict[str, tuple[int, ...]] = {
    "shutil.copy": (1,), "shutil.copy2": (1,), "shutil.copyfile": (1,), "shutil.copytree": (1,),
    "shutil.move": (0, 1), "os.rename": (0, 1), "os.replace": (0, 1),
}
# Path methods that move the receiver to their first argument: a scratch file moved out of the
# scratch area (`Path(tmp.name).replace(dest)`, an atomic write) lands for good.
MOVES = frozenset({"rename", "replace"})
# Calls that make (or name) a scratch area, and the ones that build a path from their first argument.
SCRATCH_MAKERS = frozenset({"tempfile.TemporaryDirectory", "tempfile.NamedTemporaryFile", "tempfile.mkdtemp",
                            "tempfile.TemporaryFile", "tempfile.SpooledTemporaryFile", "tempfile.mkstemp",
                            "tempfile.gettempdir",
                            # Node: `await mkdtemp(path.join(tmpdir(), "x-"))`
                            "os.tmpdir", "fs.mkdtemp", "fs.mkdtempSync", "fs/promises.mkdtemp", "fs.promises.mkdtemp"})
PATH_BUILDERS = frozenset({"pathlib.Path", "pathlib.PurePath", "os.path.join", "os.path.abspath", "os.path.realpath",
                           "os.fspath", "str", "path.join", "path.resolve"})
# In-memory buffers: saving an image or a workbook into one writes no file.
MEMORY_BUFFERS = frozenset({"io.BytesIO", "io.StringIO"})
# What a value built by these is: a filesystem path (`Path(p)`, `base / "x.png"`, `os.path.join(...)`),
# and the calls that hand a path on as text (`str(p)`).
PATH_VALUES = frozenset({*_PATHS.split(), "pathlib.PosixPath", "pathlib.WindowsPath",
                         "os.path.join", "os.path.abspath", "os.path.realpath", "os.path.expanduser"})
PATH_AS_TEXT = frozenset({"str", "builtins.str", "os.fspath"})
# Path methods that return text or bytes, not a path (`p.relative_to(root).as_posix()` is a str,
# whose `.replace("\\", "/")` moves no file).
TEXT_OF_PATH = frozenset({"as_posix", "as_uri", "read_text", "read_bytes"})
