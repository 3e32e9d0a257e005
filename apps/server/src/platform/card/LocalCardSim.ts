/**
 * Development default for the card pilot (DESIGN §8: SWITCH_CARD_URL unset means
 * apps/card-sim): `npm start` without SWITCH_CARD_URL runs apps/card-sim's built CLI as a child of
 * the primary process on a free loopback port and points the card processor at it. A child process
 * rather than an import because apps never import each other (DESIGN §2); the simulator's state
 * lives and dies with the server, and every worker process shares the one simulator.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"

/** apps/card-sim/dist/main.js, seen from apps/server/dist/main.js. */
const simMain = () => fileURLToPath(new URL("../../card-sim/dist/main.js", import.meta.url))

/**
 * Starts the simulator with the shared key `clave` (it signs its callbacks with it) and yields
 * its URL; none when it is not built. Stopped with the scope.
 */
export const localCardSim = (clave: string) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string | null; child: ChildProcess | null }>((resolve) => {
          const main = simMain()
          if (!existsSync(main)) return resolve({ url: null, child: null })
          const child = spawn(process.execPath, [main, "--port", "0"], {
            env: { ...process.env, CARD_SIM_PARENT: "1", CARD_SIM_CLAVE: clave },
            stdio: ["pipe", "pipe", "inherit"]
          })
          let buffered = ""
          const onData = (chunk: Buffer) => {
            buffered += chunk.toString("utf8")
            const line = /^card-sim (\S+)/m.exec(buffered)
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
