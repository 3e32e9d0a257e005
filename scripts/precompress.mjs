// Precompresses a built site's text files (HTML, JS, CSS, SVG, JSON, text) over 1 KB: writes
// `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside each, which the server
// answers as they are to a client that accepts them (apps/server/src/http/Compression.ts).
// Run after the build of the site, with its output folder: `node scripts/precompress.mjs apps/portal/dist`.
// A folder that does not exist is skipped (the portal is not built in every checkout).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { extname, join, resolve } from "node:path"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"

const TEXT = new Set([".html", ".js", ".mjs", ".css", ".svg", ".json", ".txt", ".map"])
const MIN_BYTES = 1024

const compressFolder = (dir) => {
  let files = 0
  let before = 0
  let after = 0
  const walk = (at) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name)
      if (statSync(full).isDirectory()) {
        walk(full)
        continue
      }
      if (!TEXT.has(extname(name))) continue
      const body = readFileSync(full)
      if (body.byteLength <= MIN_BYTES) continue
      const br = brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength
        }
      })
      writeFileSync(`${full}.br`, br)
      writeFileSync(`${full}.gz`, gzipSync(body, { level: 9 }))
      files += 1
      before += body.byteLength
      after += br.byteLength
    }
  }
  walk(dir)
  return { files, before, after }
}

for (const arg of process.argv.slice(2)) {
  const dir = resolve(arg)
  if (!existsSync(dir)) {
    console.log(`precompress: ${arg} no existe; nada que comprimir`)
    continue
  }
  const { files, before, after } = compressFolder(dir)
  console.log(`precompress: ${files} archivos de ${arg}, ${before} B → ${after} B con brotli`)
}
