/**
 * A simulator of the outside world (apps/bank-sim, apps/card-sim) run by `npm start` as a child of
 * the primary process on a free loopback port, when no real peer is configured. A child process
 * rather than an import because apps never import each other (DESIGN §2); the simulator's state
 * lives and dies with the server, and every worker process shares the one simulator.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { Effect } from "effect"

/**
 * Starts the built simulator `main` (its CLI prints `<name> <url>` once listening) with `env`
 * added, and yields its URL; none when it is not built or does not start. Stopped with the scope.
 */
export const localSim = (options: {
  readonly main: string
  readonly name: string
  readonly env: Readonly<Record<string, string>>
}) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string | null; child: ChildProcess | null }>((resolve) => {
          if (!existsSync(options.main)) return resolve({ url: null, child: null })
          const child = spawn(process.execPath, [options.main, "--port", "0"], {
            env: { ...process.env, ...options.env },
            stdio: ["pipe", "pipe", "inherit"]
          })
          const listening = new RegExp(`^${options.name} (\\S+)`, "m")
          let buffered = ""
          const onData = (chunk: Buffer) => {
            buffered += chunk.toString("utf8")
            const line = listening.exec(buffered)
            if (line?.[1] !== undefined) {
              child.stdout?.off("data", onData)
              child.stdout?.resume()
              resolve({ url: line[1], child })
            }
          }
          child.stdout?.on("data", onData)
          child.once("exit", () => resolve({ url: null, child: null }))
          child.once("error", () => resolve({ url: null, child: null }))
        })
    ),
    ({ child }) =>
      Effect.sync(() => {
        if (child !== null && child.exitCode === null) child.kill("SIGTERM")
      })
  )
