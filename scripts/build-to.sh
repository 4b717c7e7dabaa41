#!/usr/bin/env bash
# Build into another output folder (for parallel work on one checkout): scripts/build-to.sh .build/NAME
set -euo pipefail
out=${1:?usage: scripts/build-to.sh OUTDIR}
npx tsc -p tsconfig.json --outDir "$out"
STACKD_OUT="$out" node scripts/copy-assets.mjs
