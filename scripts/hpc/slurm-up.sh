#!/usr/bin/env bash
# A one-node Slurm cluster on this machine (Debian 12, Slurm 22.05) without systemd.
#
# Installs slurmctld, slurmd, slurm-client, munge and libpmix-dev when missing, writes
# /etc/slurm/slurm.conf from `slurmd -C` (so the node always matches the hardware), starts
# munged, slurmctld and slurmd by hand and waits, with a deadline, until the node is idle.
# Partitions: debug (default, MaxTime 30:00) and batch (MaxTime INFINITE), both on this host.
# Idempotent: daemons already running are left alone, so a second run takes well under a second.
# Run as root. Stop with slurm-down.sh.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
say() { printf '[slurm-up] %s\n' "$*"; }
die() { printf '[slurm-up] ERROR: %s\n' "$*" >&2; exit 1; }
START_MS=$(( $(date +%s%N) / 1000000 ))
WAIT_S=${SLURM_UP_WAIT_S:-60}
CONF=/etc/slurm/slurm.conf
LIBPMIX=/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so

[ "$(id -u)" -eq 0 ] || die "must run as root (installs packages and starts daemons)"

# Is the pid in FILE a live process (not a zombie)? PID 1 here reaps orphans lazily.
alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  [ -d "/proc/$pid" ] || return 1
  ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null
}

# ---- packages ---------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
   || ! command -v sinfo >/dev/null || ! command -v munged >/dev/null || [ ! -e "$LIBPMIX" ]; then
  if [ -z "${SECRETARY_APT_UPDATED:-}" ]; then say "apt-get update"; apt-get -o DPkg::Lock::Timeout=300 update -qq; fi
  say "installing slurmctld slurmd slurm-client munge libpmix-dev"
  # libpmix-dev, not only libpmix2: the mpi/pmix plugin dlopen()s the unversioned libpmix.so
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge libpmix-dev >/dev/null
else
  say "packages present ($(sinfo --version))"
fi

HOST=$(hostname -s)
getent hosts "$HOST" >/dev/null || echo "127.0.0.1 $HOST" >>/etc/hosts  # slurm resolves itself

# ---- munge ------------------------------------------------------------------------------
install -d -o munge -g munge -m 0700 /etc/munge /var/log/munge
install -d -o munge -g munge -m 0711 /var/lib/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  say "creating /etc/munge/munge.key"
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
fi
if alive /run/munge/munged.pid; then
  say "munged already running"
else
  say "starting munged"
  rm -f /run/munge/munged.pid
  runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 100); do
  munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
  sleep 0.1
done
munge -n </dev/null | unmunge >/dev/null 2>&1 || die "munged does not answer (see /var/log/munge)"

# ---- configuration ----------------------------------------------------------------------
install -d -o slurm -g slurm -m 0755 /var/spool/slurmctld /var/log/slurm /run/slurm
install -d -o root -g root -m 0755 /var/spool/slurmd /etc/slurm
NODELINE=$(slurmd -C | head -1)  # NodeName=vm CPUs=2 Boards=1 ... RealMemory=24105
case "$NODELINE" in NodeName=*) ;; *) die "slurmd -C printed no NodeName line: $NODELINE" ;; esac
MPIDEF=none
[ -e "$LIBPMIX" ] && MPIDEF=pmix
NEW=$(mktemp)
cat >"$NEW" <<CONF
# Written by scripts/hpc/slurm-up.sh; rewritten on every run.
ClusterName=localcluster
SlurmctldHost=${HOST}
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=${MPIDEF}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
InactiveLimit=0
KillWait=5
MinJobAge=300
${NODELINE} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=${HOST} Default=YES MaxTime=30:00 State=UP
PartitionName=batch Nodes=${HOST} Default=NO MaxTime=INFINITE State=UP
CONF
CHANGED=0
if ! cmp -s "$NEW" "$CONF"; then
  install -m 0644 "$NEW" "$CONF"
  CHANGED=1
  say "wrote $CONF (${NODELINE%% Boards*})"
fi
rm -f "$NEW"
# No cgroup.conf: 22.05 has no CgroupPlugin=disabled and slurmd dies on it; autodetect works.
rm -f /etc/slurm/cgroup.conf

# ---- daemons ----------------------------------------------------------------------------
if alive /run/slurm/slurmctld.pid; then
  if [ "$CHANGED" -eq 1 ]; then say "configuration changed: scontrol reconfigure"; scontrol reconfigure; fi
  say "slurmctld already running"
else
  say "starting slurmctld"
  rm -f /run/slurm/slurmctld.pid
  /usr/sbin/slurmctld -c  # -c: clean state, job ids restart at 1
fi
if alive /run/slurm/slurmd.pid; then
  say "slurmd already running"
else
  say "starting slurmd"
  rm -f /run/slurm/slurmd.pid
  /usr/sbin/slurmd
fi

# ---- wait until the node is idle (a fresh node is unk/idle* for a moment) ---------------
DEADLINE=$(( $(date +%s) + WAIT_S ))
STATE=""
while [ "$(date +%s)" -lt "$DEADLINE" ]; do
  STATE=$(sinfo -h -n "$HOST" -o '%T' 2>/dev/null | head -1 || true)
  case "$STATE" in idle | mixed | allocated) break ;; esac
  sleep 0.2
done
case "$STATE" in
  idle | mixed | allocated) ;;
  *) die "node $HOST is '${STATE:-not answering}' after ${WAIT_S}s (see /var/log/slurm/*.log)" ;;
esac
ELAPSED_MS=$(( $(date +%s%N) / 1000000 - START_MS ))
say "node $HOST is $STATE; Slurm up in $((ELAPSED_MS / 1000)).$(printf '%03d' $((ELAPSED_MS % 1000))) s"
sinfo
