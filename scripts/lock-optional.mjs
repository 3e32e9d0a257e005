// Records every optional dependency in package-lock.json, also those npm could not resolve.
//
// The registry this project installs from carries only Linux builds of platform packages
// (@esbuild/darwin-arm64 and the like answer 404), so `npm install` leaves them out of the
// lock, and `npm ci` then refuses the lock as out of sync. An entry with only a version and
// `optional: true` satisfies `npm ci`, which skips an optional package it cannot fetch.
// Run after every `npm install` that changes the lock: `node scripts/lock-optional.mjs`.
import { readFileSync, writeFileSync } from "node:fs"

const file = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(file, "utf8"))
const packages = lock.packages

const resolves = (from, name) => {
  let base = from
  for (;;) {
    if (`${base === "" ? "" : `${base}/`}node_modules/${name}` in packages) return true
    if (base === "") return false
    const cut = base.lastIndexOf("/node_modules/")
    base = cut === -1 ? "" : base.slice(0, cut)
  }
}

let added = 0
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolves(path, name)) continue
    packages[`node_modules/${name}`] = { version: spec.replace(/^[\^~=]/, ""), optional: true }
    added++
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0))
)
lock.packages = sorted
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`lock-optional: recorded ${added} unresolvable optional package(s)`)
