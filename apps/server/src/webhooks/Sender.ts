/**
 * One HTTP attempt of a notice: POST with a 10 s limit on the whole exchange, redirects never
 * followed (a 3xx is a failure), only 2xx succeeds. The undici Agent resolves names through
 * {@link Ssrf.guardedLookup} at connect time; IP literals are checked before connecting.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { Agent, request } from "undici"
import { Settings } from "../Config.js"
import * as Ssrf from "./Ssrf.js"

/** DESIGN §5: each attempt gets 10 seconds. */
export const ATTEMPT_TIMEOUT_MS = 10_000

export interface AttemptResult {
  readonly ok: boolean
  readonly status: number | null
  readonly error: string | null
}

export interface Sender {
  readonly send: (input: {
    readonly url: string
    readonly headers: Record<string, string>
    readonly body: string
  }) => Effect.Effect<AttemptResult>
}

export class WebhookSender extends Context.Tag("@switch/server/WebhookSender")<WebhookSender, Sender>() {}

const describe = (error: unknown): string => {
  const e = error as {
    name?: string
    code?: string
    message?: string
    cause?: { code?: string; message?: string }
  }
  const text = [e.cause?.message, e.message].find((m) => m?.startsWith("destino_bloqueado"))
  if (text !== undefined) return text
  if (e.name === "TimeoutError" || e.name === "AbortError" || e.code === "UND_ERR_HEADERS_TIMEOUT")
    return `sin respuesta en ${ATTEMPT_TIMEOUT_MS / 1000} s`
  const code = e.cause?.code ?? e.code
  return `no se pudo conectar${code === undefined ? "" : ` (${code})`}`
}

/** A sender; `resolveAll` replaces DNS in tests. */
export const makeSender = (options: {
  readonly allowPrivate: boolean
  readonly resolveAll?: Parameters<typeof Ssrf.guardedLookup>[0]
}): Effect.Effect<Sender, never, Scope.Scope> =>
  Effect.gen(function* () {
    const agent = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new Agent({
            connect: {
              timeout: ATTEMPT_TIMEOUT_MS,
              ...(options.allowPrivate
                ? {}
                : { lookup: Ssrf.guardedLookup(options.resolveAll ?? Ssrf.systemResolveAll) })
            },
            headersTimeout: ATTEMPT_TIMEOUT_MS,
            bodyTimeout: ATTEMPT_TIMEOUT_MS,
            keepAliveTimeout: 4_000
          })
      ),
      (a) => Effect.promise(() => a.close().catch(() => undefined))
    )
    const send: Sender["send"] = (input) =>
      Effect.promise(async (): Promise<AttemptResult> => {
        const url = Ssrf.checkShape(input.url, options.allowPrivate)
        if (!(url instanceof URL)) return { ok: false, status: null, error: `url inválida: ${url.detail}` }
        const literal = options.allowPrivate ? null : Ssrf.literalRefusal(url)
        if (literal !== null)
          return { ok: false, status: null, error: `destino_bloqueado: ${literal.detail}` }
        try {
          const response = await request(url, {
            method: "POST",
            headers: input.headers,
            body: input.body,
            dispatcher: agent,
            signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)
          })
          await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
          const ok = response.statusCode >= 200 && response.statusCode < 300
          return { ok, status: response.statusCode, error: ok ? null : `HTTP ${response.statusCode}` }
        } catch (error) {
          return { ok: false, status: null, error: describe(error) }
        }
      })
    return { send }
  })

export const WebhookSenderLive = Layer.scoped(
  WebhookSender,
  Effect.flatMap(Settings, (settings) => makeSender({ allowPrivate: settings.webhookAllowPrivate }))
)
