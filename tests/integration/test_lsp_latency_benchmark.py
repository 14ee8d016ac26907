"""benchmarks/lsp_latency.py: the server's CPU per edit counts its lint process too (the server
lints in a child process; counting the server alone gave 2.4 ms per edit beside a 140 ms latency)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import lsp_latency  # noqa: E402

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\nprint('spun', flush=True)\ntime.sleep(60)\n"


def test_cpu_seconds_holds_a_live_child_s_time() -> None:
    child = subprocess.Popen([sys.executable, "-c", SPIN], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "spun"
        childs = lsp_latency.cpu_seconds(child.pid)
        assert childs is not None and childs >= 0.25
        ours = lsp_latency.cpu_seconds(os.getpid())
        assert ours is not None and ours >= time.process_time() + 0.25
    finally:
        child.kill()
        child.wait()
