"""A Globus site without credentials on this machine never makes the SDK print its login prompt
into machine-readable output: the site is UNREACHABLE with the fix, and ``--json`` stays JSON.

The real SDK is used, with an empty Globus Compute folder and no client credentials, so nothing
is stored to log in with; the check happens before any SDK object is made (no network).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from secretary_executor.sites.fleet import demo_state_files

ROOT = Path(__file__).resolve().parents[2]
ENDPOINT = "4b116d3c-1703-4f8f-9f6f-39921e5864df"


def test_json_output_stays_json_and_names_the_login(tmp_path: Path) -> None:
    (tmp_path / "ids.json").write_text(
        json.dumps({"functions": {"negotiate": "11111111-1111-1111-1111-111111111111"}})
    )
    fleet = {
        "sites": [
            {"name": "here", "state_file": str(demo_state_files()[0])},
            {
                "name": "hpc-west",
                "transport": "globus-compute",
                "endpoint_id": ENDPOINT,
                "functions_file": "ids.json",
                "remote_site_config": "~/.globus_compute/hpc-west/secretary-site.yaml",
            },
        ]
    }
    (tmp_path / "fleet.yaml").write_text(yaml.safe_dump(fleet))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLOBUS_COMPUTE_CLIENT")}
    env.update(PYTHONPATH=str(ROOT), GLOBUS_COMPUTE_USER_DIR=str(tmp_path / "gc"))
    done = subprocess.run(
        [
            *(sys.executable, "-m", "secretary_executor.cli.resource_ask", "satisfy"),
            *("2 cores", "--json", "--fleet", str(tmp_path / "fleet.yaml")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    document = json.loads(done.stdout)  # nothing but JSON on stdout
    proposals = {p["site"]: p for p in document["proposals"]}
    west = proposals["hpc-west"]
    assert west["verdict"] == "UNREACHABLE"
    assert (
        "no Globus credentials" in west["reason"]
        and "globus-compute-endpoint login" in west["reason"]
    )
    assert proposals["here"]["verdict"] != "UNREACHABLE"
