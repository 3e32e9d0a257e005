/**
 * Webhook endpoints of a merchant: create (live key, https, public address, at most 10, the
 * secret once), list, get, edit, delete, the last deliveries and the portal's test notice.
 * Webhooks belong to the merchant, not to a mode: they receive the notices of both modes.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import {
  type Caller,
  Conflict,
  Forbidden,
  NotFound,
  UnprocessableEntity,
  ValidationError,
  Webhooks
} from "@switch/api"
import { Validation } from "@switch/core"
import { Context, Effect, Either, Layer, Match } from "effect"
import { Settings } from "../Config.js"
import * as Outbox from "../platform/Outbox.js"
import * as Sealed from "../platform/Sealed.js"
import { isUuid } from "../platform/Uuid.js"
import { resend, runAttempt } from "./Deliveries.js"
import { WebhookSender } from "./Sender.js"
import { newSecret } from "./Signature.js"
import * as Ssrf from "./Ssrf.js"
import { type DeliveryRow, deliveryView, type WebhookRow, webhookView } from "./WebhookView.js"

/** SPEC: up to 10 webhooks per merchant. */
export const MAX_WEBHOOKS = 10
/** SPEC: the last 50 deliveries are listed. */
export const DELIVERIES_LISTED = 50

const validation = (errors: Validation.FieldErrors) => new ValidationError({ detail: errors })
const notFound = () => new NotFound({ error: "not_found", detail: "El webhook no existe." })
const needsLive = () =>
  new Forbidden({
    error: "requiere_llave_live",
    detail: "Crear, editar o eliminar webhooks requiere una llave live."
  })

const WEBHOOK_COLUMNS = "id, url, eventos, estado, created_at, updated_at"

const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const settings = yield* Settings
  const sender = yield* WebhookSender

  // SPEC: the portal registers and deletes webhooks without a live key, so a session may in either mode.
  const requireLive = (caller: Caller) =>
    caller.mode === "live" || caller.sesion !== undefined ? Effect.void : Effect.fail(needsLive())

  /** The URL rules of creation and edit: shape (400) and destination (422). */
  const checkDestination = (url: string): Effect.Effect<void, ValidationError | UnprocessableEntity> =>
    Effect.promise(() => Ssrf.checkUrl(url, { allowPrivate: settings.webhookAllowPrivate })).pipe(
      Effect.flatMap((refusal): Effect.Effect<void, ValidationError | UnprocessableEntity> => {
        if (refusal === null) return Effect.void
        return Effect.fail(
          Match.value(refusal).pipe(
            Match.tagsExhaustive({
              Invalida: ({ detail }) => validation({ fieldErrors: { url: [detail] } }),
              Bloqueada: ({ detail }) => new UnprocessableEntity({ error: "destino_bloqueado", detail })
            })
          )
        )
      })
    )

  const find = (caller: Caller, id: string) =>
    Effect.gen(function* () {
      if (!isUuid(id)) return yield* Effect.fail(notFound())
      const rows = yield* sql<WebhookRow>`
        select ${sql.literal(WEBHOOK_COLUMNS)} from webhooks
        where id = ${id} and comercio_id = ${caller.comercioId} and deleted_at is null`
      const row = rows[0]
      return row === undefined ? yield* Effect.fail(notFound()) : row
    })

  const list = (caller: Caller) =>
    sql<WebhookRow>`
      select ${sql.literal(WEBHOOK_COLUMNS)} from webhooks
      where comercio_id = ${caller.comercioId} and deleted_at is null
      order by created_at desc, id desc`.pipe(
      Effect.map((rows) => rows.map(webhookView)),
      Effect.orDie
    )

  const get = (caller: Caller, id: string) => find(caller, id).pipe(Effect.map(webhookView), Effect.orDie)

  const create = (caller: Caller, input: unknown) =>
    Effect.gen(function* () {
      yield* requireLive(caller)
      const body = yield* Either.mapLeft(Validation.decode(Webhooks.WebhookCreate)(input), validation)
      yield* checkDestination(body.url)
      const id = randomUUID()
      const secret = newSecret()
      const row = yield* Effect.gen(function* () {
        // The merchant's row lock makes the count and the insert one step for concurrent creations.
        yield* sql`select id from comercios where id = ${caller.comercioId} for update`
        const counted = yield* sql<{ n: number }>`
          select count(*)::int as n from webhooks where comercio_id = ${caller.comercioId} and deleted_at is null`
        if ((counted[0]?.n ?? 0) >= MAX_WEBHOOKS) {
          return yield* Effect.fail(
            new Conflict({ error: "limite_webhooks", detail: `Ya tienes ${MAX_WEBHOOKS} webhooks.` })
          )
        }
        const inserted = yield* sql<WebhookRow>`
          insert into webhooks (id, comercio_id, url, eventos, estado, secret)
          values (${id}, ${caller.comercioId}, ${body.url}, ${[...new Set(body.eventos)]}::text[], 'activo',
            ${Sealed.seal(settings.secret, "webhook", id, secret)})
          returning ${sql.literal(WEBHOOK_COLUMNS)}`
        return inserted[0] as WebhookRow
      }).pipe(sql.withTransaction)
      return { ...webhookView(row), secret }
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  const update = (caller: Caller, id: string, input: unknown) =>
    Effect.gen(function* () {
      yield* requireLive(caller)
      yield* find(caller, id)
      const body = yield* Either.mapLeft(Validation.decode(Webhooks.WebhookUpdate)(input), validation)
      if (body.url !== undefined) yield* checkDestination(body.url)
      const rows = yield* sql<WebhookRow>`
        update webhooks set
          url = coalesce(${body.url ?? null}, url),
          eventos = coalesce(${body.eventos === undefined ? null : [...new Set(body.eventos)]}::text[], eventos),
          estado = coalesce(${body.estado ?? null}, estado),
          updated_at = now()
        where id = ${id} and comercio_id = ${caller.comercioId} and deleted_at is null
        returning ${sql.literal(WEBHOOK_COLUMNS)}`
      const row = rows[0]
      return row === undefined ? yield* Effect.fail(notFound()) : webhookView(row)
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  const remove = (caller: Caller, id: string) =>
    Effect.gen(function* () {
      yield* requireLive(caller)
      yield* find(caller, id)
      // Kept (without its secret) so its deliveries stay readable; pending ones are cancelled.
      const rows = yield* sql`
        update webhooks set deleted_at = now(), estado = 'inactivo', secret = '', updated_at = now()
        where id = ${id} and comercio_id = ${caller.comercioId} and deleted_at is null returning id`
      if (rows.length === 0) return yield* Effect.fail(notFound())
      yield* sql`
        update webhook_entregas set estado = 'cancelado', proximo_intento = null, error = 'webhook eliminado'
        where webhook_id = ${id} and estado = 'pendiente'`
      return { ok: true, id }
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  const deliveries = (caller: Caller, id: string) =>
    Effect.gen(function* () {
      yield* find(caller, id)
      // A test key sees only the deliveries of test notices; a live key sees both modes.
      const modes = caller.mode === "test" ? ["test"] : ["test", "live"]
      const rows = yield* sql<DeliveryRow>`
        select * from webhook_entregas
        where webhook_id = ${id} and mode in ${sql.in(modes)}
        order by created_at desc, id desc
        limit ${DELIVERIES_LISTED}`
      return rows.map(deliveryView)
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  /** The portal's test action: one `webhook.test` attempt now, recorded like any delivery. */
  const probar = (caller: Caller, id: string) =>
    Effect.gen(function* () {
      yield* find(caller, id)
      const deliveryId = randomUUID()
      // Not an event (no `eventos` row), but its data goes through its schema like every notice's.
      const data = yield* Effect.orDie(
        Outbox.encodeData("webhook.test", {
          webhook_id: id,
          mode: caller.mode,
          mensaje: "Aviso de prueba de Switch"
        })
      )
      const cuerpo = JSON.stringify({
        id: `evt_${randomUUID()}`,
        evento: "webhook.test",
        creado_en: new Date().toISOString(),
        data
      })
      yield* sql`
        insert into webhook_entregas (id, webhook_id, comercio_id, evento_id, evento, mode, cuerpo, proximo_intento)
        values (${deliveryId}, ${id}, ${caller.comercioId}, null, 'webhook.test', ${caller.mode}, ${cuerpo}, now())`
      yield* runAttempt({ id: deliveryId, intento: 1 }).pipe(
        Effect.provideService(WebhookSender, sender),
        Effect.provideService(Settings, settings),
        Effect.provideService(SqlClient.SqlClient, sql)
      )
      const rows = yield* sql<DeliveryRow>`select * from webhook_entregas where id = ${deliveryId}`
      return deliveryView(rows[0] as DeliveryRow)
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  /**
   * A `webhook.test` notice (no `eventos` row: its id is in the delivery's body) sent again by
   * the portal: a delivery that ended is tried once more now, while the merchant watches; one
   * still being sent is answered as it stands. Empty when the caller has no such test notice.
   */
  const resendTest = (caller: Caller, id: string) =>
    Effect.gen(function* () {
      const rows = yield* sql<{ id: string; intentos: number; estado: string }>`
        select e.id, e.intentos, e.estado from webhook_entregas e
        where e.webhook_id in (
            select w.id from webhooks w
            where w.comercio_id = ${caller.comercioId} and w.deleted_at is null and w.estado = 'activo')
          and e.mode = ${caller.mode} and e.evento = 'webhook.test' and e.evento_id is null
          and e.cuerpo like ${`{"id":"evt_${id}",%`}`
      const row = rows[0]
      if (row === undefined) return []
      const reopened = yield* sql<{ intentos: number }>`
        update webhook_entregas set estado = 'pendiente', proximo_intento = now(), error = null
        where id = ${row.id} and estado in ('entregado', 'fallido', 'cancelado')
        returning intentos`
      if (reopened[0] !== undefined)
        yield* runAttempt({ id: row.id, intento: reopened[0].intentos + 1 }).pipe(
          Effect.provideService(WebhookSender, sender),
          Effect.provideService(Settings, settings),
          Effect.provideService(SqlClient.SqlClient, sql)
        )
      const after = yield* sql<DeliveryRow>`select * from webhook_entregas where id = ${row.id}`
      return after.map(deliveryView)
    })

  /**
   * Sends a past notice of the key's mode again to every active webhook that receives its event
   * (Deliveries.resend); answers those deliveries as they stand after the request.
   */
  const reenviar = (caller: Caller, rawId: string) =>
    Effect.gen(function* () {
      const id = rawId.replace(/^evt_/, "")
      const eventos = isUuid(id)
        ? yield* sql<{ id: string; evento: string }>`
            select id, evento from eventos where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`
        : []
      const evento = eventos[0]
      if (evento === undefined) {
        const tests = isUuid(id) ? yield* resendTest(caller, id) : []
        if (tests.length === 0)
          return yield* Effect.fail(new NotFound({ error: "not_found", detail: "El aviso no existe." }))
        return tests
      }
      const hooks = yield* sql<{ id: string }>`
        select id from webhooks
        where comercio_id = ${caller.comercioId} and deleted_at is null and estado = 'activo'
          and (${evento.evento} = any(eventos) or '*' = any(eventos))
        order by created_at`
      const ids: Array<string> = []
      for (const hook of hooks) {
        const delivery = yield* resend(evento.id, hook.id).pipe(
          Effect.provideService(SqlClient.SqlClient, sql)
        )
        if (delivery !== null) ids.push(delivery)
      }
      if (ids.length === 0) return []
      const rows = yield* sql<DeliveryRow>`
        select * from webhook_entregas where id in ${sql.in(ids)} order by created_at, id`
      return rows.map(deliveryView)
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  return { list, get, create, update, remove, deliveries, probar, reenviar }
})

export class WebhooksService extends Context.Tag("@switch/server/WebhooksService")<
  WebhooksService,
  Effect.Effect.Success<typeof make>
>() {}

export const WebhooksServiceLive = Layer.effect(WebhooksService, make)
