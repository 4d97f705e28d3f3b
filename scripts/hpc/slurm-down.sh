#!/usr/bin/env bash
# Stop Slurm daemons started by the scripts beside this one, by their pid files (no pkill).
#
# Usage: slurm-down.sh          stop the main cluster (slurm-up.sh) and munged
#        slurm-down.sh DIR      stop only the private cluster in DIR (slurm-private-cluster.sh)
# `scontrol shutdown` stops slurmctld and every slurmd registered with it; anything still alive
# after a few seconds is sent SIGTERM through its pid file. Exits 0 when nothing was running.
set -euo pipefail
say() { printf '[slurm-down] %s\n' "$*"; }
WAIT_S=${SLURM_DOWN_WAIT_S:-15}

alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  [ -d "/proc/$pid" ] || return 1
  ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null
}

# stop_pids PIDFILE...: wait for them to exit, then SIGTERM what is left
stop_pids() {
  local deadline f
  deadline=$(( $(date +%s) + WAIT_S ))
  for f in "$@"; do
    while alive "$f" && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
    if alive "$f"; then say "terminating pid $(cat "$f") ($f)"; kill "$(cat "$f")" 2>/dev/null || true; fi
  done
}

if [ $# -ge 1 ]; then
  DIR=$(realpath -m "$1")
  [ -f "$DIR/slurm.conf" ] || { say "no private cluster in $DIR (no slurm.conf)"; exit 0; }
  say "stopping the private cluster in $DIR"
  SLURM_CONF="$DIR/slurm.conf" scontrol shutdown >/dev/null 2>&1 || true
  shopt -s nullglob
  stop_pids "$DIR"/run/*.pid
  say "stopped"
  exit 0
fi

if command -v scontrol >/dev/null; then
  say "scontrol shutdown"
  SLURM_CONF=/etc/slurm/slurm.conf scontrol shutdown >/dev/null 2>&1 || true
fi
stop_pids /run/slurm/slurmdbd.pid /run/slurm/slurmctld.pid /run/slurm/slurmd.pid
if alive /run/munge/munged.pid; then
  say "stopping munged"
  kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
  stop_pids /run/munge/munged.pid
fi
say "stopped"
