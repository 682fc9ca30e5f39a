# shellcheck shell=bash
# A project-local PostgreSQL cluster.
#
#   pg_start ROOT PORT MODE PASSWORD   MODE is dev (durable) or test (fsync off); sets PG_URL
#   pg_stop ROOT
#
# Layout under ROOT: data/ (the cluster), run/ (unix socket, mode 0700), postgres.log.
# It listens on 127.0.0.1:PORT only. Connections over the socket are trusted (only the cluster's
# owner can open the socket folder); TCP connections need a password (scram-sha-256). The role
# `pressroom` (LOGIN CREATEDB, password PASSWORD) owns the database `pressroom`.
#
# Postgres refuses to run as root: as root the cluster runs as the `postgres` system user (created
# by the postgresql package; a `pressroom-pg` system user is created when there is none); as a
# normal user it runs as that user. An existing cluster always runs as the owner of its data folder.

if [[ -n "${PRESSROOM_LIB_POSTGRES_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_POSTGRES_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=install.sh
source "$(dirname "${BASH_SOURCE[0]}")/install.sh"
# shellcheck source=net.sh
source "$(dirname "${BASH_SOURCE[0]}")/net.sh"

# shellcheck disable=SC2034 # read by the scripts that source this file
PG_URL=""

# _pg_user ROOT: the user the cluster runs as.
_pg_user() {
  local root="$1"
  if [[ -f "$root/data/PG_VERSION" ]]; then
    stat -c %U "$root/data"
  elif ! is_root; then
    id -un
  elif getent passwd postgres >/dev/null 2>&1; then
    echo postgres
  else
    if ! getent passwd pressroom-pg >/dev/null 2>&1; then
      useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin pressroom-pg ||
        die "could not create the system user pressroom-pg for Postgres"
    fi
    echo pressroom-pg
  fi
}

# _pg_conf_quote VALUE: a postgresql.conf string literal.
_pg_conf_quote() { printf "'%s'" "${1//\'/\'\'}"; }

# pg_root_for DATA_DIR: the cluster folder for a data folder: DATA_DIR/postgres. When running as
# root and the postgres user cannot reach DATA_DIR (a checkout under /root, say), the cluster lives
# in /var/lib/pressroom-postgres/<hash of DATA_DIR> and DATA_DIR/postgres is a symlink to it.
pg_root_for() {
  local data="$1" root="$1/postgres"
  if [[ -L "$root" ]]; then
    readlink -f "$root"
    return 0
  fi
  if is_root && [[ ! -d "$root" ]]; then
    local user
    user="$(_pg_user "$root")"
    if [[ "$user" != root ]] && ! as_user "$user" test -x "$data"; then
      local alt
      alt="/var/lib/pressroom-postgres/$(printf '%s' "$data" | sha256sum | cut -c1-16)"
      mkdir -p "$alt"
      chmod 755 /var/lib/pressroom-postgres
      ln -sfn "$alt" "$root"
      info "$user cannot reach $data; the cluster lives in $alt ($root links to it)"
      printf '%s\n' "$alt"
      return 0
    fi
  fi
  printf '%s\n' "$root"
}

# pg_is_running ROOT
pg_is_running() {
  local root="$1" bindir
  [[ -f "$root/data/postmaster.pid" ]] || return 1
  bindir="$(pg_bindir)"
  as_user "$(_pg_user "$root")" "$bindir/pg_ctl" status -D "$root/data" >/dev/null 2>&1
}

# pg_start ROOT PORT MODE PASSWORD
pg_start() {
  local root="$1" port="$2" mode="$3" password="$4"
  local bindir user
  bindir="$(pg_bindir)"
  [[ -n "$bindir" ]] || die "PostgreSQL server binaries not found"
  mkdir -p "$root"
  user="$(_pg_user "$root")"
  [[ "$user" != root ]] || die "$root/data is owned by root; Postgres refuses to run as root (remove it or chown it)"
  if is_root; then chown "$user:" "$root"; fi
  chmod 700 "$root"

  if [[ ! -f "$root/data/PG_VERSION" ]]; then
    info "initdb $root/data (as $user, $("$bindir/postgres" --version | awk '{print $3}'))"
    # No superuser password: the superuser connects over the private socket only.
    as_user "$user" "$bindir/initdb" -D "$root/data" -U postgres --no-locale -E UTF8 \
      --auth-local=trust --auth-host=scram-sha-256 >"$root/initdb.log" 2>&1 ||
      { tail_log "$root/initdb.log"; die "initdb failed"; }
    # shellcheck disable=SC2016 # $1 expands in the inner shell
    as_user "$user" sh -c 'printf "\ninclude_if_exists = '\''pressroom.conf'\''\n" >>"$1/postgresql.conf"' sh "$root/data"
    # Loopback only, password required (initdb's defaults also allow ::1; drop everything else).
    # shellcheck disable=SC2016
    as_user "$user" sh -c 'cat >"$1/pg_hba.conf"' sh "$root/data" <<'EOF'
# written by scripts/lib/postgres.sh
local   all   all                  trust
host    all   all   127.0.0.1/32   scram-sha-256
EOF
  fi

  # Settings that may change between runs (port, paths, mode) are rewritten every start.
  mkdir -p "$root/run"
  if is_root; then chown "$user:" "$root/run"; fi
  chmod 700 "$root/run"
  local conf
  conf="# written by scripts/lib/postgres.sh on every start
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = $(_pg_conf_quote "$root/run")
unix_socket_permissions = 0700
max_connections = 200
shared_buffers = 128MB
password_encryption = 'scram-sha-256'
log_min_messages = warning
log_line_prefix = '%m [%p] %q%u@%d '
log_timezone = 'UTC'
timezone = 'UTC'
"
  if [[ "$mode" == test ]]; then
    conf+="# throw-away test cluster: durability off
fsync = off
synchronous_commit = off
full_page_writes = off
"
  else
    conf+="fsync = on
synchronous_commit = on
full_page_writes = on
"
  fi
  # shellcheck disable=SC2016
  printf '%s' "$conf" | as_user "$user" sh -c 'cat >"$1/pressroom.conf"' sh "$root/data"

  if pg_is_running "$root"; then
    warn "a Postgres from an earlier run is still running on $root; restarting it"
    as_user "$user" "$bindir/pg_ctl" stop -D "$root/data" -m fast -w -t 60 >/dev/null ||
      as_user "$user" "$bindir/pg_ctl" stop -D "$root/data" -m immediate -w -t 30 >/dev/null || true
  fi
  if ! port_free "$port"; then
    die "127.0.0.1:$port (Postgres) is already in use: stop whatever listens there, or set PRESSROOM_PG_PORT"
  fi

  info "starting Postgres on 127.0.0.1:$port ($mode)"
  touch "$root/postgres.log"
  if is_root; then chown "$user:" "$root/postgres.log"; fi
  # setsid: Ctrl+C in the terminal must not reach Postgres; the scripts stop it in order.
  if ! as_user "$user" setsid "$bindir/pg_ctl" start -D "$root/data" -l "$root/postgres.log" -w -t 60 -s >/dev/null 2>&1; then
    err "Postgres did not start"
    tail_log "$root/postgres.log"
    return 1
  fi

  # Role and database (idempotent; the password is (re)set so it always matches).
  as_user "$user" "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$root/run" -p "$port" -U postgres -d postgres \
    -v pw="$password" >/dev/null <<'EOF' || { tail_log "$root/postgres.log"; die "could not create the pressroom role and database"; }
SELECT format('CREATE ROLE pressroom LOGIN CREATEDB PASSWORD %L', :'pw')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pressroom') \gexec
SELECT format('ALTER ROLE pressroom LOGIN CREATEDB PASSWORD %L', :'pw') \gexec
SELECT 'CREATE DATABASE pressroom OWNER pressroom'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'pressroom') \gexec
EOF
  # shellcheck disable=SC2034
  PG_URL="postgres://pressroom:${password}@127.0.0.1:${port}/pressroom?sslmode=disable"
}

# pg_stop ROOT: fast shutdown (falls back to immediate). Quiet when it is not running.
pg_stop() {
  local root="$1" bindir user
  [[ -f "$root/data/postmaster.pid" ]] || return 0
  bindir="$(pg_bindir)"
  user="$(_pg_user "$root")"
  if as_user "$user" "$bindir/pg_ctl" status -D "$root/data" >/dev/null 2>&1; then
    local pid
    pid="$(head -n1 "$root/data/postmaster.pid" 2>/dev/null || true)"
    info "stopping Postgres ($root)"
    as_user "$user" "$bindir/pg_ctl" stop -D "$root/data" -m fast -w -t 60 -s >/dev/null 2>&1 ||
      as_user "$user" "$bindir/pg_ctl" stop -D "$root/data" -m immediate -w -t 30 -s >/dev/null 2>&1 ||
      warn "could not stop Postgres in $root"
    # pg_ctl returns once the pid file is gone; wait for the process itself too.
    if [[ "$pid" =~ ^[0-9]+$ ]]; then wait_pid_gone "$pid" 10 || true; fi
  fi
}
