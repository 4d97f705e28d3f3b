#!/usr/bin/env bash
# Install Open MPI and MPICH from Debian, side by side. The `mpirun`/`mpicc` alternatives point
# to Open MPI (higher priority); MPICH is reached as mpirun.mpich, mpicc.mpich and mpichversion.
#
# Idempotent: apt runs only when one of the four packages is missing. Needs root; without root
# it says so and exits 0, so that callers carry on and the MPI tests skip.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
  echo "mpi-up.sh: not root, nothing installed (run as root to install Open MPI and MPICH)"
  exit 0
fi

packages=(openmpi-bin libopenmpi-dev mpich libmpich-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "mpi-up.sh: installing ${missing[*]}"
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock || true)" ]; then
    apt-get -o DPkg::Lock::Timeout=300 update -qq
  fi
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "mpi-up.sh: $(ompi_info --parsable 2>/dev/null | grep '^ompi:version:full:' | sed 's/^ompi:version:full:/Open MPI /' || echo 'Open MPI missing')"
echo "mpi-up.sh: $(mpichversion 2>/dev/null | grep 'MPICH Version' | tr -s ' \t' ' ' || echo 'MPICH missing')"
