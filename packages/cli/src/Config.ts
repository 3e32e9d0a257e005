/**
 * Profiles in `config.json` (mode 0600) under `$SWITCH_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/switch`, else `~/.config/switch`; and how a run picks its key and base
 * URL: flag, then environment, then the profile.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { DEFAULT_BASE_URL } from "@switch/sdk"
import { UsageError } from "./Output.js"

/** One saved profile. */
export interface Profile {
  readonly key?: string
  readonly base_url?: string
}

/** The file's shape. */
export interface ConfigFile {
  readonly default_profile?: string
  readonly profiles?: Readonly<Record<string, Profile>>
  /** `switch listen` signing secrets, per merchant code, so scripts can configure a receiver once. */
  readonly listen_secrets?: Readonly<Record<string, string>>
}

export const KEY_FORMAT = /^[^:\s]+:sk_(test|live)_\S+$/

/** The directory holding `config.json`. */
export const configDir = (env: NodeJS.ProcessEnv): string => {
  if (env.SWITCH_CONFIG_DIR) return env.SWITCH_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), ".config")
  return join(base, "switch")
}

export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), "config.json")

export const readConfig = (env: NodeJS.ProcessEnv): ConfigFile => {
  const path = configPath(env)
  if (!existsSync(path)) return {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"))
    return typeof parsed === "object" && parsed !== null ? (parsed as ConfigFile) : {}
  } catch {
    throw new UsageError(`${path} no es JSON válido; corrígelo o bórralo y vuelve a hacer login`, {
      code: "config_invalida"
    })
  }
}

/** Writes atomically with mode 0600 (directory 0700): the file holds API keys. */
export const writeConfig = (env: NodeJS.ProcessEnv, config: ConfigFile): string => {
  const dir = configDir(env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = configPath(env)
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  chmodSync(temp, 0o600)
  renameSync(temp, path)
  return path
}

/** Global flags every command accepts. */
export interface GlobalOptions {
  readonly key?: string
  readonly baseUrl?: string
  readonly profile?: string
  readonly json?: boolean
  readonly color?: boolean
}

/** Where the key of this run came from, for `whoami`. */
export type KeySource = "--key" | "SWITCH_KEY" | "perfil"

export interface Resolved {
  readonly profile: string
  readonly baseUrl: string
  readonly key: string | undefined
  readonly keySource: KeySource | undefined
  /** `--profile` named a profile that is not saved (an error only when a key is needed). */
  readonly profileMissing: boolean
}

export const profileName = (options: GlobalOptions, env: NodeJS.ProcessEnv, config: ConfigFile): string =>
  options.profile ?? env.SWITCH_PROFILE ?? config.default_profile ?? "default"

/** The key and base URL of this run: flag, then environment, then the profile. */
export const resolve = (options: GlobalOptions, env: NodeJS.ProcessEnv): Resolved => {
  const config = readConfig(env)
  const profile = profileName(options, env, config)
  const saved = config.profiles?.[profile]
  const baseUrl = options.baseUrl ?? (env.SWITCH_BASE_URL || undefined) ?? saved?.base_url ?? DEFAULT_BASE_URL
  const [key, keySource]: [string | undefined, KeySource | undefined] =
    options.key !== undefined
      ? [options.key, "--key"]
      : env.SWITCH_KEY
        ? [env.SWITCH_KEY, "SWITCH_KEY"]
        : saved?.key !== undefined
          ? [saved.key, "perfil"]
          : [undefined, undefined]
  if (key !== undefined && !KEY_FORMAT.test(key)) {
    throw new UsageError(
      `la llave de ${keySource} no tiene la forma <comercio>:sk_test_... o <comercio>:sk_live_...`
    )
  }
  return {
    profile,
    baseUrl: normalizeBaseUrl(baseUrl),
    key,
    keySource,
    profileMissing: options.profile !== undefined && saved === undefined
  }
}

export const normalizeBaseUrl = (value: string): string => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`--base-url "${value}" no es una URL`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--base-url debe empezar con http:// o https://`)
  }
  return value.replace(/\/+$/, "")
}

/** Saves `profile` and makes it the default when there was none. */
export const saveProfile = (env: NodeJS.ProcessEnv, name: string, profile: Profile): string => {
  const config = readConfig(env)
  return writeConfig(env, {
    ...config,
    default_profile: config.default_profile ?? name,
    profiles: { ...config.profiles, [name]: profile }
  })
}

/** Removes a profile; answers whether it existed. */
export const removeProfile = (env: NodeJS.ProcessEnv, name: string): boolean => {
  const config = readConfig(env)
  if (config.profiles?.[name] === undefined) return false
  const { [name]: _, ...rest } = config.profiles
  const { default_profile, ...others } = config
  const nextDefault = default_profile === name ? Object.keys(rest)[0] : default_profile
  writeConfig(env, {
    ...others,
    ...(nextDefault === undefined ? {} : { default_profile: nextDefault }),
    profiles: rest
  })
  return true
}

/** `********abcd`: enough to tell keys apart, never enough to use one. */
export const maskKey = (key: string): string => {
  const [comercio, secret = ""] = key.split(":")
  const prefix = /^sk_(test|live)_/.exec(secret)?.[0] ?? ""
  return `${comercio}:${prefix}…${secret.slice(-4)}`
}

/** The merchant code and mode a key names (no server call). */
export const keyParts = (key: string): { readonly comercio: string; readonly mode: "test" | "live" } => ({
  comercio: key.slice(0, key.indexOf(":")),
  mode: key.includes(":sk_live_") ? "live" : "test"
})

/** The stable `switch listen` secret for a merchant, created on first use. */
export const listenSecret = (env: NodeJS.ProcessEnv, comercio: string): string => {
  const config = readConfig(env)
  const existing = config.listen_secrets?.[comercio]
  if (existing !== undefined) return existing
  const secret = `whsec_${randomBytes(32).toString("base64")}`
  writeConfig(env, { ...config, listen_secrets: { ...config.listen_secrets, [comercio]: secret } })
  return secret
}
