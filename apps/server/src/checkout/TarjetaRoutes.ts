/**
 * `POST /tarjeta/callbacks`: the card processor's callbacks, outside the API contract like the
 * payment page. Authenticated by their signature over the raw body and its timestamp (no key,
 * no cookie), so the body is read as text and verified before it is parsed.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { byOwnClass } from "../http/ApiErrors.js"
import { json } from "../http/Respond.js"
import { CALLBACK_PATH } from "../platform/card/HttpCard.js"
import { Tarjeta } from "./TarjetaService.js"

export const TarjetaRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const tarjeta = yield* Tarjeta
    yield* router.post(
      CALLBACK_PATH,
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = yield* Effect.orElseSucceed(request.text, () => "")
        return yield* tarjeta.callback(body, request.headers["x-card-signature"]).pipe(
          Effect.map((r) => json({ recibido: true, repetido: r.repetido })),
          Effect.catchAll((e) => Effect.succeed(byOwnClass(e)))
        )
      })
    )
  })
)
