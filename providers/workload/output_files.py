"""A job's output read back from the two files its workload manager wrote, for any provider
whose jobs write ``stdout``/``stderr`` files this machine can read."""

from __future__ import annotations

from pathlib import Path

from providers.files import read_tail
from providers.wire.jobs import JobOutput


def output_from_files(
    site: str, native_id: str, out_path: Path, err_path: Path, max_bytes: int, missing: str
) -> JobOutput:
    """The ends of ``out_path`` and ``err_path``; ``missing`` is the note when neither exists."""
    out, err = read_tail(out_path, max_bytes), read_tail(err_path, max_bytes)
    if out is None and err is None:
        return JobOutput(site=site, native_id=native_id, available=False, note=missing)
    return JobOutput(
        site=site,
        native_id=native_id,
        available=True,
        stdout=out[0] if out else "",
        stderr=err[0] if err else "",
        truncated=bool((out and out[1]) or (err and err[1])),
    )
