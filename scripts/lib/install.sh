# shellcheck shell=bash
# Install-if-missing helpers: OS packages (apt), Go modules, npm packages, staticcheck, govulncheck.
# Every helper checks first and only installs what is actually missing, so a second run is fast.

if [[ -n "${PRESSROOM_LIB_INSTALL_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_INSTALL_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Fonts the renderer and the browser tests rely on (Roboto is the design default).
PRESSROOM_FONT_PACKAGES=(fonts-roboto-unhinted fonts-liberation fonts-dejavu-core)

# Newest staticcheck release that builds with our Go (checked with `go list -m -versions honnef.co/go/tools`).
# Pinned so CI does not change under us; PRESSROOM_STATICCHECK_VERSION=latest asks the proxy for the newest.
PRESSROOM_STATICCHECK_DEFAULT_VERSION="v0.8.2"

# govulncheck, pinned like staticcheck; it reads the offline database snapshot in ../shared/vulndb.
PRESSROOM_GOVULNCHECK_DEFAULT_VERSION="v1.9.0"

# versitygw (Apache-2.0, a Go module): the S3-compatible server of the Go tests' S3 blob backend.
PRESSROOM_VERSITYGW_DEFAULT_VERSION="v1.8.0"

_apt_updated=""

# pg_bindir: folder with initdb/pg_ctl/postgres (newest installed major), or nothing.
pg_bindir() {
  if [[ -n "${PRESSROOM_PG_BINDIR:-}" ]]; then
    printf '%s\n' "$PRESSROOM_PG_BINDIR"
    return 0
  fi
  local d best="" bestv=0 v
  for d in /usr/lib/postgresql/*/bin; do
    [[ -x "$d/initdb" && -x "$d/pg_ctl" && -x "$d/postgres" ]] || continue
    v="$(basename "$(dirname "$d")")"
    v="${v%%.*}"
    if [[ "$v" =~ ^[0-9]+$ ]] && ((v > bestv)); then bestv="$v"; best="$d"; fi
  done
  if [[ -z "$best" ]] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    best="$(dirname "$(command -v initdb)")"
  fi
  [[ -n "$best" ]] && printf '%s\n' "$best"
  return 0
}

# _pkg_installed NAME: dpkg knows the package as installed.
_pkg_installed() {
  command -v dpkg-query >/dev/null 2>&1 || return 1
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

# apt_install PKG...: installs the given packages with one `apt-get update` per run.
apt_install() {
  (($# > 0)) || return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    die "missing: $* — install them with your system's package manager (this script knows apt only)"
  fi
  log "installing OS packages: $*"
  local start=$SECONDS
  local -a apt=(env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=600 -o Acquire::Retries=3)
  if [[ -z "$_apt_updated" ]]; then
    local out
    if ! out="$(as_root "${apt[@]}" update 2>&1)"; then
      printf '%s\n' "$out" | tail -n 20 >&2
      die "apt-get update failed"
    fi
    _apt_updated=1
  fi
  # --no-install-recommends keeps the install small (Chromium alone recommends a desktop's worth).
  as_root "${apt[@]}" install -y --no-install-recommends "$@" || die "apt-get install $* failed"
  info "installed in $((SECONDS - start))s"
}

# ensure_os_packages WHAT...: WHAT is any of postgres-server, postgres-client, redis-server,
# redis-client, chromium, fonts, curl, gcc, node, wrk (scripts/bench's HTTP load), pdftotext (tests read
# the text of printed PDFs). Installs what is missing,
# in one apt run.
ensure_os_packages() {
  local -a pkgs=()
  local want p
  for want in "$@"; do
    case "$want" in
      postgres-server)
        if [[ -z "$(pg_bindir)" ]]; then pkgs+=(postgresql); fi
        if ! command -v psql >/dev/null 2>&1 || ! command -v pg_isready >/dev/null 2>&1; then pkgs+=(postgresql-client); fi ;;
      postgres-client)
        if ! command -v psql >/dev/null 2>&1 || ! command -v pg_isready >/dev/null 2>&1; then pkgs+=(postgresql-client); fi ;;
      redis-server)
        if ! command -v redis-server >/dev/null 2>&1; then pkgs+=(redis-server); fi
        if ! command -v redis-cli >/dev/null 2>&1; then pkgs+=(redis-tools); fi ;;
      redis-client)
        if ! command -v redis-cli >/dev/null 2>&1; then pkgs+=(redis-tools); fi ;;
      chromium)
        if [[ ! -x "${PRESSROOM_CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then pkgs+=(chromium); fi ;;
      fonts)
        if command -v dpkg-query >/dev/null 2>&1; then
          for p in "${PRESSROOM_FONT_PACKAGES[@]}"; do _pkg_installed "$p" || pkgs+=("$p"); done
        fi ;;
      curl)
        if ! command -v curl >/dev/null 2>&1; then pkgs+=(curl ca-certificates); fi ;;
      gcc)  # go test -race needs cgo
        if ! command -v gcc >/dev/null 2>&1; then pkgs+=(gcc libc6-dev); fi ;;
      wrk)
        if ! command -v wrk >/dev/null 2>&1; then pkgs+=(wrk); fi ;;
      pdftotext)
        if ! command -v pdftotext >/dev/null 2>&1; then pkgs+=(poppler-utils); fi ;;
      node)
        if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then pkgs+=(nodejs npm); fi ;;
      *) die "ensure_os_packages: unknown item $want" ;;
    esac
  done
  # de-duplicate, keep order
  local -a uniq=()
  local seen=" "
  for p in "${pkgs[@]+"${pkgs[@]}"}"; do
    [[ "$seen" == *" $p "* ]] && continue
    seen+="$p "
    uniq+=("$p")
  done
  if ((${#uniq[@]} > 0)); then
    apt_install "${uniq[@]}"
  fi
  # Post-install checks with clear messages.
  for want in "$@"; do
    case "$want" in
      postgres-server) [[ -n "$(pg_bindir)" ]] || die "PostgreSQL server binaries not found (set PRESSROOM_PG_BINDIR)" ;;
      redis-server) command -v redis-server >/dev/null 2>&1 || die "redis-server not found after install" ;;
      chromium) [[ -x "${PRESSROOM_CHROMIUM_PATH:-/usr/bin/chromium}" ]] || die "Chromium not found at ${PRESSROOM_CHROMIUM_PATH:-/usr/bin/chromium} (set PRESSROOM_CHROMIUM_PATH)" ;;
      node)
        local v
        v="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
        if [[ "${v%%.*}" -lt 20 ]]; then warn "Node.js $v is older than the UI needs (>= 20.19)"; fi ;;
    esac
  done
  return 0
}

# ensure_go: Go must be there (Debian's golang is far older than go.mod asks for).
ensure_go() {
  command -v go >/dev/null 2>&1 || die "Go not found: install Go $(awk '/^go /{print $2}' "$PRESSROOM_ROOT/go.mod") (https://go.dev/dl) and put it on PATH"
}

# ensure_go_modules: `go mod download` (a no-op when the module cache already has everything).
ensure_go_modules() {
  ensure_go
  local start=$SECONDS
  (cd "$PRESSROOM_ROOT" && go mod download) || die "go mod download failed"
  if ((SECONDS - start > 2)); then info "Go modules downloaded in $((SECONDS - start))s"; fi
}

# ensure_npm_packages: `npm ci` in ui/ when node_modules is missing or package-lock.json changed.
# The stamp (lock hash + Node version) lives inside node_modules, so removing that folder resets it.
ensure_npm_packages() {
  local ui="$PRESSROOM_ROOT/ui"
  [[ -f "$ui/package.json" ]] || die "ui/package.json not found"
  ensure_os_packages node
  local stamp="$ui/node_modules/.pressroom-npm-stamp" want have=""
  if [[ -f "$ui/package-lock.json" ]]; then
    want="$(sha256sum <"$ui/package-lock.json" | cut -d' ' -f1) node-$(node -v)"
  else
    want="$(sha256sum <"$ui/package.json" | cut -d' ' -f1) node-$(node -v) nolock"
  fi
  [[ -f "$stamp" ]] && have="$(cat "$stamp")"
  if [[ -d "$ui/node_modules" && "$have" == "$want" ]]; then
    return 0
  fi
  # No stamp yet, but npm's own record of the installed tree is newer than the lock file (someone ran
  # npm ci/install by hand): trust it, as npm does, rather than reinstalling under a running tool.
  if [[ -z "$have" && -f "$ui/package-lock.json" && "$ui/node_modules/.package-lock.json" -nt "$ui/package-lock.json" ]]; then
    printf '%s\n' "$want" >"$stamp"
    return 0
  fi
  local start=$SECONDS
  if [[ -f "$ui/package-lock.json" ]]; then
    log "npm ci (ui/)"
    (cd "$ui" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
  else
    warn "ui/package-lock.json is missing: running npm install (commit the lock file)"
    (cd "$ui" && npm install --no-audit --no-fund --loglevel=error) || die "npm install failed"
  fi
  printf '%s\n' "$want" >"$stamp"
  info "npm packages installed in $((SECONDS - start))s"
}

# go_tool_bin NAME PACKAGE VERSION: prints the path of a Go tool binary, building it with
# `go install PACKAGE@VERSION` from the Go module proxy into a per-version cache folder outside the
# repository (kept between runs, so only the first run pays). go.mod is neither read nor touched.
go_tool_bin() {
  local name="$1" pkg="$2" version="$3" gover cache
  ensure_go
  gover="$(go env GOVERSION)"
  cache="${PRESSROOM_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pressroom/tools}/$name-$version-$gover"
  if [[ ! -x "$cache/$name" ]]; then
    info "installing $name $version (go install $pkg@$version, with $gover)"
    mkdir -p "$cache"
    local start=$SECONDS
    (cd / && GOBIN="$cache" GOFLAGS="" go install "$pkg@$version") >&2 ||
      { err "installing $name $version failed"; return 1; }
    info "installed $name in $((SECONDS - start))s"
  fi
  printf '%s\n' "$cache/$name"
}

# staticcheck_bin: prints the path of staticcheck (PRESSROOM_STATICCHECK_VERSION, default pinned above;
# "latest" asks the module proxy for the newest release).
staticcheck_bin() {
  local version="${PRESSROOM_STATICCHECK_VERSION:-$PRESSROOM_STATICCHECK_DEFAULT_VERSION}"
  if [[ "$version" == latest ]]; then
    ensure_go
    version="$(cd / && go list -m -versions honnef.co/go/tools | tr ' ' '\n' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n1)"
    [[ -n "$version" ]] || die "could not list staticcheck versions"
  fi
  go_tool_bin staticcheck honnef.co/go/tools/cmd/staticcheck "$version"
}

# govulncheck_bin: prints the path of govulncheck (PRESSROOM_GOVULNCHECK_VERSION, default pinned above).
govulncheck_bin() {
  go_tool_bin govulncheck golang.org/x/vuln/cmd/govulncheck \
    "${PRESSROOM_GOVULNCHECK_VERSION:-$PRESSROOM_GOVULNCHECK_DEFAULT_VERSION}"
}

# versitygw_bin: prints the path of versitygw, the S3-compatible gateway the Go tests use as their
# S3 service (PRESSROOM_VERSITYGW_VERSION, default pinned above).
versitygw_bin() {
  go_tool_bin versitygw github.com/versity/versitygw/cmd/versitygw \
    "${PRESSROOM_VERSITYGW_VERSION:-$PRESSROOM_VERSITYGW_DEFAULT_VERSION}"
}
