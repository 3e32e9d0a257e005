/** @switch/card-sim: a simulated external card processor (hosted form, signed callbacks, query, nightly close). */
export {
  type Callback,
  type Cargo,
  type Config,
  type Credito,
  type EstadoCargo,
  Processor,
  TARJETAS
} from "./Processor.js"
export { type CardSim, type Options, startCardSim } from "./Server.js"
