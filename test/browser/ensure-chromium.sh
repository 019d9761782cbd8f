#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing.
# Called by `pnpm test` and by CI. Where it cannot install (not root, no
# apt-get, no registry), it says so and the browser tests skip — except under
# CI=true, where they fail without a browser.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get); the browser tests will be skipped." >&2
  exit 0
fi
echo "ensure-chromium: installing Debian's chromium for the browser tests (waits up to 10 minutes for another apt to finish)…" >&2
export DEBIAN_FRONTEND=noninteractive
# Another apt-get (another checkout's tests, unattended upgrades) may hold the
# dpkg lock: wait for it rather than fail and skip the browser tests.
LOCK_WAIT=(-o DPkg::Lock::Timeout=600)
if apt-get "${LOCK_WAIT[@]}" update -qq && apt-get "${LOCK_WAIT[@]}" install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; then
  /usr/bin/chromium --version
else
  echo "ensure-chromium: installing chromium failed; the browser tests will be skipped (or fail under CI=true)." >&2
fi
exit 0
