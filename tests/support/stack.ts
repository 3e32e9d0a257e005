/**
 * The whole service as a user runs it, for cross-app suites: the built server (`npm start`'s
 * entry) on embedded Postgres in a temporary data directory, on free loopback ports.
 * Build first (`npm run build`; turbo does it before `npm test`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { freePort } from "../../apps/server/src/platform/FreePort.mjs"

export const ADMIN_TOKEN = "admin-token-de-prueba"
const SERVER_MAIN = resolve(__dirname, "../../apps/server/dist/main.js")

export { freePort }

export interface Stack {
  /** API and checkout base, e.g. http://127.0.0.1:40123 */
  readonly url: string
  /** The demo merchant's test key, as `demo:sk_test_...` */
  readonly demoKey: string
  readonly env: Record<string, string>
  readonly output: () => string
  readonly stop: () => Promise<void>
}

/** Settings for a server of its own: a new data directory and free ports; `env` adds or overrides. */
export const serverEnv = async (env: Record<string, string> = {}): Promise<Record<string, string>> => {
  const dataDir = mkdtempSync(join(tmpdir(), "switch-stack-"))
  // As root, Postgres runs as its own user, which must reach the directory.
  chmodSync(dataDir, 0o755)
  const port = await freePort()
  return {
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    SWITCH_DATA_DIR: dataDir,
    SWITCH_PG_PORT: String(await freePort()),
    MCP_PORT: String(await freePort()),
    SWITCH_ADMIN_TOKEN: ADMIN_TOKEN,
    SWITCH_LOG_LEVEL: "warning",
    DATABASE_URL: "",
    // The tests' environment (DESIGN §8): development switches such as raised limits work.
    SWITCH_ENV: "development",
    // The banks' daily close (23:45 to 01:30 Caracas) would make a suite's meaning depend on
    // the hour it runs; a suite about the close sets "1" and its own clock.
    SWITCH_CIERRE_BANCARIO: "0",
    ...env
  }
}

/** Starts the built server with its own embedded Postgres; `env` adds or overrides settings. */
export const startStack = async (env: Record<string, string> = {}): Promise<Stack> => {
  const fullEnv = await serverEnv(env)
  const url = `http://127.0.0.1:${fullEnv.PORT}`
  const dataDir = fullEnv.SWITCH_DATA_DIR ?? ""
  let output = ""
  const child: ChildProcess = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, ...fullEnv },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout?.on("data", (chunk) => {
    output += chunk
  })
  child.stderr?.on("data", (chunk) => {
    output += chunk
  })
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`)
    const up = await fetch(`${url}/openapi.json`).then(
      (r) => r.ok,
      () => false
    )
    if (up) break
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  const demoKey = /x-switch-key: (demo:sk_test_\w+)/.exec(output)?.[1]
  if (demoKey === undefined) throw new Error(`no demo key printed:\n${output}`)
  return {
    url,
    demoKey,
    env: fullEnv,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise<void>((done) => {
          child.once("exit", () => done())
          child.kill("SIGTERM")
        })
      }
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Local addresses listening on TCP `port` (Linux's /proc/net), e.g. ["127.0.0.1"]. */
export const listeningOn = (port: number): Array<string> => {
  const out: Array<string> = []
  for (const [file, v6] of [
    ["/proc/net/tcp", false],
    ["/proc/net/tcp6", true]
  ] as const) {
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const [local, , state] = line.trim().split(/\s+/).slice(1)
      const [hex, portHex] = local?.split(":") ?? []
      if (state !== "0A" || hex === undefined || Number.parseInt(portHex ?? "", 16) !== port) continue
      const bytes = (hex.match(/../g) ?? []).reverse().map((b) => Number.parseInt(b, 16))
      out.push(v6 ? `ipv6:${hex}` : bytes.join("."))
    }
  }
  return out
}

/** A JSON request against the stack. */
export const call = async (
  base: string,
  method: string,
  path: string,
  options: {
    readonly key?: string | undefined
    readonly body?: unknown
    readonly headers?: Record<string, string>
  } = {}
): Promise<{ status: number; body: any; headers: Headers }> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.key === undefined ? {} : { "x-switch-key": options.key }),
      ...options.headers
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text === "" ? null : JSON.parse(text)
  } catch {}
  return { status: response.status, body, headers: response.headers }
}

/** The settlement account merchants made here are approved with: in their own RIF. */
export const OWN_ACCOUNT = {
  tipo: "cuenta",
  valor: "01050194651194079423",
  banco: "0105",
  identificacion: "J-07013380-5",
  nombre: "Comercio"
} as const

/** Registers a merchant, approves it, and returns its test and live keys. */
export const merchantWithLiveKey = async (stack: Pick<Stack, "url">, codigo: string) => {
  const reg = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Comercio ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`
    }
  })
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`)
  const ok = await call(stack.url, "POST", `/admin/v1/comercios/${codigo}/aprobar`, {
    headers: { "x-admin-token": ADMIN_TOKEN },
    // The live key comes only on this explicit ask (issue 41).
    body: { cuenta_liquidacion: OWN_ACCOUNT, emitir_llave: true }
  })
  if (ok.status !== 200) throw new Error(`approve: ${ok.status} ${JSON.stringify(ok.body)}`)
  // Reviewed too: the new-account caps are in dollars and would need a BCV rate.
  const reviewed = await call(stack.url, "POST", `/admin/v1/comercios/${codigo}/revisar`, {
    headers: { "x-admin-token": ADMIN_TOKEN }
  })
  if (reviewed.status !== 200) throw new Error(`review: ${reviewed.status} ${JSON.stringify(reviewed.body)}`)
  return { codigo, testKey: `${codigo}:${reg.body.api_key}`, liveKey: `${codigo}:${ok.body.api_key}` }
}
