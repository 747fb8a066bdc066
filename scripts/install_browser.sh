#!/usr/bin/env bash
# Install Debian's Chromium (and its driver) for the browser tests, unless /usr/bin/chromium is already there.
# Playwright drives this browser through executable_path; no browser build is ever downloaded.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core
/usr/bin/chromium --version
