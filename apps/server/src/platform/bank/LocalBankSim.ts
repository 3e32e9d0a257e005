/**
 * Development default for live mode (DESIGN §4: SWITCH_BANK_URL, else "the in-process bank
 * simulator"): `npm start` without SWITCH_BANK_URL runs apps/bank-sim (platform/LocalSim.ts) and
 * points the live bank at it.
 */
import { fileURLToPath } from "node:url"
import { localSim } from "../LocalSim.js"

/** Starts the simulator and yields its URL; none when it is not built. Stopped with the scope. */
export const localBankSim = localSim({
  // apps/bank-sim/dist/main.js, seen from apps/server/dist/main.js.
  main: fileURLToPath(new URL("../../bank-sim/dist/main.js", import.meta.url)),
  name: "bank-sim",
  env: { BANK_SIM_PARENT: "1" }
})
