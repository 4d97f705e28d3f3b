#!/usr/bin/env bash
# Install headless Chromium and its WebDriver for the dashboard's browser tests
# (tests/integration/test_dashboard_browser.py). Idempotent: when both are installed it only
# checks. Needs root (apt-get); without root it says what it skipped and exits 0, so the browser
# tests skip locally (and fail in CI, where SECRETARY_REQUIRE_SERVICES=1).
set -euo pipefail

say() { printf '[browser] %s\n' "$*"; }
PACKAGES=(chromium chromium-driver)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -eq 0 ]; then
  say "chromium and chromedriver present: $(chromium --version 2>/dev/null || echo '?')"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  say "not root: skipped installing ${missing[*]}; the dashboard's browser tests will skip"
  say "run 'sudo $0' to install them"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if [ -z "${SECRETARY_APT_UPDATED:-}" ]; then
  apt-get -o DPkg::Lock::Timeout=300 update -qq
fi
say "installing ${missing[*]}"
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${PACKAGES[@]}"
say "installed: $(chromium --version 2>/dev/null || echo '?')"
