/**
 * Lanes: the hottest routes served straight from node:http, beside the HttpApi app.
 *
 * Effect's HTTP server costs this machine about 230 µs of CPU per request before any work is
 * done (a bare route with one INSERT: 336 µs against 103 µs for node:http doing the same), which
 * alone held link creation to half of what Postgres takes. A lane runs the same services, the
 * same key check and rate limit, and answers the same JSON, status codes and headers, without
 * that layer. It takes a request by method and exact URL before reading anything; every other
 * request goes to the HttpApi app untouched, and the contract (OpenAPI, clients) stays there.
 */
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { HttpApiSchema } from "@effect/platform"
import { ValidationError } from "@switch/api"
import { Cause, Context, Effect, Exit, FiberRef, FiberRefs, LogLevel, Runtime, type Schema } from "effect"
import { MAX_BODY_BYTES, tooLarge } from "./Respond.js"

/** What a lane's handler sees of a request. */
export interface LaneRequest {
  readonly headers: IncomingMessage["headers"]
  /** The socket's peer address. */
  readonly peer: string
  /**
   * The body as text, read when first asked for (after the key check, as the app does): a body
   * over {@link MAX_BODY_BYTES} rejects with `400 validation`. Never read, it is discarded.
   */
  readonly body: () => Promise<string>
  /**
   * Runs an effect in the server's runtime: its value, or a rejection with its failure (an API
   * error, answered with its status) or its defect (answered 500 and logged).
   */
  readonly run: <A, E extends object>(effect: Effect.Effect<A, E>) => Promise<A>
  /** The request's id, as its `x-request-id` answers it. */
  readonly requestId: string
  /** Calls `listener` with the status and the time taken once the answer is written (one listener). */
  readonly onAnswered: (listener: (status: number, durationMs: number) => void) => void
}

/** A JSON answer. */
export interface LaneAnswer {
  readonly status: number
  readonly body: unknown
}

/**
 * A handler: an answer, or a rejection with one of the API's error classes (which carry their
 * status); any other rejection is answered 500 and logged. The lane itself starts no fiber, so
 * a handler whose work needs no effect costs none.
 */
export type LaneHandler = (request: LaneRequest) => Promise<LaneAnswer>

export interface Lanes {
  /** Serves `method url` (exact, query included) with `handler`, in the calling runtime. */
  readonly add: (method: string, url: string, handler: LaneHandler) => Effect.Effect<void>
  /** Takes the request when a lane serves it; false leaves it to the HttpApi app. */
  readonly take: (request: IncomingMessage, response: ServerResponse) => boolean
}

export const Lanes = Context.GenericTag<Lanes>("@switch/server/Lanes")

const internal = { status: 500, body: { error: "error_interno" } } as const
const refused = new ValidationError({ detail: tooLarge })

/** The client left before its body arrived: nobody is left to answer. */
class Gone {}

/** An effect's failure that is not an API error: a defect or an interruption. */
class Defect {
  constructor(readonly cause: Cause.Cause<unknown>) {}
}

/** An API error class instance as its answer: the class's status and its fields, as HttpApi encodes them. */
export const errorAnswer = (error: unknown): LaneAnswer | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const schema = error.constructor as unknown as Schema.Schema.All
  if (!("ast" in schema)) return undefined
  const status = HttpApiSchema.getStatusError(schema)
  return status >= 400 ? { status, body: { ...error } } : undefined
}

const write = (response: ServerResponse, requestId: string, answer: LaneAnswer) => {
  if (response.headersSent || response.destroyed) return
  const text = JSON.stringify(answer.body)
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": requestId
  }
  // Every 429 says when to come back, as the boundary (Middleware.ts) does for the app.
  const retry = (answer.body as { reintentar_en?: unknown } | null)?.reintentar_en
  if (answer.status === 429) headers["retry-after"] = String(typeof retry === "number" ? retry : 60)
  response.writeHead(answer.status, headers)
  response.end(text)
}

/** Reads the body as text, up to {@link MAX_BODY_BYTES}. */
const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const declared = Number(request.headers["content-length"] ?? 0)
    if (declared > MAX_BODY_BYTES) return reject(refused)
    // A client that left (mid-body, or after sending it while its key was being looked up)
    // sends nothing more: nothing is answered.
    if (request.destroyed) return reject(new Gone())
    request.once("close", () => {
      if (!request.complete) reject(new Gone())
    })
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
      else if (chunks.length > 0) chunks.length = 0
    })
    request.on("end", () =>
      size > MAX_BODY_BYTES ? reject(refused) : resolve(Buffer.concat(chunks).toString("utf8"))
    )
  })

export const makeLanes = (): Lanes => {
  const routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>()

  const add = (method: string, url: string, handler: LaneHandler) =>
    Effect.map(Effect.runtime<never>(), (runtime) => {
      const runFork = Runtime.runFork(runtime)
      const runExit = Runtime.runPromiseExit(runtime)
      const run = <A, E extends object>(effect: Effect.Effect<A, E>) =>
        runExit(effect).then((exit) => {
          if (Exit.isSuccess(exit)) return exit.value
          const failure = Cause.failureOption(exit.cause)
          throw failure._tag === "Some" ? failure.value : new Defect(exit.cause)
        })
      const logged = LogLevel.lessThanEqual(
        FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMinimumLogLevel),
        LogLevel.Info
      )
      const path = url.split("?")[0] ?? url
      const log = (requestId: string, effect: Effect.Effect<void>) =>
        runFork(effect.pipe(Effect.annotateLogs({ requestId })))

      routes.set(`${method} ${url}`, (request, response) => {
        const requestId = randomUUID()
        const started = Date.now()
        let answered: ((status: number, durationMs: number) => void) | undefined
        // The access line, at Info: the one fiber such a request starts (none at Warning).
        const access = (status: number) => {
          if (logged) log(requestId, Effect.logInfo(`${method} ${path} ${status} ${Date.now() - started}ms`))
        }
        const answer = (result: LaneAnswer) => {
          write(response, requestId, result)
          access(result.status)
          if (answered !== undefined) answered(result.status, Date.now() - started)
        }
        const fault = (error: unknown) => {
          const known = errorAnswer(error)
          if (known !== undefined) return answer(known)
          // The client closed the request: logged as proxies do (499), nobody to answer.
          if (error instanceof Gone) return access(499)
          const cause = error instanceof Defect ? error.cause : Cause.die(error)
          // A fault's message and stack, as the app logs them (a bare Error logs as `{}`).
          if (!Cause.isInterruptedOnly(cause))
            log(requestId, Effect.logError("error interno", Cause.pretty(cause)))
          answer(internal)
        }
        const broken = (error: unknown) => {
          // Writing the answer itself failed: logged, and the connection closed rather than the
          // rejection left unhandled (which would stop the process).
          log(requestId, Effect.logError("error interno", Cause.pretty(Cause.die(error))))
          response.destroy()
        }
        try {
          handler({
            headers: request.headers,
            peer: request.socket.remoteAddress ?? "desconocida",
            body: () => readBody(request),
            run,
            requestId,
            onAnswered: (listener) => {
              answered = listener
            }
          })
            .then(answer, fault)
            .catch(broken)
        } catch (error) {
          // Not expected (a handler rejects rather than throws): still SPEC's 500 and a log line.
          fault(error)
        }
      })
    })

  // Lanes serve key callers: a request without `x-switch-key` (a portal session's) goes to the app.
  const take = (request: IncomingMessage, response: ServerResponse) => {
    const route = routes.get(`${request.method} ${request.url}`)
    if (route === undefined || request.headers["x-switch-key"] === undefined) return false
    route(request, response)
    return true
  }

  return { add, take }
}
