#!/usr/bin/env bash
# Installs Debian's chromium for the browser test when it is missing.
# CI runs as root on a fresh machine; elsewhere, without root, it only reports.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing and this is not root; the browser test will be skipped." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
