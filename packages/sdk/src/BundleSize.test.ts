/**
 * The Promise entry's size, as the README states it (issue 47: the README said 7,984 bytes while
 * the build measured 10,376). The test builds the entry as the package does (tsup.config.ts),
 * bundles and minifies it as an application's bundler would (esbuild), gzips it at level 9 (as
 * `gzip -9` and `.ci/pack-smoke.sh`), prints the figures, and fails when the README says other
 * ones. `ACTUALIZAR_TAMANO=1 npx vitest run src/BundleSize.test.ts` writes them into the README.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { buildSync } from "esbuild"
import { build } from "tsup"
import { describe, expect, it } from "vitest"
import config from "../tsup.config.js"

const root = fileURLToPath(new URL("..", import.meta.url))

/** The Promise entry built as `npm run build` builds it, then bundled, minified and gzipped. */
const measure = async () => {
  const out = mkdtempSync(join(tmpdir(), "switch-sdk-size-"))
  try {
    const options = Array.isArray(config) ? config[0] : config
    await build({
      ...options,
      entry: { index: join(root, "src/index.ts") },
      format: ["esm"],
      outDir: out,
      dts: false,
      sourcemap: false,
      silent: true,
      config: false
    })
    const minified = buildSync({
      entryPoints: [join(out, "index.js")],
      bundle: true,
      minify: true,
      format: "esm",
      write: false,
      logLevel: "error"
    }).outputFiles[0]?.contents
    if (minified === undefined) throw new Error("esbuild wrote nothing")
    return { minified: minified.length, gzipped: gzipSync(minified, { level: 9 }).length }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

const bytes = (n: number) => n.toLocaleString("en-US")
const kB = (n: number) => (n / 1000).toFixed(1)

/** Every place the README states a figure, and how it is written. */
const FIGURES = [
  { pattern: /[\d,]+(?= bytes minified and gzipped)/g, of: (m: { gzipped: number }) => bytes(m.gzipped) },
  { pattern: /[\d.]+(?= kB minified\b)/g, of: (m: { minified: number }) => kB(m.minified) }
] as const

describe("the README's bundle size", () => {
  it("is what the Promise entry measures, minified and gzipped", async () => {
    const measured = await measure()
    console.log(
      `@switch/sdk main entry: ${bytes(measured.gzipped)} bytes minified and gzipped (${kB(measured.minified)} kB minified)`
    )
    const file = join(root, "README.md")
    const readme = readFileSync(file, "utf8")
    if (process.env.ACTUALIZAR_TAMANO === "1") {
      const updated = FIGURES.reduce((text, f) => text.replace(f.pattern, f.of(measured)), readme)
      if (updated !== readme) writeFileSync(file, updated)
    }
    const now = readFileSync(file, "utf8")
    for (const f of FIGURES) {
      const stated = now.match(f.pattern) ?? []
      expect(stated.length, `${f.pattern}`).toBeGreaterThan(0)
      expect(stated, "README.md: run ACTUALIZAR_TAMANO=1 npx vitest run src/BundleSize.test.ts").toEqual(
        stated.map(() => f.of(measured))
      )
    }
  }, 60_000)
})
