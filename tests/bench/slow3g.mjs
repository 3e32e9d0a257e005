// The payer page (GET /l/<id>) on a slow phone: Chromium (playwright-core) with the network
// emulated over CDP as slow 3G — 400 kbit/s each way, 400 ms round trip — a 360 px window and
// the cache disabled, loaded cold LOADS (5) times, each in a fresh browser context (no cache, no
// open connection, no cookie).
//
// "Interactive" is concrete: the page's DOMContentLoaded has ended (every script that attaches
// the handlers has run by then, deferred or inline), the pay button `#pagar` is in the page and
// enabled, and the page's script has set `data-listo` on `#app` once its handlers are attached
// (a build before that marker counts DOMContentLoaded alone: its deferred script ran before it).
// The figure is that moment from the navigation's start, read from the page's own Navigation
// Timing (`domContentLoadedEventEnd`, or the marker's time if later).
//
// Also per load: first contentful paint, when the HTML's first byte and last byte arrived, paint
// after the HTML arrived (goal: within one round trip), the requests the page made and the
// bytes on the wire (CDP's encodedDataLength of every response, headers included).
import { chromium } from "playwright-core"

export const SLOW_3G = {
  offline: false,
  latency: 400,
  downloadThroughput: (400 * 1000) / 8,
  uploadThroughput: (400 * 1000) / 8
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** One cold load of `url`: its timings in ms and its bytes on the wire. */
const coldLoad = async (browser, url) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send("Network.enable")
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true })
    await cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    let bytes = 0
    let requests = 0
    const encodings = new Set()
    cdp.on("Network.responseReceived", (event) => {
      const encoding =
        event.response.headers["content-encoding"] ?? event.response.headers["Content-Encoding"]
      encodings.add(encoding ?? "identity")
    })
    cdp.on("Network.loadingFinished", (event) => {
      bytes += event.encodedDataLength
      requests += 1
    })
    await page.goto(url, { waitUntil: "load", timeout: 60_000 })
    await page.waitForFunction(
      () => {
        const pay = document.getElementById("pagar")
        return document.readyState !== "loading" && pay !== null && !pay.disabled
      },
      undefined,
      { timeout: 30_000 }
    )
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0]
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]
      const listo = document.getElementById("app")?.dataset.listo
      return {
        dcl: nav.domContentLoadedEventEnd,
        listo: listo === undefined ? null : Number(listo),
        fcp: fcp === undefined ? null : fcp.startTime,
        html_first_byte: nav.responseStart,
        html_last_byte: nav.responseEnd
      }
    })
    const interactive = Math.max(timing.dcl, timing.listo ?? 0)
    return {
      interactive_ms: Math.round(interactive),
      fcp_ms: timing.fcp === null ? null : Math.round(timing.fcp),
      html_first_byte_ms: Math.round(timing.html_first_byte),
      html_last_byte_ms: Math.round(timing.html_last_byte),
      paint_after_html_ms: timing.fcp === null ? null : Math.round(timing.fcp - timing.html_last_byte),
      marker: timing.listo !== null,
      requests,
      bytes,
      encodings: [...encodings].join(" ")
    }
  } finally {
    await context.close()
  }
}

/**
 * `checkout_slow3g_ms`: the median (`p50`) of `loads` cold loads of the payer page at `url`,
 * with each load's figures beside it.
 */
export const checkoutSlow3g = async ({ url, loads = Number(process.env.BENCH_SLOW3G_LOADS ?? 5) }) => {
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  try {
    // One load first, not counted: Chromium's own first-start costs are not the page's.
    await coldLoad(browser, url)
    const runs = []
    for (let i = 0; i < loads; i++) runs.push(await coldLoad(browser, url))
    const interactive = runs.map((r) => r.interactive_ms)
    return {
      p50: median(interactive),
      loads: interactive.join(" "),
      fcp_p50: median(runs.map((r) => r.fcp_ms ?? 0)),
      paint_after_html_p50: median(runs.map((r) => r.paint_after_html_ms ?? 0)),
      html_last_byte_p50: median(runs.map((r) => r.html_last_byte_ms)),
      bytes: runs[0]?.bytes,
      requests: runs[0]?.requests,
      encodings: runs[0]?.encodings,
      marker: runs.every((r) => r.marker),
      goal_ms: 900,
      profile: "400 kbit/s, 400 ms RTT, 360 px, cache off"
    }
  } finally {
    await browser.close()
  }
}

// Alone: `node tests/bench/slow3g.mjs http://127.0.0.1:3000/l/<id>` against a running server.
if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2]
  if (url === undefined) {
    console.error("uso: node tests/bench/slow3g.mjs <url de /l/<id>>")
    process.exit(2)
  }
  console.log(JSON.stringify(await checkoutSlow3g({ url }), null, 2))
}
