# shellcheck shell=bash
# A throw-away S3-compatible service for the tests: versitygw's posix backend on a folder.
#
#   s3_start ROOT PORT ACCESS_KEY SECRET_KEY   sets S3_ENDPOINT (host:port, plain HTTP)
#   s3_stop ROOT
#
# Layout under ROOT: data/ (buckets are folders), meta/ (object metadata, so no xattr support is
# needed from the file system), s3.pid, s3.log. It listens on 127.0.0.1:PORT only.

if [[ -n "${PRESSROOM_LIB_S3_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_S3_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=install.sh
source "$(dirname "${BASH_SOURCE[0]}")/install.sh"
# shellcheck source=net.sh
source "$(dirname "${BASH_SOURCE[0]}")/net.sh"

# shellcheck disable=SC2034 # read by the scripts that source this file
S3_ENDPOINT=""

# s3_start ROOT PORT ACCESS_KEY SECRET_KEY
s3_start() {
  local root="$1" port="$2" access="$3" secret="$4" bin
  bin="$(versitygw_bin)" || return 1
  mkdir -p "$root/data" "$root/meta"
  chmod 700 "$root"
  if ! port_free "$port"; then
    die "127.0.0.1:$port (S3) is already in use"
  fi
  info "starting S3 (versitygw) on 127.0.0.1:$port"
  # Credentials through the environment, not the command line (ps shows that).
  ROOT_ACCESS_KEY_ID="$access" ROOT_SECRET_ACCESS_KEY="$secret" \
    setsid "$bin" --port "127.0.0.1:$port" --quiet --health /healthz \
    posix --sidecar "$root/meta" "$root/data" >>"$root/s3.log" 2>&1 </dev/null &
  local pid=$!
  printf '%s\n' "$pid" >"$root/s3.pid"
  # shellcheck disable=SC2034
  S3_ENDPOINT="127.0.0.1:$port"
  if ! wait_http "http://127.0.0.1:$port/healthz" 30 "$pid" "$root/s3.log"; then
    stop_pid versitygw "$pid" 5
    return 1
  fi
}

# s3_stop ROOT
s3_stop() {
  local root="$1" pid
  [[ -f "$root/s3.pid" ]] || return 0
  pid="$(cat "$root/s3.pid" 2>/dev/null || true)"
  if [[ "$pid" =~ ^[0-9]+$ ]] && proc_alive "$pid"; then
    info "stopping S3 ($root)"
    stop_pid versitygw "$pid" 15
  fi
  rm -f "$root/s3.pid"
}
