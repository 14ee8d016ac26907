"""Run flake8 exactly as its console script does, optionally with the siblint plugin unplugged.

`python flake8_shim.py --without-siblint ARGS...` adds siblint to flake8's own list of banned
(obsolete) plugins, so flake8's plugin discovery skips it as if it were not installed; nothing of
siblint is imported. Both arms of the benchmark go through this shim, so the shim costs the same in
each and the difference is what installing siblint costs a flake8 run.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--without-siblint"]:
        args = args[1:]
        import flake8.plugins.finder as finder

        finder.BANNED_PLUGINS["siblint"] = "0"
    from flake8.main.cli import main

    sys.exit(main(args))
