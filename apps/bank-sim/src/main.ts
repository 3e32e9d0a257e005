/**
 * `node dist/main.js [--port N] [--host H]`: runs the simulator until stopped. The first line
 * on stdout is `bank-sim <url>`, which a parent process (the server's `npm start`) reads.
 * BANK_SIM_PORT, BANK_SIM_CODIGO_FIJO (every code is this one) and BANK_SIM_CREDITO_MS also apply.
 */
import { startBankSim } from "./Server.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const env = process.env
const sim = await startBankSim({
  port: Number(arg("port") ?? env.BANK_SIM_PORT ?? 8090),
  host: arg("host") ?? env.BANK_SIM_HOST ?? "127.0.0.1",
  config: {
    ...(env.BANK_SIM_CODIGO_FIJO ? { codigoFijo: env.BANK_SIM_CODIGO_FIJO } : {}),
    ...(env.BANK_SIM_CREDITO_MS ? { confirmacionCreditoMs: Number(env.BANK_SIM_CREDITO_MS) } : {})
  }
})
console.log(`bank-sim ${sim.url}`)

const stop = () => {
  sim.close().then(() => process.exit(0))
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
// A parent that dies closes our stdin: stop with it instead of lingering.
if (env.BANK_SIM_PARENT === "1") process.stdin.on("end", stop).resume()
