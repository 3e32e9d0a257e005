/** `login`, `logout`, `whoami`, `profiles`: keys saved per profile, scripting-friendly. */
import { Switch } from "@switch/sdk"
import type { Command } from "commander"
import { action } from "../Action.js"
import {
  configPath,
  KEY_FORMAT,
  keyParts,
  maskKey,
  normalizeBaseUrl,
  profileName,
  readConfig,
  removeProfile,
  saveProfile,
  writeConfig
} from "../Config.js"
import type { Context } from "../Context.js"
import { UsageError } from "../Output.js"

const readStdin = async (): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8").trim()
}

/**
 * Asks for a secret on the terminal without echoing it: raw mode, one `*` per character typed
 * (or pasted), Backspace and Ctrl-U edit, Ctrl-C stops the command, Enter ends.
 */
export const promptSecret = (context: Context, question: string): Promise<string> =>
  new Promise((done, fail) => {
    const stdin = process.stdin
    const err = context.streams.err
    let value = ""
    err.write(question)
    stdin.setRawMode(true)
    stdin.setEncoding("utf8")
    const finish = (result: () => void) => {
      stdin.setRawMode(false)
      stdin.off("data", onData)
      stdin.pause()
      err.write("\n")
      result()
    }
    const onData = (chunk: string) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: arrow keys and the like are skipped
      for (const char of chunk.replace(/\u001b\[[0-9;]*[A-Za-z~]/g, "")) {
        if (char === "\r" || char === "\n" || char === "\u0004") {
          finish(() => done(value.trim()))
          return
        }
        if (char === "\u0003") {
          finish(() => fail(new UsageError("cancelado: no se guardó ninguna llave", { code: "cancelado" })))
          return
        }
        if (char === "\u007f" || char === "\b") {
          if (value.length > 0) {
            value = [...value].slice(0, -1).join("")
            err.write("\b \b")
          }
        } else if (char === "\u0015") {
          err.write("\b \b".repeat([...value].length))
          value = ""
        } else if (char >= " ") {
          value += char
          err.write("*")
        }
      }
    }
    stdin.on("data", onData)
    stdin.resume()
  })

/** The key to save: `--key`, `--key-stdin`, piped stdin, or a prompt on a terminal. */
const keyToSave = async (context: Context, options: { key?: string; keyStdin?: boolean }) => {
  if (options.key !== undefined && options.key !== "-") return options.key
  if (options.keyStdin === true || options.key === "-" || process.stdin.isTTY !== true) return readStdin()
  return promptSecret(context, "Llave (<comercio>:sk_test_... o <comercio>:sk_live_...; no se muestra): ")
}

export const registerAuth = (program: Command) => {
  program
    .command("login")
    .description("guarda una llave en un perfil (sin navegador: apto para scripts y CI)")
    .option("--key-stdin", "lee la llave de stdin (no queda en el historial ni en `ps`); también `--key -`")
    .option("--no-verify", "no comprobar la llave contra el servidor antes de guardarla")
    .action(
      action(async (context, options: { keyStdin?: boolean; verify: boolean }) => {
        // `--key` is the program's global flag: here it names the key to save.
        const key = await keyToSave(context, {
          ...options,
          ...(context.options.key === undefined ? {} : { key: context.options.key })
        })
        if (!KEY_FORMAT.test(key)) {
          throw new UsageError("la llave debe tener la forma <comercio>:sk_test_... o <comercio>:sk_live_...")
        }
        const config = readConfig(context.env)
        const profile = profileName(context.options, context.env, config)
        const baseUrl =
          context.options.baseUrl ??
          (context.env.SWITCH_BASE_URL || undefined) ??
          config.profiles?.[profile]?.base_url
        let view: { comercio: string; nombre: string; mode: string } | undefined
        if (options.verify) {
          const client = new Switch({
            key,
            ...(baseUrl === undefined ? {} : { baseUrl: normalizeBaseUrl(baseUrl) }),
            fetch: context.fetch
          })
          view = await client.config.get()
        }
        const path = saveProfile(context.env, profile, {
          key,
          ...(baseUrl === undefined ? {} : { base_url: normalizeBaseUrl(baseUrl) })
        })
        const { comercio, mode } = keyParts(key)
        context.output.result(
          {
            perfil: profile,
            comercio,
            mode,
            nombre: view?.nombre ?? null,
            archivo: path,
            verificada: options.verify
          },
          () => {
            context.output.line(
              `${context.output.green("✓")} Perfil ${context.output.bold(profile)}: ${comercio}` +
                `${view === undefined ? "" : ` (${view.nombre})`}, modo ${mode}`
            )
            context.output.note(context.output.dim(`Guardado en ${path} (permisos 0600)`))
          }
        )
        return 0
      })
    )

  program
    .command("logout")
    .description("borra la llave del perfil")
    .action(
      action(async (context) => {
        const config = readConfig(context.env)
        const profile = profileName(context.options, context.env, config)
        const removed = removeProfile(context.env, profile)
        context.output.result({ perfil: profile, borrado: removed }, () =>
          context.output.line(removed ? `Perfil ${profile} borrado` : `No había perfil ${profile}`)
        )
        return 0
      })
    )

  program
    .command("whoami")
    .description("muestra el comercio, el modo y de dónde sale la llave")
    .action(
      action(async (context) => {
        const client = context.client()
        const resolved = context.resolved()
        const view = await client.config.get()
        const result = {
          comercio: view.comercio,
          nombre: view.nombre,
          mode: view.mode,
          estado: view.estado,
          kyc_tier: view.kyc_tier,
          perfil: resolved.keySource === "perfil" ? resolved.profile : null,
          llave: maskKey(resolved.key ?? ""),
          origen_llave: resolved.keySource,
          base_url: resolved.baseUrl
        }
        context.output.result(result, () => {
          const mode = view.mode === "live" ? context.output.red("live") : context.output.yellow("test")
          context.output.fields([
            ["comercio", `${view.comercio} (${view.nombre})`],
            ["modo", mode],
            ["estado", `${view.estado}, KYC ${view.kyc_tier}`],
            [
              "llave",
              `${result.llave} (de ${resolved.keySource}${result.perfil === null ? "" : ` ${result.perfil}`})`
            ],
            ["servidor", resolved.baseUrl]
          ])
        })
        return 0
      })
    )

  const profiles = program.command("profiles").description("perfiles guardados")
  profiles
    .command("list", { isDefault: true })
    .description("lista los perfiles (las llaves se muestran enmascaradas)")
    .action(
      action(async (context) => {
        const config = readConfig(context.env)
        const rows = Object.entries(config.profiles ?? {}).map(([name, profile]) => ({
          perfil: name,
          por_defecto: name === config.default_profile,
          llave: profile.key === undefined ? null : maskKey(profile.key),
          base_url: profile.base_url ?? null
        }))
        context.output.result(rows, () => {
          context.output.table(rows, [
            { title: "perfil", value: (r) => (r.por_defecto ? `${r.perfil} *` : r.perfil) },
            { title: "llave", value: (r) => r.llave },
            { title: "base_url", value: (r) => r.base_url }
          ])
          context.output.note(context.output.dim(configPath(context.env)))
        })
        return 0
      })
    )
  profiles
    .command("use <perfil>")
    .description("elige el perfil por defecto")
    .action(
      action(async (context, name: string) => {
        const config = readConfig(context.env)
        if (config.profiles?.[name] === undefined) throw new UsageError(`no existe el perfil "${name}"`)
        writeConfig(context.env, { ...config, default_profile: name })
        context.output.result({ perfil: name }, () => context.output.line(`Perfil por defecto: ${name}`))
        return 0
      })
    )
}
