/** The Postgres client and the migrations, as layers. */
import { NodeContext } from "@effect/platform-node"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import Pg from "pg"
import init from "../migrations/0001_init.js"
import checkout from "../migrations/0002_checkout.js"
import webhooks from "../migrations/0003_webhooks.js"
import direct from "../migrations/0004_direct.js"
import unloggedCounters from "../migrations/0005_unlogged_counters.js"
import flows from "../migrations/0006_flows.js"
import idempotencyLower from "../migrations/0007_idempotency_lower.js"
import moneyReview from "../migrations/0008_money_review.js"
import colaTrabajadores from "../migrations/0009_cola_trabajadores.js"
import requestLog from "../migrations/0010_request_log.js"
import outboxInTs from "../migrations/0011_outbox_in_ts.js"
import sesiones from "../migrations/0012_sesiones.js"
import equipo from "../migrations/0013_equipo.js"
import operadores from "../migrations/0014_operadores.js"
import listIndexes from "../migrations/0017_list_indexes.js"
import oauth from "../migrations/0018_oauth.js"
import linksDolares from "../migrations/0019_links_dolares.js"
import miPagina from "../migrations/0020_mi_pagina.js"
import colaRevision from "../migrations/0021_cola_revision.js"
import eventosLink from "../migrations/0022_eventos_link.js"
import reembolsosPiloto from "../migrations/0023_reembolsos_piloto.js"
import filterIndexes from "../migrations/0024_filter_indexes.js"
import intentosTotp from "../migrations/0025_intentos_totp.js"
import contadoresConcedido from "../migrations/0026_contadores_concedido.js"
import invitacionesAjenas from "../migrations/0027_invitaciones_ajenas.js"
import cuatroOjos from "../migrations/0028_cuatro_ojos.js"
import repartoLive from "../migrations/0030_reparto_live.js"
import tarjeta from "../migrations/0040_tarjeta.js"
import cierresTarjeta from "../migrations/0041_cierres_tarjeta.js"
import ordenesBanco from "../migrations/0050_ordenes_banco.js"
import cargosDuplicados from "../migrations/0051_cargos_duplicados.js"
import flujosSesion from "../migrations/0055_flujos_sesion.js"
import llavesRotacion from "../migrations/0060_llaves_rotacion.js"
import codigosRecuperacion from "../migrations/0061_codigos_recuperacion.js"
import pagosRevisionConciliar from "../migrations/0065_pagos_revision_conciliar.js"
import respuestasBancoTexto from "../migrations/0066_respuestas_banco_texto.js"
import correoVerificado from "../migrations/0067_correo_verificado.js"
import resumenDiario from "../migrations/0068_resumen_diario.js"
import registroSolicitudesLiviano from "../migrations/0069_registro_solicitudes_liviano.js"
import * as Metrics from "./Metrics.js"
import { preparingClient, registry } from "./Prepared.js"

/** int8 (bigint cents, counts) as JS numbers: every amount fits in a safe integer. */
const INT8_OID = 20
const NUMERIC_OID = 1700

const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8_OID) return (value: string) => Number(value)
    if (oid === NUMERIC_OID) return (value: string) => value
    return Pg.types.getTypeParser(oid, format)
  }) as typeof Pg.types.getTypeParser
}

export interface PgOptions {
  readonly maxConnections?: number
  /**
   * Named prepared statements (Prepared.ts); on unless turned off, which a pooler in
   * transaction mode in front of Postgres needs (SWITCH_PG_PREPARAR=0).
   */
  readonly prepared?: boolean
}

/** The pool, checked with one query, ended when the layer closes. */
const pool = (url: string, options: PgOptions) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const created = new Pg.Pool({
          connectionString: url,
          max: options.maxConnections ?? 20,
          application_name: "switch",
          types,
          ...(options.prepared === false ? {} : { Client: preparingClient(registry()) })
        })
        created.on("error", () => undefined)
        // A connection cut while a client is checked out (Postgres restarting) is an `error`
        // event on that client, which the pool no longer listens to: unheard, it ends the
        // process. The query in flight fails on its own, and the pool drops the client.
        created.on("connect", (client) => client.on("error", () => undefined))
        await created.query("select 1")
        Metrics.watchPool(created)
        return created
      },
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }),
    (created) => Effect.promise(() => created.end()).pipe(Effect.timeoutOption(1000))
  )

/**
 * The client's own pool, for the one statement hot enough that @effect/sql's work around each
 * statement (a span, a scope, compiling the template) shows in its cost: the link insert of
 * `POST /links` (LinksService.ts), about 50 µs of that request's CPU. A text with `$n`
 * parameters, outside any transaction; named and prepared like the client's (Prepared.ts).
 */
export class PgPool extends Context.Tag("@switch/server/PgPool")<
  PgPool,
  {
    /** The statement's rows; a failure rejects with pg's error. */
    readonly run: <A extends object>(
      text: string,
      values: ReadonlyArray<unknown>
    ) => Promise<ReadonlyArray<A>>
  }
>() {}

/** The client, and {@link PgPool} on the same pool. */
export const PgLive = (url: string, options: PgOptions = {}) =>
  Layer.unwrapScoped(
    Effect.map(pool(url, options), (created) =>
      Layer.merge(
        PgClient.layerFromPool({ acquire: Effect.succeed(created), applicationName: "switch", types }),
        Layer.succeed(PgPool, {
          run: <A extends object>(text: string, values: ReadonlyArray<unknown>) =>
            created.query<A>(text, values as Array<unknown>).then((result) => result.rows)
        })
      )
    )
  )

export const migrations = PgMigrator.fromRecord({
  "0001_init": init,
  "0002_checkout": checkout,
  "0003_webhooks": webhooks,
  "0004_direct": direct,
  "0005_unlogged_counters": unloggedCounters,
  "0006_flows": flows,
  "0007_idempotency_lower": idempotencyLower,
  "0008_money_review": moneyReview,
  "0009_cola_trabajadores": colaTrabajadores,
  "0010_request_log": requestLog,
  "0011_outbox_in_ts": outboxInTs,
  "0012_sesiones": sesiones,
  "0013_equipo": equipo,
  "0014_operadores": operadores,
  "0017_list_indexes": listIndexes,
  "0018_oauth": oauth,
  "0019_links_dolares": linksDolares,
  "0020_mi_pagina": miPagina,
  "0021_cola_revision": colaRevision,
  "0022_eventos_link": eventosLink,
  "0023_reembolsos_piloto": reembolsosPiloto,
  "0024_filter_indexes": filterIndexes,
  "0025_intentos_totp": intentosTotp,
  "0026_contadores_concedido": contadoresConcedido,
  "0027_invitaciones_ajenas": invitacionesAjenas,
  "0028_cuatro_ojos": cuatroOjos,
  "0030_reparto_live": repartoLive,
  "0040_tarjeta": tarjeta,
  "0041_cierres_tarjeta": cierresTarjeta,
  "0050_ordenes_banco": ordenesBanco,
  "0051_cargos_duplicados": cargosDuplicados,
  "0055_flujos_sesion": flujosSesion,
  "0060_llaves_rotacion": llavesRotacion,
  "0061_codigos_recuperacion": codigosRecuperacion,
  "0065_pagos_revision_conciliar": pagosRevisionConciliar,
  "0066_respuestas_banco_texto": respuestasBancoTexto,
  "0067_correo_verificado": correoVerificado,
  "0068_resumen_diario": resumenDiario,
  "0069_registro_solicitudes_liviano": registroSolicitudesLiviano
})

/** Runs pending migrations; several processes starting at once wait on the migrator's lock. */
export const MigratorLive = PgMigrator.layer({ loader: migrations }).pipe(Layer.provide(NodeContext.layer))

/** The client with its schema up to date. */
export const SqlLive = (url: string, options?: PgOptions) =>
  MigratorLive.pipe(Layer.provideMerge(PgLive(url, options)))
