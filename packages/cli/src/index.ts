/**
 * @switch/cli: the `switch` command. The binary is `switch` (dist/bin.js); this entry exposes
 * the pieces for embedding and testing.
 */

export * as Config from "./Config.js"
export * as Csv from "./Csv.js"
export * as Listen from "./Listen.js"
export { ExitCode, UsageError } from "./Output.js"
export { buildProgram, run } from "./Program.js"
export { VERSION } from "./Version.js"
