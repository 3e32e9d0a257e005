/**
 * The live bank adapter: @switch/core's BankGateway over HTTP to SWITCH_BANK_URL (the bank
 * simulator's protocol, apps/bank-sim), with a deadline on every call.
 *
 * What an answer means is decided by when the call failed:
 * - it provably never reached the bank (connection refused, DNS failure, connect timeout): it
 *   is retried twice with a short pause, then answered `RECHAZADA BANCO_NO_DISPONIBLE`, since
 *   nothing was done;
 * - it was sent and no answer came (deadline, socket closed, a 5xx): money operations are
 *   `DESCONOCIDA` and are never resent, only queried (Reconcile.ts); a code request is
 *   `DESCONOCIDA` too, as the payer may have received the code;
 * - the bank answered: its own codes are normalised to SPEC's `motivo_rechazo` list.
 */

import { SqlClient } from "@effect/sql"
import type { Ports, Resultado } from "@switch/core"
import { type Context, Duration, Effect, Layer, Option } from "effect"
import { Agent, request } from "undici"
import { type MercantilSettings, type ServerSettings, Settings } from "../../Config.js"
import { LiveBank } from "./Banks.js"
import { bitacoraSql } from "./mercantil/Bitacora.js"
import { bitacoraEnMemoria, makeMercantilBank } from "./mercantil/Mercantil.js"
import { neverSent } from "./NotSent.js"
import { porBanco } from "./PorBanco.js"

type Gateway = Context.Tag.Service<LiveBank>

/** A credit that may name the bank it is routed through (`banco_preferido`, re-routing). */
export interface RoutedCreditOrder extends Ports.CreditOrder {
  readonly bancoRuta?: string | undefined
}

/** The bank's own answer codes to SPEC's rejection reasons; anything else is `DESCONOCIDO`. */
export const MOTIVOS: Readonly<Record<string, Resultado.MotivoRechazo>> = {
  "05": "DESCONOCIDO",
  "09": "PENDIENTE_BCV",
  "13": "MONTO_INVALIDO",
  "14": "CUENTA_NO_EXISTE",
  "17": "CANCELADA_POR_PAGADOR",
  "25": "DESCONOCIDO",
  "40": "NO_SOPORTADO",
  "51": "SALDO_INSUFICIENTE",
  "55": "OTP_INVALIDO",
  "56": "BENEFICIARIO_NO_COINCIDE",
  "57": "CUENTA_NO_DEBITO",
  "58": "CUENTA_NO_CREDITO",
  "59": "BLOQUEO_RIESGO",
  "61": "EXCEDE_LIMITE",
  "62": "CUENTA_BLOQUEADA",
  "63": "FIRMA_AUTH",
  "80": "NO_AFILIADO_SERVICIO",
  "91": "BANCO_NO_DISPONIBLE",
  "92": "FUERA_DE_HORARIO",
  "94": "DUPLICADA",
  "96": "RECHAZO_TECNICO"
}

/** The bank's code for an operation in central-bank settlement: waiting, whatever its state says. */
const PENDIENTE_BCV = "09"
/** The bank's code for an operation it never received (with a 404 to a query). */
const NO_ENCONTRADA = "25"

const codeOf = (body: unknown): string | undefined => {
  const codigo =
    typeof body === "object" && body !== null ? (body as Record<string, unknown>).codigo_respuesta : undefined
  return typeof codigo === "string" ? codigo : undefined
}

const answer = (
  estado: Ports.BankAnswer["estado"],
  motivo: Resultado.MotivoRechazo | null = null,
  referencia: string | null = null,
  endtoend: string | null = null
): Ports.BankAnswer => ({ estado, referencia_banco: referencia, endtoend, motivo_rechazo: motivo })

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null)

/** Reads the bank's JSON answer into the port's normalised answer. */
export const normalise = (body: unknown): Ports.BankAnswer => {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>
  const codigo = typeof b.codigo_respuesta === "string" ? b.codigo_respuesta : ""
  const ref = text(b.referencia)
  const e2e = text(b.endtoend)
  switch (b.estado) {
    case "ENVIADO":
      return answer("ACEPTADA", null, ref, e2e)
    case "APROBADA":
      return answer("LIQUIDADA", null, ref, e2e)
    case "EN_PROCESO":
      return answer(codigo === PENDIENTE_BCV ? "PENDIENTE" : "ACEPTADA", null, ref, e2e)
    case "RECHAZADA":
      // SPEC: `PENDIENTE_BCV` is "in central-bank settlement; query later", never a final no.
      return codigo === PENDIENTE_BCV
        ? answer("PENDIENTE", null, ref, e2e)
        : {
            ...answer("RECHAZADA", MOTIVOS[codigo] ?? "DESCONOCIDO", ref, e2e),
            // The bank's own code and words, kept for the operator beside the normalised reason.
            codigo_banco: codigo === "" ? null : codigo,
            mensaje_banco: text(b.descripcion) ?? text(b.mensaje)
          }
    default:
      return answer("DESCONOCIDA")
  }
}

type Outcome =
  | { readonly _tag: "Answered"; readonly status: number; readonly body: unknown }
  | { readonly _tag: "NotSent" }
  | { readonly _tag: "NoAnswer" }

const RETRY_PAUSES_MS = [200, 600]

/** The HTTP bank at `url`; every call gives up after `timeoutMs`. */
export const makeHttpBank = (options: {
  readonly url: string
  readonly timeoutMs: number
  readonly agent: Agent
}): Gateway => {
  const once = (method: "GET" | "POST", path: string, body?: unknown): Effect.Effect<Outcome> =>
    Effect.promise(async () => {
      try {
        const res = await request(`${options.url}${path}`, {
          method,
          dispatcher: options.agent,
          headers: body === undefined ? {} : { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          signal: AbortSignal.timeout(options.timeoutMs)
        })
        const raw = await res.body.text()
        let parsed: unknown = null
        try {
          parsed = JSON.parse(raw)
        } catch {}
        return { _tag: "Answered", status: res.statusCode, body: parsed } as const
      } catch (error) {
        return neverSent(error) ? ({ _tag: "NotSent" } as const) : ({ _tag: "NoAnswer" } as const)
      }
    })

  /** Sends, retrying only what provably never left; bank calls are never cut short by the caller. */
  const call = (method: "GET" | "POST", path: string, body?: unknown): Effect.Effect<Outcome> =>
    Effect.uninterruptible(
      Effect.gen(function* () {
        let outcome = yield* once(method, path, body)
        for (const pause of RETRY_PAUSES_MS) {
          if (outcome._tag !== "NotSent") break
          yield* Effect.sleep(Duration.millis(pause))
          outcome = yield* once(method, path, body)
        }
        return outcome
      })
    )

  /** An order that moves money or sends a code: an unclear outcome is `DESCONOCIDA`. */
  const order = (path: string, body: Record<string, unknown>) =>
    Effect.map(call("POST", path, body), (o): Ports.BankAnswer => {
      if (o._tag === "NotSent") return answer("RECHAZADA", "BANCO_NO_DISPONIBLE")
      if (o._tag === "NoAnswer" || o.status >= 500) return answer("DESCONOCIDA")
      return normalise(o.body)
    })

  const party = (p: Ports.Party) => ({
    tipo: p.tipo,
    valor: p.valor,
    banco: p.banco,
    identificacion: p.identificacion,
    nombre: p.nombre
  })

  return {
    requestCode: (o) =>
      order("/v1/c2p/codigo", {
        operacion_id: o.operacionId,
        monto: o.monto,
        concepto: o.concepto,
        pagador: party(o.pagador),
        cobrador: party(o.cobrador)
      }),
    debit: (o) =>
      order("/v1/c2p/debito", {
        operacion_id: o.operacionId,
        monto: o.monto,
        concepto: o.concepto,
        otp: o.otp,
        pagador: party(o.pagador),
        cobrador: party(o.cobrador)
      }),
    credit: (o: RoutedCreditOrder) =>
      order("/v1/transferencias", {
        operacion_id: o.operacionId,
        monto: o.monto,
        concepto: o.concepto,
        ordenante: party(o.ordenante),
        beneficiario: party(o.beneficiario),
        via: o.via,
        ...(o.bancoRuta === undefined ? {} : { banco_ruta: o.bancoRuta })
      }),
    // A query never changes anything. "Never received" (404) is still unknown, but the bank has
    // said it (`noRecibida`); no answer or a 5xx says nothing at all.
    query: (operacionId) =>
      Effect.map(call("GET", `/v1/operaciones/${encodeURIComponent(operacionId)}`), (o) => {
        if (o._tag === "Answered" && o.status < 300) return normalise(o.body)
        if (o._tag === "Answered" && o.status === 404 && codeOf(o.body) === NO_ENCONTRADA)
          return { ...answer("DESCONOCIDA"), noRecibida: true }
        return answer("DESCONOCIDA")
      }),
    reverse: (o) =>
      order("/v1/reversos", {
        operacion_id: o.operacionId,
        original_id: o.originalId,
        monto: o.monto,
        motivo: o.motivo
      }),
    refund: (o) =>
      order("/v1/devoluciones", {
        operacion_id: o.operacionId,
        original_id: o.originalId,
        monto: o.monto,
        motivo: o.motivo
      })
  }
}

/** Every call answers "bank unavailable, nothing sent": live mode without a bank configured. */
export const unavailableBank: Gateway = (() => {
  const down = Effect.succeed(answer("RECHAZADA", "BANCO_NO_DISPONIBLE"))
  return {
    requestCode: () => down,
    debit: () => down,
    credit: () => down,
    query: () => Effect.succeed(answer("DESCONOCIDA")),
    reverse: () => down,
    refund: () => down
  }
})()

/**
 * The live bank from Settings: the HTTP bank at `bankUrl`, or {@link unavailableBank} when none;
 * with the bank codes SWITCH_BANCO_ADAPTADORES gives Mercantil going to its adapter instead.
 */
export const LiveBankLive = Layer.scoped(
  LiveBank,
  Effect.gen(function* () {
    const settings = yield* Settings
    if (settings.bankUrl === null && settings.mercantil === undefined) {
      yield* Effect.logWarning("SWITCH_BANK_URL no está definido: el modo live no tiene banco")
      return unavailableBank
    }
    const agent = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new Agent({
            connect: { timeout: Math.min(settings.bankTimeoutMs, 5_000) },
            keepAliveTimeout: 4_000,
            connections: 64
          })
      ),
      (a) => Effect.promise(() => a.close().catch(() => undefined))
    )
    const http =
      settings.bankUrl === null
        ? unavailableBank
        : makeHttpBank({ url: settings.bankUrl, timeoutMs: settings.bankTimeoutMs, agent })
    return settings.mercantil === undefined
      ? http
      : yield* conMercantil(settings.mercantil, settings, agent, http)
  })
)

/** `http` for every bank but Mercantil's codes, which go to the Mercantil adapter (PorBanco.ts). */
const conMercantil = (mercantil: MercantilSettings, settings: ServerSettings, agent: Agent, http: Gateway) =>
  Effect.gen(function* () {
    const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
    const bitacora = Option.isSome(sql) ? bitacoraSql(sql.value) : bitacoraEnMemoria()
    const gateway = makeMercantilBank({
      url: mercantil.url,
      timeoutMs: settings.bankTimeoutMs,
      credenciales: mercantil,
      bitacora,
      agent,
      telefonoComercio: mercantil.telefono
    })
    const adaptador = {
      gateway,
      envio: (id: string) => Effect.map(bitacora.leer(id), (orden) => orden !== undefined),
      // Mercantil's vuelto is pago móvil to a phone; a crédito inmediato keeps the HTTP bank.
      llevaCredito: (o: Ports.CreditOrder) => o.via === "pago_movil" && o.beneficiario.tipo === "telefono"
    }
    return porBanco(new Map(mercantil.bancos.map((banco) => [banco, adaptador])), http)
  })
