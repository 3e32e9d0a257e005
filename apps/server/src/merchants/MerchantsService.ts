/**
 * Merchants: self-signup, keys (create, list, revoke and roll with SPEC's mode rules), the read-only
 * configuration view, and the demo merchant `npm start` seeds.
 *
 * Sign-up answers alike whether or not the e-mail already has a portal user: a taken code is
 * `409 comercio_duplicado` (SPEC), a taken e-mail is not refused. The merchant is made without a
 * portal user then, and the e-mail's holder is told by mail (platform/UserNotices.ts).
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import {
  BadRequest,
  type Caller,
  Comercios,
  Conflict,
  Forbidden,
  type Mode,
  NotFound,
  ValidationError
} from "@switch/api"
import { Fees, Money, Validation, Venezuela } from "@switch/core"
import { Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import { KeyCache } from "../http/KeyCache.js"
import * as Keys from "../http/Keys.js"
import { Mailer } from "../platform/Mailer.js"
import { findMerchant } from "../platform/Merchants.js"
import { hashPassword } from "../platform/Passwords.js"
import { issueUserLink } from "../platform/UserLinks.js"
import { mailExistingUser } from "../platform/UserNotices.js"

const RESERVED_LABELS = ["service-key:", "partner:"]

/** Whether a label starts with a reserved prefix, past any case, leading space or invisible mark. */
const reservedLabel = (label: string) => {
  const start = label
    .normalize("NFKC")
    .replace(/^[\s\p{Cf}]+/u, "")
    .toLowerCase()
  return RESERVED_LABELS.some((prefix) => start.startsWith(prefix))
}

export interface KeyRow {
  readonly id: string
  readonly label: string
  readonly mode: Mode
  readonly ultimos4: string
  readonly created_at: Date
  readonly revoked_at: Date | null
  readonly expira_at: Date | null
}

const keyView = (row: KeyRow) => ({
  id: row.id,
  label: row.label,
  mode: row.mode,
  ultimos4: row.ultimos4,
  created_at: row.created_at.toISOString(),
  revoked_at: row.revoked_at === null ? null : row.revoked_at.toISOString(),
  expira_at: row.expira_at === null ? null : row.expira_at.toISOString()
})

const validation = (errors: Validation.FieldErrors) => new ValidationError({ detail: errors })

export class MerchantsService extends Context.Tag("@switch/server/MerchantsService")<
  MerchantsService,
  {
    readonly register: (
      body: unknown
    ) => Effect.Effect<typeof Comercios.RegistroResult.Type, ValidationError | Conflict>
    readonly listKeys: (caller: Caller) => Effect.Effect<ReadonlyArray<ReturnType<typeof keyView>>>
    /** Creates a key; `body` is the decoded `CrearLlave` payload. */
    readonly createKey: (
      caller: Caller,
      body: typeof Comercios.LlaveBody.Type
    ) => Effect.Effect<typeof Comercios.LlaveCreada.Type, BadRequest | Forbidden>
    readonly revokeKey: (
      caller: Caller,
      id: string
    ) => Effect.Effect<{ id: string; revocada: true }, Forbidden | NotFound>
    /**
     * Rolls a key: a new key of the same label and mode, shown once; the old one keeps working
     * for `solapamiento_horas` (0 to 168) and then answers `401`.
     */
    readonly rollKey: (
      caller: Caller,
      id: string,
      body: typeof Comercios.RotarLlaveBody.Type
    ) => Effect.Effect<typeof Comercios.LlaveRotada.Type, Forbidden | NotFound | Conflict>
    readonly config: (caller: Caller) => Effect.Effect<typeof Comercios.ConfigView.Type>
    /** Creates the demo merchant if missing; its test key is derived from the secret, so it is stable. */
    readonly seedDemo: Effect.Effect<{ codigo: string; key: string }>
  }
>() {}

export const MerchantsServiceLive = Layer.effect(
  MerchantsService,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const provideSql = Effect.provideService(SqlClient.SqlClient, sql)
    const keyCache = yield* KeyCache
    const mailer = yield* Mailer
    const provideMail = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | Mailer | Settings>) =>
      effect.pipe(
        provideSql,
        Effect.provideService(Mailer, mailer),
        Effect.provideService(Settings, settings)
      )

    const register = (input: unknown) =>
      Effect.gen(function* () {
        const body = yield* Either.mapLeft(Validation.decode(Comercios.RegistroBody)(input), validation)
        // The merchant's own document: a cédula, or a RIF whose check digit verifies.
        const doc = yield* Either.mapLeft(
          Venezuela.parseMerchantId(body.identificacion, body.tipo_doc),
          (issue) =>
            validation({ fieldErrors: { identificacion: [Venezuela.identificacionIssueMessage[issue]] } })
        )
        const id = randomUUID()
        const key = Keys.generate("test")
        // With a password the e-mail becomes the owner's portal user (e-mails are unique).
        const password = body.password
        const hash = password === undefined ? undefined : yield* Effect.promise(() => hashPassword(password))
        const created = yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql`
              insert into comercios (id, codigo, nombre, identificacion, tipo_doc, email, tipo)
              values (${id}, ${body.codigo}, ${body.nombre}, ${Venezuela.formatIdentificacion(doc)}, ${doc.tipo_doc},
                ${body.email}, ${body.tipo ?? "empresa"})
              on conflict (codigo) do nothing returning id`
            if (rows.length === 0) return false as const
            yield* Keys.insertKey(id, "inicial", "test", key).pipe(provideSql)
            const users = yield* sql<{ id: string }>`
              insert into usuarios (id, comercio_id, email, hash, rol)
              values (${randomUUID()}, ${id}, ${body.email}, ${hash ?? null}, 'propietario')
              on conflict do nothing returning id`
            // An e-mail that already has a user (of any merchant) gets no owner here, with or
            // without a password, and the answer is the same as for a new address: a `409` would
            // tell anyone which addresses have an account. Its holder is told by mail instead.
            return users[0]?.id ?? null
          })
        )
        // Mailed after the answer, so its time tells nothing either. Without a password the owner
        // sets it through a one-time link.
        if (created !== false && mailer.available)
          yield* Effect.forkDaemon(
            (created === null
              ? mailExistingUser(body.email, { _tag: "Registro", codigo: body.codigo })
              : // Without a password the owner sets it through a link; with one, the link verifies the e-mail.
                issueUserLink(created, hash === undefined ? "activar" : "verificar")
            ).pipe(
              provideMail,
              Effect.catchAll((error) => Effect.logWarning(`correo del registro no enviado: ${error.reason}`))
            )
          )
        if (created === false) {
          return yield* Effect.fail(
            new Conflict({
              error: "comercio_duplicado",
              detail: `Ya existe un comercio con el código ${body.codigo}.`
            })
          )
        }
        return {
          codigo: body.codigo,
          nombre: body.nombre,
          estado: "pendiente" as const,
          kyc_tier: 0 as const,
          mode: "test" as const,
          api_key: key
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const listKeys = (caller: Caller) =>
      sql<KeyRow>`
        select id, label, mode, ultimos4, created_at, revoked_at, expira_at from llaves
        where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
        order by created_at desc`.pipe(
        Effect.map((rows) => rows.map(keyView)),
        Effect.orDie
      )

    const createKey = (caller: Caller, body: typeof Comercios.LlaveBody.Type) =>
      Effect.gen(function* () {
        if (reservedLabel(body.label)) {
          return yield* Effect.fail(
            new BadRequest({
              error: "label_reservado",
              detail: "El label no puede empezar por service-key: ni partner:."
            })
          )
        }
        const mode = body.mode ?? caller.mode
        if (mode === "live" && caller.mode !== "live") {
          return yield* Effect.fail(
            new Forbidden({
              error: "requiere_llave_live",
              detail: "Crear una llave live requiere una llave live."
            })
          )
        }
        const { id, key } = yield* Keys.insertKey(caller.comercioId, body.label, mode).pipe(provideSql)
        return { id, label: body.label, mode, api_key: key }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const revokeKey = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const uuid = /^[0-9a-f-]{36}$/i.test(id)
        const rows = uuid
          ? yield* sql<{
              mode: Mode
            }>`select mode from llaves where id = ${id} and comercio_id = ${caller.comercioId}`
          : []
        const row = rows[0]
        if (row === undefined) return yield* Effect.fail(new NotFound())
        if (row.mode === "live" && caller.mode !== "live") {
          return yield* Effect.fail(
            new Forbidden({
              error: "requiere_llave_live",
              detail: "Revocar una llave live requiere una llave live."
            })
          )
        }
        const revoked = yield* sql<{ hash: string }>`
          update llaves set revoked_at = coalesce(revoked_at, now()) where id = ${id} returning hash`
        for (const { hash } of revoked) yield* keyCache.announceRevoked(hash).pipe(provideSql)
        return { id, revocada: true as const }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const rollKey = (caller: Caller, id: string, body: typeof Comercios.RotarLlaveBody.Type) =>
      Effect.gen(function* () {
        const uuid = /^[0-9a-f-]{36}$/i.test(id)
        const done = yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = uuid
              ? yield* sql<{ mode: Mode; label: string; revoked_at: Date | null; expira_at: Date | null }>`
                  select mode, label, revoked_at, expira_at from llaves
                  where id = ${id} and comercio_id = ${caller.comercioId}
                  for update`
              : []
            const row = rows[0]
            if (row === undefined) return yield* Effect.fail(new NotFound())
            if (row.mode === "live" && caller.mode !== "live") {
              return yield* Effect.fail(
                new Forbidden({
                  error: "requiere_llave_live",
                  detail: "Rotar una llave live requiere una llave live."
                })
              )
            }
            if (row.revoked_at !== null || row.expira_at !== null) {
              return yield* Effect.fail(
                new Conflict({
                  error: "llave_no_rotable",
                  detail:
                    row.revoked_at !== null
                      ? "La llave está revocada: crea una nueva."
                      : "La llave ya fue rotada: rota la llave nueva."
                })
              )
            }
            const made = yield* Keys.insertKey(caller.comercioId, row.label, row.mode).pipe(provideSql)
            const old = yield* sql<{ hash: string; expira_at: Date }>`
              update llaves
              set expira_at = now() + make_interval(hours => ${body.solapamiento_horas}), rotada_a = ${made.id}
              where id = ${id}
              returning hash, expira_at`
            return { made, label: row.label, mode: row.mode, old: old[0]! }
          })
        )
        // Every process drops its cached copy, so the next request reads the new end.
        yield* keyCache.announceRevoked(done.old.hash).pipe(provideSql)
        return {
          id: done.made.id,
          label: done.label,
          mode: done.mode,
          api_key: done.made.key,
          anterior: { id, expira_at: done.old.expira_at.toISOString() }
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const config = (caller: Caller) =>
      Effect.gen(function* () {
        const merchant = Option.getOrThrow(yield* findMerchant(caller.comercioId).pipe(provideSql))
        const pct = Fees.commissionPctFor(
          merchant.comision_bp === null ? null : Money.BasisPoints(merchant.comision_bp)
        )
        return {
          comercio: merchant.codigo,
          nombre: merchant.nombre,
          tipo: merchant.tipo,
          estado: merchant.estado,
          kyc_tier: merchant.kyc_tier,
          mode: caller.mode,
          comision_pct: Money.percentFromBasisPoints(pct),
          comision_acordada: merchant.comision_bp !== null,
          igtf_pct: Money.percentFromBasisPoints(Fees.IGTF_PCT),
          igtf_aplica: "solo a cobros en divisas; los cobros en bolívares no pagan IGTF",
          frecuencia_liquidacion: merchant.liquidacion_inmediata
            ? ("inmediata" as const)
            : ("diaria" as const),
          propina_max_pct:
            merchant.propina_max_bp === null
              ? 0
              : Money.percentFromBasisPoints(Money.BasisPoints(merchant.propina_max_bp)),
          pagar_habilitado: merchant.pagar_habilitado,
          split_habilitado: merchant.split_habilitado,
          tarjeta_habilitada: merchant.tarjeta_habilitada
        }
      })

    const seedDemo = Effect.gen(function* () {
      const key = Keys.derive(Redacted.value(settings.secret), "demo", "test")
      const id = randomUUID()
      yield* sql`
        insert into comercios (id, codigo, nombre, identificacion, tipo_doc, email, tipo, propina_max_bp)
        values (${id}, 'demo', 'Tienda Demo', 'J-07013380-5', 'J', 'demo@switch.local', 'empresa', 2000)
        on conflict (codigo) do nothing`
      const rows = yield* sql<{ id: string }>`select id from comercios where codigo = 'demo'`
      const comercioId = rows[0]?.id ?? id
      yield* Keys.insertKey(comercioId, "demo", "test", key).pipe(provideSql)
      return { codigo: "demo", key }
    }).pipe(Effect.orDie)

    return { register, listKeys, createKey, revokeKey, rollKey, config, seedDemo }
  })
)
