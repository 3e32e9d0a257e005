/**
 * One data-exchange request of a bound Flow: signature, envelope, flow_secret, then the action.
 * Statuses follow Meta's protocol: 400 malformed envelope, 421 cannot decrypt, 432 missing or
 * invalid `x-hub-signature-256`, 500 private key missing; everything else is an encrypted 200.
 */
import { createHmac } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { BankCalendar, type Instrument, Money, Resultado, Venezuela } from "@switch/core"
import { Effect, Either, Option } from "effect"
import { bankClose, Settings } from "../Config.js"
import * as SafeJson from "../http/SafeJson.js"
import { type CollectOrder, FlowCollector } from "../platform/FlowCollector.js"
import * as Envelope from "./Envelope.js"
import { SCREENS } from "./FlowDefinition.js"
import * as FlowToken from "./FlowToken.js"

export interface Binding {
  readonly id: string
  readonly comercioId: string
  readonly mode: Mode
  readonly secretMatches: (secret: string) => boolean
  readonly cuenta: Instrument.Instrument
  readonly concepto: string | null
  readonly montoFijo: Money.Cents | null
  readonly montoSecret: string | null
  readonly appSecret: string
  readonly privateKey: string | null
}

/** What the HTTP handler sends: encrypted text, or a plain JSON error. */
export type Reply =
  | { readonly status: number; readonly text: string }
  | { readonly status: number; readonly json: unknown }

/** A decrypted answer: a screen with its data, or a bare `data` (ping, acknowledgements). */
interface Answer {
  readonly screen?: string
  readonly data: unknown
}

type Payload = {
  readonly action?: unknown
  readonly screen?: unknown
  readonly data?: Record<string, unknown>
  readonly flow_token?: unknown
}

const str = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "")

const bankOptions = Venezuela.banks.map((b) => ({ id: b.codigo, title: b.nombre }))

export const exchange = (
  binding: Binding,
  raw: Buffer,
  headers: Readonly<Record<string, string | undefined>>,
  now: Effect.Effect<Date>
): Effect.Effect<Reply, never, PgClient.PgClient | FlowCollector | Settings> =>
  Effect.gen(function* () {
    if (!Envelope.verifyHubSignature(raw, headers["x-hub-signature-256"], binding.appSecret)) {
      return { status: 432, json: { error: "firma_invalida" } } satisfies Reply
    }
    const body = SafeJson.parse(raw.toString("utf8"))
    if (Either.isLeft(body)) return { status: 400, json: { error: "sobre_invalido" } } satisfies Reply
    const envelope = Envelope.parseEnvelope(body.right)
    if (Either.isLeft(envelope)) return { status: 400, json: { error: "sobre_invalido" } } satisfies Reply
    if (binding.privateKey === null) return { status: 500, json: { error: "error_interno" } } satisfies Reply
    const opened = Envelope.open(envelope.right, binding.privateKey)
    if (Either.isLeft(opened)) return { status: 421, json: { error: "no_descifrable" } } satisfies Reply
    const answer = yield* respond(binding, opened.right.payload as Payload, headers["x-flow-secret"], now)
    if ("json" in answer) return answer
    return { status: 200, text: Envelope.seal(answer, opened.right) } satisfies Reply
  })

/** The decrypted request's answer, before encryption; or a plain refusal. */
const respond = (
  binding: Binding,
  payload: Payload,
  headerSecret: string | undefined,
  now: Effect.Effect<Date>
): Effect.Effect<Answer | Reply, never, PgClient.PgClient | FlowCollector | Settings> =>
  Effect.gen(function* () {
    if (typeof payload !== "object" || payload === null)
      return { status: 400, json: { error: "sobre_invalido" } }
    if (payload.action === "ping") return { data: { status: "active" } }
    const data = payload.data ?? {}
    if (data.error !== undefined) return { data: { acknowledged: true } }

    const token = FlowToken.parse(payload.flow_token, headerSecret !== undefined)
    const secret = headerSecret ?? (Either.isRight(token) ? token.right.secret : null)
    if (Either.isLeft(token) || secret === null || !binding.secretMatches(secret)) {
      return { status: 401, json: { error: "unauthorized", detail: "flow_secret ausente o inválido" } }
    }
    const flowToken = token.right
    const amount = resolveAmount(binding, flowToken, data.monto)
    const resumen = (monto: Money.Cents | null) =>
      [binding.concepto, monto === null ? null : Money.format(monto)].filter((x) => x !== null).join(" · ")
    const datos = (monto: Money.Cents | null, error_message = "") => ({
      screen: SCREENS.datos,
      data: { bancos: bankOptions, resumen: resumen(monto), error_message }
    })
    const codigo = (monto: Money.Cents, error_message = "") => ({
      screen: SCREENS.codigo,
      data: { resumen: resumen(monto), error_message }
    })

    const accion = str(data.accion ?? data.action ?? payload.action)
    if (accion === "INIT" || accion === "BACK" || accion === "navigate") {
      return datos(Either.getOrNull(amount))
    }
    if (Either.isLeft(amount)) return datos(null, amount.left)
    const monto = amount.right
    const sessionKey = createHmac("sha256", binding.id).update(str(payload.flow_token)).digest("hex")
    const idempotencyKey = toUuid(sessionKey)
    const sql = yield* PgClient.PgClient
    const collector = yield* FlowCollector

    if (accion === "REQUEST_TOKEN") {
      const pagador = readPayer(data)
      if (Either.isLeft(pagador)) return datos(monto, pagador.left)
      if (binding.mode === "live") {
        const status = bankClose(yield* Settings, yield* now)
        if (status._tag === "Cerrado") return datos(monto, BankCalendar.MOTIVO_CIERRE)
      }
      yield* sql`
        insert into flow_sesiones (binding_id, flow_token_mac, idempotency_key, monto, pagador, telefono)
        values (${binding.id}, ${sessionKey}, ${idempotencyKey}, ${monto}, ${JSON.stringify(pagador.right.pagador)}::jsonb,
          ${pagador.right.telefono})
        on conflict (binding_id, flow_token_mac) do update set pagador = excluded.pagador,
          telefono = excluded.telefono, updated_at = now()
        where flow_sesiones.estado <> 'pagado'`
      const result = yield* collector.requestCode(order(binding, idempotencyKey, monto, pagador.right))
      if (result._tag === "Refused") return datos(monto, result.motivo)
      if (result.resultado.estado === "RECHAZADA") return datos(monto, rejection(result.resultado))
      return codigo(monto)
    }

    if (accion === "CONFIRM_PAYMENT") {
      const rows = yield* sql<{
        estado: string
        pagador: Instrument.Instrument
        telefono: string
        monto: number
      }>`
        select estado, pagador, telefono, monto from flow_sesiones
        where binding_id = ${binding.id} and flow_token_mac = ${sessionKey}`
      const session = rows[0]
      if (session === undefined) return datos(monto, "Primero pide el código de tu banco.")
      if (session.estado === "pagado") return exito("Pago confirmado. ¡Gracias!")
      const otp = str(data.otp)
      if (!/^\d{4,12}$/.test(otp)) return codigo(monto, "Escribe el código que te envió tu banco.")
      const payer = { pagador: session.pagador, telefono: session.telefono }
      const result = yield* collector.collect({
        ...order(binding, idempotencyKey, Money.Cents(session.monto), payer),
        otp
      })
      if (result._tag === "Refused") return codigo(monto, result.motivo)
      const { estado } = result.resultado
      if (estado === "RECHAZADA") return codigo(monto, rejection(result.resultado))
      const nuevo = estado === "LIQUIDADA" ? "pagado" : "procesando"
      yield* sql`
        update flow_sesiones set estado = ${nuevo}, resultado = ${JSON.stringify(result.resultado)}::jsonb,
          updated_at = now()
        where binding_id = ${binding.id} and flow_token_mac = ${sessionKey}`
      return exito(
        estado === "LIQUIDADA"
          ? "Pago confirmado. ¡Gracias!"
          : "Tu banco está procesando el pago; te avisaremos."
      )
    }
    return datos(monto, "Acción desconocida.")
  }).pipe(Effect.orDie)

const exito = (mensaje: string) => ({ screen: SCREENS.exito, data: { mensaje } })

const rejection = (r: Resultado.Resultado) =>
  r.motivo_rechazo === null ? "Tu banco rechazó el pago." : Resultado.motivoParaPagador[r.motivo_rechazo]

const order = (
  binding: Binding,
  idempotencyKey: string,
  monto: Money.Cents,
  payer: { readonly pagador: Instrument.Instrument; readonly telefono: string }
): CollectOrder => ({
  comercioId: binding.comercioId,
  mode: binding.mode,
  idempotencyKey,
  monto,
  concepto: binding.concepto ?? "Pago por WhatsApp",
  cobrador: binding.cuenta,
  pagador: payer.pagador,
  telefonoPagador: payer.telefono
})

/** The amount to collect: fixed by the binding, signed in the token, or sent by the flow. */
const resolveAmount = (
  binding: Binding,
  token: FlowToken.FlowToken,
  sent: unknown
): Either.Either<Money.Cents, string> => {
  const fromFlow =
    typeof sent === "number"
      ? Either.getOrNull(Money.fromPositiveNumber(sent))
      : typeof sent === "string" && sent !== ""
        ? Either.getOrNull(Money.parseDecimal(sent))
        : null
  if (binding.montoSecret !== null) {
    if (!FlowToken.verifyAmount(token, binding.montoSecret) || token.monto === null) {
      return Either.left("El monto de la orden no está firmado correctamente.")
    }
    if (fromFlow !== null && fromFlow !== token.monto)
      return Either.left("El monto no coincide con la orden.")
    if (binding.montoFijo !== null && binding.montoFijo !== token.monto)
      return Either.left("El monto no coincide con la orden.")
    return Either.right(token.monto)
  }
  if (binding.montoFijo !== null) {
    const other = fromFlow ?? token.monto
    return other !== null && other !== binding.montoFijo
      ? Either.left("El monto no coincide con el de este cobro.")
      : Either.right(binding.montoFijo)
  }
  const monto = fromFlow ?? token.monto
  return monto === null || monto <= 0 ? Either.left("Falta el monto del cobro.") : Either.right(monto)
}

/** The payer's bank, phone and id from the DATOS screen. */
const readPayer = (data: Record<string, unknown>) => {
  const banco = str(data.banco)
  if (!Venezuela.isBankCode(banco)) return Either.left("Elige tu banco.")
  const telefono = Venezuela.normalizePhone(str(data.telefono))
  if (Option.isNone(telefono)) return Either.left("Escribe el teléfono de tu pago móvil (04XX-XXXXXXX).")
  const tipoDoc = str(data.tipo_doc || "V").toUpperCase()
  const cedula = str(data.cedula).replace(/\D/g, "")
  if (!["V", "E", "J", "P", "G"].includes(tipoDoc) || cedula.length < 4 || cedula.length > 10) {
    return Either.left("Escribe tu número de documento.")
  }
  const pagador: Instrument.Instrument = {
    tipo: "telefono",
    valor: telefono.value,
    banco,
    identificacion: `${tipoDoc}${cedula}`,
    tipo_doc: tipoDoc as "V",
    nombre: "Pagador WhatsApp"
  }
  return Either.right({ pagador, telefono: telefono.value })
}

/** A stable UUID from a hex digest, as the direct API wants its idempotency keys. */
const toUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
