#!/usr/bin/env bash
# Install the container runtimes that Debian packages (Podman, Charliecloud), so the container
# providers are tested against real binaries, not only recorded output.
#
# Idempotent: apt runs only when a package is missing. Needs root; without root it says so and
# exits 0 (the tests that need a real runtime then skip with the reason).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
  echo "containers-up.sh: not root, nothing installed (run as root to install podman, charliecloud)"
  exit 0
fi

packages=(podman charliecloud)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "containers-up.sh: installing ${missing[*]}"
  if [ -z "${SECRETARY_APT_UPDATED:-}" ]; then
    apt-get -o DPkg::Lock::Timeout=300 update -qq
  fi
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "containers-up.sh: $(podman --version 2>/dev/null || echo 'podman missing')"
# ch-run refuses to start without $USER, which a CI shell may not set.
echo "containers-up.sh: charliecloud $(USER="${USER:-$(id -un)}" ch-run --version 2>&1 | head -1)"
