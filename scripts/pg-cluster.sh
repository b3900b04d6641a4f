#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on a loopback port, for the tests and the benchmarks.
#   scripts/pg-cluster.sh start DIR [PORT]  create (first time) and start it; prints its URL
#                                           (PORT: default the first free one from 55432)
#   scripts/pg-cluster.sh stop DIR          stop it, keeping its data (the tests' "database down")
#   scripts/pg-cluster.sh resume DIR        start it again after `stop`
#   scripts/pg-cluster.sh down DIR          stop it and delete DIR
# Uses Debian's server binaries (/usr/lib/postgresql/*/bin) or those on PATH. As root it runs
# the cluster as the `postgres` user, which PostgreSQL requires. Trust authentication on
# 127.0.0.1 only: never use this for anything but tests.
set -euo pipefail
ACTION="${1:?usage: pg-cluster.sh start|stop|resume|down DIR [PORT]}"
DIR="${2:?usage: pg-cluster.sh start|stop|resume|down DIR [PORT]}"
PORT="${3:-}"

free_port() {
  local port
  for port in $(seq 55432 55531); do
    if ! (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then echo "$port"; return; fi
  done
  echo "pg-cluster.sh: no free port in 55432-55531" >&2
  exit 3
}

bin_dir() {
  local debian
  debian="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$debian" ] && [ -x "$debian/initdb" ]; then echo "$debian"; return; fi
  if command -v initdb > /dev/null; then dirname "$(command -v initdb)"; return; fi
  echo "pg-cluster.sh: no PostgreSQL server binaries (apt-get install postgresql)" >&2
  exit 3
}
BIN="$(bin_dir)"
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
ctl() { as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" "$@"; }

case "$ACTION" in
  start)
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
      [ "$(id -u)" = 0 ] && chown postgres "$DIR"
      as_owner "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --no-sync > "$DIR/initdb.log"
      echo "${PORT:-$(free_port)}" > "$DIR/port"
    fi
    PORT="$(cat "$DIR/port")"
    ctl -w -t 60 -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300" start > /dev/null
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    ctl -w -m fast stop > /dev/null
    ;;
  resume)
    PORT="$(cat "$DIR/port")"
    ctl -w -t 60 -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300" start > /dev/null
    ;;
  down)
    if [ -f "$DIR/data/postmaster.pid" ]; then ctl -w -m immediate stop > /dev/null 2>&1 || true; fi
    rm -rf "$DIR"
    ;;
  *)
    echo "pg-cluster.sh: unknown action $ACTION (start, stop, resume, down)" >&2
    exit 2
    ;;
esac
