#!/usr/bin/env bash
# Install Debian's headless LibreOffice Calc for the spreadsheet tests (tests/export/test_sheet.py open our CSV
# exports the way a lawyer's spreadsheet does and read the cells back), unless soffice is already there.
set -euo pipefail
if command -v soffice >/dev/null 2>&1 || command -v libreoffice >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui
