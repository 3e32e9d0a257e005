/**
 * Runs the BUILT `switch` binary (packages/cli/dist/bin.js) as a user would, with its own
 * temporary config directory, and a server that can be killed and started again on the same
 * port and database (for `listen`'s reconnection).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { ADMIN_TOKEN, freePort } from "../support/stack.js"

/** Whether tmux is installed: the terminal tests need it (CI installs it). */
export const hasTmux = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

export const BIN = resolve(__dirname, "../../packages/cli/dist/bin.js")
const SERVER_MAIN = resolve(__dirname, "../../apps/server/dist/main.js")

export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A `switch` for one test file: a fresh config dir and a base URL. */
export const makeCli = (baseUrl: string, extraEnv: Record<string, string> = {}) => {
  const configDir = mkdtempSync(join(tmpdir(), "switch-cli-config-"))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    SWITCH_CONFIG_DIR: configDir,
    SWITCH_BASE_URL: baseUrl,
    ...extraEnv
  }
  const run = (
    args: ReadonlyArray<string>,
    options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {}
  ): Promise<Run> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: Object.fromEntries(
          Object.entries({ ...env, ...options.env }).filter((e): e is [string, string] => e[1] !== undefined)
        ),
        cwd: options.cwd ?? configDir,
        stdio: ["pipe", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => {
        stdout += chunk
      })
      child.stderr.on("data", (chunk) => {
        stderr += chunk
      })
      child.on("error", fail)
      child.on("close", (code) => done({ code, stdout, stderr }))
      // A command that needs no input may exit before its stdin is written: that EPIPE is not a
      // failure of the command (its exit code and output say how it went).
      child.stdin.on("error", () => undefined)
      child.stdin.end(options.input ?? "")
    })
  /** Runs with `--json` and parses stdout. */
  const json = async (args: ReadonlyArray<string>, options: Parameters<typeof run>[1] = {}) => {
    const result = await run(["--json", ...args], options)
    if (result.code !== 0) throw new Error(`switch ${args.join(" ")} -> ${result.code}\n${result.stderr}`)
    return JSON.parse(result.stdout)
  }
  return { run, json, configDir, env, cleanup: () => rmSync(configDir, { recursive: true, force: true }) }
}

/** Spawns a long-running `switch` (listen) and collects its output. */
export const spawnCli = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk) => {
    stdout += chunk
  })
  child.stderr?.on("data", (chunk) => {
    stderr += chunk
  })
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGINT")
      })
  }
}

/** Waits until `check` holds, polling every 100 ms. */
export const until = async (check: () => boolean, what: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * The built server on a fixed port with embedded Postgres, restartable: `crash()` kills the
 * server process with SIGKILL (Postgres, a separate process, keeps running) and `start()`
 * brings a new server up on the same port against the same database.
 */
export const restartableServer = async (extraEnv: Record<string, string> = {}) => {
  const dataDir = mkdtempSync(join(tmpdir(), "switch-cli-stack-"))
  chmodSync(dataDir, 0o755)
  const port = await freePort()
  const pgPort = await freePort()
  const url = `http://127.0.0.1:${port}`
  const baseEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    BASE_URL: url,
    SWITCH_DATA_DIR: dataDir,
    SWITCH_PG_PORT: String(pgPort),
    MCP_PORT: String(await freePort()),
    SWITCH_ADMIN_TOKEN: ADMIN_TOKEN,
    SWITCH_LOG_LEVEL: "warning",
    SWITCH_API_POR_MINUTO: "100000",
    DATABASE_URL: "",
    // Restarts set DATABASE_URL, which alone means production: the raised limit is refused there.
    SWITCH_ENV: "development",
    ...extraEnv
  }
  let child: ChildProcess | undefined
  let output = ""
  let starts = 0
  const start = async () => {
    // After the first start Postgres is already running (it outlives a killed server).
    const env =
      starts === 0
        ? baseEnv
        : { ...baseEnv, DATABASE_URL: `postgres://switch:switch@127.0.0.1:${pgPort}/switch` }
    starts++
    const proc = spawn(process.execPath, [SERVER_MAIN], { env, stdio: ["ignore", "pipe", "pipe"] })
    child = proc
    proc.stdout?.on("data", (chunk) => {
      output += chunk
    })
    proc.stderr?.on("data", (chunk) => {
      output += chunk
    })
    const deadline = Date.now() + 90_000
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server exited early:\n${output}`)
      const up = await fetch(`${url}/openapi.json`).then(
        (r) => r.ok,
        () => false
      )
      if (up) return
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const crash = () =>
    new Promise<void>((done) => {
      if (child === undefined || child.exitCode !== null) return done()
      child.once("exit", () => done())
      child.kill("SIGKILL")
    })
  await start()
  const demoKey = /x-switch-key: (demo:sk_test_\w+)/.exec(output)?.[1]
  if (demoKey === undefined) throw new Error(`no demo key printed:\n${output}`)
  return {
    url,
    demoKey,
    output: () => output,
    start,
    crash,
    stop: async () => {
      await crash()
      // Postgres was started by the first server; stop it by the pid in its own pid file.
      const pidFile = join(dataDir, "pg", "postmaster.pid")
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0])
        if (pid > 0) {
          try {
            process.kill(pid, "SIGINT")
            const deadline = Date.now() + 10_000
            while (Date.now() < deadline) {
              process.kill(pid, 0)
              await new Promise((r) => setTimeout(r, 100))
            }
          } catch {}
        }
      }
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/**
 * A shell script run in a detached tmux session (a real pseudo-terminal, as a person sees it):
 * `screen()` is the pane with its scrollback, `keys` types, `stop` ends the session.
 */
export const inTmux = (name: string, script: string, size: { width?: number; height?: number } = {}) => {
  const session = `switch-${name}-${process.pid}`
  execFileSync("tmux", [
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    String(size.width ?? 200),
    "-y",
    String(size.height ?? 50),
    script
  ])
  return {
    session,
    screen: () =>
      execFileSync("tmux", ["capture-pane", "-p", "-J", "-S", "-", "-t", session], { encoding: "utf8" }),
    /** The pane as it shows now, without the scrollback. */
    visible: () => execFileSync("tmux", ["capture-pane", "-p", "-J", "-t", session], { encoding: "utf8" }),
    keys: (...keys: ReadonlyArray<string>) => execFileSync("tmux", ["send-keys", "-t", session, ...keys]),
    /** Forgets the scrollback. */
    clearHistory: () => execFileSync("tmux", ["clear-history", "-t", session]),
    stop: () => {
      try {
        execFileSync("tmux", ["kill-session", "-t", session], { stdio: "ignore" })
      } catch {}
    }
  }
}
