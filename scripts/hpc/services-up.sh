#!/usr/bin/env bash
# Start the real HPC services the integration tests use: Slurm, then (when their scripts exist)
# environment modules and MPI. Idempotent: on a machine where everything is installed and
# running it only checks, in about a second.
#
# Needs root (apt-get, daemons). Without root it says what it skipped and exits 0, so the tests
# that need these services skip locally (and fail in CI, where SECRETARY_REQUIRE_SERVICES=1).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
START_MS=$(( $(date +%s%N) / 1000000 ))
say() { printf '[services] %s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then
  say "not root: skipped Slurm (slurm-up.sh), modules (modules-up.sh) and MPI (mpi-up.sh)"
  say "tests marked slurm/lmod/mpi will skip; run 'sudo $0' to start the services"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
NEEDED=(slurmctld slurmd slurm-client munge libpmix-dev)
missing=()
for pkg in "${NEEDED[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "apt-get update (missing: ${missing[*]})"
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  export SECRETARY_APT_UPDATED=1   # the scripts below skip their own update
fi

say "Slurm"
"$HERE/slurm-up.sh"
for part in modules-up.sh mpi-up.sh containers-up.sh; do
  if [ -f "$HERE/$part" ]; then
    say "${part%-up.sh}"
    bash "$HERE/$part"
  else
    say "${part%-up.sh}: $part not present, skipped"
  fi
done

ELAPSED_MS=$(( $(date +%s%N) / 1000000 - START_MS ))
say "all services up in $((ELAPSED_MS / 1000)).$(printf '%03d' $((ELAPSED_MS % 1000))) s"
