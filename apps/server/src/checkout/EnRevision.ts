/**
 * The console's hold on links in `revision` (platform/LinksEnRevision.ts): the link and its last
 * attempt are read as the reconciler reads them, and an answer (the bank's, or a person's
 * decision) goes through Settle.ts's `applyAnswer`, a conditional move of the link, so a
 * decision racing the reconciler moves the link once.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Ports } from "@switch/core"
import { Effect, Layer, Option } from "effect"
import { Settings } from "../Config.js"
import { Banks } from "../platform/bank/Banks.js"
import { LinksEnRevision, type Resultado } from "../platform/LinksEnRevision.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { findMerchant } from "../platform/Merchants.js"
import { Settlements } from "../platform/Settlements.js"
import { applyAnswer, CHECKOUT_COLUMNS, type CheckoutLink } from "./Settle.js"

export const LinksEnRevisionLive = Layer.effect(
  LinksEnRevision,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const banks = yield* Banks
    const settlements = yield* Settlements

    const load = (linkId: string) =>
      Effect.gen(function* () {
        const [link] = yield* LinksRepo.byId<CheckoutLink>(linkId, CHECKOUT_COLUMNS)
        if (link === undefined || link.estado !== "revision") return Option.none()
        const merchant = yield* findMerchant(link.comercio_id)
        const [attempt] = yield* sql<{ id: string; huella: string | null }>`
          select id::text as id, huella from intentos_pago where link_id = ${linkId} order by created_at desc limit 1`
        if (Option.isNone(merchant) || attempt === undefined) return Option.none()
        return Option.some({ link, merchant: merchant.value, attempt })
      }).pipe(
        Effect.provideService(PgClient.PgClient, sql),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.orDie
      )

    const apply = (
      found: Effect.Effect.Success<ReturnType<typeof load>>,
      answer: Ports.BankAnswer
    ): Effect.Effect<Resultado> =>
      Option.isNone(found) || (answer.estado !== "LIQUIDADA" && answer.estado !== "RECHAZADA")
        ? Effect.succeed("sin_cambio")
        : applyAnswer({ ...found.value, answer, at: new Date() }).pipe(
            Effect.map(
              (o): Resultado =>
                o._tag === "Pagado" ? "pagado" : o._tag === "Rechazado" ? "reabierto" : "sin_cambio"
            ),
            Effect.provideService(PgClient.PgClient, sql),
            Effect.provideService(SqlClient.SqlClient, sql),
            Effect.provideService(Settings, settings),
            Effect.provideService(Settlements, settlements)
          )

    return {
      intento: (linkId) =>
        Effect.map(
          load(linkId),
          Option.map((f) => f.attempt.id)
        ),
      consultar: (linkId) =>
        Effect.gen(function* () {
          const found = yield* load(linkId)
          if (Option.isNone(found))
            return {
              answer: { estado: "DESCONOCIDA", referencia_banco: null, endtoend: null, motivo_rechazo: null },
              resultado: "sin_cambio"
            } as const
          const answer = yield* banks.forMode(found.value.link.mode).query(found.value.attempt.id)
          return { answer, resultado: yield* apply(found, answer) }
        }),
      aplicar: (linkId, answer) => Effect.flatMap(load(linkId), (found) => apply(found, answer))
    }
  })
)
