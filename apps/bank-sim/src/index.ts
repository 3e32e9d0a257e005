/** @switch/bank-sim: a simulated Venezuelan bank switch speaking HTTP, with fault injection. */
export { Bank, type Config, type Cuenta, normalizarTelefono, type Parte } from "./Bank.js"
export { CODIGOS, type Codigo, type EstadoSim, type Respuesta } from "./Codes.js"
export { descifrar as descifrarMercantil, ERRORES as ERRORES_MERCANTIL } from "./Mercantil.js"
export { type BankSim, type Falla, type Ruta, startBankSim } from "./Server.js"
