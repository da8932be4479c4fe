#!/bin/sh
# The stand-in haproxy image's entrypoint (scripts/container-test.sh): as the official image's does,
# haproxy runs in the foreground in master-worker mode (-W -db), as the haproxy user, with the
# configuration docker-compose.yml mounts at /usr/local/etc/haproxy/haproxy.cfg.
set -eu
if [ "${1:-}" = haproxy ]; then
  shift
  set -- haproxy -W -db "$@"
  exec setpriv --reuid=haproxy --regid=haproxy --init-groups "$@"
fi
exec "$@"
