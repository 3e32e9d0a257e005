/**
 * The Mercantil Banco adapter of @switch/core's BankGateway: pago móvil C2P through Mercantil's
 * published mobile-payment API (its `apimercantil/api-playground` repository and API portal).
 *
 *   requestCode → POST {base}/v1/mobile-payment/scp      (transaction_scpInfo)
 *   debit       → POST {base}/v1/payment/c2p   trx_type `compra`    (payment_method c2p)
 *   reverse     → POST {base}/v1/payment/c2p   trx_type `anulacion` (with the original reference)
 *   credit      → POST {base}/v1/payment/c2p   trx_type `vuelto`    (payment_method p2p)
 *   refund      → a `vuelto` of the amount to the original payer
 *   query       → POST {base}/v1/mobile-payment/search              (search_by)
 *
 * Every body carries `merchant_identify` and `client_identify`, every request the header
 * `X-IBM-Client-Id`; ids, phones and the payment key are encrypted (Cifrado.ts). What an answer
 * means is Tabla.ts. Mercantil's search finds an operation by amount, phones, reference and
 * date, not by our id, so what each order sent is kept in a {@link Bitacora} before it leaves:
 * an unclear order is settled by searching for exactly what was sent, never by resending it.
 */
import { BankCalendar, type Ports } from "@switch/core"
import { type Context, Duration, Effect, Redacted } from "effect"
import { type Agent, request } from "undici"
import type { LiveBank } from "../Banks.js"
import { neverSent } from "../NotSent.js"
import { cifrar, claveDe } from "./Cifrado.js"
import { DESCONOCIDA, leer, leerBusqueda, type Salida } from "./Tabla.js"

type Gateway = Context.Tag.Service<LiveBank>

/** Mercantil's bank code in the BCV list. */
export const MERCANTIL = "0105"

/** What Mercantil gives a merchant at affiliation. The secrets stay `Redacted` until a request is made. */
export interface Credenciales {
  readonly integratorId: string
  readonly merchantId: string
  readonly terminalId: string
  readonly clientId: Redacted.Redacted<string>
  readonly secreto: Redacted.Redacted<string>
}

/** What one order sent: enough to search for it and to cancel it. */
export interface Orden {
  readonly operacionId: string
  readonly operacion: "clave" | "compra" | "anulacion" | "vuelto"
  /** Cents. */
  readonly monto: number
  /** The merchant's phone (`origin_mobile_number`), as sent: 58 and ten digits. */
  readonly telefonoComercio: string
  readonly telefonoCliente: string
  readonly idCliente: string
  readonly bancoCliente: string
  /** Caracas day the order was sent, YYYY-MM-DD (`trx_date` of a search). */
  readonly fecha: string
  /** Mercantil's `payment_reference`, once an answer gave it. */
  readonly referencia: string | null
}

/** Where orders are written before they are sent, and read to search for them. */
export interface Bitacora {
  readonly guardar: (orden: Orden) => Effect.Effect<void>
  readonly referencia: (operacionId: string, referencia: string) => Effect.Effect<void>
  readonly leer: (operacionId: string) => Effect.Effect<Orden | undefined>
}

/** A journal in memory: for tests, and for a process whose orders need not outlive it. */
export const bitacoraEnMemoria = (): Bitacora => {
  const ordenes = new Map<string, Orden>()
  return {
    guardar: (o) => Effect.sync(() => void ordenes.set(o.operacionId, o)),
    referencia: (id, referencia) =>
      Effect.sync(() => {
        const o = ordenes.get(id)
        if (o !== undefined) ordenes.set(id, { ...o, referencia })
      }),
    leer: (id) => Effect.sync(() => ordenes.get(id))
  }
}

const digitos = (s: string) => s.replace(/\D/g, "")

/** A Venezuelan mobile as Mercantil writes it: 58 and ten digits (`0414-1234567` → `584141234567`). */
export const telefonoMercantil = (valor: string): string => {
  const d = digitos(valor)
  if (d.startsWith("58") && d.length === 12) return d
  return `58${d.startsWith("0") ? d.slice(1) : d}`
}

/** An id as Mercantil writes it: its letter and digits (`V-12.345.678` → `V12345678`). */
export const idMercantil = (identificacion: string, tipo?: string): string => {
  const letra = /^[VEJPG]/i.exec(identificacion.trim())?.[0]?.toUpperCase() ?? tipo ?? "V"
  return `${letra}${digitos(identificacion)}`
}

/** Bolivars with two decimals as a JSON number, from cents. */
export const montoMercantil = (centavos: number): number => Math.round(centavos) / 100

const PAUSAS_MS = [200, 600]

export interface OpcionesMercantil {
  /** Up to and without `/v1`, e.g. `https://apimbu.mercantilbanco.com/mercantil-banco/prod`. */
  readonly url: string
  readonly timeoutMs: number
  readonly credenciales: Credenciales
  readonly bitacora: Bitacora
  readonly agent?: Agent | undefined
  /** The merchant's affiliated phone when the collecting party is an account rather than a phone. */
  readonly telefonoComercio?: string | undefined
  readonly ahora?: () => Date
}

/** The request bodies, apart from the transport so the contract tests can compare them. */
export const cuerpos = (credenciales: Credenciales) => {
  const clave = claveDe(Redacted.value(credenciales.secreto))
  const c = (texto: string) => cifrar(clave, texto)
  const comunes = {
    merchant_identify: {
      integratorId: credenciales.integratorId,
      merchantId: credenciales.merchantId,
      terminalId: credenciales.terminalId
    },
    // Mercantil asks for the channel the order came from; ours is this server.
    client_identify: {
      ipaddress: "127.0.0.1",
      browser_agent: "Switch",
      mobile: { manufacturer: "Switch" }
    }
  }
  return {
    scp: (o: Orden) => ({
      ...comunes,
      transaction_scpInfo: {
        destination_id: c(o.idCliente),
        destination_mobile_number: c(o.telefonoCliente)
      }
    }),
    c2p: (o: Orden, otp: string) => ({
      ...comunes,
      transaction_c2p: {
        amount: montoMercantil(o.monto),
        currency: "ves",
        destination_bank_id: Number(o.bancoCliente),
        destination_id: c(o.idCliente),
        destination_mobile_number: c(o.telefonoCliente),
        origin_mobile_number: c(o.telefonoComercio),
        payment_reference: o.operacion === "anulacion" ? (o.referencia ?? "") : "",
        trx_type: o.operacion,
        payment_method: o.operacion === "vuelto" ? "p2p" : "c2p",
        invoice_number: o.operacionId,
        twofactor_auth: o.operacion === "compra" ? c(otp) : ""
      }
    }),
    search: (o: Orden) => ({
      ...comunes,
      search_by: {
        amount: montoMercantil(o.monto),
        currency: "ves",
        destination_mobile_number: c(o.telefonoCliente),
        origin_mobile_number: c(o.telefonoComercio),
        payment_reference: o.referencia ?? "",
        trx_date: o.fecha
      }
    })
  }
}

const rechazada = (motivo: Ports.BankAnswer["motivo_rechazo"]): Ports.BankAnswer => ({
  estado: "RECHAZADA",
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: motivo
})

/** The Mercantil adapter. */
export const makeMercantilBank = (opciones: OpcionesMercantil): Gateway => {
  const { bitacora } = opciones
  const ahora = opciones.ahora ?? (() => new Date())
  const cuerpo = cuerpos(opciones.credenciales)
  const clientId = opciones.credenciales.clientId

  const una = (ruta: string, body: unknown): Effect.Effect<Salida> =>
    Effect.promise(async () => {
      try {
        const res = await request(`${opciones.url}${ruta}`, {
          method: "POST",
          ...(opciones.agent === undefined ? {} : { dispatcher: opciones.agent }),
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "x-ibm-client-id": Redacted.value(clientId)
          },
          body: JSON.stringify(body),
          headersTimeout: opciones.timeoutMs,
          bodyTimeout: opciones.timeoutMs,
          signal: AbortSignal.timeout(opciones.timeoutMs)
        })
        const raw = await res.body.text()
        let parsed: unknown = null
        try {
          parsed = JSON.parse(raw)
        } catch {}
        return { _tag: "Respuesta", status: res.statusCode, body: parsed } as const
      } catch (error) {
        return neverSent(error) ? ({ _tag: "NoEnviada" } as const) : ({ _tag: "SinRespuesta" } as const)
      }
    })

  /** Sends, retrying only what provably never left; never cut short by the caller. */
  const enviar = (ruta: string, body: unknown): Effect.Effect<Salida> =>
    Effect.uninterruptible(
      Effect.gen(function* () {
        let salida = yield* una(ruta, body)
        for (const pausa of PAUSAS_MS) {
          if (salida._tag !== "NoEnviada") break
          yield* Effect.sleep(Duration.millis(pausa))
          salida = yield* una(ruta, body)
        }
        return salida
      })
    )

  /** Journals the order, sends it once, reads the answer, keeps the reference it gave. */
  const ordenar = (orden: Orden, ruta: string, body: unknown) =>
    Effect.gen(function* () {
      yield* bitacora.guardar(orden)
      const answer = leer(orden.operacion, yield* enviar(ruta, body))
      if (answer.referencia_banco !== null)
        yield* bitacora.referencia(orden.operacionId, answer.referencia_banco)
      return answer
    })

  const telefonoDe = (p: Ports.Party): string | null =>
    p.tipo === "telefono"
      ? telefonoMercantil(p.valor)
      : opciones.telefonoComercio === undefined
        ? null
        : telefonoMercantil(opciones.telefonoComercio)

  const orden = (
    operacion: Orden["operacion"],
    o: { operacionId: string; monto: number },
    comercio: Ports.Party,
    cliente: Ports.Party
  ): Orden | null => {
    const telefonoComercio = telefonoDe(comercio)
    if (telefonoComercio === null || cliente.tipo !== "telefono") return null
    return {
      operacionId: o.operacionId,
      operacion,
      monto: o.monto,
      telefonoComercio,
      telefonoCliente: telefonoMercantil(cliente.valor),
      idCliente: idMercantil(cliente.identificacion, cliente.tipo_doc),
      bancoCliente: cliente.banco,
      fecha: BankCalendar.caracasDayKey(ahora()),
      referencia: null
    }
  }

  // Mercantil's C2P moves money between phones; an order without one is refused before sending.
  const sinTelefono = Effect.succeed(rechazada("NO_SOPORTADO"))

  const vueltoDe = (o: Ports.CreditOrder | null, base: Orden | null, id: string, monto: number) => {
    if (o !== null) {
      const v = orden("vuelto", o, o.ordenante, o.beneficiario)
      return v === null ? sinTelefono : ordenar(v, "/v1/payment/c2p", cuerpo.c2p(v, ""))
    }
    if (base === null) return Effect.succeed(rechazada("NO_SOPORTADO"))
    const v: Orden = {
      ...base,
      operacionId: id,
      operacion: "vuelto",
      monto,
      fecha: BankCalendar.caracasDayKey(ahora()),
      referencia: null
    }
    return ordenar(v, "/v1/payment/c2p", cuerpo.c2p(v, ""))
  }

  return {
    requestCode: (o) => {
      const c = orden("clave", o, o.cobrador, o.pagador)
      return c === null ? sinTelefono : ordenar(c, "/v1/mobile-payment/scp", cuerpo.scp(c))
    },
    debit: (o) => {
      const c = orden("compra", o, o.cobrador, o.pagador)
      return c === null ? sinTelefono : ordenar(c, "/v1/payment/c2p", cuerpo.c2p(c, o.otp))
    },
    credit: (o) => vueltoDe(o, null, o.operacionId, o.monto),
    query: (operacionId) =>
      Effect.gen(function* () {
        const o = yield* bitacora.leer(operacionId)
        // Never sent from here, or a key request (nothing to search for): nothing to say.
        if (o === undefined || o.operacion === "clave") return DESCONOCIDA
        const answer = leerBusqueda(operacionId, yield* enviar("/v1/mobile-payment/search", cuerpo.search(o)))
        if (answer.referencia_banco !== null && o.referencia === null)
          yield* bitacora.referencia(operacionId, answer.referencia_banco)
        return answer
      }),
    reverse: (o) =>
      Effect.gen(function* () {
        const original = yield* bitacora.leer(o.originalId)
        // Mercantil cancels by the purchase's reference: without it nothing can be named.
        if (original === undefined || original.operacion !== "compra" || original.referencia === null)
          return rechazada("NO_SOPORTADO")
        const a: Orden = {
          ...original,
          operacionId: o.operacionId,
          operacion: "anulacion",
          fecha: BankCalendar.caracasDayKey(ahora())
        }
        return yield* ordenar(a, "/v1/payment/c2p", cuerpo.c2p(a, ""))
      }),
    refund: (o) =>
      Effect.flatMap(bitacora.leer(o.originalId), (original) =>
        vueltoDe(null, original?.operacion === "compra" ? original : null, o.operacionId, o.monto)
      )
  }
}
