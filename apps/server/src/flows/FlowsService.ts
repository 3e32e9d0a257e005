/**
 * WhatsApp Flows bindings: setup (live key) and the data-exchange endpoint. Merchant, collecting
 * account and amount rules come from the binding, never from the payload.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { type Caller, Flows, Forbidden, NotFound, ValidationError } from "@switch/api"
import { type Instrument, Money, Validation } from "@switch/core"
import { Clock, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import { FlowCollector } from "../platform/FlowCollector.js"
import * as Sealed from "../platform/Sealed.js"
import * as Envelope from "./Envelope.js"
import { defaultDefinition } from "./FlowDefinition.js"
import { type Binding, exchange, type Reply } from "./FlowExchange.js"

/** The current time, from Effect's Clock (tests provide their own). */
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const validation = (errors: Validation.FieldErrors) => new ValidationError({ detail: errors })
const requireLive = (caller: Caller) =>
  caller.mode === "live"
    ? Effect.void
    : Effect.fail(
        new Forbidden({
          error: "requiere_llave_live",
          detail: "La configuración de Flows requiere una llave live."
        })
      )

export class FlowsService extends Context.Tag("@switch/server/FlowsService")<
  FlowsService,
  {
    readonly configure: (
      caller: Caller,
      body: unknown
    ) => Effect.Effect<typeof Flows.FlowConfigResult.Type, ValidationError | Forbidden | NotFound>
    readonly setDefinition: (
      caller: Caller,
      body: unknown
    ) => Effect.Effect<{ flow_id: string; definicion: unknown }, ValidationError | Forbidden | NotFound>
    readonly exchange: (
      flowId: string,
      raw: Buffer,
      headers: Readonly<Record<string, string | undefined>>
    ) => Effect.Effect<Reply>
  }
>() {}

export const FlowsServiceLive = Layer.effect(
  FlowsService,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const collector = yield* FlowCollector
    const mac = (text: string) =>
      createHmac("sha256", Redacted.value(settings.secret)).update(`flow:${text}`).digest("hex")
    /** The binding's secrets and private key, sealed at rest (platform/Sealed.ts). */
    const sealed = (column: string, id: string, text: string) =>
      Sealed.seal(settings.secret, `flow:${column}`, id, text)
    const opened = (column: string, id: string, text: string) =>
      Sealed.open(settings.secret, `flow:${column}`, id, text)

    const configure = (caller: Caller, input: unknown) =>
      Effect.gen(function* () {
        yield* requireLive(caller)
        const body = yield* Either.mapLeft(Validation.decode(Flows.FlowConfigBody)(input), validation)
        let montoFijo: number | null = null
        if (body.monto_fijo !== undefined) {
          montoFijo = yield* Either.mapLeft(Money.fromPositiveNumber(body.monto_fijo), (issue) =>
            validation(Validation.fieldError("monto_fijo", Money.issueMessage[issue]))
          )
        }
        const flowSecret = body.flow_secret ?? randomBytes(24).toString("base64url")
        const montoSecret = body.monto_firmado === true ? randomBytes(24).toString("base64url") : null
        const mode = body.mode ?? "live"
        const id = body.flow_id ?? randomUUID()
        let publicKey: string
        if (body.flow_id !== undefined) {
          const rows = yield* sql<{ public_key: string }>`
            update flow_bindings set flow_secret_mac = ${mac(flowSecret)}, cuenta = ${JSON.stringify(body.cuenta)}::jsonb,
              concepto = ${body.concepto ?? null}, monto_fijo = ${montoFijo},
              monto_secret = ${montoSecret === null ? null : sealed("monto_secret", body.flow_id, montoSecret)},
              app_secret = ${sealed("app_secret", body.flow_id, body.app_secret)}, mode = ${mode}, updated_at = now()
            where id = ${body.flow_id} and comercio_id = ${caller.comercioId}
            returning public_key`
          const row = rows[0]
          if (row === undefined) return yield* Effect.fail(new NotFound())
          publicKey = row.public_key
        } else {
          const keys = Envelope.generateKeyPair()
          publicKey = keys.publicKey
          yield* sql`
            insert into flow_bindings (id, comercio_id, mode, flow_secret_mac, cuenta, concepto, monto_fijo,
              monto_secret, app_secret, private_key, public_key)
            values (${id}, ${caller.comercioId}, ${mode}, ${mac(flowSecret)}, ${JSON.stringify(body.cuenta)}::jsonb,
              ${body.concepto ?? null}, ${montoFijo}, ${montoSecret === null ? null : sealed("monto_secret", id, montoSecret)},
              ${sealed("app_secret", id, body.app_secret)}, ${sealed("private_key", id, keys.privateKey)}, ${keys.publicKey})`
        }
        return {
          flow_id: id,
          flow_secret: flowSecret,
          public_key: publicKey,
          monto_secret: montoSecret,
          endpoint_url: `${settings.baseUrl}/switch/v1/flows/cobro/${id}`,
          mode
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const setDefinition = (caller: Caller, input: unknown) =>
      Effect.gen(function* () {
        yield* requireLive(caller)
        const body = yield* Either.mapLeft(Validation.decode(Flows.FlowDefinicionBody)(input), validation)
        const definicion = body.definicion ?? defaultDefinition()
        const rows = yield* sql`
          update flow_bindings set definicion = ${JSON.stringify(definicion)}::jsonb, updated_at = now()
          where id = ${body.flow_id} and comercio_id = ${caller.comercioId} returning id`
        if (rows.length === 0) return yield* Effect.fail(new NotFound())
        return { flow_id: body.flow_id, definicion }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const loadBinding = (flowId: string) =>
      Effect.gen(function* () {
        if (!UUID.test(flowId)) return Option.none<Binding>()
        const rows = yield* sql<{
          id: string
          comercio_id: string
          mode: "test" | "live"
          flow_secret_mac: string
          cuenta: Instrument.Instrument
          concepto: string | null
          monto_fijo: number | null
          monto_secret: string | null
          app_secret: string
          private_key: string | null
        }>`select * from flow_bindings where id = ${flowId}`
        const row = rows[0]
        if (row === undefined) return Option.none<Binding>()
        return Option.some<Binding>({
          id: row.id,
          comercioId: row.comercio_id,
          mode: row.mode,
          secretMatches: (secret) => Envelope.safeEqual(mac(secret), row.flow_secret_mac),
          cuenta: row.cuenta,
          concepto: row.concepto,
          montoFijo: row.monto_fijo === null ? null : Money.Cents(row.monto_fijo),
          montoSecret: row.monto_secret === null ? null : opened("monto_secret", row.id, row.monto_secret),
          appSecret: opened("app_secret", row.id, row.app_secret),
          privateKey: row.private_key === null ? null : opened("private_key", row.id, row.private_key)
        })
      }).pipe(Effect.orDie)

    return {
      configure,
      setDefinition,
      exchange: (flowId, raw, headers) =>
        Effect.flatMap(loadBinding(flowId), (binding) =>
          Option.match(binding, {
            onNone: () => Effect.succeed<Reply>({ status: 404, json: { error: "not_found" } }),
            onSome: (b) =>
              exchange(b, raw, headers, now).pipe(
                Effect.provideService(PgClient.PgClient, sql),
                Effect.provideService(FlowCollector, collector),
                Effect.provideService(Settings, settings)
              )
          })
        )
    }
  })
)
