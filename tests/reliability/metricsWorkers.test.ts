/**
 * `/metrics` with several worker processes (SWITCH_WORKERS=2): whichever worker a scrape
 * reaches, it shows the whole server's counts, every worker's summed by the primary
 * (platform/Metrics.ts), and the queue gauges once.
 */
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Stack, startStack } from "../support/stack.js"

let stack: Stack
beforeAll(async () => {
  stack = await startStack({ SWITCH_WORKERS: "2" })
})
afterAll(() => stack?.stop())

/** A GET on a connection of its own (no keep-alive), so the cluster spreads them over its workers. */
const get = (path: string) =>
  new Promise<{ status: number; body: string }>((done, fail) => {
    const r = request(`${stack.url}${path}`, { agent: false, headers: { connection: "close" } }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk) => {
        body += chunk
      })
      res.on("end", () => done({ status: res.statusCode ?? 0, body }))
    })
    r.on("error", fail)
    r.end()
  })

const sample = (text: string, name: string, labels: RegExp) =>
  text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) && labels.test(line))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0)

describe("metrics across worker processes", () => {
  it("every scrape counts the requests every worker answered", async () => {
    const N = 40
    for (let i = 0; i < N; i++) expect((await get("/healthz")).status).toBe(200)
    for (let i = 0; i < 6; i++) {
      const { status, body } = await get("/metrics")
      expect(status).toBe(200)
      // Both workers' requests, whichever worker answered.
      expect(sample(body, "switch_http_requests_total", /route="\/healthz".*status="200"/)).toBe(N)
      expect(sample(body, "switch_http_request_duration_seconds_count", /route="\/healthz"/)).toBe(N)
      // The queue gauges once, not summed.
      expect(body.match(/^switch_jobs_waiting /gm)).toHaveLength(1)
      expect(body.match(/^# TYPE switch_http_requests_total /gm)).toHaveLength(1)
    }
  })
})
