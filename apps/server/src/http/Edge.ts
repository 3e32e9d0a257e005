/**
 * The HTTP edge, written once: what every request passes through on its way in and out, shared
 * by the boundary of the HttpApi app (Middleware.ts) and by the lanes below: the request id, the
 * access line, the body limit, the client's address, the `500` of a fault and its log line, the
 * `Retry-After` of a `429`, and an API error class as its status and body.
 *
 * Lanes: the hottest routes served straight from node:http, beside the HttpApi app. Effect's
 * HTTP server costs this machine about 230 µs of CPU per request before any work is done (a bare
 * route with one INSERT: 336 µs against 103 µs for node:http doing the same), which alone held
 * link creation to half of what Postgres takes. A lane runs its handler, an effect, in the
 * server's runtime (one fiber per request) with the same services, key check and rate limit,
 * and answers the same JSON, status codes and headers, without that layer. It takes a request
 * by method and exact URL before reading anything; every other request goes to the HttpApi app
 * untouched, and the contract (OpenAPI, clients) stays there. Link creation is the one lane
 * (links/CreateLink.ts).
 */
import { randomUUID } from "node:crypto"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { HttpApiSchema } from "@effect/platform"
import { ValidationError } from "@switch/api"
import {
  Cause,
  Context,
  Data,
  Effect,
  Exit,
  FiberRef,
  FiberRefs,
  LogLevel,
  Option,
  Runtime,
  type Schema
} from "effect"
import { Settings } from "../Config.js"
import * as Metrics from "../platform/Metrics.js"
import { clientAddress, trustList } from "./ClientAddress.js"
import { MAX_BODY_BYTES, overLimit, tooLarge } from "./Respond.js"

/** A new request's id, answered as `x-request-id` and annotated on its log lines. */
export const newRequestId = (): string => randomUUID()

/** SPEC's body of a fault: `500 error_interno`. */
export const INTERNAL_ERROR = { error: "error_interno" } as const

/** Whether access lines are written at this minimum log level (Info and below); built only then. */
export const accessLogged = (minimum: LogLevel.LogLevel): boolean =>
  LogLevel.lessThanEqual(minimum, LogLevel.Info)

/** A request's path: its URL without the query. */
export const pathOfUrl = (url: string): string => url.split("?")[0] ?? url

/** The access line of an answered request, at Info, under its request id. */
export const logAccess = (
  requestId: string,
  method: string,
  path: string,
  status: number,
  startedMs: number
) =>
  Effect.logInfo(`${method} ${path} ${status} ${Date.now() - startedMs}ms`).pipe(
    Effect.annotateLogs({ requestId })
  )

/**
 * A fault's log line, under its request id: its message and stack (a bare Error logs as `{}`).
 * An interruption alone is no fault: nothing is logged.
 */
export const logFault = (requestId: string, cause: Cause.Cause<unknown>): Effect.Effect<void> =>
  Cause.isInterruptedOnly(cause)
    ? Effect.void
    : Effect.logError("error interno", Cause.pretty(cause)).pipe(Effect.annotateLogs({ requestId }))

/** The `Retry-After` of a `429` whose JSON body is `body`: its `reintentar_en`, else a minute. */
export const retryAfter = (body: unknown): string => {
  const retry = (body as { reintentar_en?: unknown } | null | undefined)?.reintentar_en
  return String(typeof retry === "number" ? retry : 60)
}

/** A JSON answer. */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

/** An API error class instance as its answer: the class's status and its fields, as HttpApi encodes them. */
export const errorAnswer = (error: unknown): Answer | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const schema = error.constructor as unknown as Schema.Schema.All
  if (!("ast" in schema)) return undefined
  const status = HttpApiSchema.getStatusError(schema)
  return status >= 400 ? { status, body: { ...error } } : undefined
}

/** The client left before its body arrived: nobody is left to answer. */
export class Gone extends Data.TaggedError("Gone") {}

/** What a lane's handler sees of a request. */
export interface LaneRequest {
  readonly headers: IncomingMessage["headers"]
  /** The client's address: the socket's, or the one trusted proxies forwarded (ClientAddress.ts). */
  readonly client: Effect.Effect<string>
  /**
   * The body as text, read when run (after the key check, as the app does): a body over
   * {@link MAX_BODY_BYTES} fails with `400 validation`. Never read, it is discarded.
   */
  readonly body: Effect.Effect<string, ValidationError | Gone>
  /** The request's id, as its `x-request-id` answers it. */
  readonly requestId: string
  /** Calls `listener` with the status and the time taken once the answer is written (one listener). */
  readonly onAnswered: (listener: (status: number, durationMs: number) => void) => void
}

/**
 * A handler: an answer, or a failure with one of the API's error classes (which carry their
 * status); any other failure or defect is answered 500 and logged.
 */
export type LaneHandler<E, R> = (request: LaneRequest) => Effect.Effect<Answer, E, R>

export interface Lanes {
  /**
   * Serves `method url` (exact, query included) with `handler`, in the calling runtime, with
   * clients' addresses seen through the trusted proxies of its settings.
   */
  readonly add: <E, R>(
    method: string,
    url: string,
    handler: LaneHandler<E, R>
  ) => Effect.Effect<void, never, R | Settings>
  /** Takes the request when a lane serves it; false leaves it to the HttpApi app. */
  readonly take: (request: IncomingMessage, response: ServerResponse) => boolean
}

export const Lanes = Context.GenericTag<Lanes>("@switch/server/Lanes")

const refused = new ValidationError({ detail: tooLarge })

const write = (response: ServerResponse, requestId: string, answer: Answer) => {
  if (response.headersSent || response.destroyed) return
  const text = JSON.stringify(answer.body)
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": requestId
  }
  if (answer.status === 429) headers["retry-after"] = retryAfter(answer.body)
  response.writeHead(answer.status, headers)
  response.end(text)
}

/** Reads the body as text, up to {@link MAX_BODY_BYTES}. */
const readBody = (request: IncomingMessage): Effect.Effect<string, ValidationError | Gone> =>
  Effect.async((resume) => {
    if (overLimit(request.headers["content-length"])) return resume(Effect.fail(refused))
    // A client that left (mid-body, or after sending it while its key was being looked up)
    // sends nothing more: nothing is answered.
    if (request.destroyed) return resume(Effect.fail(new Gone()))
    request.once("close", () => {
      if (!request.complete) resume(Effect.fail(new Gone()))
    })
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
      else if (chunks.length > 0) chunks.length = 0
    })
    request.on("end", () =>
      resume(
        size > MAX_BODY_BYTES ? Effect.fail(refused) : Effect.succeed(Buffer.concat(chunks).toString("utf8"))
      )
    )
  })

/** The lanes of one server. */
export const makeLanes = (): Lanes => {
  const routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>()

  const add = <E, R>(method: string, url: string, handler: LaneHandler<E, R>) =>
    Effect.map(Effect.zip(Effect.runtime<R>(), Settings), ([runtime, settings]) => {
      const trusted = trustList(settings.proxiesConfiables)
      const runFork = Runtime.runFork(runtime)
      const logged = accessLogged(FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMinimumLogLevel))
      const path = pathOfUrl(url)
      const observe = Metrics.routeObserver(method, path)

      routes.set(`${method} ${url}`, (request, response) => {
        const requestId = newRequestId()
        const started = Date.now()
        let answered: ((status: number, durationMs: number) => void) | undefined
        const access = (status: number) => {
          if (logged) runFork(logAccess(requestId, method, path, status, started))
        }
        const answer = (result: Answer) => {
          write(response, requestId, result)
          observe(result.status, started)
          access(result.status)
          if (answered !== undefined) answered(result.status, Date.now() - started)
        }
        const fault = (cause: Cause.Cause<unknown>) => {
          runFork(logFault(requestId, cause))
          answer({ status: 500, body: INTERNAL_ERROR })
        }
        const peer = request.socket.remoteAddress
        const lane: LaneRequest = {
          headers: request.headers,
          client: Effect.sync(() => {
            const forwarded = request.headers["x-forwarded-for"]
            return Option.getOrElse(
              clientAddress(
                trusted,
                Option.fromNullable(peer),
                typeof forwarded === "string" ? forwarded : undefined
              ),
              () => "desconocida"
            )
          }),
          body: readBody(request),
          requestId,
          onAnswered: (listener) => {
            answered = listener
          }
        }
        runFork(Effect.suspend(() => handler(lane))).addObserver((exit) => {
          try {
            if (Exit.isSuccess(exit)) return answer(exit.value)
            const failure = Cause.failureOption(exit.cause)
            if (Option.isSome(failure)) {
              // The client closed the request: logged as proxies do (499), nobody to answer.
              if (failure.value instanceof Gone) return access(499)
              const known = errorAnswer(failure.value)
              if (known !== undefined) return answer(known)
            }
            fault(exit.cause)
          } catch (error) {
            // Writing the answer itself failed: logged, and the connection closed.
            runFork(logFault(requestId, Cause.die(error)))
            response.destroy()
          }
        })
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

/** `server` with the requests a lane serves taken before they reach the HttpApi app's listener. */
export const withLanes = (lanes: Lanes, server: Server): Server => {
  const emit = server.emit.bind(server) as (event: string, ...args: Array<unknown>) => boolean
  server.emit = ((event: string, ...args: Array<unknown>) => {
    if (event === "request") {
      const [request, response] = args as [IncomingMessage, ServerResponse]
      if (lanes.take(request, response)) return true
    }
    return emit(event, ...args)
  }) as Server["emit"]
  return server
}
