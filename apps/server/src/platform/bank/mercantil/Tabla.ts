/**
 * How a Mercantil answer becomes the port's answer: one pure table, so what is approved, what
 * is rejected and what stays unclear can be read (and tested) in one place.
 *
 * - `trx_status` `approved` is done: `LIQUIDADA` (a code request: `ACEPTADA`, the key was sent).
 * - An explicit no is `RECHAZADA`: `trx_status` `rejected`, or an `error_list` in a 4xx answer.
 *   Its `motivo_rechazo` comes from the error's description when the description says which of
 *   SPEC's reasons it is, and is the generic `DESCONOCIDO` otherwise.
 * - Everything else is unclear, `DESCONOCIDA`: no answer, a 5xx, a shape or a `trx_status` we
 *   do not know. Money may have moved, so it is settled only by `search`, never by resending.
 *
 * Mercantil publishes its error codes as a PDF (api_c2p_tipo_de_errores); the descriptions are
 * what this table reads, so a code it has never seen still lands on the right side: a 4xx
 * `error_list` is a refusal whatever its code, with the generic reason.
 */
import type { Ports, Resultado } from "@switch/core"

/** Which Mercantil operation an answer is to. */
export type Operacion = "clave" | "compra" | "anulacion" | "vuelto" | "busqueda"

/** What came back from one call: nothing sent, sent with no answer, or an HTTP answer. */
export type Salida =
  | { readonly _tag: "NoEnviada" }
  | { readonly _tag: "SinRespuesta" }
  | { readonly _tag: "Respuesta"; readonly status: number; readonly body: unknown }

/** One error of an `error_list`. */
export interface ErrorMercantil {
  readonly error_code: string
  readonly description: string
}

/** `transaction_c2p_response` as the published answers show it. */
export interface RespuestaC2P {
  readonly trx_status: string
  readonly payment_reference: string | null
  readonly trx_internal_status: string | null
  readonly authorization_code: string | null
  readonly invoice_number: string | null
  readonly processing_date: string | null
}

/**
 * Words of an error description, lower case and without accents, to SPEC's reason. The first
 * match wins, so the narrower phrases come first.
 */
export const MOTIVOS_POR_DESCRIPCION: ReadonlyArray<readonly [RegExp, Resultado.MotivoRechazo]> = [
  [/saldo insuficiente|fondos insuficientes/, "SALDO_INSUFICIENTE"],
  [/clave de pago|clave invalida|clave vencida|token|otp|twofactor/, "OTP_INVALIDO"],
  [/no afiliad/, "NO_AFILIADO_SERVICIO"],
  [/no coincide|identificacion invalida|cedula/, "BENEFICIARIO_NO_COINCIDE"],
  [/limite|excede/, "EXCEDE_LIMITE"],
  [/bloquead/, "CUENTA_BLOQUEADA"],
  [/no existe|no encontrad|no registrad/, "CUENTA_NO_EXISTE"],
  [/no admite debito|no permite debito/, "CUENTA_NO_DEBITO"],
  [/no admite credito|no permite credito/, "CUENTA_NO_CREDITO"],
  [/monto/, "MONTO_INVALIDO"],
  [/duplicad|ya fue procesad/, "DUPLICADA"],
  [/horario/, "FUERA_DE_HORARIO"],
  [/no disponible|fuera de servicio/, "BANCO_NO_DISPONIBLE"],
  [/client.?id|credencial|autenticacion|no autorizad|merchant|integrator|terminal/, "FIRMA_AUTH"],
  [/no soportad|no permitid/, "NO_SOPORTADO"],
  [/riesgo|fraude|seguridad/, "BLOQUEO_RIESGO"],
  [/cancelad/, "CANCELADA_POR_PAGADOR"],
  [/tecnic/, "RECHAZO_TECNICO"]
]

const plano = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()

/** SPEC's reason for an error description; `DESCONOCIDO` (the generic one) when none says. */
export const motivoDe = (description: string): Resultado.MotivoRechazo => {
  const texto = plano(description)
  return MOTIVOS_POR_DESCRIPCION.find(([re]) => re.test(texto))?.[1] ?? "DESCONOCIDO"
}

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null

const texto = (v: unknown): string | null =>
  typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null

/** The `error_list` of an answer, or none when it has no readable one. */
export const erroresDe = (body: unknown): ReadonlyArray<ErrorMercantil> | null => {
  const lista = obj(body)?.error_list
  if (!Array.isArray(lista) || lista.length === 0) return null
  const errores = lista.flatMap((e) => {
    const o = obj(e)
    const code = texto(o?.error_code)
    const description = typeof o?.description === "string" ? o.description : ""
    return code === null && description === "" ? [] : [{ error_code: code ?? "", description }]
  })
  return errores.length === 0 ? null : errores
}

/** A `transaction_c2p_response` (or one element of a search's list) with a readable status. */
export const c2pDe = (v: unknown): RespuestaC2P | null => {
  const o = obj(v)
  const trx_status = o === null ? null : texto(o.trx_status)
  if (o === null || trx_status === null) return null
  return {
    trx_status: trx_status.toLowerCase(),
    payment_reference: texto(o.payment_reference),
    trx_internal_status: texto(o.trx_internal_status),
    authorization_code: texto(o.authorization_code),
    invoice_number: texto(o.invoice_number),
    processing_date: texto(o.processing_date)
  }
}

const respuesta = (
  estado: Ports.BankAnswer["estado"],
  motivo: Resultado.MotivoRechazo | null = null,
  referencia: string | null = null
): Ports.BankAnswer => ({ estado, referencia_banco: referencia, endtoend: null, motivo_rechazo: motivo })

/** Unclear: settle it by `search`, never by sending it again. */
export const DESCONOCIDA: Ports.BankAnswer = respuesta("DESCONOCIDA")

/** A refusal read from an `error_list`: the first description that names a reason decides. */
export const rechazo = (errores: ReadonlyArray<ErrorMercantil>): Ports.BankAnswer => {
  const motivos = errores.map((e) => motivoDe(e.description))
  const primero = errores[0]
  return {
    ...respuesta("RECHAZADA", motivos.find((m) => m !== "DESCONOCIDO") ?? "DESCONOCIDO"),
    codigo_banco: primero === undefined || primero.error_code === "" ? null : primero.error_code,
    mensaje_banco: primero === undefined || primero.description === "" ? null : primero.description
  }
}

/** What a `transaction_c2p_response` says, for an order that moves money or sends a key. */
export const leerC2P = (operacion: Operacion, r: RespuestaC2P): Ports.BankAnswer => {
  switch (r.trx_status) {
    case "approved":
      return operacion === "clave"
        ? respuesta("ACEPTADA", null, r.payment_reference)
        : respuesta("LIQUIDADA", null, r.payment_reference)
    case "rejected":
      return {
        ...respuesta(
          "RECHAZADA",
          r.trx_internal_status === null ? "DESCONOCIDO" : motivoDe(r.trx_internal_status),
          r.payment_reference
        ),
        codigo_banco: null,
        mensaje_banco: r.trx_internal_status
      }
    default:
      return DESCONOCIDA
  }
}

/**
 * The table: the answer to an order (`clave`, `compra`, `anulacion`, `vuelto`). A call that
 * provably never left is `RECHAZADA BANCO_NO_DISPONIBLE` (nothing was done); see the header for
 * the rest.
 */
export const leer = (operacion: Exclude<Operacion, "busqueda">, salida: Salida): Ports.BankAnswer => {
  if (salida._tag === "NoEnviada") return respuesta("RECHAZADA", "BANCO_NO_DISPONIBLE")
  if (salida._tag === "SinRespuesta" || salida.status >= 500) return DESCONOCIDA
  const errores = erroresDe(salida.body)
  if (salida.status >= 400) return errores === null ? DESCONOCIDA : rechazo(errores)
  const c2p = c2pDe(obj(salida.body)?.transaction_c2p_response)
  if (c2p !== null) return leerC2P(operacion, c2p)
  // A key request answered 2xx with neither a status nor errors: the key is on its way.
  if (operacion === "clave" && errores === null && obj(salida.body) !== null) return respuesta("ACEPTADA")
  // Errors in a 2xx, or a shape we do not know: unclear.
  return DESCONOCIDA
}

/**
 * The answer to `search` for one order (`invoice_number` is our operation id). Found: what its
 * status says. An empty list is the bank saying it never received the order (`noRecibida`).
 * Anything else (no answer, a 5xx, errors, a shape we do not know) says nothing: `DESCONOCIDA`.
 */
export const leerBusqueda = (operacionId: string, salida: Salida): Ports.BankAnswer => {
  if (salida._tag !== "Respuesta" || salida.status >= 300) return DESCONOCIDA
  const lista = obj(salida.body)?.transaction_list
  if (!Array.isArray(lista)) return DESCONOCIDA
  const leidas = lista.map(c2pDe).filter((r): r is RespuestaC2P => r !== null)
  if (leidas.length !== lista.length) return DESCONOCIDA
  if (leidas.length === 0) return { ...DESCONOCIDA, noRecibida: true }
  // Ours are those with our invoice number; a bank that does not echo it leaves one match ours
  // only when it is the only one (two same-amount payments of one payer in a day are ambiguous).
  const conFactura = leidas.filter((r) => r.invoice_number === operacionId)
  const sinFactura = leidas.filter((r) => r.invoice_number === null)
  const nuestras = conFactura.length > 0 ? conFactura : sinFactura.length === 1 ? sinFactura : []
  if (nuestras.length === 0) return sinFactura.length > 1 ? DESCONOCIDA : { ...DESCONOCIDA, noRecibida: true }
  // An approved one among them is ours; otherwise the last attempt speaks.
  const aprobada = nuestras.find((r) => r.trx_status === "approved")
  return leerC2P("compra", aprobada ?? (nuestras.at(-1) as RespuestaC2P))
}
