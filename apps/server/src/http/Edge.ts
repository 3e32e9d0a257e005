/**
 * The HTTP edge, written once: what every request passes through on its way in and out, shared
 * by the boundary of the HttpApi app (Middleware.ts) and by the lanes below: the request id, the
 * access line, the body limit, the client's address, the `500` of a fault and its log line, the
 * `Retry-After` of a `429`, and an API error class as its status and body.
 *
 * Lanes: the hottest routes served straight from node:http, beside the HttpApi app. Effect's
 * HTTP server costs this machine about 230 µs of CPU per request before any work is done (a bare
 * route with one INSERT: 336 µs against 103 µs for node:http doing the same), which alone held
 * link creation to half of what Postgres takes. A lane's handler is a promise that runs the
 * server's own services, effects all, through `run`: synchronously as far as each goes, so a
 * request whose work needs no I/O but the insert (a cached key, a held rate count) schedules
 * one fiber at most, not a fiber and its hops per step. It answers the same JSON, status codes
 * and headers as the app, without that layer. It takes a request
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
  type Fiber,
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

/** A defect of an effect a lane ran, carried through the lane's promise to its 500 and log line. */
class Defect {
  constructor(readonly cause: Cause.Cause<unknown>) {}
}

/** What a lane's handler sees of a request; `R` is what the server's runtime provides. */
export interface LaneRequest<R> {
  readonly headers: IncomingMessage["headers"]
  /** The client's address: the socket's, or the one trusted proxies forwarded (ClientAddress.ts). */
  readonly client: Effect.Effect<string>
  /**
   * The body as text, read when first asked for (after the key check, as the app does): a body
   * over {@link MAX_BODY_BYTES} rejects with `400 validation`. Never read, it is discarded.
   */
  readonly body: () => Promise<string>
  /**
   * Runs an effect in the server's runtime, synchronously as far as it goes (an effect that
   * needs no I/O, a cached key's check say, starts no scheduled fiber): its value, or a
   * rejection with its failure (an API error, answered with its status) or its defect (answered
   * 500 and logged).
   */
  readonly run: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<A>
  /** The request's id, as its `x-request-id` answers it. */
  readonly requestId: string
  /** Calls `listener` with the status and the time taken once the answer is written (one listener). */
  readonly onAnswered: (listener: (status: number, durationMs: number) => void) => void
}

/**
 * A handler: an answer, or a rejection with one of the API's error classes (which carry their
 * status); any other rejection is answered 500 and logged. The lane itself starts no fiber: the
 * handler's effects run through {@link LaneRequest.run}.
 */
export type LaneHandler<R> = (request: LaneRequest<R>) => Promise<Answer>

export interface Lanes {
  /**
   * Serves `method url` (exact, query included) with `handler`, in the calling runtime, with
   * clients' addresses seen through the trusted proxies of its settings.
   */
  readonly add: <R>(
    method: string,
    url: string,
    handler: LaneHandler<R>
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
const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    if (overLimit(request.headers["content-length"])) return reject(refused)
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

/** An exit as a promise's outcome: its value, else its failure or its defect as a rejection. */
const settle = <A, E>(exit: Exit.Exit<A, E>): Promise<A> => {
  if (Exit.isSuccess(exit)) return Promise.resolve(exit.value)
  const failure = Cause.failureOption(exit.cause)
  return Promise.reject(Option.isSome(failure) ? failure.value : new Defect(exit.cause))
}

/** The lanes of one server. */
export const makeLanes = (): Lanes => {
  const routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>()

  const add = <R>(method: string, url: string, handler: LaneHandler<R>) =>
    Effect.map(Effect.zip(Effect.runtime<R>(), Settings), ([runtime, settings]) => {
      const trusted = trustList(settings.proxiesConfiables)
      const runFork = Runtime.runFork(runtime)
      const runSyncExit = Runtime.runSyncExit(runtime)
      const logged = accessLogged(FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMinimumLogLevel))
      const path = pathOfUrl(url)
      const observe = Metrics.routeObserver(method, path)

      const run = <A, E>(effect: Effect.Effect<A, E, R>): Promise<A> => {
        const exit = runSyncExit(effect)
        // An effect that waits on I/O goes on in its fiber, now on the runtime's scheduler.
        const pending = Exit.isFailure(exit) ? Cause.dieOption(exit.cause) : Option.none()
        if (Option.isSome(pending) && Runtime.isAsyncFiberException(pending.value)) {
          const fiber = pending.value.fiber as Fiber.RuntimeFiber<A, E>
          return new Promise((resolve, reject) =>
            fiber.addObserver((done) => settle(done).then(resolve, reject))
          )
        }
        return settle(exit)
      }

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
        const fault = (error: unknown) => {
          const known = errorAnswer(error)
          if (known !== undefined) return answer(known)
          // The client closed the request: logged as proxies do (499), nobody to answer.
          if (error instanceof Gone) return access(499)
          runFork(logFault(requestId, error instanceof Defect ? error.cause : Cause.die(error)))
          answer({ status: 500, body: INTERNAL_ERROR })
        }
        const broken = (error: unknown) => {
          // Writing the answer itself failed: logged, and the connection closed rather than the
          // rejection left unhandled (which would stop the process).
          runFork(logFault(requestId, Cause.die(error)))
          response.destroy()
        }
        const peer = request.socket.remoteAddress
        const lane: LaneRequest<R> = {
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
          body: () => readBody(request),
          run,
          requestId,
          onAnswered: (listener) => {
            answered = listener
          }
        }
        let handled: Promise<Answer>
        try {
          handled = handler(lane)
        } catch (error) {
          // Not expected (a handler rejects rather than throws): still SPEC's 500 and a log line.
          handled = Promise.reject(error)
        }
        handled.then(answer, fault).catch(broken)
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
