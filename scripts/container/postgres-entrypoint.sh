#!/bin/sh
# The stand-in postgres image's entrypoint (scripts/container-test.sh): what the official image's
# does for docker-compose.yml: a first start creates the cluster with POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB; then PostgreSQL runs as PID 1, as the postgres user.
set -eu
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}" "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
if [ "${1:-postgres}" = postgres ]; then
  [ "$#" -gt 0 ] && shift
  exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
