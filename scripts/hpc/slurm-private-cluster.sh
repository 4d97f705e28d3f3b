#!/usr/bin/env bash
# A second, isolated Slurm cluster with N fake nodes (one slurmd each) on this host.
#
# Usage: [CPUS=2] [MEM=2000] [GPUS=0] slurm-private-cluster.sh DIR [N=3] [PORTBASE=7817]
#   DIR       scratch folder for its slurm.conf, state, spool, logs and pid files
#   N         number of fake nodes node1..nodeN (partitions debug (default) and batch)
#   PORTBASE  slurmctld port; slurmd uses PORTBASE+1, the nodes PORTBASE+10 .. PORTBASE+9+N
#   CPUS, MEM (MB), GPUS   shape of every fake node; GPUS>0 adds fake a100 GPUs (character
#                          devices with /dev/null's numbers: Slurm only stat()s them)
# Clients select it with SLURM_CONF=DIR/slurm.conf. Needs munged (slurm-up.sh starts it).
# Idempotent: a cluster already running in DIR is left as it is. Stop: slurm-down.sh DIR.
set -euo pipefail
say() { printf '[slurm-private] %s\n' "$*"; }
die() { printf '[slurm-private] ERROR: %s\n' "$*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: slurm-private-cluster.sh DIR [N] [PORTBASE]"
[ "$(id -u)" -eq 0 ] || die "must run as root (slurmd runs jobs as their users)"
DIR=$(realpath -m "$1"); N=${2:-3}; P=${3:-7817}
CPUS=${CPUS:-2}; MEM=${MEM:-2000}; GPUS=${GPUS:-0}; WAIT_S=${SLURM_UP_WAIT_S:-60}
for v in N P CPUS MEM GPUS; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number, got '${!v}'"
done
[ "$N" -ge 1 ] || die "N must be at least 1"
HOST=$(hostname -s)
START_MS=$(( $(date +%s%N) / 1000000 ))

alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  [ -d "/proc/$pid" ] || return 1
  ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null
}

munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 \
  || die "munged is not running: run slurm-up.sh first"

export SLURM_CONF=$DIR/slurm.conf
if alive "$DIR/run/slurmctld.pid"; then
  say "already running in $DIR"
else
  mkdir -p "$DIR"/{state,log,run,dev}
  for i in $(seq 1 "$N"); do mkdir -p "$DIR/spool/node$i"; done
  GRESNODE=""; GRESTYPES=""
  rm -f "$DIR/gres.conf"
  if [ "$GPUS" -gt 0 ]; then
    for g in $(seq 0 $((GPUS - 1))); do
      [ -e "$DIR/dev/nvidia$g" ] || mknod "$DIR/dev/nvidia$g" c 1 3
    done
    printf 'AutoDetect=off\nNodeName=node[1-%s] Name=gpu Type=a100 File=%s/dev/nvidia[0-%s]\n' \
      "$N" "$DIR" $((GPUS - 1)) >"$DIR/gres.conf"
    GRESNODE="Gres=gpu:a100:${GPUS}"; GRESTYPES="GresTypes=gpu"
  fi
  cat >"$SLURM_CONF" <<CONF
# Written by scripts/hpc/slurm-private-cluster.sh
ClusterName=fake$(basename "$DIR" | tr -cd 'a-z0-9' | cut -c1-20)
SlurmctldHost=${HOST}
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
InactiveLimit=0
KillWait=5
MinJobAge=300
SlurmdParameters=config_overrides
${GRESTYPES}
SlurmctldPort=${P}
SlurmdPort=$((P + 1))
StateSaveLocation=${DIR}/state
SlurmdSpoolDir=${DIR}/spool/%n
SlurmctldPidFile=${DIR}/run/slurmctld.pid
SlurmdPidFile=${DIR}/run/slurmd-%n.pid
SlurmctldLogFile=${DIR}/log/slurmctld.log
SlurmdLogFile=${DIR}/log/slurmd-%n.log
NodeName=node[1-${N}] NodeHostname=${HOST} NodeAddr=127.0.0.1 Port=[$((P + 10))-$((P + 9 + N))] CPUs=${CPUS} RealMemory=${MEM} ${GRESNODE} State=UNKNOWN
PartitionName=debug Nodes=node[1-${N}] Default=YES MaxTime=30:00 State=UP
PartitionName=batch Nodes=node[1-${N}] MaxTime=INFINITE State=UP
CONF
  say "starting slurmctld on port $P and $N slurmd (node1..node$N) in $DIR"
  /usr/sbin/slurmctld -c -f "$SLURM_CONF"
  for i in $(seq 1 "$N"); do /usr/sbin/slurmd -f "$SLURM_CONF" -N "node$i"; done
fi

DEADLINE=$(( $(date +%s) + WAIT_S ))
IDLE=""
while [ "$(date +%s)" -lt "$DEADLINE" ]; do
  IDLE=$(sinfo -h -p batch -t idle -o '%D' 2>/dev/null | head -1 || true)
  [ "$IDLE" = "$N" ] && break
  sleep 0.2
done
[ "$IDLE" = "$N" ] || die "only '${IDLE:-0}' of $N nodes idle after ${WAIT_S}s (see $DIR/log)"
ELAPSED_MS=$(( $(date +%s%N) / 1000000 - START_MS ))
say "$N nodes idle in $((ELAPSED_MS / 1000)).$(printf '%03d' $((ELAPSED_MS % 1000))) s; use SLURM_CONF=$SLURM_CONF"
sinfo -N -p batch -o '%N %c %m %G %T'
