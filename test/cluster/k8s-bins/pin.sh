#!/usr/bin/env bash
# Re-pin the wrapper module to another Kubernetes release.
#
#   test/cluster/k8s-bins/pin.sh 1.35.4
#
# Regenerates go.mod from scratch: requires k8s.io/kubernetes at that tag, adds one
# replace line per staging module (read from that tag's own go.mod, where they point to
# ./staging/src/...) mapped to the published v0.Y.Z tag, copies the tag's godebug line,
# then lets `go mod tidy` add etcd and everything else at the versions Kubernetes
# selects. Only uses the go command and the module proxy.
set -euo pipefail

V=${1:?usage: pin.sh <kubernetes version, e.g. 1.35.4>}
V=${V#v}
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod

GOMOD=$(go mod download -json "k8s.io/kubernetes@v$V" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
[ -f "$GOMOD" ] || { echo "pin.sh: could not download go.mod of k8s.io/kubernetes@v$V" >&2; exit 1; }

GODEBUG_LINE=$(sed -n 's/^godebug[[:space:]]\{1,\}\(default=.*\)$/\1/p' "$GOMOD" | head -n1)
GOVER=$(go env GOVERSION); GOVER=${GOVER#go}

rm -f go.mod go.sum
go mod init ds-doctor.invalid/test/cluster/k8s-bins >/dev/null 2>&1
# Our own go line: the local toolchain's minor (with .0) so GOTOOLCHAIN=local never
# needs a download; the tag's go line is lower.
go mod edit -go="$(echo "$GOVER" | cut -d. -f1,2).0"
[ -n "$GODEBUG_LINE" ] && go mod edit -godebug="$GODEBUG_LINE"
go mod edit -require="k8s.io/kubernetes@v$V"
n=0
for m in $(grep -E '^[[:space:]]*k8s\.io/[a-z0-9-]+ => \./staging/' "$GOMOD" | awk '{print $1}'); do
  go mod edit -replace "$m=$m@v0.${V#1.}"
  n=$((n + 1))
done
echo "pin.sh: k8s.io/kubernetes v$V, $n staging replace lines, godebug ${GODEBUG_LINE:-none}" >&2
go mod tidy
go list -m k8s.io/kubernetes k8s.io/client-go go.etcd.io/etcd/server/v3 >&2
