/** The examples, run with the one command their READMEs give, against the started stack. */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { resolve } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { Switch } from "../src/index.js"
import { baseUrl, newMerchant } from "./support.js"

const root = resolve(__dirname, "../../..")
const run = promisify(execFile)
const npmStart = (example: string, env: Record<string, string>, args: Array<string> = []) =>
  run("npm", ["start", "--silent", "-w", `examples/${example}`, ...(args.length ? ["--", ...args] : [])], {
    cwd: root,
    env: { ...process.env, SWITCH_BASE_URL: baseUrl(), ...env },
    timeout: 60_000
  })

describe("examples", () => {
  it("create-link creates a link and prints its payment URL", async () => {
    const m = await newMerchant("exl")
    const { stdout } = await npmStart("create-link", { SWITCH_KEY: m.key }, ["88.25", "Ejemplo"])
    const id = /Link (\S+) \(pendiente, test\)/.exec(stdout)?.[1]
    expect(id).toBeDefined()
    expect(stdout).toContain(`${baseUrl()}/l/${id}`)
    expect((await m.sw.links.get(id!)).monto).toBe(88.25)
  })

  it("batch-from-csv creates one batch from the CSV, and the same one when run again", async () => {
    const m = await newMerchant("exb")
    const first = await npmStart("batch-from-csv", { SWITCH_KEY: m.key })
    expect(first.stdout).toMatch(/Lote \S+: 3 links, Bs 530.49/)
    expect(first.stdout).toContain("PED-2002\t180.5\tpendiente")
    const second = await npmStart("batch-from-csv", { SWITCH_KEY: m.key })
    expect(second.stdout).toContain("(ya existía)")
    expect(await m.sw.lotes.list()).toHaveLength(1)
  })

  it("webhook-receiver accepts a signed notice and refuses a tampered one", async () => {
    const secret = "whsec_ZWplbXBsby1kZS1yZWNlcHRvci1kZS1hdmlzb3MhIQ=="
    const child: ChildProcess = spawn("npm", ["start", "--silent", "-w", "examples/webhook-receiver"], {
      cwd: root,
      env: { ...process.env, PORT: "0", SWITCH_WEBHOOK_SECRET: secret, SWITCH_BASE_URL: baseUrl() },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    let output = ""
    child.stdout?.on("data", (c) => {
      output += c
    })
    child.stderr?.on("data", (c) => {
      output += c
    })
    try {
      const url = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`receiver did not start:\n${output}`)), 30_000)
        const check = () => {
          const found = /escuchando en (\S+)/.exec(output)?.[1]
          if (found) {
            clearTimeout(timer)
            done(found)
          }
        }
        child.stdout?.on("data", check)
      })
      const body = JSON.stringify({
        id: "evt_5d0c1b7e-2f7a-4a0e-9e3a-7c1d2b3a4f5e",
        evento: "link.pagado",
        creado_en: new Date().toISOString(),
        data: { link_id: "l-9", monto: 10, propina: 0, total: 10, mode: "test", referencia: "SIMULADO" }
      })
      const headers = await Switch.webhooks.signatureHeaders({ payload: body, secret })
      const ok = await fetch(url, { method: "POST", headers, body })
      expect(ok.status).toBe(200)
      const bad = await fetch(url, {
        method: "POST",
        headers,
        body: body.replace('"monto":10', '"monto":1000')
      })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toEqual({ error: "bad_signature" })
      await new Promise((r) => setTimeout(r, 100))
      expect(output).toContain("pagado: link l-9 Bs 10 (test) ref SIMULADO")
    } finally {
      // npm runs node as a child: stop the whole process group this test started.
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM")
    }
  })
})
