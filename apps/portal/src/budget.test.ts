/**
 * The bundle budget, from the build's manifest (dist/.vite/manifest.json; `npm test` builds
 * first): what the first screen of each page downloads (its HTML, the entry's JS and every JS
 * and CSS it imports statically), in gzip bytes, stays under its budget; and the portal and the
 * console share no chunk but the ones named for both in vite.config.ts (React and `comun`).
 * The screens a page opens later (React.lazy, pantallas.ts) are not part of its first screen.
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "dist")

/**
 * Gzip bytes of the first screen's files, HTML included. The JSON it reads on top (the session,
 * `GET /resumen`: about 1.5 KB) is what the portal's 100 KB goal leaves room for; the bench
 * (tests/bench, `portal_first_screen_bytes`) measures all of it on the wire.
 */
const BUDGET = { portal: 96_000, consola: 90_000 } as const

/** The chunks both pages may load (vite.config.ts, manualChunks). */
const SHARED = new Set(["react", "comun"])

interface Chunk {
  readonly file: string
  readonly name?: string
  readonly isEntry?: boolean
  readonly imports?: ReadonlyArray<string>
  readonly dynamicImports?: ReadonlyArray<string>
  readonly css?: ReadonlyArray<string>
}

const manifestPath = join(DIST, ".vite", "manifest.json")

const read = (): Record<string, Chunk> => {
  if (!existsSync(manifestPath))
    throw new Error(
      `no ${manifestPath}: build the portal first (npx turbo run build --filter=@switch/portal)`
    )
  return JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, Chunk>
}

/** The manifest keys a page reaches from `entry`: static imports only, or dynamic ones too. */
const reach = (manifest: Record<string, Chunk>, entry: string, dynamic: boolean): Set<string> => {
  const seen = new Set<string>()
  const walk = (key: string) => {
    if (seen.has(key)) return
    const chunk = manifest[key]
    if (chunk === undefined) throw new Error(`the manifest has no ${key}`)
    seen.add(key)
    for (const next of chunk.imports ?? []) walk(next)
    if (dynamic) for (const next of chunk.dynamicImports ?? []) walk(next)
  }
  walk(entry)
  return seen
}

/** Every file of the first screen of `entry` (the page's HTML first), as paths under dist. */
const firstScreen = (manifest: Record<string, Chunk>, entry: string): ReadonlyArray<string> => {
  const files = new Set<string>([entry])
  for (const key of reach(manifest, entry, false)) {
    const chunk = manifest[key] as Chunk
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
  }
  return [...files]
}

const weigh = (files: ReadonlyArray<string>) =>
  files.reduce(
    (sum, file) => {
      const bytes = readFileSync(join(DIST, file))
      return {
        raw: sum.raw + bytes.length,
        gzip: sum.gzip + gzipSync(bytes).length,
        brotli: sum.brotli + brotliCompressSync(bytes).length
      }
    },
    { raw: 0, gzip: 0, brotli: 0 }
  )

const name = (manifest: Record<string, Chunk>, key: string) => manifest[key]?.name ?? key

describe("the bundle budget", () => {
  it.each([
    ["portal", "index.html"],
    ["consola", "operador.html"]
  ] as const)("the %s's first screen stays under its budget in gzip bytes", (page, entry) => {
    const manifest = read()
    const files = firstScreen(manifest, entry)
    const weight = weigh(files)
    console.log(`${page}: ${files.join(", ")}: ${JSON.stringify(weight)} (budget ${BUDGET[page]} gzip)`)
    expect(weight.gzip).toBeLessThanOrEqual(BUDGET[page])
  })

  it("the first screen of the portal is Inicio alone: no other screen's chunk, no xlsx", () => {
    const manifest = read()
    const names = [...reach(manifest, "index.html", false)].map((key) => name(manifest, key)).sort()
    expect(names).toEqual(["comun", "main", "react"])
  })

  it("the portal and the console share only React and `comun`", () => {
    const manifest = read()
    const portal = reach(manifest, "index.html", true)
    const consola = reach(manifest, "operador.html", true)
    const both = [...portal].filter((key) => consola.has(key)).map((key) => name(manifest, key))
    expect(both.filter((n) => !SHARED.has(n))).toEqual([])
    // And each page loads its own entry, never the other's.
    expect(portal.has("operador.html")).toBe(false)
    expect(consola.has("index.html")).toBe(false)
  })
})
