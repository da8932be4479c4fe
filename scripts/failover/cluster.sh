#!/usr/bin/env bash
# A PostgreSQL cluster that fails over, on this machine (docs/failover.md): one etcd member, three
# PostgreSQL 15 members under Patroni with synchronous replication, and HAProxy in front that sends
# connections to whichever member Patroni's REST API calls the primary. Debian's packages (patroni,
# etcd-server, haproxy, postgresql); installed here when missing.
#
#   scripts/failover/cluster.sh up <dir>     builds it under <dir> and waits until it has a primary
#                                            and a synchronous standby; prints the cluster's facts
#                                            as JSON on its last line
#   scripts/failover/cluster.sh down <dir>   stops every process it started and removes <dir>
#
# Every process listens on 127.0.0.1 only, on ports chosen away from the defaults (the machine's
# own PostgreSQL keeps 5432). PostgreSQL refuses to run as root, so the members run as `postgres`.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || {
  echo "usage: $0 up|down <dir>" >&2
  exit 2
}

ETCD_PORT=23790
ETCD_PEER_PORT=23800
HAPROXY_PORT=54320
MEMBERS=(1 2 3)
pg_port() { echo $((54320 + $1)); }
api_port() { echo $((8700 + $1)); }

say() { printf '== [cluster] %s\n' "$*" >&2; }
# setpriv execs the command itself, so a recorded PID ($!) is the process and not a wrapper (runuser
# stays as a parent, and a shell function run in the background is a subshell).
AS_POSTGRES=(setpriv --reuid postgres --regid postgres --init-groups --)

down() {
  for pidfile in "$dir"/*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
  done
  # Patroni stops its PostgreSQL on SIGTERM; give them a moment, then end what is left.
  for _ in $(seq 1 50); do
    alive=0
    for pidfile in "$dir"/*.pid; do [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  for pidfile in "$dir"/*.pid; do [ -f "$pidfile" ] && kill -KILL "$(cat "$pidfile")" 2>/dev/null || true; done
  # A member's postmaster outlives a Patroni killed with SIGKILL: end every postgres under <dir>.
  for m in "${MEMBERS[@]}"; do
    pm="$dir/pg$m/data/postmaster.pid"
    [ -f "$pm" ] && kill -KILL "$(head -1 "$pm")" 2>/dev/null || true
  done
  # The postmasters' children end once they notice their parent is gone; the directory is removed after.
  for _ in $(seq 1 50); do
    pgrep -f -- "-D $dir/" >/dev/null || break
    sleep 0.2
  done
  pkill -KILL -f -- "-D $dir/" 2>/dev/null || true
  rm -rf "$dir"
}

if [ "$cmd" = down ]; then
  down
  exit 0
fi
[ "$cmd" = up ] || {
  echo "usage: $0 up|down <dir>" >&2
  exit 2
}

need=()
for tool in patroni etcd haproxy curl psql python3 setpriv; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
ls -d /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
if [ "${#need[@]}" -gt 0 ]; then
  say "installing what is missing (${need[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends patroni etcd-server haproxy postgresql postgresql-client curl python3 util-linux >/dev/null
fi
bin_dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

for port in $ETCD_PORT $ETCD_PEER_PORT $HAPROXY_PORT $(pg_port 1) $(pg_port 2) $(pg_port 3) $(api_port 1) $(api_port 2) $(api_port 3); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    say "port $port is in use (a cluster left running? scripts/failover/cluster.sh down <its dir>)"
    exit 1
  fi
done
mkdir -p "$dir"
chown postgres: "$dir"
chmod 700 "$dir"

say "etcd on 127.0.0.1:$ETCD_PORT"
"${AS_POSTGRES[@]}" etcd --name etcd1 --data-dir "$dir/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "etcd1=http://127.0.0.1:$ETCD_PEER_PORT" --enable-v2=true \
  >"$dir/etcd.log" 2>&1 &
echo $! >"$dir/etcd.pid"
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$ETCD_PORT/health" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$ETCD_PORT/health" >/dev/null || {
  cat "$dir/etcd.log" >&2
  exit 1
}

# Timings: the leader key lives 10 s (ttl) and is renewed every second (loop_wait), so a leader
# that died is replaced within about 10 s; retry_timeout 3 keeps ttl >= loop_wait + 2 × retry_timeout.
# synchronous_mode: a commit returns only once a standby has it, and Patroni promotes only that
# standby, so no acknowledged commit is lost with the leader. maximum_lag_on_failover 0 says the same
# for any other candidate.
for m in "${MEMBERS[@]}"; do
  cat >"$dir/pg$m.yml" <<EOF
scope: partner-services
namespace: /service/
name: pg$m
restapi:
  listen: 127.0.0.1:$(api_port "$m")
  connect_address: 127.0.0.1:$(api_port "$m")
etcd3:
  hosts: 127.0.0.1:$ETCD_PORT
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 3
    maximum_lag_on_failover: 0
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 200
        wal_level: replica
        hot_standby: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_log_hints: "on"
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - auth: trust
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(pg_port "$m")
  connect_address: 127.0.0.1:$(pg_port "$m")
  data_dir: $dir/pg$m/data
  bin_dir: $bin_dir
  pgpass: $dir/pg$m/pgpass
  authentication:
    replication:
      username: replicator
      password: replicator
    superuser:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: $dir/pg$m
EOF
  mkdir -p "$dir/pg$m"
  chown -R postgres: "$dir/pg$m" "$dir/pg$m.yml"
  chmod 700 "$dir/pg$m"
done

start_member() {
  local m=$1
  "${AS_POSTGRES[@]}" patroni "$dir/pg$m.yml" >>"$dir/pg$m.log" 2>&1 &
  echo $! >"$dir/patroni$m.pid"
}

say "Patroni members pg1 pg2 pg3 (PostgreSQL on $(pg_port 1)–$(pg_port 3), REST on $(api_port 1)–$(api_port 3))"
start_member 1
# The first member bootstraps the cluster alone; the others then clone it.
for _ in $(seq 1 600); do
  curl -fsS "http://127.0.0.1:$(api_port 1)/primary" >/dev/null 2>&1 && break
  sleep 0.1
done
start_member 2
start_member 3

cat >"$dir/haproxy.cfg" <<EOF
global
  maxconn 400
  pidfile $dir/haproxy.pid
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
# Only the member whose REST API answers 200 to /primary takes connections; on a failover the old
# primary's sessions are cut (on-marked-down shutdown-sessions) so clients reconnect to the new one.
listen primary
  bind 127.0.0.1:$HAPROXY_PORT
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
EOF
for m in "${MEMBERS[@]}"; do
  echo "  server pg$m 127.0.0.1:$(pg_port "$m") maxconn 150 check port $(api_port "$m")" >>"$dir/haproxy.cfg"
done
say "HAProxy on 127.0.0.1:$HAPROXY_PORT"
haproxy -D -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1

# Ready: a primary through HAProxy, and a synchronous standby streaming (so commits are replicated).
say "waiting for a primary and a synchronous standby"
ok=0
for _ in $(seq 1 1200); do
  cluster=$(curl -fsS "http://127.0.0.1:$(api_port 1)/cluster" 2>/dev/null || true)
  if [ -n "$cluster" ] &&
    echo "$cluster" | python3 -c 'import json,sys; c=json.load(sys.stdin); m=c["members"]; sys.exit(0 if any(x["role"]=="leader" and x["state"]=="running" for x in m) and any(x["role"]=="sync_standby" and x["state"] in ("running","streaming") for x in m) and sum(x["state"] in ("running","streaming") for x in m)==3 else 1)' &&
    psql "postgres://postgres@127.0.0.1:$HAPROXY_PORT/postgres" -Atc 'select 1' >/dev/null 2>&1; then
    ok=1
    break
  fi
  sleep 0.25
done
if [ "$ok" != 1 ]; then
  say "the cluster did not come up; its logs:"
  tail -n 40 "$dir"/*.log >&2
  exit 1
fi
psql "postgres://postgres@127.0.0.1:$HAPROXY_PORT/postgres" -qAtc 'create database partner_services' >/dev/null
printf '{"databaseUrl":"postgres://postgres@127.0.0.1:%s/partner_services","members":[' "$HAPROXY_PORT"
sep=''
for m in "${MEMBERS[@]}"; do
  printf '%s{"name":"pg%s","restApi":"http://127.0.0.1:%s","dataDir":"%s","patroniPidFile":"%s"}' \
    "$sep" "$m" "$(api_port "$m")" "$dir/pg$m/data" "$dir/patroni$m.pid"
  sep=','
done
printf ']}\n'
