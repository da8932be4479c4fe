#!/usr/bin/env bash
# `npm run test:container` (and .ci/run): builds the real Dockerfile with podman and runs the image
# on the embedded store, on the CI PostgreSQL, and as docker-compose.yml with its postgres and
# redis; each time it checks the user (uid 1000), the HEALTHCHECK, /ready, one request of each
# API and a graceful stop (SIGTERM, exit 0 within a few seconds); on the embedded store it also
# runs the recognition engines from the image's pruned node_modules (check_engines); last, the compose
# file's `scale` profile (two API instances behind haproxy, two workers) with the demo through it.
# docs/operations.md, "Container test".
#
# No registry is reachable here, so the base images are stand-ins built with mmdebstrap from
# Debian trixie and imported under the names the Dockerfile and compose file use: node:22-slim
# (nodejs 20.19, npm, a `node` user 1000:1000), postgres:17-alpine, redis:7-alpine and haproxy:3.0-alpine
# (Debian's PostgreSQL 17, Redis and HAProxy behind small entrypoints, scripts/container/). They are built once per
# machine and kept in podman's storage, labelled with a hash of their recipe.
#
# Runs as root (rootful podman, no systemd: health checks are run by hand). Changes to the machine
# are undone at exit: containers, volumes, the compose network (netavark removes the firewall rules
# it added for it) and net.ipv4.ip_forward; it never touches rules it did not add.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
say() { printf '== [%3ds] %s\n' $((SECONDS - started)) "$*"; }
fail() {
  printf 'container test FAILED: %s\n' "$*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "needs root (rootful podman)"
need=()
for tool in podman mmdebstrap iptables runc docker-compose psql; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ "${#need[@]}" -gt 0 ]; then
  say "installing ${need[*]}"
  pkgs=(podman mmdebstrap netavark aardvark-dns iptables runc uidmap docker-compose postgresql-client)
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi

work=$(mktemp -d /tmp/container-test.XXXXXX)
project="pstest$$"
socket="$work/podman.sock"
ip_forward_before=$(cat /proc/sys/net/ipv4/ip_forward)
pg_base="${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
ci_db="container_test_$$"
service_pid=""
health_pid=""

# Podman's settings for this run only: the VM may not raise rlimits past these, its cgroups are
# hybrid (crun refuses them; runc runs), and there is no systemd (cgroupfs, events to a file).
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"
EOF
export CONTAINERS_CONF="$work/containers.conf"

# Podman without systemd says on every container start and removal that it cannot set up the
# health check timers (the checks here are run by hand): leave those lines out of the log.
podman() { command podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }

# netavark leaves its chains and jump rules behind when the compose network goes. Deletes the
# rules and chains naming netavark or a podman bridge that were not there in `$1` (iptables-save
# from before), and nothing else.
undo_netavark_firewall() {
  local before=$1 table="" line name
  local -a chains=()
  in_before() { sed -n "/^\*$1\$/,/^COMMIT\$/p" "$before" | grep -qxF -- "$2"; }
  while IFS= read -r line; do
    case "$line" in
      '*'*) table=${line#\*} ;;
      -A*NETAVARK* | -A*podman*) in_before "$table" "$line" || eval "iptables -t $table -D ${line#-A }" ;;
      :NETAVARK*)
        name=${line%% *}
        name=${name#:}
        sed -n "/^\*$table\$/,/^COMMIT\$/p" "$before" | grep -q "^:$name " || chains+=("$table:$name")
        ;;
    esac
  done < <(iptables-save)
  for c in "${chains[@]}"; do iptables -t "${c%%:*}" -F "${c#*:}"; done
  for c in "${chains[@]}"; do iptables -t "${c%%:*}" -X "${c#*:}"; done
}

cleanup() {
  set +e
  [ -n "$health_pid" ] && kill "$health_pid" 2>/dev/null
  if [ -S "$socket" ]; then
    DOCKER_HOST="unix://$socket" docker-compose -p "$project" -f docker-compose.yml down -v --timeout 5 >/dev/null 2>&1
    DOCKER_HOST="unix://$socket" docker-compose -p "${project}r" -f docker-compose.yml down -v --timeout 5 >/dev/null 2>&1
    DOCKER_HOST="unix://$socket" docker-compose -p "${project}s" -f docker-compose.yml --profile scale down -v --timeout 5 >/dev/null 2>&1
  fi
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null
  for c in $(podman ps -a --filter "label=partner-services.container-test=$project" --format '{{.ID}}'); do podman rm -f -t 0 "$c" >/dev/null 2>&1; done
  for v in $(podman volume ls --filter "label=partner-services.container-test=$project" --format '{{.Name}}'); do podman volume rm -f "$v" >/dev/null 2>&1; done
  podman network rm -f "${project}_default" "${project}r_default" "${project}s_default" >/dev/null 2>&1
  [ -f "$work/iptables.before" ] && undo_netavark_firewall "$work/iptables.before"
  psql "$pg_base" -qc "drop database if exists $ci_db with (force)" >/dev/null 2>&1
  echo "$ip_forward_before" >/proc/sys/net/ipv4/ip_forward
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# ---- stand-in base images -------------------------------------------------------------------
cache="${CONTAINER_TEST_CACHE:-/var/cache/partner-services-container-test}"
mkdir -p "$cache"
has_recipe() { [ "$(podman image inspect --format '{{index .Labels "stand-in.recipe"}}' "$1" 2>/dev/null)" = "$recipe" ]; }
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
npm_version=10.9.4

build_node_base() {
  [ -f "$cache/npm-$npm_version.tgz" ] || npm pack "npm@$npm_version" --pack-destination "$cache" --silent >/dev/null
  mmdebstrap --quiet --variant=minbase --include=nodejs,ca-certificates \
    --customize-hook='chroot "$1" groupadd --gid 1000 node' \
    --customize-hook='chroot "$1" useradd --uid 1000 --gid 1000 --create-home --shell /bin/sh node' \
    --customize-hook="mkdir -p \"\$1/usr/lib/node_modules/npm\" && tar -xzf '$cache/npm-$npm_version.tgz' -C \"\$1/usr/lib/node_modules/npm\" --strip-components=1" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/bin/npx"' \
    trixie "$cache/node.tar" "$mirror"
  podman import --quiet --change 'CMD ["node"]' --change "LABEL stand-in.recipe=$recipe" \
    "$cache/node.tar" docker.io/library/node:22-slim >/dev/null
  rm -f "$cache/node.tar"
}
build_services_base() {
  mmdebstrap --quiet --variant=minbase --include=postgresql-17,redis-server,haproxy \
    --customize-hook='copy-in scripts/container/postgres-entrypoint.sh scripts/container/redis-entrypoint.sh scripts/container/haproxy-entrypoint.sh /usr/local/bin' \
    trixie "$cache/services.tar" "$mirror"
  local path="PATH=/usr/lib/postgresql/17/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  podman import --quiet --change "ENV $path" --change 'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]' \
    --change 'CMD ["postgres"]' --change 'STOPSIGNAL SIGINT' --change "LABEL stand-in.recipe=$recipe" \
    "$cache/services.tar" docker.io/library/postgres:17-alpine >/dev/null
  podman import --quiet --change 'ENTRYPOINT ["/usr/local/bin/redis-entrypoint.sh"]' --change 'CMD ["redis-server"]' \
    --change 'WORKDIR /var/lib/redis' --change "LABEL stand-in.recipe=$recipe" \
    "$cache/services.tar" docker.io/library/redis:7-alpine >/dev/null
  podman import --quiet --change 'ENTRYPOINT ["/usr/local/bin/haproxy-entrypoint.sh"]' \
    --change 'CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]' --change 'STOPSIGNAL SIGUSR1' \
    --change "LABEL stand-in.recipe=$recipe" "$cache/services.tar" docker.io/library/haproxy:3.0-alpine >/dev/null
  rm -f "$cache/services.tar"
}
# The label the stand-ins carry: a change to how they are made rebuilds them.
recipe=$({
  declare -f build_node_base build_services_base
  cat scripts/container/*.sh
} | sha256sum | cut -c1-16)
# Both at once: they mostly wait on the mirror.
builds=()
if ! has_recipe docker.io/library/node:22-slim; then
  say "building the stand-in node:22-slim (mmdebstrap, trixie: nodejs, npm $npm_version, user node 1000)"
  build_node_base >"$work/node-base.log" 2>&1 &
  builds+=("$!:node-base")
fi
if ! has_recipe docker.io/library/postgres:17-alpine || ! has_recipe docker.io/library/redis:7-alpine ||
  ! has_recipe docker.io/library/haproxy:3.0-alpine; then
  say "building the stand-in postgres:17-alpine, redis:7-alpine and haproxy:3.0-alpine (mmdebstrap, trixie: postgresql-17, redis-server, haproxy)"
  build_services_base >"$work/services-base.log" 2>&1 &
  builds+=("$!:services-base")
fi
for b in "${builds[@]}"; do
  wait "${b%%:*}" || {
    tail -20 "$work/${b#*:}.log"
    fail "building the stand-in ${b#*:}"
  }
done

# ---- the image --------------------------------------------------------------------------------
# npm inside the build must trust what the host's npm trusts (a proxy's CA, say).
ca=$(npm config get cafile 2>/dev/null || true)
case "$ca" in "" | null | undefined) ca="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" ;; esac
[ -f "$ca" ] || fail "no CA bundle at $ca"
printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\n' >"$work/npmrc"
say "building the Dockerfile (podman build --pull=never --network=host --format docker)"
podman build --quiet --pull=never --network=host --format docker \
  --volume "$ca:/etc/ssl/certs/ca-certificates.crt:ro" --volume "$work/npmrc:/root/.npmrc:ro" \
  --tag partner-services:latest . >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log"
  fail "podman build"
}
say "built partner-services:latest ($(podman image inspect --format '{{.Size}}' partner-services:latest | awk '{printf "%d MB", $1/1e6}'))"

# ---- checks shared by the three runs ---------------------------------------------------------
admin_token="container-test-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

# The wait is generous: on a quiet machine the server is healthy in 2-3 s, but a machine loaded by
# other work (seen: load 20 on 2 cores) took over 60 s to start the first time.
wait_healthy() { # <container> <seconds>
  local until=$((SECONDS + $2))
  while ! podman healthcheck run "$1" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$until" ] || {
      podman logs --tail 30 "$1" >&2
      fail "$1 not healthy after $2 s"
    }
    sleep 1
  done
}

# One request of each API, with a tenant and keys made through the operator API.
check_apis() { # <base url>
  BASE="$1" ADMIN_TOKEN="$admin_token" node --input-type=module -e '
    const { BASE, ADMIN_TOKEN } = process.env;
    const call = async (method, path, key, body, want) => {
      const res = await fetch(BASE + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) }, body: body && JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== want) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text);
    };
    const ready = await fetch(BASE + "/ready");
    if (ready.status !== 200) throw new Error(`/ready: ${ready.status}`);
    // The web app is in the image (dist/web), built as npm run build:web builds it.
    const page = await fetch(BASE + "/console/");
    if (page.status !== 200 || !(await page.text()).includes("<script")) throw new Error(`/console/: ${page.status}`);
    const admin = (path, body) => call("POST", `/admin/v1${path}`, ADMIN_TOKEN, body, 201).then((r) => r.data);
    const profile = await admin("/profiles", { name: "Container test", plan: "ENTERPRISE" });
    const ticketing = await admin("/api-keys", { service: "ticketing", profileId: profile.id, scopes: ["events:read"] });
    const identity = await admin("/api-keys", { service: "identity", profileId: profile.id, role: "backend" });
    const governance = await admin("/api-keys", { service: "governance", profileId: profile.id, scopes: ["governance:read"] });
    await call("GET", "/api/v1/events", ticketing.key, undefined, 200);
    await call("POST", "/v1/verifications", identity.key, { webhook_url: "https://127.0.0.1:9/hooks/identity", reference: "container-test" }, 201);
    await call("GET", "/v1/governance/records", governance.key, undefined, 200);
    console.log("   /ready 200, the console page, and ticketing, identity and governance answered");
  ' || fail "API checks at $1"
}

check_runs_as_node() { # <container>
  local uid
  uid=$(podman exec "$1" id -u)
  [ "$uid" = 1000 ] || fail "$1 runs as uid $uid, not 1000"
  echo "   runs as uid 1000"
}

# SIGTERM (through `$3…`) ends the server with exit 0 within `$2` ms, after a clean shutdown, and
# the process ends at once after it (nothing keeps it alive past "shut down cleanly").
check_graceful_stop() { # <container> <max ms> <stop command…>
  local container=$1 max=$2 t0 took code times
  shift 2
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1
  took=$((($(date +%s%N) - t0) / 1000000))
  code=$(podman inspect --format '{{.State.ExitCode}}' "$container")
  [ "$code" = 0 ] || {
    podman logs --tail 20 "$container" >&2
    fail "$container exited $code on SIGTERM"
  }
  # From the server's log: how long closing took, and how long the process lived after it.
  times=$(podman logs "$container" 2>&1 | FINISHED="$(podman inspect --format '{{.State.FinishedAt.UnixMilli}}' "$container")" node -e '
    const t = {};
    for (const l of require("fs").readFileSync(0, "utf8").split("\n")) {
      try { const j = JSON.parse(l); if (j.msg?.startsWith("shutting down")) t.a = j.time; if (j.msg === "shut down cleanly") t.b = j.time; } catch {}
    }
    console.log(t.b === undefined ? "unclean" : `${t.b - t.a} ${Number(process.env.FINISHED) - t.b}`);')
  [ "$times" != unclean ] || fail "$container did not log a clean shutdown"
  set -- $times
  echo "   stopped on SIGTERM in ${took} ms (closing ${1} ms, then ended ${2} ms later), exit 0"
  [ "$took" -lt "$max" ] || fail "$container took ${took} ms to stop (at most ${max})"
  [ "$2" -lt 1000 ] || fail "$container lived on ${2} ms after it shut down cleanly"
}

# The recognition engines inside the image (the server runs with FACE_CHECKS=off here): every face
# model and both OCR engines load from the pruned node_modules (Dockerfile, scripts/prune-image.mjs)
# and read the walkthrough's passport and a frame, through the compiled pools as the server runs them.
check_engines() { # <container>
  podman cp scripts/container/engines-check.mjs "$1:/tmp/engines-check.mjs"
  podman cp test/fixtures/walkthrough "$1:/tmp/walkthrough"
  podman exec "$1" node /tmp/engines-check.mjs /app /tmp/walkthrough || fail "the engines in the image ($1)"
}

run_image() { # <name> <check engines: yes|no> <env…>: the image alone, on the host's network (no firewall rules)
  local name="${project}_$1" engines=$2 port
  shift 2
  port=$(free_port)
  podman volume create --label "partner-services.container-test=$project" "${name}_data" >/dev/null
  podman run -d --name "$name" --network=host --label "partner-services.container-test=$project" \
    --volume "${name}_data:/data" -e HOST=127.0.0.1 -e PORT="$port" -e ADMIN_TOKEN="$admin_token" -e FACE_CHECKS=off \
    -e WEBHOOK_ALLOW_PRIVATE_NETWORKS=true "$@" partner-services:latest 2> >(grep -v 'systemd connection' >&2) >/dev/null
  wait_healthy "$name" 180
  echo "   HEALTHCHECK passes"
  check_runs_as_node "$name"
  check_apis "http://127.0.0.1:$port"
  [ "$engines" = no ] || check_engines "$name"
  check_graceful_stop "$name" 5000 podman stop --time 20 "$name"
  podman rm -f "$name" >/dev/null
  podman volume rm -f "${name}_data" >/dev/null
}

say "the image on the embedded store"
run_image embedded yes
say "the image on the CI PostgreSQL ($ci_db)"
psql "$pg_base" -qc "create database $ci_db" >/dev/null
ci_url="${pg_base%/*}/$ci_db"
run_image postgres no -e DATABASE_URL="$ci_url"

# ---- docker-compose.yml through podman's Docker API -------------------------------------------
say "docker-compose up (stand-in postgres and redis) against podman system service"
iptables-save >"$work/iptables.before"
command podman system service --time=0 "unix://$socket" >"$work/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || fail "podman system service did not start"
export DOCKER_HOST="unix://$socket"
# The deployment's master key (docs/operations.md, "Encryption at rest"): the restored stack below is given the
# same one, as the restore of docs/operations.md says, since no backup holds it.
export DATA_KEY="$(head -c 32 /dev/urandom | base64)"
compose_port=$(free_port)
compose=(docker-compose -p "$project" -f docker-compose.yml)
# No systemd runs podman's health timers: run the checks by hand while compose waits on them.
(while :; do
  for p in "$project" "${project}r" "${project}s"; do
    for c in $(podman ps --filter "label=com.docker.compose.project=$p" --format '{{.Names}}'); do podman healthcheck run "$c" >/dev/null 2>&1 || true; done
  done
  sleep 1
done) &
health_pid=$!
ADMIN_TOKEN="$admin_token" WEBHOOK_ALLOW_PRIVATE_NETWORKS=true PUBLISHED_PORT="127.0.0.1:$compose_port" "${compose[@]}" up -d --no-build >"$work/compose.log" 2>&1 || {
  cat "$work/compose.log"
  fail "docker-compose up"
}
server=$("${compose[@]}" ps -q server)
wait_healthy "$server" 180
echo "   HEALTHCHECK passes"
check_runs_as_node "$server"
check_apis "http://127.0.0.1:$compose_port"
# The backup of docs/operations.md (Backup and restore, PostgreSQL with compose), as written, while the server runs:
# pg_dump inside the postgres service, the server-data volume through tar inside the running server
# (`docker compose exec`; a one-off `run` container is refused by podman, which has no links).
"${compose[@]}" exec -T postgres sh -c 'pg_dump -U "$POSTGRES_USER" -d "$POSTGRES_DB" --format=custom' >"$work/partner.dump" ||
  fail "pg_dump in the postgres service"
"${compose[@]}" exec -T server tar -C /data -czf - blobs >"$work/blobs.tar.gz" ||
  fail "tar of the server-data volume"
echo "   backed up: pg_dump $(stat -c %s "$work/partner.dump") bytes, server-data $(stat -c %s "$work/blobs.tar.gz") bytes"
# PostgreSQL and Redis stopped first: their names no longer resolve, and the server still stops at once.
"${compose[@]}" stop postgres redis >/dev/null 2>&1
sleep 3
echo "   postgres and redis stopped first"
# Closing waits for the pools' connection attempts (3 s each) to give up: within SHUTDOWN_GRACE_MS (10 s) and 5 s.
check_graceful_stop "$server" 15000 "${compose[@]}" stop server
"${compose[@]}" down -v --timeout 5 >/dev/null 2>&1

# The restore of docs/operations.md, as written, into a new stack (a second project: empty volumes).
say "restore into a new stack (pg_restore in its postgres service, then the blobs into its running server)"
restored=(docker-compose -p "${project}r" -f docker-compose.yml)
restored_port=$(free_port)
export ADMIN_TOKEN="$admin_token" WEBHOOK_ALLOW_PRIVATE_NETWORKS=true PUBLISHED_PORT="127.0.0.1:$restored_port"
"${restored[@]}" up -d postgres redis >"$work/restore.log" 2>&1 || {
  cat "$work/restore.log"
  fail "docker-compose up -d postgres redis (restore)"
}
wait_healthy "$("${restored[@]}" ps -q postgres)" 60
"${restored[@]}" exec -T postgres sh -c 'pg_restore -U "$POSTGRES_USER" -d "$POSTGRES_DB" --no-owner --exit-on-error' <"$work/partner.dump" ||
  fail "pg_restore in the postgres service"
"${restored[@]}" up -d --no-build >>"$work/restore.log" 2>&1 || {
  cat "$work/restore.log"
  fail "docker-compose up -d (restore)"
}
wait_healthy "$("${restored[@]}" ps -q server)" 180
"${restored[@]}" exec -T server tar -C /data -xzf - <"$work/blobs.tar.gz" ||
  fail "tar into the new server-data volume"
BASE="http://127.0.0.1:$restored_port" node --input-type=module -e '
  const res = await fetch(process.env.BASE + "/admin/v1/profiles", { headers: { authorization: `Bearer ${process.env.ADMIN_TOKEN}` } });
  const body = await res.json();
  if (res.status !== 200 || !JSON.stringify(body).includes("Container test")) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  console.log("   the restored stack answers with the tenant made before the backup");
' || fail "the restored stack"
"${restored[@]}" down -v --timeout 5 >/dev/null 2>&1

# ---- the scale profile (docs/operations.md, "Roles") -----------------------------------------------
say "docker-compose --profile scale up lb: two API instances behind haproxy, two workers"
scaled=(docker-compose -p "${project}s" -f docker-compose.yml --profile scale)
scaled_port=$(free_port)
metrics_token="metrics-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
# The demo's webhook receiver is not running: each delivery fails at once, and two short retries end it.
# The engines stay off here (checked in the image above): this run is about roles, haproxy and jobs,
# and four instances loading the models would double its time on two cores.
PUBLISHED_PORT="127.0.0.1:$scaled_port" METRICS_TOKEN="$metrics_token" WEBHOOK_RETRY_DELAYS_MS=200,200 \
  FACE_CHECKS=off DOCUMENT_READING=off \
  "${scaled[@]}" up -d --no-build lb >"$work/scale.log" 2>&1 || {
  cat "$work/scale.log"
  fail "docker-compose --profile scale up lb"
}
for s in api-1 api-2 worker-1 worker-2; do wait_healthy "$("${scaled[@]}" ps -q "$s")" 240; done
for _ in $(seq 1 30); do curl -fsS "http://127.0.0.1:$scaled_port/ready" >/dev/null 2>&1 && break; sleep 1; done
curl -fsS "http://127.0.0.1:$scaled_port/ready" >/dev/null || fail "haproxy (lb) does not answer /ready"
echo "   api-1, api-2, worker-1 and worker-2 healthy; haproxy answers"
check_apis "http://127.0.0.1:$scaled_port"
say "the demo through haproxy"
# The walkthrough through haproxy: a tenant, events, an order, a verification uploaded to the API
# instances and decided by a worker, two sealed decisions and the log's consistency proof.
ADMIN_TOKEN="$admin_token" npx tsx scripts/demo.ts --url "http://127.0.0.1:$scaled_port" --exit >"$work/demo.log" 2>&1 || {
  tail -30 "$work/demo.log"
  fail "the demo through the scale profile"
}
grep -E '^  verification ' "$work/demo.log" | sed 's/^ */   demo: /'
# Who did the work, from each instance's own /metrics: the workers decided and delivered, the API instances neither.
counted() { # <service> <metric>: the sum of the metric's samples on that instance
  podman exec -e TOKEN="$metrics_token" -e METRIC="$2" "$("${scaled[@]}" ps -q "$1")" node -e '
    fetch("http://127.0.0.1:3000/metrics", { headers: { authorization: `Bearer ${process.env.TOKEN}` } })
      .then((r) => r.text())
      .then((t) => console.log(t.split("\n").filter((l) => l.startsWith(process.env.METRIC + "{") || l.startsWith(process.env.METRIC + " "))
        .reduce((n, l) => n + Number(l.split(" ").pop()), 0)));'
}
decided=0 delivered=0
for s in worker-1 worker-2; do
  decided=$((decided + $(counted "$s" identity_decisions_total)))
  delivered=$((delivered + $(counted "$s" webhook_deliveries_total)))
done
for s in api-1 api-2; do
  for m in identity_decisions_total webhook_deliveries_total; do
    [ "$(counted "$s" "$m")" = 0 ] || fail "$s (ROLE=api) ran jobs: $m is $(counted "$s" "$m")"
  done
done
[ "$decided" -ge 1 ] || fail "no worker decided the verification (identity_decisions_total $decided)"
[ "$delivered" -ge 1 ] || fail "no worker attempted a webhook delivery (webhook_deliveries_total $delivered)"
echo "   the workers decided $decided verification(s) and made $delivered delivery attempt(s); the API instances none"
code=$(podman exec "$("${scaled[@]}" ps -q worker-1)" node -e '
  fetch("http://127.0.0.1:3000/api/v1/events").then((r) => console.log(r.status))')
[ "$code" = 404 ] || fail "worker-1 answered $code to /api/v1/events (a worker serves no API: 404)"
echo "   a worker answers 404 to the APIs"
"${scaled[@]}" down -v --timeout 5 >/dev/null 2>&1
say "container test passed"
