/**
 * `switch logs tail` as a person watches it (tmux): the newest entries, then only the requests
 * made after it started, oldest first, each once, for as long as it runs and without a listener
 * warning; with `--status`, `--method` and `--path` only the matching ones.
 */

import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type Stack, startStack } from "../support/stack.js"
import { BIN, hasTmux, inTmux, makeCli, spawnCli, until } from "./support.js"

let stack: Stack
let cli: ReturnType<typeof makeCli>

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  cli = makeCli(stack.url, { SWITCH_KEY: stack.demoKey })
}, 240_000)
afterAll(async () => {
  cli?.cleanup()
  await stack?.stop()
})

/** A link id no link has, distinct per `n`: its 404 is one recognisable log entry. */
const missing = (n: number) => `/switch/v1/links/00000000-0000-0000-0000-${String(n).padStart(12, "0")}`
const ENTRY = /^\d{4}-\d\d-\d\dT[\d:.]+Z\s+\d{3}\s+[A-Z]+\s+\/\S+\s+\d+ ms/

describe("logs tail", () => {
  it.skipIf(!hasTmux)(
    "prints the 3 newest, then only the requests made since, oldest first, once each, for 12 s with no listener warning (tmux)",
    async () => {
      // A history much longer than --limit: none of it may come back as new.
      for (let i = 0; i < 40; i++) {
        expect((await call(stack.url, "GET", "/switch/v1/config", { key: stack.demoKey })).status).toBe(200)
      }
      const script = join(cli.configDir, "tail.sh")
      writeFileSync(
        script,
        [
          "#!/bin/sh",
          `export SWITCH_CONFIG_DIR='${cli.configDir}' SWITCH_BASE_URL='${stack.url}' SWITCH_KEY='${stack.demoKey}'`,
          `'${process.execPath}' '${BIN}' logs tail --limit 3 --interval 1`,
          'echo "salio=$?"',
          "sleep 60"
        ].join("\n"),
        { mode: 0o755 }
      )
      const started = Date.now()
      const tmux = inTmux("logs-tail", script)
      try {
        const entries = () =>
          tmux
            .screen()
            .split("\n")
            .filter((line) => ENTRY.test(line))
        await until(() => entries().length >= 3, "the first 3 entries")
        // Three polls: the history stays out.
        await new Promise((r) => setTimeout(r, 3_500))
        expect(entries(), tmux.screen()).toHaveLength(3)
        for (let n = 1; n <= 5; n++) {
          expect((await call(stack.url, "GET", missing(n), { key: stack.demoKey })).status).toBe(404)
        }
        await until(() => entries().some((line) => line.includes(missing(5))), "the 5 new requests")
        // Until 12 s have passed: each poll's wait must not leave a listener behind.
        await new Promise((r) => setTimeout(r, Math.max(1_500, 12_500 - (Date.now() - started))))
        const screen = tmux.screen()
        const lines = entries()
        expect(lines, screen).toHaveLength(8)
        expect(
          lines.slice(3).map((line) => line.split(/\s+/)[3]),
          screen
        ).toEqual([1, 2, 3, 4, 5].map(missing))
        expect(lines.slice(3).every((line) => /\s404\s+GET/.test(line))).toBe(true)
        const times = lines.map((line) => Date.parse(line.split(/\s+/)[0]!))
        expect([...times].sort((a, b) => a - b)).toEqual(times)
        expect(screen).not.toContain("MaxListenersExceededWarning")
        expect(screen).not.toContain("salio=")
      } finally {
        tmux.stop()
      }
    },
    90_000
  )

  it("with --status, --method and --path shows only the matching requests, at start and as they come", async () => {
    const seen = new Set<string>()
    expect((await call(stack.url, "GET", missing(100), { key: stack.demoKey })).status).toBe(404)
    const run = spawnCli(
      [
        "--json",
        "logs",
        "tail",
        "--limit",
        "2",
        "--interval",
        "1",
        "--status",
        "4xx",
        "--method",
        "get",
        "--path",
        "links"
      ],
      cli.env
    )
    const lines = () =>
      run
        .stdout()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id: string; path: string; status: number; method: string })
    try {
      await until(() => lines().some((e) => e.path === missing(100)), "the earlier matching request")
      // Each kind the filters leave out, then one they let through.
      await call(stack.url, "GET", "/switch/v1/config", { key: stack.demoKey })
      await call(stack.url, "POST", "/switch/v1/links", { key: stack.demoKey, body: { monto: 1 } })
      await call(stack.url, "GET", "/switch/v1/lotes/00000000-0000-0000-0000-000000000000", {
        key: stack.demoKey
      })
      await call(stack.url, "GET", "/switch/v1/links?limit=1", { key: stack.demoKey })
      expect((await call(stack.url, "GET", missing(101), { key: stack.demoKey })).status).toBe(404)
      await until(() => lines().some((e) => e.path === missing(101)), "the new matching request")
      await new Promise((r) => setTimeout(r, 1_500))
      const all = lines()
      expect(all.length).toBeLessThanOrEqual(3)
      for (const entry of all) {
        expect(entry.method).toBe("GET")
        expect(entry.status).toBeGreaterThanOrEqual(400)
        expect(entry.status).toBeLessThan(500)
        expect(entry.path.startsWith("/switch/v1/links")).toBe(true)
        expect(seen.has(entry.id)).toBe(false)
        seen.add(entry.id)
      }
      expect(all[all.length - 1]?.path).toBe(missing(101))
    } finally {
      await run.stop()
    }
  })

  it("refuses a status that is not a code or a class, sending nothing", async () => {
    const result = await cli.run(["logs", "tail", "--status", "4x"])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("no es un estado HTTP")
  })
})
