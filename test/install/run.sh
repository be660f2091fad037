#!/usr/bin/env bash
# `npm run test:install`: ds-doctor installed the three ways a user gets it, each run end to end.
#   1. npm package: npm pack, npm install -g into an empty prefix (no build step, no dev
#      dependencies), then --version, scan -f <demo> and kubectl_complete-ds_doctor from there;
#      lint writes a code cache (the command runs the bundle), and the live client fails in one line.
#   2. single executable: npm run package, then the archive's contents run with a PATH that holds
#      only them and a few coreutils (no node, no node_modules).
#   3. krew: krew v0.4.3 built from the Go module proxy (cached in ~/.cache/ds-doctor/krew) checks
#      plugins/ds-doctor.yaml with validate-krew-manifest (krew-index's check) and installs it
#      with the archive into a temporary KREW_ROOT; kubectl (built by test/cluster/build.sh) runs `kubectl ds-doctor`, lists the plugin without a warning, and
#      completes `kubectl ds-doctor why <TAB>` through kubectl_complete-ds_doctor.
# Each step prints how long it took.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ds-doctor-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
demo="$root/fixtures/demo"
version=$(node -p 'require("./package.json").version')
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

log() { echo "[install] $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  log "$name: $((SECONDS - start))s"
}
# expect <description> <exit code> <regex on stdout> -- command…
expect() {
  local what=$1 code=$2 pattern=$3 out rc=0
  shift 4
  out=$("$@" 2>"$tmp/stderr") || rc=$?
  [[ $rc == "$code" ]] || fail "$what: exit $rc, expected $code: $(cat "$tmp/stderr")"
  grep -Eq -- "$pattern" <<<"$out" || fail "$what: output does not match /$pattern/: $out"
  log "ok: $what"
}

# A PATH directory with the few tools the shell scripts need, and no node.
tools="$tmp/tools"
mkdir -p "$tools"
for t in sh env cat dirname; do ln -s "$(command -v "$t")" "$tools/$t"; done

# A kubeconfig whose server refuses connections: the live client runs and fails in one line.
cat >"$tmp/kubeconfig" <<'KC'
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: not-a-secret}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
KC

npm_package() {
  npm pack --silent --pack-destination "$tmp" >/dev/null
  local tgz=("$tmp"/ds-doctor-"$version".tgz)
  tar tzf "$tgz" >"$tmp/files"
  grep -qx 'package/dist/build-info.json' "$tmp/files" || fail "the tarball has no dist/build-info.json"
  grep -qx 'package/bin/kubectl_complete-ds_doctor' "$tmp/files" || fail "the tarball has no kubectl_complete-ds_doctor"
  grep -qx 'package/dist/bundle/ds-doctor.cjs' "$tmp/files" || fail "the tarball has no dist/bundle/ds-doctor.cjs"
  ! grep -q 'tsbuildinfo' "$tmp/files" || fail "the tarball holds tsc's build info"
  ! grep -Eq '^package/(src|test)/' "$tmp/files" || fail "the tarball holds sources or tests"
  npm install -g --prefix "$tmp/prefix" "$tgz" --no-audit --no-fund --loglevel=error >/dev/null
  for dev in typescript esbuild postject ajv; do
    [[ ! -e "$tmp/prefix/lib/node_modules/ds-doctor/node_modules/$dev" ]] || fail "dev dependency $dev was installed"
  done
  local bin="$tmp/prefix/bin"
  expect "npm: ds-doctor --version" 0 "^ds-doctor $version \\(commit $commit, Node\\.js v" -- "$bin/ds-doctor" --version
  expect "npm: kubectl-ds_doctor scan -f demo" 1 '^NAMESPACE +NAME +HEALTH' -- "$bin/kubectl-ds_doctor" scan -f "$demo" --no-color
  expect "npm: kubectl_complete-ds_doctor why ''" 0 '^logging/fluent-bit$' -- "$bin/kubectl_complete-ds_doctor" why -f "$demo" ''
  # The installed command runs the bundle: its first run of a command writes that command's code cache.
  XDG_CACHE_HOME="$tmp/cache" "$bin/ds-doctor" lint -f "$demo" >/dev/null || [[ $? == 1 ]] || fail "npm: lint -f demo"
  ls "$tmp/cache/ds-doctor/code-cache" | grep -Eq -- '-lint\.v8$' || fail "npm: no code cache after lint: the installed command did not run the bundle"
  log "ok: npm: the installed command runs the bundle (code cache written)"
  local rc=0
  "$bin/ds-doctor" scan --kubeconfig "$tmp/kubeconfig" >/dev/null 2>"$tmp/stderr" || rc=$?
  [[ $rc == 3 && $(cat "$tmp/stderr") == "error: cannot reach the API server at https://127.0.0.1:1: ECONNREFUSED" ]] \
    || fail "npm: live scan against a closed port: exit $rc: $(cat "$tmp/stderr")"
  log "ok: npm: live client (exit 3, one line on stderr)"
}

single_executable() {
  npm run --silent package >"$tmp/package.log" 2>&1 || { cat "$tmp/package.log" >&2; fail "npm run package"; }
  grep -E '^[a-z].*: [0-9.]+s$' "$tmp/package.log" | sed 's/^/[install]   /' >&2
  archive=$(ls "$root"/dist/release/ds-doctor_v"$version"_linux_amd64.tar.gz)
  mkdir -p "$tmp/archive"
  tar xzf "$archive" -C "$tmp/archive"
  [[ $(ls "$tmp/archive" | tr '\n' ' ') == "LICENSE kubectl-ds_doctor kubectl_complete-ds_doctor " ]] || fail "archive contents: $(ls "$tmp/archive")"
  local path="$tmp/archive:$tools"
  ! PATH=$path command -v node >/dev/null || fail "node is on the test PATH"
  expect "sea: --version" 0 "^ds-doctor $version \\(commit $commit, Node\\.js v[0-9.]+, linux/amd64\\)$" -- env PATH="$path" kubectl-ds_doctor --version
  expect "sea: scan -f demo" 1 '^logging +fluent-bit +Stuck' -- env PATH="$path" kubectl-ds_doctor scan -f "$demo" --no-color
  expect "sea: kubectl_complete-ds_doctor" 0 '^kube-system/calico-node$' -- env PATH="$path" kubectl_complete-ds_doctor rollout -f "$demo" kube-system/c
  # The live client loads inside the bundle: an unreachable server is one line and exit 3.
  local rc=0
  env PATH="$path" kubectl-ds_doctor scan --kubeconfig "$tmp/kubeconfig" >/dev/null 2>"$tmp/stderr" || rc=$?
  [[ $rc == 3 && $(cat "$tmp/stderr") == "error: cannot reach the API server at https://127.0.0.1:1: ECONNREFUSED" ]] \
    || fail "sea: live scan against a closed port: exit $rc: $(cat "$tmp/stderr")"
  log "ok: sea: live client (exit 3, one line on stderr)"
  # A YAML dump past 8 MiB is translated with the worker thread the bundle carries as a script
  # (src/load/yaml-translate.ts): the same answer as on one thread, and no wait for a worker that
  # could not start (that wait is 5 s).
  node "$root/dist/bench/generate.js" --nodes 150 --pods 4500 --out "$tmp/yaml" --formats yaml-list >/dev/null
  local list="$tmp/yaml/dump-list.yaml" started elapsed
  (( $(stat -c %s "$list") > 8 * 1024 * 1024 )) || fail "the generated YAML List is under 8 MiB"
  local one=0 two=0
  env PATH="$path" DS_DOCTOR_WORKERS=0 kubectl-ds_doctor scan -A -f "$list" -o json --now 2026-11-29T12:00:00Z >"$tmp/one-thread.json" || one=$?
  (( one <= 1 )) || fail "sea: scan of the YAML List on one thread: exit $one"
  started=$(date +%s%N)
  env PATH="$path" kubectl-ds_doctor scan -A -f "$list" -o json --now 2026-11-29T12:00:00Z >"$tmp/worker.json" || two=$?
  elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
  [[ $two == "$one" ]] || fail "sea: scan of the YAML List with the worker: exit $two, on one thread $one"
  cmp -s "$tmp/one-thread.json" "$tmp/worker.json" || fail "sea: the YAML List reads differently with the worker"
  (( elapsed < 5000 )) || fail "sea: the YAML List took ${elapsed} ms with the worker (a worker that cannot start costs 5 s)"
  log "ok: sea: a $(( $(stat -c %s "$list") >> 20 )) MiB YAML List read with the worker thread, as on one thread (${elapsed} ms)"
}

krew_install() {
  local kdir gobin="$HOME/.cache/ds-doctor/krew/bin"
  local krew="$gobin/krew"
  kdir=$("$root/test/cluster/build.sh" | tail -1)
  [[ -x $kdir/kubectl ]] || fail "no kubectl in $kdir"
  for tool in krew validate-krew-manifest; do
    [[ -x $gobin/$tool ]] || GOFLAGS=-mod=mod GOBIN="$gobin" go install "sigs.k8s.io/krew/cmd/$tool@v0.4.3"
  done
  # krew-index's own check of a manifest (the archive is installed below, not downloaded).
  "$gobin/validate-krew-manifest" -manifest "$root/plugins/ds-doctor.yaml" -skip-install >"$tmp/validate.log" 2>&1 \
    || { cat "$tmp/validate.log" >&2; fail "validate-krew-manifest"; }
  log "ok: validate-krew-manifest plugins/ds-doctor.yaml"
  mkdir -p "$tmp/kubectl"
  ln -s "$kdir/kubectl" "$tmp/kubectl/kubectl"
  ln -s "$krew" "$tmp/kubectl/kubectl-krew"
  export KREW_ROOT="$tmp/krew-root"
  local path="$KREW_ROOT/bin:$tmp/kubectl:$tools"
  env PATH="$path" kubectl krew install --manifest="$root/plugins/ds-doctor.yaml" --archive="$archive" </dev/null >"$tmp/krew.log" 2>&1 \
    || { cat "$tmp/krew.log" >&2; fail "kubectl krew install"; }
  log "ok: kubectl krew install --manifest=plugins/ds-doctor.yaml --archive=$(basename "$archive")"
  expect "krew: kubectl ds-doctor --version" 0 "^ds-doctor $version \\(commit $commit," -- env PATH="$path" kubectl ds-doctor --version
  expect "krew: kubectl ds-doctor scan -f demo" 1 '^kube-system +calico-node +Degraded' -- env PATH="$path" kubectl ds-doctor scan -f "$demo" --no-color
  local list
  list=$(env PATH="$path" kubectl plugin list 2>&1) || fail "kubectl plugin list: $list"
  grep -q "$KREW_ROOT/bin/kubectl-ds_doctor" <<<"$list" || fail "kubectl plugin list does not show ds-doctor: $list"
  ! grep -qi 'warning' <<<"$list" || fail "kubectl plugin list warns: $list"
  log "ok: krew: kubectl plugin list, no warning"
  # Completion through kubectl, with the helper linked as the manifest's caveats say.
  ln -s "$KREW_ROOT/store/ds-doctor/v$version/kubectl_complete-ds_doctor" "$KREW_ROOT/bin/"
  expect "krew: kubectl __complete ds-doctor why ''" 0 '^logging/fluent-bit$' -- env PATH="$path" kubectl __complete ds-doctor why -f "$demo" ''
}

timed "npm package (pack, install -g, run)" npm_package
timed "single executable (bundle, SEA, archive, manifest, run)" single_executable
timed "krew (install from the manifest, run, plugin list, completion)" krew_install
log "all install paths pass"
