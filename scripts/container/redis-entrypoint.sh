#!/bin/sh
# The stand-in redis image's entrypoint (scripts/container-test.sh): as the official image does
# when no configuration file is given, redis-server accepts connections from the network.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no --bind '* -::*' "$@"
  exec setpriv --reuid=redis --regid=redis --init-groups "$@"
fi
exec "$@"
