/**
 * More than one machine, on one: Debian's PostgreSQL server in a throwaway cluster, PgBouncer in
 * transaction mode in front of it for the API's connections, two built servers (separate
 * processes, separate ports, as two machines would run them) and haproxy in front of both,
 * polling `/readyz`. The job queue (graphile-worker) and the key-revocation LISTEN go straight to
 * Postgres (`SWITCH_COLA_DATABASE_URL`), as they need a session.
 *
 * The cluster has the two roles of docs/deploy.md (issue 41): `switch_owner` owns the database and
 * its schema and runs the migrations (`SWITCH_MIGRATIONS_DATABASE_URL`, straight to Postgres);
 * the servers run as `switch_app`, which owns nothing and is granted the rows it uses at each
 * start. Neither is a superuser; the cluster's superuser (`postgres`) is the tests' own.
 *
 * Everything listens on 127.0.0.1 on free ports and lives in one temporary directory. Every
 * process is started with a parent-death signal (`setpriv --pdeathsig`), so it stops by itself
 * when the process that started it ends, even killed with -9; {@link startMulti}'s `stop` stops
 * them sooner and removes the directory. As root, Postgres and PgBouncer (which refuse root) run
 * as the `postgres` user that Debian's package creates.
 *
 * Needs `apt-get install postgresql pgbouncer haproxy` (CI's `.ci/run` does it) and a build.
 * `npm run test:multi -w @switch/tests` runs the suites in `tests/multi/` through it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import Pg from "pg"
import { eventually } from "./live.js"
import { ADMIN_TOKEN, freePort } from "./stack.js"

const SERVER_MAIN = resolve(__dirname, "../../apps/server/dist/main.js")
/** The cluster's roles: its superuser (the tests' alone), the schema's owner and the servers'. */
export const ROLES = { admin: "postgres", owner: "switch_owner", runtime: "switch_app" } as const
/** Every role's password, those a test creates included. */
export const PASSWORD = "switch-multi"
const DATABASE = "switch"

/** The bin directory of the newest PostgreSQL Debian's packages installed, or null. */
export const debianPostgres = (): string | null => {
  const base = "/usr/lib/postgresql"
  if (!existsSync(base)) return null
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? null : join(base, versions[0], "bin")
}

const which = (name: string): string | null => {
  for (const dir of ["/usr/sbin", "/usr/bin", "/sbin", "/bin"])
    if (existsSync(join(dir, name))) return join(dir, name)
  return null
}

/** What is missing to run the setup, or null when everything is installed. */
export const missing = (): string | null => {
  const absent = [
    debianPostgres() === null ? "postgresql" : null,
    which("pgbouncer") === null ? "pgbouncer" : null,
    which("haproxy") === null ? "haproxy" : null,
    which("setpriv") === null ? "util-linux (setpriv)" : null
  ].filter((name) => name !== null)
  return absent.length === 0 ? null : `apt-get install ${absent.join(" ")}`
}

const isRoot = () => process.getuid?.() === 0

/** uid and gid of `postgres` as root; null when not root (everything runs as this user). */
const runAs = (): { uid: number; gid: number } | null => {
  if (!isRoot()) return null
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim())
  return { uid: id("-u"), gid: id("-g") }
}

/** A process of the setup: its output so far, and how to signal it and wait for its end. */
export interface Proc {
  readonly name: string
  readonly child: ChildProcess
  readonly output: () => string
  readonly alive: () => boolean
  /** Sends `signal` and waits until it has exited. */
  readonly signal: (signal: NodeJS.Signals) => Promise<void>
}

const started = new Set<ChildProcess>()

/**
 * Runs `file` with a parent-death signal (it gets `deathSignal` when this process ends), as the
 * `postgres` user when `asPostgres` and root, in its own process group.
 */
const launch = (
  name: string,
  file: string,
  args: ReadonlyArray<string>,
  options: {
    readonly asPostgres?: boolean
    readonly env?: Record<string, string>
    readonly cwd?: string
    readonly deathSignal?: NodeJS.Signals
  } = {}
): Proc => {
  const user = options.asPostgres ? runAs() : null
  const setpriv = [
    `--pdeathsig=${options.deathSignal ?? "SIGKILL"}`,
    ...(user === null ? [] : [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups"]),
    "--",
    file,
    ...args
  ]
  let output = ""
  const child = spawn(which("setpriv") ?? "setpriv", setpriv, {
    env: { ...process.env, ...options.env },
    cwd: options.cwd ?? tmpdir(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  started.add(child)
  child.once("exit", () => started.delete(child))
  child.stdout?.on("data", (chunk) => {
    output = (output + chunk).slice(-200_000)
  })
  child.stderr?.on("data", (chunk) => {
    output = (output + chunk).slice(-200_000)
  })
  const alive = () => child.exitCode === null && child.signalCode === null
  return {
    name,
    child,
    output: () => output,
    alive,
    signal: (signal) =>
      new Promise<void>((done) => {
        if (!alive()) return done()
        child.once("exit", () => done())
        try {
          process.kill(child.pid ?? 0, signal)
        } catch {
          done()
        }
      })
  }
}

/** Kills every process this module started that is still running (crash path). */
const killAll = () => {
  for (const child of started) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    } catch {}
  }
}
process.once("exit", killAll)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Resolves when `proc` printed `text`; fails with its output if it exits first or takes over `ms`. */
const waitFor = async (proc: Proc, text: RegExp, ms = 60_000) => {
  const deadline = Date.now() + ms
  while (!text.test(proc.output())) {
    if (!proc.alive()) throw new Error(`${proc.name} exited:\n${proc.output()}`)
    if (Date.now() > deadline) throw new Error(`${proc.name} not ready in ${ms} ms:\n${proc.output()}`)
    await sleep(50)
  }
}

/** Resolves when something accepts connections on 127.0.0.1:`port`. */
const waitPort = async (proc: Proc, port: number, ms = 30_000) => {
  const net = await import("node:net")
  await eventually(
    `${proc.name} listening on ${port}`,
    () => {
      if (!proc.alive()) throw new Error(`${proc.name} exited:\n${proc.output()}`)
      return new Promise<boolean>((done) => {
        const socket = net.connect(port, "127.0.0.1")
        socket.once("connect", () => {
          socket.destroy()
          done(true)
        })
        socket.once("error", () => done(false))
      })
    },
    ms,
    50
  )
}

// ---------------------------------------------------------------------------------------------
// Postgres

export interface Postgres {
  readonly port: number
  /** A direct url to `database` (`switch`) as the role named `role` (the superuser by default). */
  readonly url: (database?: string, role?: string) => string
  /** Stops it (`fast`: SIGINT, sessions cut; `immediate`: SIGQUIT, no checkpoint). */
  readonly stop: (mode?: "fast" | "immediate") => Promise<void>
  /** Starts it again on the same directory and port. */
  readonly start: () => Promise<void>
  readonly output: () => string
}

const startPostgresServer = async (dir: string): Promise<Postgres> => {
  const bin = debianPostgres()
  if (bin === null) throw new Error("no Debian PostgreSQL: apt-get install postgresql")
  const data = join(dir, "pg")
  const port = await freePort()
  const user = runAs()
  mkdirSync(data, { mode: 0o700 })
  const pwfile = join(dir, "pgpass")
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 })
  if (user !== null) {
    chownSync(data, user.uid, user.gid)
    chownSync(pwfile, user.uid, user.gid)
  }
  const initdb = launch(
    "initdb",
    join(bin, "initdb"),
    [
      `--pgdata=${data}`,
      `--username=${ROLES.admin}`,
      `--pwfile=${pwfile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C.UTF-8",
      "--no-sync"
    ],
    { asPostgres: true, cwd: dir }
  )
  await new Promise<void>((done, fail) =>
    initdb.child.once("exit", (code) =>
      code === 0 ? done() : fail(new Error(`initdb ended with ${code}:\n${initdb.output()}`))
    )
  )
  rmSync(pwfile)
  let proc: Proc | null = null
  const start = async () => {
    // SIGQUIT when this process dies: an immediate stop, every backend with it.
    proc = launch(
      "postgres",
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "max_connections=200",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off"
      ],
      { asPostgres: true, cwd: dir, deathSignal: "SIGQUIT" }
    )
    await waitFor(proc, /database system is ready to accept connections/)
  }
  await start()
  const url = (database = DATABASE, role: string = ROLES.admin) =>
    `postgres://${role}:${PASSWORD}@127.0.0.1:${port}/${database}`
  // docs/deploy.md's "Two database roles", as its superuser would run them.
  const admin = new Pg.Client({ connectionString: url("postgres") })
  await admin.connect()
  for (const role of [ROLES.owner, ROLES.runtime])
    await admin.query(`create role ${role} login password '${PASSWORD}'`)
  await admin.query(`create database ${DATABASE} owner ${ROLES.owner}`)
  await admin.end()
  const schema = new Pg.Client({ connectionString: url() })
  await schema.connect()
  await schema.query(`alter schema public owner to ${ROLES.owner}`)
  await schema.query("revoke create on schema public from public")
  await schema.end()
  return {
    port,
    url,
    stop: async (mode = "fast") => {
      await proc?.signal(mode === "fast" ? "SIGINT" : "SIGQUIT")
    },
    start,
    output: () => proc?.output() ?? ""
  }
}

// ---------------------------------------------------------------------------------------------
// PgBouncer

export interface Bouncer {
  readonly port: number
  readonly url: string
  /** Kills it with -9: every client connection through it is cut. */
  readonly kill9: () => Promise<void>
  readonly start: () => Promise<void>
}

const startBouncer = async (dir: string, pg: Postgres): Promise<Bouncer> => {
  const port = await freePort()
  const ini = join(dir, "pgbouncer.ini")
  const users = join(dir, "userlist.txt")
  writeFileSync(users, `"${ROLES.runtime}" "${PASSWORD}"\n`, { mode: 0o600 })
  writeFileSync(
    ini,
    [
      "[databases]",
      `${DATABASE} = host=127.0.0.1 port=${pg.port} dbname=${DATABASE}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = scram-sha-256",
      `auth_file = ${users}`,
      "pool_mode = transaction",
      "max_client_conn = 400",
      "default_pool_size = 30",
      "server_reset_query =",
      // Retry a failed server login after 1 s, not 15: Postgres back, PgBouncer serves at once.
      "server_login_retry = 1",
      "ignore_startup_parameters = extra_float_digits,options",
      "log_connections = 0",
      "log_disconnections = 0",
      ""
    ].join("\n"),
    { mode: 0o600 }
  )
  const user = runAs()
  if (user !== null) {
    chownSync(ini, user.uid, user.gid)
    chownSync(users, user.uid, user.gid)
  }
  let proc: Proc | null = null
  const start = async () => {
    proc = launch("pgbouncer", which("pgbouncer") ?? "pgbouncer", [ini], {
      asPostgres: true,
      cwd: dir,
      deathSignal: "SIGKILL"
    })
    await waitPort(proc, port)
  }
  await start()
  return {
    port,
    url: `postgres://${ROLES.runtime}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    kill9: async () => {
      await proc?.signal("SIGKILL")
    },
    start
  }
}

// ---------------------------------------------------------------------------------------------
// The servers and the balancer

export interface Server {
  readonly name: string
  readonly port: number
  readonly url: string
  readonly proc: () => Proc
  readonly output: () => string
  /** SIGKILL to its process group: nothing of it runs a shutdown step. */
  readonly kill9: () => Promise<void>
  readonly start: () => Promise<void>
}

const startOneServer = async (name: string, env: Record<string, string>): Promise<Server> => {
  const port = Number(env.PORT)
  const url = `http://127.0.0.1:${port}`
  let proc: Proc | null = null
  let outputs = ""
  const start = async () => {
    if (proc !== null) outputs += proc.output()
    // SIGTERM when the test process dies: the server stops cleanly, its workers with it.
    const current = launch(name, process.execPath, [SERVER_MAIN], { env, deathSignal: "SIGTERM" })
    proc = current
    await eventually(
      `${name} answering /readyz`,
      async () => {
        if (!current.alive()) throw new Error(`${name} exited:\n${current.output()}`)
        return fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
          (r) => r.ok,
          () => false
        )
      },
      90_000,
      100
    )
  }
  await start()
  return {
    name,
    port,
    url,
    proc: () => proc as Proc,
    output: () => outputs + (proc?.output() ?? ""),
    kill9: async () => {
      const pid = proc?.child.pid
      if (pid === undefined || !proc?.alive()) return
      const exited = new Promise<void>((done) => proc?.child.once("exit", () => done()))
      try {
        process.kill(-pid, "SIGKILL")
      } catch {}
      await exited
    },
    start
  }
}

/**
 * Runs one more server with `env` until it ends by itself, or prints `until` and is then stopped
 * (SIGTERM): its exit code (null in the second case) and everything it printed.
 */
export const runServer = async (
  env: Record<string, string>,
  until: RegExp,
  ms = 90_000
): Promise<{ code: number | null; output: string }> => {
  const proc = launch("server", process.execPath, [SERVER_MAIN], { env, deathSignal: "SIGTERM" })
  // "close": the process has ended and its output is all read.
  const closed = new Promise<number | null>((done) => proc.child.once("close", (code) => done(code)))
  const deadline = Date.now() + ms
  while (proc.alive() && !until.test(proc.output())) {
    if (Date.now() > deadline) {
      await proc.signal("SIGKILL")
      throw new Error(`server neither ended nor printed ${until} in ${ms} ms:\n${proc.output()}`)
    }
    await sleep(50)
  }
  if (!proc.alive()) return { code: await closed, output: proc.output() }
  await proc.signal("SIGTERM")
  await closed
  return { code: null, output: proc.output() }
}

export interface Balancer {
  readonly url: string
  readonly output: () => string
}

const startBalancer = async (
  dir: string,
  port: number,
  servers: ReadonlyArray<{ name: string; port: number }>
) => {
  const cfg = join(dir, "haproxy.cfg")
  writeFileSync(
    cfg,
    [
      "global",
      "  maxconn 2000",
      "defaults",
      "  mode http",
      "  timeout connect 1s",
      "  timeout client 120s",
      "  timeout server 120s",
      "  timeout http-keep-alive 5s",
      // A refused connection (a server killed or stopped) is tried on the other server.
      "  retries 3",
      "  option redispatch 1",
      "  retry-on conn-failure",
      "frontend api",
      `  bind 127.0.0.1:${port}`,
      "  option forwardfor",
      "  default_backend switch",
      "backend switch",
      "  balance roundrobin",
      "  option httpchk GET /readyz",
      "  http-check expect status 200",
      "  default-server check inter 300 fall 2 rise 2",
      ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port}`),
      ""
    ].join("\n")
  )
  const proc = launch("haproxy", which("haproxy") ?? "haproxy", ["-db", "-f", cfg], {
    cwd: dir,
    deathSignal: "SIGKILL"
  })
  await waitPort(proc, port)
  return { url: `http://127.0.0.1:${port}`, output: proc.output, proc }
}

export interface Multi {
  /** The balancer's address: what clients use. */
  readonly url: string
  readonly pg: Postgres
  readonly bouncer: Bouncer
  readonly servers: readonly [Server, Server]
  readonly balancer: Balancer
  /** The env every server runs with (each with its own PORT). */
  readonly env: Record<string, string>
  /** Stops everything and removes the directory. */
  readonly stop: () => Promise<void>
}

/**
 * Starts Postgres, PgBouncer, two servers and haproxy; `env` adds to the servers' settings (the
 * bank's url, limits). The servers reach Postgres as `switch_app`, through PgBouncer with
 * `SWITCH_PG_PREPARAR=0`, and their job queues directly; they migrate as `switch_owner`.
 */
export const startMulti = async (env: Record<string, string> = {}): Promise<Multi> => {
  const dir = mkdtempSync(join(tmpdir(), "switch-multi-"))
  // The postgres user works in here.
  chmodSync(dir, 0o755)
  const cleanup: Array<() => Promise<void>> = []
  try {
    const pg = await startPostgresServer(dir)
    cleanup.push(() => pg.stop("immediate"))
    const bouncer = await startBouncer(dir, pg)
    cleanup.push(() => bouncer.kill9())
    const ports = [await freePort(), await freePort()] as const
    const lbPort = await freePort()
    const base: Record<string, string> = {
      DATABASE_URL: bouncer.url,
      SWITCH_COLA_DATABASE_URL: pg.url(DATABASE, ROLES.runtime),
      SWITCH_MIGRATIONS_DATABASE_URL: pg.url(DATABASE, ROLES.owner),
      SWITCH_PG_PREPARAR: "0",
      SWITCH_PG_POOL: "10",
      SWITCH_SECRET: "secreto-de-la-prueba-multi",
      SWITCH_ADMIN_TOKEN: ADMIN_TOKEN,
      BASE_URL: `http://127.0.0.1:${lbPort}`,
      SWITCH_PROXIES_CONFIABLES: "127.0.0.1",
      SWITCH_DATA_DIR: join(dir, "data"),
      SWITCH_LOG_LEVEL: "warning",
      SWITCH_LOG_FORMATO: "texto",
      // Webhooks to the loopback receiver and raised limits are development switches.
      SWITCH_ENV: "development",
      SWITCH_CIERRE_BANCARIO: "0",
      ...env
    }
    // One at a time: the second finds the migrations done.
    const a = await startOneServer("a", {
      ...base,
      PORT: String(ports[0]),
      MCP_PORT: String(await freePort())
    })
    cleanup.push(() => a.proc().signal("SIGKILL"))
    const b = await startOneServer("b", {
      ...base,
      PORT: String(ports[1]),
      MCP_PORT: String(await freePort())
    })
    cleanup.push(() => b.proc().signal("SIGKILL"))
    const balancer = await startBalancer(dir, lbPort, [
      { name: "a", port: ports[0] },
      { name: "b", port: ports[1] }
    ])
    cleanup.push(() => balancer.proc.signal("SIGKILL"))
    // Both servers seen up by the balancer's checks before any test traffic.
    await sleep(1_000)
    return {
      url: balancer.url,
      pg,
      bouncer,
      servers: [a, b],
      balancer,
      env: base,
      stop: async () => {
        for (const step of cleanup.reverse()) await step().catch(() => undefined)
        killAll()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  } catch (error) {
    for (const step of cleanup.reverse()) await step().catch(() => undefined)
    killAll()
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
