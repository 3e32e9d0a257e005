/**
 * Live mode for the reliability suites: the bank simulator (apps/bank-sim) on loopback in the
 * test process, a webhook receiver, the payment page's session, and the built server as a
 * process tree that can be killed with -9 and started again on the same data directory and
 * ports. Build first (`npm run build`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHmac, randomUUID } from "node:crypto"
import { readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { resolve } from "node:path"
import { type BankSim, type Falla, startBankSim } from "@switch/bank-sim"
import { call, merchantWithLiveKey, OWN_ACCOUNT, serverEnv } from "./stack.js"

export { serverEnv }

const SERVER_MAIN = resolve(__dirname, "../../apps/server/dist/main.js")

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `check` until it returns something truthy and returns that; fails naming `what` after `ms`. */
export const eventually = async <T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 30_000,
  every = 200
): Promise<T> => {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`not in ${ms} ms: ${what}`)
    await sleep(every)
  }
}

// ---------------------------------------------------------------------------------------------
// The bank

export interface Payer {
  readonly banco: string
  readonly tipo_doc: "V"
  readonly identificacion: string
  readonly telefono: string
}

export interface Counters {
  readonly solicitudes: Record<string, number | undefined>
  readonly codigos_emitidos: number
  readonly debitos_aplicados: number
  readonly creditos_aplicados: number
}

export interface Bank {
  readonly url: string
  readonly sim: BankSim
  readonly counters: () => Promise<Counters>
  /** Adds a fault (apps/bank-sim `Falla`). */
  readonly fault: (falla: Falla) => Promise<void>
  readonly clearFaults: () => Promise<void>
  /** A payer with an account and phone of its own at `banco` (0102) holding `saldo` cents. */
  readonly payer: (saldo?: number, banco?: string) => Promise<Payer>
  /**
   * The payer's bank sends it a code, as after the page's "request code" (asked here at the bank
   * itself: the page allows 10 requests per 10 minutes per IP and none in the nightly close).
   */
  readonly code: (payer: Payer, montoCents: number) => Promise<string>
  /** The last code the bank sent the payer (after the server asked for one). */
  readonly lastCode: (payer: Payer) => Promise<string>
  readonly balance: (payer: Payer) => Promise<number>
  readonly close: () => Promise<void>
}

let phoneSeq = 1_000_000 + Math.floor(Math.random() * 8_000_000)

export const startBank = async (): Promise<Bank> => {
  const sim = await startBankSim({ port: 0 })
  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${sim.url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const json = (await r.json()) as any
    if (r.status >= 300) throw new Error(`bank ${method} ${path}: ${r.status} ${JSON.stringify(json)}`)
    return json
  }
  const party = (p: Payer) => ({
    tipo: "telefono",
    valor: p.telefono,
    banco: p.banco,
    identificacion: `${p.tipo_doc}${p.identificacion}`
  })
  return {
    url: sim.url,
    sim,
    counters: async () => (await admin("GET", "/admin/estado")).contadores as Counters,
    fault: async (falla) => {
      await admin("POST", "/admin/fallas", falla)
    },
    clearFaults: async () => {
      await admin("DELETE", "/admin/fallas")
    },
    payer: async (saldo = 10_000_000, banco = "0102") => {
      const telefono = `0414${String(phoneSeq++).padStart(7, "0")}`
      const p: Payer = { banco, tipo_doc: "V", identificacion: "12345678", telefono }
      await admin("POST", "/admin/cuentas", {
        banco: p.banco,
        numero: `${p.banco}${telefono.slice(1).padStart(16, "0")}`,
        telefono,
        identificacion: `${p.tipo_doc}${p.identificacion}`,
        saldo
      })
      return p
    },
    code: async (p, montoCents) => {
      const sent = await admin("POST", "/v1/c2p/codigo", {
        operacion_id: randomUUID(),
        monto: montoCents,
        pagador: party(p)
      })
      if (sent.estado !== "ENVIADO") throw new Error(`code not sent: ${JSON.stringify(sent)}`)
      return (await admin("GET", `/admin/codigos/${p.banco}/${p.telefono}`)).codigo as string
    },
    lastCode: async (p) => (await admin("GET", `/admin/codigos/${p.banco}/${p.telefono}`)).codigo as string,
    balance: async (p) => (await admin("GET", `/admin/cuentas/${p.banco}/${p.telefono}`)).saldo as number,
    close: () => sim.close()
  }
}

// ---------------------------------------------------------------------------------------------
// Merchants, links and the payment page

/** An account of the stack's merchants (RIF J-07013380-5) at bank 0105, with valid check digits. */
export const SETTLEMENT_ACCOUNT = OWN_ACCOUNT

/**
 * A merchant approved for live mode whose collections reach {@link SETTLEMENT_ACCOUNT} (a live
 * debit names the merchant's account as the collector).
 */
export const liveMerchant = async (base: string, codigo: string) => {
  return merchantWithLiveKey({ url: base }, codigo)
}

/** A live link of `monto` bolivars; returns its id. */
export const newLink = async (base: string, key: string, monto: number, concepto = "Pedido") => {
  const r = await call(base, "POST", "/switch/v1/links", { key, body: { monto, concepto, expira_horas: 24 } })
  if (r.status !== 201) throw new Error(`link: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.id as string
}

/** The link as the merchant's API shows it. */
export const linkOf = async (base: string, key: string, id: string) =>
  (await call(base, "GET", `/switch/v1/links/${id}`, { key })).body

/** The payment page's session: its CSRF cookie and token, as the browser holds them. */
export const openPage = async (base: string, linkId: string) => {
  const response = await fetch(`${base}/l/${linkId}`)
  const html = await response.text()
  if (response.status !== 200) throw new Error(`page ${linkId}: ${response.status}`)
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const csrf = /<meta name="csrf" content="([^"]+)"/.exec(html)?.[1] ?? ""
  const post = (path: string, body: unknown) =>
    call(base, "POST", `/l/${linkId}${path}`, { body, headers: { cookie, "x-csrf": csrf } })
  /** Submits the payment with the code the payer's bank sent. */
  const pay = (payer: Payer, otp: string) => post("/pagar", { ...payer, otp })
  return { cookie, csrf, post, pay }
}

/** Every notice of the key's mode, oldest first (`GET /switch/v1/eventos` pages newest first). */
export const allEvents = async (base: string, key: string): Promise<Array<any>> => {
  const out: Array<any> = []
  for (let offset = 0; ; offset += 200) {
    const page = await call(base, "GET", `/switch/v1/eventos?limit=200&offset=${offset}`, { key })
    if (page.status !== 200) throw new Error(`eventos: ${page.status} ${JSON.stringify(page.body)}`)
    out.push(...page.body)
    if (page.body.length < 200) return out.reverse()
  }
}

// ---------------------------------------------------------------------------------------------
// The webhook receiver

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly json: any
  readonly at: number
}

export interface Receiver {
  /** `http://127.0.0.1:<port>/hooks`; the server needs SWITCH_WEBHOOK_ALLOW_PRIVATE=1. */
  readonly url: string
  readonly received: Array<Received>
  /** The answer to a notice (its 0-based arrival index): status, after `delayMs`. */
  respond: (notice: Received, index: number) => { status: number; delayMs?: number }
  readonly close: () => Promise<void>
}

export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<Received> = []
  const timers = new Set<NodeJS.Timeout>()
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      let json: unknown = null
      try {
        json = JSON.parse(body)
      } catch {}
      const notice: Received = { headers: request.headers, body, json, at: Date.now() }
      const index = received.length
      received.push(notice)
      const { status, delayMs } = receiver.respond(notice, index)
      const timer = setTimeout(() => {
        timers.delete(timer)
        if (response.destroyed) return
        response.writeHead(status, { "content-type": "text/plain" })
        response.end("ok")
      }, delayMs ?? 0)
      timers.add(timer)
    })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    respond: () => ({ status: 200 }),
    close: () =>
      new Promise((done) => {
        for (const timer of timers) clearTimeout(timer)
        server.closeAllConnections()
        server.close(() => done())
      })
  }
  return receiver
}

const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex")

/** Both signatures of a notice check with the webhook's secret. */
export const signedWith = (notice: Received, secret: string): boolean => {
  const v2 = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(notice.headers["x-service-signature-v2"] ?? ""))
  if (v2 === null) return false
  return (
    notice.headers["x-service-signature"] === `sha256=${hmac(secret, notice.body)}` &&
    v2[2] === hmac(secret, `${v2[1]}.${notice.body}`)
  )
}

/** A webhook of the merchant (live key) to `url` for `eventos`; returns its id and secret. */
export const newWebhook = async (base: string, liveKey: string, url: string, eventos = ["*"]) => {
  const r = await call(base, "POST", "/switch/v1/webhooks", { key: liveKey, body: { url, eventos } })
  if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`)
  return { id: r.body.id as string, secret: r.body.secret as string }
}

// ---------------------------------------------------------------------------------------------
// The server as a process tree that can be killed with -9

export interface ServerProcess {
  readonly url: string
  /** The whole environment it runs with; {@link startServer} with it again is a restart. */
  readonly env: Record<string, string>
  readonly demoKey: string
  readonly output: () => string
  /**
   * SIGKILL to the primary, its cluster workers and the embedded Postgres with every backend
   * (nothing runs a shutdown step), then waits until none of them is left, so a restart finds
   * the data directory and the ports free.
   */
  readonly kill9: () => Promise<void>
  /** SIGTERM and wait: the clean stop. */
  readonly stop: () => Promise<void>
}

const running = new Set<ChildProcess>()

/** Removes the data directory of an env from {@link serverEnv} (after its server stopped). */
export const removeData = (env: Record<string, string>) => {
  if (env.SWITCH_DATA_DIR) rmSync(env.SWITCH_DATA_DIR, { recursive: true, force: true })
}

/**
 * Settings for a server of its own (a {@link serverEnv}) against the bank simulator `bank`, with
 * the banks' daily close off and a per-minute API limit no suite reaches; `env` adds or overrides.
 */
export const bankServerEnv = (bank: Bank, env: Record<string, string> = {}) =>
  serverEnv({
    SWITCH_BANK_URL: bank.url,
    SWITCH_CIERRE_BANCARIO: "0",
    SWITCH_API_POR_MINUTO: "100000",
    ...env
  })

/** The end of a suite with a server of its own: kill -9 if one runs, the bank closed, the data removed. */
export const stopBankServer = async (
  server: ServerProcess | undefined,
  bank: Bank | undefined,
  env: Record<string, string>
) => {
  if (server !== undefined) await server.kill9()
  await bank?.close()
  removeData(env)
}

/** Pids of the processes whose parent chain leads to `root` (from /proc). */
const descendants = (root: number): Array<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {}
  }
  const out: Array<number> = []
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child)
      walk(child)
    }
  }
  walk(root)
  return out
}

/**
 * Live (not zombie) processes working in `dir`: Postgres's postmaster and backends run in their
 * data directory, and backends leave the server's process group (each calls setsid), so this is
 * how the ones orphaned by a kill are found.
 */
const processesIn = (dir: string): Array<number> => {
  const out: Array<number> = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir) out.push(Number(entry))
    } catch {}
  }
  return out
}

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}

const killQuietly = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal)
  } catch {}
}

/** Starts the built server with `env` (from {@link serverEnv}) and waits until it answers. */
export const startServer = async (env: Record<string, string>): Promise<ServerProcess> => {
  const url = `http://127.0.0.1:${env.PORT}`
  const pgDir = resolve(env.SWITCH_DATA_DIR ?? ".switch", "pg")
  let output = ""
  // Its own process group, so one signal reaches the primary and its cluster workers.
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  running.add(child)
  child.once("exit", () => running.delete(child))
  child.stdout?.on("data", (chunk) => {
    output += chunk
  })
  child.stderr?.on("data", (chunk) => {
    output += chunk
  })
  const exited = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once("exit", () => done())
    })
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited early:\n${output}`)
    const up = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false
    )
    if (up) break
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await sleep(200)
  }
  const demoKey = /x-switch-key: (demo:sk_test_\w+)/.exec(output)?.[1]
  if (demoKey === undefined) throw new Error(`no demo key printed:\n${output}`)
  return {
    url,
    env,
    demoKey,
    output: () => output,
    kill9: async () => {
      const pid = child.pid ?? 0
      const tree = [pid, ...descendants(pid), ...processesIn(pgDir)]
      killQuietly(-pid, "SIGKILL")
      for (const p of tree) killQuietly(p, "SIGKILL")
      await exited()
      await eventually(
        "every process of the killed server gone",
        () => {
          const left = [...tree.filter(alive), ...processesIn(pgDir)]
          for (const p of left) killQuietly(p, "SIGKILL")
          return left.length === 0
        },
        20_000,
        100
      )
      // Every process of the old cluster is dead, but one may linger as a zombie nobody reaps (a
      // container's init), and its pid in `postmaster.pid` makes the restarted Postgres refuse the
      // directory ("lock file already exists"). After a real crash that pid names no process.
      rmSync(resolve(pgDir, "postmaster.pid"), { force: true })
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM")
        await exited()
      }
    }
  }
}

/** Kills every server this module started and has not seen exit (for afterAll and crashes). */
export const killAllServers = () => {
  for (const child of running) if (child.pid !== undefined) killQuietly(-child.pid, "SIGKILL")
}
process.once("exit", killAllServers)
