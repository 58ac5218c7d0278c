#!/usr/bin/env bash
# Installs what the offline VS Code e2e tests need (see /work/shared/vscode-e2e.md): Debian chromium, ripgrep and
# the toolchain for code-server's native modules, then code-server 4.100.3 (VS Code 1.100.3, our minimum engine)
# into a cache folder outside the project's node_modules. Idempotent: a second run only checks and prints timings.
set -euo pipefail
CS_VERSION=4.100.3
E2E_DIR=${WAYPOINT_E2E_DIR:-$HOME/.cache/waypoint-e2e}
CS_DIR="$E2E_DIR/code-server-$CS_VERSION"
APT_PKGS=(chromium ripgrep build-essential python3 pkg-config libkrb5-dev)
t0=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# 1. Debian packages, only the missing ones (apt-get update costs ~10 s, so skip it when nothing is missing).
missing=()
for p in "${APT_PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "e2e install: missing Debian packages ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "e2e install: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
t_apt=$(elapsed "$t0")

# 2. code-server, cached by version. The marker is written only after `--version` answered.
t1=$(date +%s.%N)
if [ -f "$CS_DIR/.ok" ] && [ -x "$CS_DIR/node_modules/.bin/code-server" ]; then
  cs_state=cached
else
  cs_state=installed
  case "$(uname -m)" in
    x86_64) rg_asset=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz ;;
    *) echo "e2e install: no ripgrep cache recipe for $(uname -m); only x86_64 is checked" >&2; exit 1 ;;
  esac
  # @vscode/ripgrep@1.15.11 (pinned by code-server 4.100.3) fetches rg from GitHub in its postinstall unless
  # $(os.tmpdir())/vscode-ripgrep-cache-1.15.11/<asset> exists: seed that cache with Debian's rg.
  rg_cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rg_cache" "$E2E_DIR/rg-stage"
  cp "$(command -v rg)" "$E2E_DIR/rg-stage/rg"
  tar czf "$rg_cache/$rg_asset" -C "$E2E_DIR/rg-stage" rg
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  echo '{"name":"waypoint-e2e-code-server","private":true}' > "$CS_DIR/package.json"
  echo "e2e install: npm install code-server@$CS_VERSION into $CS_DIR (native modules build from source; ENOTFOUND github.com lines are expected)"
  # unsafe_perm: code-server's postinstall refuses to run as root without it.
  # yes: node-pty's postinstall runs `npx node-gyp`; without it npx cancels instead of fetching node-gyp.
  if ! (cd "$CS_DIR" && npm_config_unsafe_perm=true npm_config_yes=true npm install --no-audit --no-fund --loglevel=error \
      "code-server@$CS_VERSION" > "$E2E_DIR/npm-install.log" 2>&1); then
    echo "e2e install: npm install code-server@$CS_VERSION failed; last lines of $E2E_DIR/npm-install.log:" >&2
    tail -n 30 "$E2E_DIR/npm-install.log" >&2
    exit 1
  fi
fi
# --config: without it code-server writes ~/.config/code-server/config.yaml even for --version.
echo "bind-addr: 127.0.0.1:0" > "$E2E_DIR/cs-config.yaml"
version=$(XDG_DATA_HOME="$E2E_DIR/xdg-data" XDG_CONFIG_HOME="$E2E_DIR/xdg-config" "$CS_DIR/node_modules/.bin/code-server" --config "$E2E_DIR/cs-config.yaml" --version 2>/dev/null | grep -v ' info ' | head -n 1)
case "$version" in
  "$CS_VERSION "*) touch "$CS_DIR/.ok" ;;
  *) echo "e2e install: $CS_DIR/node_modules/.bin/code-server --version printed '$version', expected $CS_VERSION" >&2; rm -f "$CS_DIR/.ok"; exit 1 ;;
esac
echo "e2e install: apt ${t_apt} s, code-server $cs_state in $(elapsed "$t1") s ($version), total $(elapsed "$t0") s"
