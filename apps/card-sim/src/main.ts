/**
 * `node dist/main.js [--port N] [--host H]`: runs the simulator until stopped. The first line
 * on stdout is `card-sim <url>`, which a parent process (the server's `npm start`) reads.
 * CARD_SIM_PORT, CARD_SIM_HOST and CARD_SIM_CLAVE (the secret shared with the service, which
 * signs callbacks; the server passes its SWITCH_CARD_CLAVE) also apply.
 */
import { startCardSim } from "./Server.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const env = process.env
const sim = await startCardSim({
  port: Number(arg("port") ?? env.CARD_SIM_PORT ?? 8091),
  host: arg("host") ?? env.CARD_SIM_HOST ?? "127.0.0.1",
  clave: env.CARD_SIM_CLAVE ?? "card-sim-clave"
})
console.log(`card-sim ${sim.url}`)

const stop = () => {
  sim.close().then(() => process.exit(0))
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
// A parent that dies closes our stdin: stop with it instead of lingering.
if (env.CARD_SIM_PARENT === "1") process.stdin.on("end", stop).resume()
