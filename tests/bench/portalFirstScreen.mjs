// Benchmark 8: the portal's first screen (Inicio, signed in) on a cold load in Chromium: every
// response it takes (the HTML, the JS and CSS, the JSON of the session and of `GET /resumen`),
// in bytes on the wire as the server sent them (headers included), and, beside them, what their
// bodies weigh gzipped and brotli-compressed (node:zlib, the levels a server would use), which
// is what the wire carries once the server compresses them. The goal: under 100 KB.
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { chromium } from "playwright-core"

export /** The portal's stream of changes (GET /switch/v1/sesion/cambios). */
const STREAM = "/switch/v1/sesion/cambios"
const GOAL_BYTES = 100_000

/** Signs `email` in, then loads `/panel` cold (cache cleared and off) and weighs what it took. */
export const portalFirstScreen = async ({ url, email, password }) => {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    // The sign-in page first, for its origin: the session's cookie is set as the portal sets it.
    await page.goto(`${url}/panel/ingresar`)
    const status = await page.evaluate(
      async ([e, p]) =>
        (
          await fetch("/switch/v1/sesion", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: e, password: p })
          })
        ).status,
      [email, password]
    )
    if (status !== 200 && status !== 201) throw new Error(`sign-in answered ${status}`)

    const cdp = await context.newCDPSession(page)
    await cdp.send("Network.enable")
    await cdp.send("Network.clearBrowserCache")
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true })
    // The portal keeps its stream of changes open (issue 45), so the network is never idle:
    // the screen is loaded once nothing else is in flight for 500 ms. The stream carries only
    // heartbeats and is left out of the bytes.
    const isStream = (request) => request.url().includes(STREAM)
    const responses = []
    let inflight = 0
    let last = Date.now()
    const settled = (request) => {
      if (isStream(request)) return
      inflight--
      last = Date.now()
    }
    page.on("request", (request) => {
      if (isStream(request)) return
      inflight++
      last = Date.now()
    })
    page.on("requestfinished", settled)
    page.on("requestfailed", settled)
    page.on("response", (r) => {
      if (!isStream(r.request())) responses.push(r)
    })

    await page.goto(`${url}/panel/`)
    await page.locator("h1", { hasText: "Inicio" }).waitFor()
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && (inflight > 0 || Date.now() - last < 500))
      await new Promise((resolve) => setTimeout(resolve, 50))

    const files = []
    for (const response of responses) {
      const body = await response.body()
      const sizes = await response.request().sizes()
      const encoding = response.headers()["content-encoding"] ?? null
      files.push({
        path: new URL(response.url()).pathname,
        encoding,
        // On the wire: the (encoded) body and the headers.
        wire: sizes.responseBodySize + sizes.responseHeadersSize,
        headers: sizes.responseHeadersSize,
        encoded: sizes.responseBodySize,
        body: body.length,
        gzip: gzipSync(body).length,
        brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
      })
    }
    const total = (f) => files.reduce((sum, file) => sum + f(file), 0)
    // A body the server compressed counts as it came; the others as they would come compressed.
    const compressed = (key) => total((f) => f.headers + (f.encoding === null ? f[key] : f.encoded))
    return {
      bytes: total((f) => f.wire),
      requests: files.length,
      served_compressed: `${files.filter((f) => f.encoding !== null).length} of ${files.length}`,
      if_gzip: compressed("gzip"),
      if_brotli: compressed("brotli"),
      goal: GOAL_BYTES,
      files: files
        .map((f) => `${f.path} ${f.wire}${f.encoding === null ? ` (gzip ${f.gzip})` : ` (${f.encoding})`}`)
        .join("; ")
    }
  } finally {
    await browser.close()
  }
}
