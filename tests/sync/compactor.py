"""A compaction loop run as its own process, beside the writers:
`python -m tests.sync.compactor CLONE STOPFILE` runs `git correx sync --compact --json`
until STOPFILE exists and at least two compactions ran (on a slow machine one compaction can
outlast the whole fleet, and the test needs one that overlapped the writers and one after them);
prints how many compactions ran and how many writer refs they
retired; exits 1 (output on stderr) at the first one that does not exit 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def main(path: Path, stop: Path) -> None:
    runs = retired = 0
    while not stop.exists() or runs < 2:
        proc = subprocess.run([sys.executable, "-m", "gitcorrex", "sync", "--compact", "--json"],
                              cwd=path, env=os.environ, capture_output=True, check=False)
        if proc.returncode != 0:
            sys.stderr.write(f"compaction exited {proc.returncode}\n{proc.stdout.decode()}"
                             f"{proc.stderr.decode()}")
            raise SystemExit(1)
        runs += 1
        retired += len(json.loads(proc.stdout)["retired"])
    print(runs, retired)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
