#!/usr/bin/env bash
# Regenerates the published statistics from the tables in ./tables (or $DIR):
# docs/stats/<variant>.md (Markdown tables, stamped with the command that made them)
# and docs/stats/<variant>.png (the figures), for each variant that has tables.
# Commit only these small files, never the tables.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${DIR:-tables}"
cargo build --release --quiet
mkdir -p docs/stats
for variant in russian international; do
    if [ -d "$dir/$variant" ]; then
        ./target/release/damka stats --variant "$variant" --dir "$dir" \
            --out "docs/stats/$variant.md" --plot "docs/stats/$variant.png"
        echo "wrote docs/stats/$variant.md and docs/stats/$variant.png"
    fi
done
