/**
 * Development default for live mode (DESIGN §4: SWITCH_BANK_URL, else "the in-process bank
 * simulator"): `npm start` without SWITCH_BANK_URL runs apps/bank-sim's built CLI as a child of
 * the primary process on a free loopback port and points the live bank at it. A child process
 * rather than an import because apps never import each other (DESIGN §2); the simulator's state
 * lives and dies with the server, and every worker process shares the one simulator.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"

/** apps/bank-sim/dist/main.js, seen from apps/server/dist/main.js. */
const simMain = () => fileURLToPath(new URL("../../bank-sim/dist/main.js", import.meta.url))

/** Starts the simulator and yields its URL; none when it is not built. Stopped with the scope. */
export const localBankSim = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ url: string | null; child: ChildProcess | null }>((resolve) => {
        const main = simMain()
        if (!existsSync(main)) return resolve({ url: null, child: null })
        const child = spawn(process.execPath, [main, "--port", "0"], {
          env: { ...process.env, BANK_SIM_PARENT: "1" },
          stdio: ["pipe", "pipe", "inherit"]
        })
        let buffered = ""
        const onData = (chunk: Buffer) => {
          buffered += chunk.toString("utf8")
          const line = /^bank-sim (\S+)/m.exec(buffered)
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
