#!/bin/sh
# Regenerates src/assets/language-names.woff2: the glyphs of the language switcher's names
# (src/lib/i18n/i18n.svelte.ts, LOCALE_NAMES) from the bundled Noto fonts, so every page can show
# "नेपाली", "हिन्दी" and "বাংলা" without fetching a whole script's font (~2 KB instead of ~95 KB).
# Needs fonttools with brotli (Debian: python3-fonttools python3-brotli); the output is committed.
set -eu
cd "$(dirname "$0")/.."
files=node_modules/@fontsource
tmp=$(mktemp -d)
/usr/bin/python3 -m fontTools.subset "$files/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2" \
  --text="नेपालीहिन्दी" --layout-features='*' --flavor=woff2 --output-file="$tmp/deva.woff2"
/usr/bin/python3 -m fontTools.subset "$files/noto-sans-bengali/files/noto-sans-bengali-bengali-400-normal.woff2" \
  --text="বাংলা" --layout-features='*' --flavor=woff2 --output-file="$tmp/beng.woff2"
cp "$tmp/deva.woff2" src/assets/language-names-devanagari.woff2
cp "$tmp/beng.woff2" src/assets/language-names-bengali.woff2
rm -r "$tmp"
ls -l src/assets/language-names-*.woff2
