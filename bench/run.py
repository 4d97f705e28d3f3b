"""Run every benchmark with its default settings, one after another (``make bench``).

Each benchmark is a standalone script that prints its own tables; the figures and the command
for each are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
BENCHMARKS = [
    ("parser_accuracy.py", ["--repeat", "3"]),
    ("probe.py", []),
    ("sim_negotiate.py", []),
    ("fanout.py", ["--sizes", "10,100"]),
    ("parsl_overhead.py", ["--tasks", "2000"]),
    ("parsl_own_path.py", ["--tasks", "2000", "--batches", "5"]),
    ("placement.py", []),
    ("dashboard.py", ["--no-browser"]),
    ("tool_sizes.py", []),
]


def main() -> int:
    failed = []
    for script, args in BENCHMARKS:
        path = HERE / script
        if not path.exists():
            continue
        print(f"\n=== {script} {' '.join(args)}", flush=True)
        done = subprocess.run([sys.executable, str(path), *args], timeout=1800, check=False)  # noqa: S603
        if done.returncode != 0:
            failed.append(script)
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
