/**
 * `POST /switch/v1/links` served as a lane (http/Lane.ts): the same key check, rate limit,
 * body reading and service call as the HttpApi handler in LinksApi.ts, which still describes
 * the route in the contract and serves it with a query string.
 *
 * A request whose key is cached and whose merchant's count this process holds, creating a link
 * without a split, runs no fiber: each step's answer from memory is tried first, and the effect
 * that decides the rest (a key lookup, a count claimed from Postgres, a replay) runs otherwise.
 */
import { Effect, Either, Layer } from "effect"
import { Settings } from "../Config.js"
import { makeAuthenticate } from "../http/Auth.js"
import { resolveClient, trustList } from "../http/ClientAddress.js"
import { Lanes } from "../http/Lane.js"
import { RequestLog } from "../http/RequestLog.js"
import { parseJson } from "../http/Respond.js"
import { LinksService } from "./LinksService.js"

/** A step's value, or its failure thrown as the lane's rejection (answered with its status). */
const orThrow = <A, E>(result: Either.Either<A, E>): A => Either.getOrThrowWith(result, (e) => e)

export const LinksLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const lanes = yield* Lanes
    const links = yield* LinksService
    const authenticate = yield* makeAuthenticate
    const trusted = trustList((yield* Settings).proxiesConfiables)
    const log = yield* RequestLog
    yield* lanes.add("POST", "/switch/v1/links", async (request) => {
      const header = request.headers["x-switch-key"]
      const key = typeof header === "string" ? header : ""
      const caller =
        authenticate.now(key) ??
        (await request.run(
          authenticate(
            key,
            Effect.sync(() => {
              const forwarded = request.headers["x-forwarded-for"]
              return trusted === null
                ? request.peer
                : resolveClient(request.peer, typeof forwarded === "string" ? forwarded : undefined, trusted)
            })
          )
        ))
      // Into the merchant's request log once answered, as the app's requests (http/Auth.ts).
      const at = Date.now()
      request.onAnswered((status, durationMs) =>
        log.record({
          caller,
          method: "POST",
          url: "/switch/v1/links",
          status,
          durationMs,
          requestId: request.requestId,
          at
        })
      )
      const body = orThrow(parseJson(await request.body()))
      const { status, link } = orThrow(await links.createNow(caller, body))
      return { status, body: link }
    })
  })
)
