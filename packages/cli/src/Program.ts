/** The `switch` program: global flags, every command, and commander's errors as exit code 2. */
import { Command, CommanderError, Option } from "commander"
import { setStreams, state } from "./Action.js"
import { registerAccount } from "./commands/account.js"
import { registerAdmin } from "./commands/admin.js"
import { registerApi } from "./commands/api.js"
import { registerAuth } from "./commands/auth.js"
import { registerCompletion } from "./commands/completion.js"
import { registerLinks } from "./commands/links.js"
import { registerLiquidaciones } from "./commands/liquidaciones.js"
import { registerListen } from "./commands/listen.js"
import { registerLotes } from "./commands/lotes.js"
import { registerRegister } from "./commands/register.js"
import { registerTrigger } from "./commands/trigger.js"
import { registerWebhooks } from "./commands/webhooks.js"
import { addExamples, helpConfiguration, spanishError } from "./Help.js"
import { ExitCode, type Streams } from "./Output.js"
import { VERSION } from "./Version.js"

/**
 * Builds the command tree; `streams` receive commander's own help and errors. With `json`
 * (`--json` among the arguments), commander's usage errors are written as the CLI writes its own
 * (`{ error: "uso_invalido", detail }`), without the hint to read the help.
 */
export const buildProgram = (streams: Streams, options: { readonly json?: boolean } = {}): Command => {
  const program = new Command("switch")
    .description("Switch desde la terminal: links de pago, lotes, comprobantes, webhooks y eventos en vivo")
    .version(VERSION, "-v, --version", "muestra la versión")
    .helpOption("-h, --help", "muestra la ayuda del comando")
    .helpCommand("help [comando]", "muestra la ayuda de un comando")
    .configureHelp(helpConfiguration)
    .option("--json", "salida JSON (para scripts)")
    .option("--key <llave>", "llave <comercio>:sk_...; gana sobre SWITCH_KEY y el perfil")
    .option("--profile <nombre>", "perfil guardado a usar (o SWITCH_PROFILE)")
    .addOption(new Option("--base-url <url>", "dirección del servicio (o SWITCH_BASE_URL)"))
    .option("--no-color", "sin colores (también NO_COLOR o salida que no es una terminal)")
    .showHelpAfterError(options.json ? false : "(switch --help para ver la ayuda)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => streams.out.write(text),
      writeErr: (text) => streams.err.write(text),
      outputError: (english, write) => {
        const text = spanishError(english)
        write(
          options.json
            ? `${JSON.stringify({ error: "uso_invalido", detail: text.replace(/^error: /, "").trim() }, null, 2)}\n`
            : text
        )
      }
    })
  registerAuth(program)
  registerLinks(program)
  registerLotes(program)
  registerAccount(program)
  registerLiquidaciones(program)
  registerWebhooks(program)
  registerListen(program)
  registerTrigger(program)
  registerRegister(program)
  registerAdmin(program)
  registerApi(program)
  registerCompletion(program)
  addExamples(program)
  return program
}

/** Runs `switch` with `argv` (without node and script) and resolves with the exit code. */
export const run = async (
  argv: ReadonlyArray<string>,
  streams: Streams = { out: process.stdout, err: process.stderr, env: process.env }
): Promise<number> => {
  setStreams(streams)
  state.exitCode = ExitCode.ok
  const end = argv.indexOf("--")
  const json = (end === -1 ? argv : argv.slice(0, end)).includes("--json")
  const program = buildProgram(streams, { json })
  try {
    await program.parseAsync([...argv], { from: "user" })
    return state.exitCode
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return ExitCode.ok
      // `switch help links` asked for the help (0); `switch links` alone lacked a command (1).
      if (error.code === "commander.help" && error.exitCode === 0) return ExitCode.ok
      return ExitCode.usage
    }
    throw error
  }
}
