#!/usr/bin/env bash
# `npm run test:failover` (and .ci/run): builds the PostgreSQL cluster of scripts/failover/cluster.sh
# (Patroni, etcd, HAProxy; three members with synchronous replication), runs
# test/ops/failover.test.ts against it (the leader killed under load) and removes the cluster,
# whatever the outcome. docs/failover.md says what it shows. With FAILOVER_KEEP_LOGS=<dir>, the
# cluster's logs (Patroni, etcd) and the server's are copied there before the cluster is removed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || {
  echo "failover test: needs root (it runs the cluster's members as the postgres user)" >&2
  exit 1
}
dir=$(mktemp -d /tmp/failover-cluster.XXXXXX)
rmdir "$dir"
keep() {
  if [ -n "${FAILOVER_KEEP_LOGS:-}" ]; then
    mkdir -p "$FAILOVER_KEEP_LOGS"
    cp "$dir"/*.log "$FAILOVER_KEEP_LOGS"/ 2>/dev/null || true
  fi
  bash scripts/failover/cluster.sh down "$dir"
}
trap keep EXIT
[ -z "${FAILOVER_KEEP_LOGS:-}" ] || mkdir -p "$FAILOVER_KEEP_LOGS"
facts=$(bash scripts/failover/cluster.sh up "$dir" | tail -1)
FAILOVER_CLUSTER="$facts" npx vitest run test/ops/failover.test.ts
