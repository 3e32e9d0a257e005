#!/usr/bin/env bash
# Installs @switch/sdk and @switch/cli the way the READMEs say, from their packed tarballs, in an
# empty folder with no workspace around it, and uses them: the SDK from ESM, CommonJS and
# TypeScript (ESM and CommonJS declarations), its Effect entry once its optional peers are
# installed, and `switch --help` from a global install. Fails on any failure.
# Needs the npm registry (the Effect entry's peers and the CLI's dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
smoke=$repo/.ci/pack-smoke
tsc=$repo/node_modules/.bin/tsc

npx turbo run build --filter=@switch/sdk --filter=@switch/cli --output-logs=errors-only

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

# The READMEs' install lines, run as written (from the repository root, then in the project).
npm pack -w @switch/sdk -w @switch/cli --pack-destination "$work" --loglevel=warn > /dev/null
sdk=$(ls "$work"/switch-sdk-*.tgz)
cli=$(ls "$work"/switch-cli-*.tgz)
bytes() { wc -c < "$1" | tr -d ' '; }
echo "tarballs: $(basename "$sdk") $(bytes "$sdk") B, $(basename "$cli") $(bytes "$cli") B"

for tarball in "$sdk" "$cli"; do
  tar -xzOf "$tarball" package/package.json | node -e '
    const pkg = JSON.parse(require("fs").readFileSync(0, "utf8"))
    const kinds = ["dependencies", "peerDependencies", "optionalDependencies"]
    const names = kinds.flatMap((kind) => Object.keys(pkg[kind] ?? {}))
    const workspace = names.filter((name) => name.startsWith("@switch/"))
    if (workspace.length > 0) throw new Error(`${pkg.name} depends on workspace packages: ${workspace}`)
    const list = (kind) => Object.keys(pkg[kind] ?? {}).join(", ") || "none"
    console.log(`${pkg.name}: dependencies ${list("dependencies")}; peers ${list("peerDependencies")}`)'
done

app=$work/app
mkdir "$app"
cp "$smoke"/* "$app"/
cd "$app"
npm init -y > /dev/null
npm install "$sdk"
# The Promise entry brings nothing else.
installed=$(cd node_modules && find . -mindepth 1 -maxdepth 2 -name package.json -prune -o -mindepth 1 -maxdepth 2 -type d -print | grep -v '^\./\.' | grep -v '^\./@switch$' | sort | tr '\n' ' ')
if [ "$installed" != "./@switch/sdk " ]; then
  echo "npm install of the SDK brought more than the SDK: $installed" >&2
  exit 1
fi
echo "installed with the SDK: $(du -sk node_modules | cut -f1) kB in node_modules"
node esm.mjs
node cjs.cjs
"$tsc" -p tsconfig.json
echo "types ok (ESM and CommonJS)"

echo "the SDK's main entry, minified and gzipped: $(
  "$repo/node_modules/.bin/esbuild" node_modules/@switch/sdk/dist/index.js --bundle --minify --format=esm --log-level=error | gzip -9 -c | wc -c | tr -d ' '
) B"

# The Effect entry with its optional peers, at the versions the SDK is built with.
peers=$(node -e 'const d = require(process.argv[1]).devDependencies; console.log(`effect@${d.effect} @effect/platform@${d["@effect/platform"]}`)' "$repo/packages/sdk/package.json")
# shellcheck disable=SC2086
npm install $peers > /dev/null
node effect.mjs
node effect.cjs
"$tsc" -p tsconfig.effect.json
echo "effect types ok"

# The CLI, installed globally (into a prefix of its own) from its tarball alone.
npm install -g --prefix "$work/global" "$cli"
echo "installed with the CLI: $(du -sk "$work/global/lib/node_modules" | cut -f1) kB"
PATH="$work/global/bin:$PATH"
switch --help | grep -q "Uso: switch"
switch --version
switch completion bash | grep -q "complete"
echo "pack and install ok"
