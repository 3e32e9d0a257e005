/**
 * Development default for the card pilot (DESIGN §8: SWITCH_CARD_URL unset means
 * apps/card-sim): `npm start` without SWITCH_CARD_URL runs apps/card-sim (platform/LocalSim.ts)
 * and points the card processor at it.
 */
import { fileURLToPath } from "node:url"
import { localSim } from "../LocalSim.js"

/**
 * Starts the simulator with the shared key `clave` (it signs its callbacks with it) and yields
 * its URL; none when it is not built. Stopped with the scope.
 */
export const localCardSim = (clave: string) =>
  localSim({
    // apps/card-sim/dist/main.js, seen from apps/server/dist/main.js.
    main: fileURLToPath(new URL("../../card-sim/dist/main.js", import.meta.url)),
    name: "card-sim",
    env: { CARD_SIM_PARENT: "1", CARD_SIM_CLAVE: clave }
  })
