/**
 * Any API route with the profile's key (`get`, `post`, `delete`), a file of calls that refer to each
 * other's answers (`fixtures`), the request log (`logs tail`) and a past notice sent again to a
 * the merchant's webhooks or a local URL (`events resend`).
 */
import { readFileSync } from "node:fs"
import { ConnectionError, errorFromResponse, NotFoundError } from "@switch/sdk"
import { type Command, InvalidArgumentError } from "commander"
import { action, collectList, optionWithValues, parseInteger } from "../Action.js"
import { keyParts, listenSecret } from "../Config.js"
import type { Context } from "../Context.js"
import { userAgent } from "../Context.js"
import { forward } from "../Listen.js"
import { type LogEntry, LogTail, PAGE_SIZE, sleep } from "../LogTail.js"
import { UsageError } from "../Output.js"
import { collect, pageSize } from "./links.js"

const METHODS = ["get", "post", "put", "patch", "delete"] as const
type Method = (typeof METHODS)[number]

/** `/switch/v1/links`, `switch/v1/links` or `links` (taken as under `/switch/v1/`). */
export const apiPath = (path: string): string => {
  const trimmed = path.trim()
  if (/^https?:\/\//i.test(trimmed))
    throw new UsageError(`"${path}" es una URL: pasa solo la ruta (/switch/v1/...)`)
  const absolute = trimmed.startsWith("/") ? trimmed : `/${trimmed}`
  return /^\/(switch|admin)\/v\d+\//.test(absolute) ? absolute : `/switch/v1${absolute}`
}

/** One call with the run's key; an answer that is not 2xx rejects with the SDK's error. */
export const request = async (
  context: Context,
  method: Method,
  path: string,
  body?: unknown
): Promise<{ status: number; body: unknown }> => {
  context.client() // a usage error when there is no key
  const { key, baseUrl } = context.resolved()
  const url = `${baseUrl.replace(/\/+$/, "")}${apiPath(path)}`
  let response: Response
  try {
    response = await context.fetch(url, {
      method: method.toUpperCase(),
      headers: {
        "x-switch-key": key!,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  } catch (cause) {
    const reason =
      cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : ""
    throw new ConnectionError({
      code: "connection_error",
      message: `No se pudo conectar con Switch en ${baseUrl} (${method.toUpperCase()} ${apiPath(path)}): ${reason}; revise la dirección y la red (connection_error)`,
      cause
    })
  }
  return { status: response.status, body: await answerOf(response) }
}

/** A response's body as JSON (or its text); an answer that is not 2xx rejects with the SDK's error. */
export const answerOf = async (response: Response): Promise<unknown> => {
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = text === "" ? null : JSON.parse(text)
  } catch {}
  if (!response.ok) {
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    throw errorFromResponse(response.status, parsed, headers)
  }
  return parsed
}

/** `--data '{"monto":10}'` or `--data @file.json`. */
const readData = (data: string | undefined): unknown => {
  if (data === undefined) return undefined
  const text = data.startsWith("@") ? readFileSync(data.slice(1), "utf8") : data
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`--data no es JSON válido${data.startsWith("@") ? ` (${data.slice(1)})` : ""}`)
  }
}

const printAnswer = (context: Context, body: unknown) =>
  context.output.line(typeof body === "string" ? body : JSON.stringify(body, null, 2))

// ---- fixtures -----------------------------------------------------------------------------------

/** One call of a fixtures file: `${name:field}` in `path` and `params` refer to earlier answers. */
export interface Fixture {
  readonly name?: string
  readonly path: string
  readonly method?: string
  readonly params?: unknown
}

/** The value at `a.b.0.c` of an answer. */
const dig = (value: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>(
      (at, part) =>
        at === null || typeof at !== "object" ? undefined : (at as Record<string, unknown>)[part],
      value
    )

/** Replaces `${name:field.path}` with the field of an earlier answer, and `${.env:VAR}` with the environment. */
export const substitute = (
  value: unknown,
  answers: ReadonlyMap<string, unknown>,
  env: NodeJS.ProcessEnv
): unknown => {
  if (typeof value === "string") {
    const whole = /^\$\{([^:}]+):([^}]+)\}$/.exec(value)
    const lookup = (name: string, field: string): unknown => {
      if (name === ".env") {
        const found = env[field]
        if (found === undefined) throw new UsageError(`fixtures: la variable ${field} no está definida`)
        return found
      }
      if (!answers.has(name)) throw new UsageError(`fixtures: "${name}" no es una llamada anterior`)
      const found = dig(answers.get(name), field)
      if (found === undefined) throw new UsageError(`fixtures: la respuesta de "${name}" no tiene ${field}`)
      return found
    }
    // A reference that is the whole string keeps its type (a number stays a number).
    if (whole !== null) return lookup(whole[1]!, whole[2]!)
    return value.replace(/\$\{([^:}]+):([^}]+)\}/g, (_, name: string, field: string) => {
      const found = lookup(name, field)
      return typeof found === "string" ? found : JSON.stringify(found)
    })
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, answers, env))
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, answers, env)]))
  }
  return value
}

const readFixtures = (file: string): ReadonlyArray<Fixture> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"))
  } catch (error) {
    throw new UsageError(`fixtures: no se pudo leer ${file} como JSON (${(error as Error).message})`)
  }
  const list = (parsed as { fixtures?: unknown } | null)?.fixtures
  if (!Array.isArray(list)) throw new UsageError(`fixtures: ${file} debe tener la forma {"fixtures": [...]}`)
  list.forEach((fixture, i) => {
    const f = fixture as Partial<Fixture> | null
    if (f === null || typeof f !== "object" || typeof f.path !== "string") {
      throw new UsageError(`fixtures: la llamada ${i + 1} no tiene "path"`)
    }
    if (
      f.method !== undefined &&
      !(METHODS as ReadonlyArray<string>).includes(String(f.method).toLowerCase())
    ) {
      throw new UsageError(`fixtures: la llamada ${i + 1} tiene un método desconocido: ${f.method}`)
    }
  })
  return list as ReadonlyArray<Fixture>
}

/** What one call of a fixture answered. */
export interface FixtureResult {
  readonly name: string | null
  readonly method: string
  readonly path: string
  readonly status: number
  readonly body: unknown
}

/**
 * Runs `fixtures` in order with the run's key, printing `[status] METHOD path name id` for each
 * (not with `--json`); the first failing call rejects, the calls before it stay done.
 */
export const runFixtures = async (
  context: Context,
  fixtures: ReadonlyArray<Fixture>
): Promise<ReadonlyArray<FixtureResult>> => {
  const answers = new Map<string, unknown>()
  const results: Array<FixtureResult> = []
  const o = context.output
  for (const fixture of fixtures) {
    const method = (fixture.method ?? "get").toLowerCase() as Method
    const path = String(substitute(fixture.path, answers, context.env))
    const params = substitute(fixture.params, answers, context.env)
    const answer = await request(context, method, path, method === "get" ? undefined : (params ?? {}))
    if (fixture.name !== undefined) answers.set(fixture.name, answer.body)
    results.push({
      name: fixture.name ?? null,
      method,
      path: apiPath(path),
      status: answer.status,
      body: answer.body
    })
    if (!o.json) {
      const id = (answer.body as { id?: unknown } | null)?.id
      o.line(
        `${o.green(`[${answer.status}]`)} ${method.toUpperCase()} ${apiPath(path)}` +
          `${fixture.name === undefined ? "" : `  ${o.bold(fixture.name)}`}${typeof id === "string" ? ` ${id}` : ""}`
      )
    }
  }
  return results
}

// ---- logs tail ----------------------------------------------------------------------------------

const logPage = async (context: Context, query: Record<string, string>): Promise<ReadonlyArray<LogEntry>> => {
  const search = new URLSearchParams(query).toString()
  try {
    const answer = await request(context, "get", `/switch/v1/logs${search === "" ? "" : `?${search}`}`)
    const body = answer.body as { data?: unknown } | ReadonlyArray<LogEntry>
    return (Array.isArray(body) ? body : ((body as { data?: unknown }).data ?? [])) as ReadonlyArray<LogEntry>
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError({
        status: 404,
        code: "logs_no_disponible",
        message:
          "Este servidor no ofrece el registro de solicitudes (GET /switch/v1/logs respondió 404); actualice Switch (logs_no_disponible, HTTP 404)",
        raw: error.raw,
        requestId: error.requestId
      })
    }
    throw error
  }
}

/** `--status 404,4xx`: codes or classes, repeatable. */
const collectStatus = (value: string, previous: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  const list = collectList(value, previous)
  const bad = list.find((item) => !/^([1-5]\d\d|[1-5]xx)$/i.test(item))
  if (bad !== undefined)
    throw new InvalidArgumentError(`"${bad}" no es un estado HTTP (404) ni una clase (4xx)`)
  return list
}

/** `--method get,post`: HTTP methods, repeatable. */
const collectMethod = (value: string, previous: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  const list = collectList(value, previous).map((item) => item.toUpperCase())
  const bad = list.find((item) => !(METHODS as ReadonlyArray<string>).includes(item.toLowerCase()))
  if (bad !== undefined)
    throw new InvalidArgumentError(`"${bad}" no es un método: ${METHODS.join(", ").toUpperCase()}`)
  return list
}

export const registerApi = (program: Command) => {
  program
    .command("get <ruta>")
    .description(
      "GET a cualquier ruta de la API con la llave del perfil (p. ej. /switch/v1/links?estado=pagado)"
    )
    .action(
      action(async (context, path: string) => {
        printAnswer(context, (await request(context, "get", path)).body)
        return 0
      })
    )

  program
    .command("post <ruta>")
    .description("POST a cualquier ruta de la API con la llave del perfil")
    .option("-d, --data <json>", "cuerpo JSON, o @archivo.json")
    .action(
      action(async (context, path: string, options: { data?: string }) => {
        printAnswer(context, (await request(context, "post", path, readData(options.data))).body)
        return 0
      })
    )

  program
    .command("delete <ruta>")
    .description("DELETE a cualquier ruta de la API con la llave del perfil (p. ej. /switch/v1/webhooks/ID)")
    .action(
      action(async (context, path: string) => {
        printAnswer(context, (await request(context, "delete", path)).body)
        return 0
      })
    )

  program
    .command("fixtures <archivo>")
    .description(
      'ejecuta una lista de llamadas a la API ({"fixtures": [...]}) que usan respuestas anteriores'
    )
    .action(
      action(async (context, file: string) => {
        const results = await runFixtures(context, readFixtures(file))
        if (context.output.json) context.output.line(JSON.stringify(results, null, 2))
        return 0
      })
    )

  const logs = program.command("logs").description("el registro de solicitudes del comercio")
  logs
    .command("tail")
    .description(
      "muestra las solicitudes recientes a la API y luego solo las nuevas, en orden (Ctrl-C para salir)"
    )
    .option("--limit <n>", "cuántas recientes mostrar al empezar (20)", parseInteger(0, 200))
    .option("--interval <segundos>", "cada cuánto preguntar por nuevas (2)", parseInteger(1, 3600))
    .addOption(
      optionWithValues(
        "--status <códigos>",
        "solo estos estados HTTP o clases (404, 4xx), separados por comas",
        ["2xx", "3xx", "4xx", "5xx"],
        collectStatus
      )
    )
    .addOption(
      optionWithValues(
        "--method <métodos>",
        "solo estos métodos, separados por comas",
        METHODS.map((m) => m.toUpperCase()),
        collectMethod
      )
    )
    .option("--path <ruta>", "solo esta ruta y las que cuelgan de ella (/switch/v1/links o links)")
    .option("--no-follow", "muestra las recientes y sale")
    .action(
      action(
        async (
          context,
          options: {
            limit?: number
            interval?: number
            status?: ReadonlyArray<string>
            method?: ReadonlyArray<string>
            path?: string
            follow: boolean
          }
        ) => {
          const o = context.output
          const show = (entry: LogEntry) => {
            if (o.json) {
              o.line(JSON.stringify(entry))
              return
            }
            const status =
              entry.status >= 500 ? o.red : entry.status >= 400 ? o.yellow : (text: string) => o.green(text)
            o.line(
              `${entry.created_at}  ${status(String(entry.status))}  ${entry.method.padEnd(6)} ${entry.path}  ` +
                `${entry.duration_ms} ms  ${o.dim(entry.request_id)}`
            )
          }
          const page = (after: string | undefined) =>
            logPage(context, {
              limit: String(PAGE_SIZE),
              ...(after === undefined ? {} : { starting_after: after })
            })
          const tail = new LogTail(page, {
            status: options.status,
            method: options.method,
            path: options.path === undefined ? undefined : apiPath(options.path)
          })
          for (const entry of await tail.start(options.limit ?? 20)) show(entry)
          if (!options.follow) return 0
          const controller = new AbortController()
          const stop = () => controller.abort()
          process.once("SIGINT", stop)
          process.once("SIGTERM", stop)
          try {
            while (!controller.signal.aborted) {
              await sleep((options.interval ?? 2) * 1000, controller.signal)
              if (controller.signal.aborted) break
              for (const entry of await tail.poll()) show(entry)
            }
          } finally {
            process.off("SIGINT", stop)
            process.off("SIGTERM", stop)
          }
          return 0
        }
      )
    )

  const events = program.command("events").description("los avisos (eventos) del comercio")
  events
    .command("resend <id>")
    .description(
      "reenvía un aviso pasado a los webhooks del comercio que reciben su evento; con --forward-to, a una URL local (como switch listen)"
    )
    .option("--forward-to <url>", "en vez de los webhooks, envía el aviso firmado a esta URL")
    .action(
      action(async (context, id: string, options: { forwardTo?: string }) => {
        const o = context.output
        if (options.forwardTo === undefined) {
          const { body } = await request(
            context,
            "post",
            `/switch/v1/eventos/${encodeURIComponent(id)}/reenviar`
          )
          const entregas = body as ReadonlyArray<{
            id: string
            webhook_id: string
            estado: string
            intentos: number
          }>
          o.result(entregas, () => {
            if (entregas.length === 0) o.line("Ningún webhook activo recibe este evento: no se reenvió.")
            for (const e of entregas)
              o.line(`--> ${e.webhook_id} entrega ${e.id}: ${e.estado} (intento ${e.intentos})`)
          })
          return entregas.length === 0 ? 1 : 0
        }
        const client = context.client()
        const { key } = context.resolved()
        let found: { id: string; evento: string; creado_en: string; data: unknown } | undefined
        for await (const event of client.eventos.list({ limit: 200 })) {
          if (event.id === id) {
            found = event
            break
          }
        }
        if (found === undefined) {
          throw new NotFoundError({
            status: 404,
            code: "not_found",
            message: `No hay un aviso ${id} de este comercio y modo; vea los ids con switch get /switch/v1/eventos (not_found)`
          })
        }
        const secret = listenSecret(context.env, keyParts(key!).comercio)
        const result = await forward(
          options.forwardTo,
          { seq: undefined, raw: JSON.stringify(found), event: found },
          secret,
          context.fetch,
          new AbortController().signal,
          userAgent
        )
        const target = options.forwardTo
        o.result({ event: found, forward: result }, () =>
          o.line(
            `<-- ${result.status === null ? o.red(`[${result.error}]`) : `[${result.status}]`} POST ${target} [${found.id}] ${result.ms} ms`
          )
        )
        return result.status !== null && result.status < 300 ? 0 : 1
      })
    )

  events
    .command("list")
    .description("lista los avisos del modo de la llave, los más recientes primero")
    .option("--evento <nombre>", "solo los avisos de este evento (p. ej. link.pagado)")
    .option("--limit <n>", "cuántos mostrar (50 por defecto)", parseInteger(1, 1_000_000))
    .option("--all", "todos, recorriendo todas las páginas")
    .action(
      action(async (context, options: { evento?: string; limit?: number; all?: boolean }) => {
        const rows = await collect(
          context.client().eventos.list({
            ...(options.evento === undefined ? {} : { evento: options.evento }),
            limit: pageSize(options)
          }),
          options
        )
        context.output.result(rows, () =>
          context.output.table(
            rows,
            [
              { title: "id", value: (e) => e.id },
              { title: "evento", value: (e) => e.evento },
              { title: "creado", value: (e) => e.creado_en.slice(0, 19).replace("T", " ") }
            ],
            "(ningún aviso)"
          )
        )
        return 0
      })
    )
}
