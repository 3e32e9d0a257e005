/**
 * `POST /switch/v1/links` served as a lane (http/Lane.ts): the same key check, rate limit,
 * body reading and service call as the HttpApi handler in LinksApi.ts, which still describes
 * the route in the contract and serves it with a query string.
 */
import { Effect, Layer } from "effect"
import { Settings } from "../Config.js"
import { makeAuthenticate } from "../http/Auth.js"
import { resolveClient, trustList } from "../http/ClientAddress.js"
import { Lanes } from "../http/Lane.js"
import { parseJson } from "../http/Respond.js"
import { LinksService } from "./LinksService.js"

export const LinksLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const lanes = yield* Lanes
    const links = yield* LinksService
    const authenticate = yield* makeAuthenticate
    const trusted = trustList((yield* Settings).proxiesConfiables)
    yield* lanes.add("POST", "/switch/v1/links", (request) => {
      const forwarded = request.headers["x-forwarded-for"]
      const ip = Effect.sync(() =>
        trusted === null
          ? request.peer
          : resolveClient(request.peer, typeof forwarded === "string" ? forwarded : undefined, trusted)
      )
      const key = request.headers["x-switch-key"]
      return Effect.flatMap(authenticate(typeof key === "string" ? key : "", ip), (caller) =>
        Effect.flatMap(Effect.flatMap(request.body, parseJson), (body) =>
          Effect.map(links.create(caller, body), ({ status, link }) => ({ status, body: link }))
        )
      )
    })
  })
)
