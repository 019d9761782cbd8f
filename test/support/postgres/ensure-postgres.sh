#!/usr/bin/env bash
# Installs Debian's postgresql for the store tests when initdb/pg_ctl are
# missing (looked for in PATH and /usr/lib/postgresql/*/bin). Called by
# `pnpm test` and so by CI. The store tests start their own cluster with
# these binaries (test/support/postgres/testPostgres.ts); when Postgres is
# missing and cannot be installed, this exits 1: the run fails, it never skips.
set -uo pipefail
has_postgres() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then return 0; fi
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then return 0; fi
  done
  return 1
}
if has_postgres; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgres: initdb/pg_ctl are missing and cannot be installed here (needs root and apt-get)." >&2
  echo "ensure-postgres: install Postgres (Debian: apt-get install postgresql), or point the tests at a server with AGENTCHART_TEST_POSTGRES_URL." >&2
  exit 1
fi
echo "ensure-postgres: installing Debian's postgresql for the store tests…" >&2
export DEBIAN_FRONTEND=noninteractive
# Another process may hold the dpkg lock (a parallel install): wait for it.
if apt-get -o DPkg::Lock::Timeout=600 update -qq \
  && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql >/dev/null \
  && has_postgres; then
  exit 0
fi
echo "ensure-postgres: installing postgresql failed; the Postgres store tests cannot run (they fail, they do not skip)." >&2
exit 1
