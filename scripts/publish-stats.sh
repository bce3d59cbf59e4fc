#!/usr/bin/env bash
# Regenerates the published statistics from the tables in ./tables (or $DIR):
# docs/stats/<variant>.md (Markdown tables, stamped with the command that made them)
# and docs/stats/<variant>.png (the figures), for each variant that has tables, and
# docs/stats/<variant>-rules.md (cursed wins and blessed losses) where the rule
# tables of the variant's official set (`russian`, `fmjd`) are there, and
# docs/stats/<variant>-mtc.md (moves to conversion) where MTC tables are there.
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
        rules=russian
        [ "$variant" = international ] && rules=fmjd
        if ls "$dir/$variant/"*".$rules.rwdl.dkt" > /dev/null 2>&1; then
            ./target/release/damka stats --variant "$variant" --dir "$dir" --rules "$rules" \
                --out "docs/stats/$variant-rules.md"
            echo "wrote docs/stats/$variant-rules.md"
        fi
        if ls "$dir/$variant/"*".mtc.dkt" > /dev/null 2>&1; then
            ./target/release/damka stats --variant "$variant" --dir "$dir" --metric mtc \
                --out "docs/stats/$variant-mtc.md"
            echo "wrote docs/stats/$variant-mtc.md"
        fi
    fi
done
