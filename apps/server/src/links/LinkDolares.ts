/**
 * Links priced in dollars from the portal (issue 33; the contract is @switch/api's Dolares.ts).
 * The dollar price is converted at the BCV rate of this moment (`platform/TasaBcv.ts`, fresh
 * within `SWITCH_TASA_MAX_HORAS`, else `503 tasa_no_disponible` as the dollar limits answer) by
 * @switch/core's `Money.usdToVes`, exactly and rounded half-up to the cent; the link is then made
 * by the same `create` as `POST /links` with `monto` in bolivars, and the price and the rate are
 * stored beside it. A portal session only: a key is `401`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, Direct, NotFound, SwitchApi, Unauthorized, ValidationError } from "@switch/api"
import { Caps, Money } from "@switch/core"
import { Clock, Effect, Either, Option } from "effect"
import { Settings } from "../Config.js"
import { json, jsonBody } from "../http/Respond.js"
import { currentRate } from "../platform/TasaBcv.js"
import { isUuid } from "../platform/Uuid.js"
import { LinksService } from "./LinksService.js"

const sessionCaller = Effect.flatMap(CurrentCaller, (caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)
)

const invalid = (message: string) =>
  Effect.fail(new ValidationError({ detail: { fieldErrors: { monto_usd: [message] } } }))

/** The rate to convert with now: the latest while fresh, else `503 tasa_no_disponible`. */
const freshRate = Effect.gen(function* () {
  const settings = yield* Settings
  const at = new Date(yield* Clock.currentTimeMillis)
  const tasa = yield* currentRate
  if (Option.isNone(tasa) || !Caps.rateIsFresh(tasa.value.actualizadaEn, at, settings.tasaMaxHoras))
    return yield* Effect.fail(
      new Direct.RateUnavailable({ error: "tasa_no_disponible", motivo: Caps.MOTIVO_TASA_NO_DISPONIBLE })
    )
  return tasa.value.rate
})

const SCALE = 100_000_000n
const rateText = (rate: Money.Rate) =>
  `${rate.scaled / SCALE}.${(rate.scaled % SCALE).toString().padStart(8, "0")}`

export const DolaresApiLive = HttpApiBuilder.group(SwitchApi, "dolares", (handlers) =>
  Effect.gen(function* () {
    const links = yield* LinksService
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handleRaw("create", () =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          const raw = yield* jsonBody
          if (typeof raw !== "object" || raw === null || Array.isArray(raw))
            return yield* Effect.fail(new ValidationError({ detail: "El cuerpo debe ser un objeto JSON." }))
          const { monto_usd, ...rest } = raw as Record<string, unknown>
          if ("monto" in rest || "moneda" in rest)
            return yield* Effect.fail(
              new ValidationError({
                detail: {
                  fieldErrors: {
                    monto: ["el precio va en monto_usd; el monto en bolívares lo calcula Switch"]
                  }
                }
              })
            )
          if (typeof monto_usd !== "number") return yield* invalid("es obligatorio y debe ser un número")
          const usd = Money.fromPositiveNumber(monto_usd)
          if (Either.isLeft(usd)) return yield* invalid(Money.issueMessage[usd.left])
          const rate = yield* freshRate
          const monto = Money.usdToVes(usd.right, rate)
          const { status, link } = yield* links.create(caller, { ...rest, monto: Money.toNumber(monto) })
          // A replay keeps the price and rate of its first request.
          if (status === 201)
            yield* sql`update links set monto_usd = ${usd.right}, tasa_bcv = ${rateText(rate)}::numeric
              where id = ${link.id} and comercio_id = ${caller.comercioId}`.pipe(Effect.orDie)
          return json(link, status)
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          if (!isUuid(path.id)) return yield* Effect.fail(new NotFound({ detail: "El link no existe." }))
          const rows = yield* sql<{ monto: string; monto_usd: string | null; tasa_bcv: string | null }>`
            select monto::text as monto, monto_usd::text as monto_usd, tasa_bcv::text as tasa_bcv from links
            where id = ${path.id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`.pipe(
            Effect.orDie
          )
          const row = rows[0]
          if (row === undefined) return yield* Effect.fail(new NotFound({ detail: "El link no existe." }))
          return json({
            link_id: path.id,
            monto_usd: row.monto_usd === null ? null : Money.toNumber(Money.Cents(Number(row.monto_usd))),
            tasa_bcv: row.tasa_bcv === null ? null : Number(row.tasa_bcv),
            monto: Money.toNumber(Money.Cents(Number(row.monto)))
          })
        })
      )
  })
)
