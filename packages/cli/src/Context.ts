/** What every command receives: output settings, the resolved profile and a client on demand. */

import { Switch } from "@switch/sdk"
import type { Command } from "commander"
import { type GlobalOptions, type Resolved, resolve } from "./Config.js"
import { Output, type Streams, UsageError } from "./Output.js"
import { VERSION } from "./Version.js"

export interface Context {
  readonly output: Output
  readonly env: NodeJS.ProcessEnv
  readonly streams: Streams
  readonly options: GlobalOptions
  /** Key and base URL after flags, environment and profile. */
  resolved(): Resolved
  /** A client with the run's key; a usage error when there is none. */
  client(): Switch
  /** A `fetch` that names the CLI in `user-agent`. */
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>
}

export const userAgent = `switch-cli/${VERSION} node/${process.versions.node}`

/** The context of the command being run (its own options plus the program's global ones). */
export const contextOf = (command: Command, streams: Streams): Context => {
  const options = command.optsWithGlobals<GlobalOptions>()
  const output = new Output(streams, { json: options.json === true, color: options.color })
  let resolved: Resolved | undefined
  const fetchWithAgent = (input: string, init: RequestInit) =>
    globalThis.fetch(input, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), "user-agent": userAgent }
    })
  const context: Context = {
    output,
    env: streams.env,
    streams,
    options,
    fetch: fetchWithAgent,
    resolved: () => {
      resolved ??= resolve(options, streams.env)
      return resolved
    },
    client: () => {
      const { key, baseUrl, profileMissing, profile } = context.resolved()
      if (key === undefined && profileMissing) {
        throw new UsageError(
          `no existe el perfil "${profile}"; créalo con: switch login --profile ${profile}`,
          {
            code: "sin_llave"
          }
        )
      }
      if (key === undefined) {
        throw new UsageError(
          "no hay llave: usa `switch login --key <comercio>:<llave>`, la variable SWITCH_KEY o --key",
          { code: "sin_llave" }
        )
      }
      return new Switch({ key, baseUrl, fetch: fetchWithAgent })
    }
  }
  return context
}
