#!/usr/bin/env bash
# Build the control-plane binaries the cluster tests run: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler and kubectl, at the versions pinned in
# test/cluster/k8s-bins/go.mod, from the Go module proxy only.
#
#   test/cluster/build.sh            # build (or reuse) and print the directory
#   BIN=$(test/cluster/build.sh | tail -n1)
#
# Output directory (outside git, keyed by the Kubernetes version):
#   ${DS_DOCTOR_K8S_BIN_DIR:-$HOME/.cache/ds-doctor/k8s-bins/<version>}
# The build is skipped when all five binaries are present and report the pinned
# version. Progress goes to stderr; the last line on stdout is the directory.
#
# Needs: Go (the version in k8s-bins/go.mod or newer, no toolchain download) and access
# to the module proxy. No C toolchain (CGO_ENABLED=0).
# Options: --force  rebuild even if the binaries are there.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
mod="$here/k8s-bins"
force=0
for a in "$@"; do
  case "$a" in
    --force) force=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown argument: $a" >&2; exit 2 ;;
  esac
done

log() { echo "build.sh: $*" >&2; }

command -v go >/dev/null 2>&1 || { log "go not found in PATH"; exit 1; }

export CGO_ENABLED=0 GOTOOLCHAIN=local
# Never let the wrapper's go.mod/go.sum change during a build; never stamp VCS data of
# the surrounding repository into the binaries.
export GOFLAGS="-mod=readonly -buildvcs=false"

# Versions pinned by the wrapper module (this may download go.mod files on a fresh machine).
read -r K8S_VERSION K8S_TIME < <(cd "$mod" && go list -m -f '{{.Version}} {{if .Time}}{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' k8s.io/kubernetes)
ETCD_VERSION=$(cd "$mod" && go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)
[ -n "$K8S_VERSION" ] && [ -n "$ETCD_VERSION" ] || { log "cannot read pinned versions from $mod/go.mod"; exit 1; }

out=${DS_DOCTOR_K8S_BIN_DIR:-$HOME/.cache/ds-doctor/k8s-bins/$K8S_VERSION}
mkdir -p "$out"
out=$(cd "$out" && pwd)

bins="etcd kube-apiserver kube-controller-manager kube-scheduler kubectl"

# True when every binary exists and reports the pinned version.
cached_ok() {
  local b v
  for b in $bins; do [ -x "$out/$b" ] || return 1; done
  v=$("$out/etcd" --version 2>/dev/null) || return 1
  case "$v" in *"etcd Version: ${ETCD_VERSION#v}"*) ;; *) return 1 ;; esac
  for b in kube-apiserver kube-controller-manager kube-scheduler; do
    v=$("$out/$b" --version 2>/dev/null) || return 1
    [ "$v" = "Kubernetes $K8S_VERSION" ] || return 1
  done
  v=$("$out/kubectl" version --client 2>/dev/null) || return 1
  case "$v" in *"Client Version: $K8S_VERSION"*) ;; *) return 1 ;; esac
}

# Serialise concurrent builds into the same directory when flock(1) is available.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$out/.build.lock"
  if ! flock -n 9; then
    log "another build into $out is running; waiting for it"
    flock 9
  fi
fi

if [ "$force" = 0 ] && cached_ok; then
  log "cached: Kubernetes $K8S_VERSION, etcd $ETCD_VERSION in $out"
  echo "$out"
  exit 0
fi

minor=${K8S_VERSION#v}; major=${minor%%.*}; minor=${minor#*.}; minor=${minor%%.*}
build_date=${K8S_TIME:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}  # tag time: reproducible
ld="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld="$ld -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=$major -X $p.gitMinor=$minor"
  ld="$ld -X $p.gitTreeState=clean -X $p.buildDate=$build_date -X $p.gitCommit="
done

log "building Kubernetes $K8S_VERSION + etcd $ETCD_VERSION with $(go env GOVERSION) into $out"
tmp=$(mktemp -d "$out/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
(
  cd "$mod"
  # One invocation: the packages share one compile graph and run in parallel.
  # The etcd main package is go.etcd.io/etcd/server/v3, so its binary is named "server".
  go build -trimpath -ldflags "$ld" -o "$tmp/" \
    k8s.io/kubernetes/cmd/kube-apiserver \
    k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler \
    k8s.io/kubernetes/cmd/kubectl \
    go.etcd.io/etcd/server/v3
)
mv "$tmp/server" "$tmp/etcd"
for b in $bins; do mv -f "$tmp/$b" "$out/$b"; done
cat >"$out/BUILD-INFO" <<EOF
kubernetes=$K8S_VERSION
etcd=$ETCD_VERSION
go=$(go env GOVERSION)
goos=$(go env GOOS)
goarch=$(go env GOARCH)
built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
seconds=$(( $(date +%s) - start ))
EOF

cached_ok || { log "built binaries in $out do not report the pinned versions"; exit 1; }
log "done in $(( $(date +%s) - start ))s"
echo "$out"
