#!/usr/bin/env bash
# Install the two module systems side by side: Lmod from apt, and Environment Modules unpacked
# beside it. Debian's lmod and environment-modules packages declare Conflicts: with each other but
# share no files, so the second one is extracted with `apt-get download` + `dpkg -x` instead of
# being installed (installing it would remove Lmod). Login shells keep Lmod: the profile.d files
# of Environment Modules are removed.
#
# Idempotent: each step runs only when its result is missing. Needs root; without root it says
# so and exits 0, so that callers (services-up.sh, CI) carry on and the tests skip.
#
# Environment: WITH_ENV_MODULES=0 skips Environment Modules.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
  echo "modules-up.sh: not root, nothing installed (run as root to install Lmod and Environment Modules)"
  exit 0
fi

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ] && [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock || true)" ]; then
    apt-get -o DPkg::Lock::Timeout=300 update -qq
  fi
  apt_updated=1
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@" >/dev/null
}

if [ ! -e /usr/share/lmod/lmod/libexec/lmod ]; then
  echo "modules-up.sh: installing Lmod"
  apt_install lmod
fi

if [ "${WITH_ENV_MODULES:-1}" = 1 ] && [ ! -e /usr/lib/modulecmd.tcl ]; then
  echo "modules-up.sh: unpacking Environment Modules beside Lmod"
  apt_install tcl8.6 less procps   # the dependencies of environment-modules
  tmp=$(mktemp -d)
  chmod 755 "$tmp"   # apt downloads as user _apt
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && apt-get download -qq environment-modules >/dev/null && dpkg -x environment-modules_*.deb /)
  rm -f /etc/profile.d/modules.sh /etc/profile.d/modules.csh   # keep login shells on Lmod
fi

lmod_version=$(/usr/share/lmod/lmod/libexec/lmod --version 2>&1 | grep -o 'Version [0-9][^ ]*' | head -n1 || true)
echo "modules-up.sh: Lmod ${lmod_version:-present}"
if [ -e /usr/lib/modulecmd.tcl ]; then
  echo "modules-up.sh: Environment Modules at $(readlink -f /usr/lib/modulecmd.tcl)"
fi
