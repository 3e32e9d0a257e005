/**
 * The simulator's Mercantil Banco dialect: the paths, bodies, field encryption, answers and
 * error lists of Mercantil's published mobile-payment API (its `apimercantil/api-playground`),
 * over the same books as the simulator's own protocol, so a payment runs end to end through the
 * server's real Mercantil adapter.
 *
 *   POST …/v1/mobile-payment/scp      transaction_scpInfo      → the payer's key is issued
 *   POST …/v1/payment/c2p             transaction_c2p, trx_type compra | anulacion | vuelto
 *   POST …/v1/mobile-payment/search   search_by                → transaction_list
 *
 * Any prefix before `/v1` is accepted (`/mercantil-banco/sandbox`, `/mercantil-banco/prod`).
 * Every request must carry `X-IBM-Client-Id` and encrypt ids, phones and the key (AES-128-ECB,
 * PKCS#5, base64, key = first 16 bytes of SHA-256 of the merchant secret) with the simulator's
 * Mercantil credentials (`mercantilClientId`, `mercantilSecreto` in its config). `invoice_number`
 * is the operation id: the same one never moves money twice.
 */
import { createDecipheriv, createHash } from "node:crypto"
import { type Bank, normalizarTelefono, type Parte } from "./Bank.js"
import { CODIGOS, type Respuesta } from "./Codes.js"

/** Which Mercantil operation a request is, and the simulator route its faults use. */
export type OperacionMercantil = "scp" | "compra" | "anulacion" | "vuelto" | "search"

export const RUTA_DE: Record<
  OperacionMercantil,
  "codigo" | "debito" | "reverso" | "transferencia" | "consulta"
> = {
  scp: "codigo",
  compra: "debito",
  anulacion: "reverso",
  vuelto: "transferencia",
  search: "consulta"
}

/** The path's operation, or none when the path is not Mercantil's. */
export const operacionDeRuta = (path: string): "scp" | "c2p" | "search" | null => {
  if (/\/v1\/mobile-payment\/scp$/.test(path)) return "scp"
  if (/\/v1\/payment\/c2p$/.test(path)) return "c2p"
  if (/\/v1\/mobile-payment\/search$/.test(path)) return "search"
  return null
}

/** Error descriptions in Mercantil's words for the simulator's codes (error_list). */
export const ERRORES: Readonly<Record<string, string>> = {
  [CODIGOS.GENERICO]: "Transacción rechazada",
  [CODIGOS.MONTO_INVALIDO]: "Monto inválido",
  [CODIGOS.CUENTA_NO_EXISTE]: "La cuenta o el teléfono no existe",
  [CODIGOS.CANCELADA_POR_PAGADOR]: "Operación cancelada por el cliente",
  [CODIGOS.NO_ENCONTRADA]: "Transacción original no encontrada",
  [CODIGOS.NO_SOPORTADO]: "Operación no soportada",
  [CODIGOS.SALDO_INSUFICIENTE]: "Saldo insuficiente",
  [CODIGOS.OTP_INVALIDO]: "Clave de pago inválida o vencida",
  [CODIGOS.BENEFICIARIO_NO_COINCIDE]: "La cédula no coincide con el teléfono",
  [CODIGOS.CUENTA_NO_DEBITO]: "La cuenta no admite débitos",
  [CODIGOS.CUENTA_NO_CREDITO]: "La cuenta no admite créditos",
  [CODIGOS.BLOQUEO_RIESGO]: "Rechazada por controles de riesgo",
  [CODIGOS.EXCEDE_LIMITE]: "Excede el límite permitido",
  [CODIGOS.CUENTA_BLOQUEADA]: "Cuenta bloqueada",
  [CODIGOS.FIRMA_AUTH]: "Error de autenticación",
  [CODIGOS.NO_AFILIADO]: "Cliente no afiliado al servicio",
  [CODIGOS.BANCO_NO_DISPONIBLE]: "Banco no disponible",
  [CODIGOS.FUERA_DE_HORARIO]: "Fuera de horario",
  [CODIGOS.DUPLICADA]: "Operación duplicada",
  [CODIGOS.RECHAZO_TECNICO]: "Error técnico"
}

export const errorList = (codigo: string, description?: string) => ({
  error_list: [
    {
      error_code: `00${codigo}`.slice(-4),
      description: description ?? ERRORES[codigo] ?? "Transacción rechazada"
    }
  ]
})

const claveDe = (secreto: string) => createHash("sha256").update(secreto, "utf8").digest().subarray(0, 16)

/** Decrypts a field; null when it is not one (wrong key, damaged, not base64). */
export const descifrar = (secreto: string, valor: unknown): string | null => {
  if (typeof valor !== "string" || valor === "") return null
  try {
    const d = createDecipheriv("aes-128-ecb", claveDe(secreto), null)
    return Buffer.concat([d.update(Buffer.from(valor, "base64")), d.final()]).toString("utf8")
  } catch {
    return null
  }
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}

/** `584141234567` → `04141234567`, the simulator's form. */
const telefono = (mercantil: string) => normalizarTelefono(mercantil)

const centavos = (amount: unknown): number =>
  typeof amount === "number" && Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN

const diaCaracas = (ms: number) => new Date(ms - 4 * 3_600_000).toISOString().slice(0, 10)

/** An order the dialect processed, so `search` can find it by what Mercantil searches by. */
interface Registro {
  readonly invoice: string
  readonly monto: number
  readonly telefonoCliente: string
  readonly telefonoComercio: string
  readonly dia: string
}

/** What the server answers: a status and a JSON body. */
export interface Salida {
  readonly status: number
  readonly body: unknown
}

/** A request read and checked: what the bank is asked to do, or the error to answer. */
export type Pedido =
  | { readonly _tag: "Error"; readonly salida: Salida }
  | {
      readonly _tag: "Orden"
      readonly operacion: OperacionMercantil
      /** The operation id (`invoice_number`); none for a key request or a search. */
      readonly id: string
      readonly monto: number
      /** Processes it on the books (moves money); the answer in the dialect. */
      readonly aplicar: () => Salida
      /** The answer had it been rejected with `codigo` (fault injection). */
      readonly rechazar: (codigo: string) => Salida
    }

/** The dialect over `bank`. */
export const makeMercantil = (bank: Bank) => {
  const registros: Array<Registro> = []

  const c2pRespuesta = (
    r: Respuesta,
    monto: number,
    invoice: string,
    extra: Record<string, unknown> = {}
  ) => {
    // The simulator's "in central-bank settlement" and "in process" are not final: pending.
    const trx_status =
      r.estado === "APROBADA" || r.estado === "ENVIADO"
        ? "approved"
        : r.estado === "EN_PROCESO" || r.codigo_respuesta === CODIGOS.PENDIENTE_BCV
          ? "pending"
          : "rejected"
    return {
      amount: monto / 100,
      currency: "ves",
      trx_status,
      payment_reference: r.referencia ?? "",
      trx_internal_status:
        trx_status === "rejected" ? (ERRORES[r.codigo_respuesta] ?? r.codigo_respuesta) : "0000",
      authorization_code: r.referencia === null ? "" : r.referencia.slice(-6),
      invoice_number: invoice,
      processing_date: new Date(bank.now()).toISOString().replace("T", " ").slice(0, 19),
      ...extra
    }
  }

  /** A money answer: approved or pending as `transaction_c2p_response`, a rejection as `error_list`. */
  const responder = (r: Respuesta, monto: number, invoice: string): Salida => {
    const c2p = c2pRespuesta(r, monto, invoice)
    if (c2p.trx_status !== "rejected") return { status: 200, body: { transaction_c2p_response: c2p } }
    return { status: 400, body: errorList(r.codigo_respuesta) }
  }

  /** The payer's account by phone at any bank, for a key request (scp names no bank). */
  const bancoDeTelefono = (tel: string): string =>
    bank.listarCuentas().find((c) => c.telefono !== null && normalizarTelefono(c.telefono) === tel)?.banco ??
    "0105"

  /** The merchant as a party: its account at Mercantil by phone, opened on first use. */
  const comercio = (tel: string, merchantId: string): Parte => ({
    tipo: "telefono",
    valor: tel,
    banco: "0105",
    identificacion: bank.cuenta("0105", tel)?.identificacion ?? merchantId
  })

  const leer = (path: "scp" | "c2p" | "search", headers: Record<string, unknown>, body: unknown): Pedido => {
    const error = (status: number, codigo: string, description?: string): Pedido => ({
      _tag: "Error",
      salida: { status, body: errorList(codigo, description) }
    })
    const cfg = bank.config
    if (headers["x-ibm-client-id"] !== cfg.mercantilClientId)
      return error(401, CODIGOS.FIRMA_AUTH, "X-IBM-Client-Id no autorizado")
    const b = obj(body)
    const merchant = obj(b.merchant_identify)
    if (typeof merchant.merchantId !== "string" || typeof merchant.integratorId !== "string")
      return error(
        400,
        CODIGOS.FIRMA_AUTH,
        "merchant_identify incompleto: integratorId, merchantId, terminalId"
      )
    const merchantId = merchant.merchantId
    const d = (v: unknown) => descifrar(cfg.mercantilSecreto, v)
    const datosInvalidos = error(400, CODIGOS.GENERICO, "Datos cifrados inválidos")

    if (path === "scp") {
      const info = obj(b.transaction_scpInfo)
      const id = d(info.destination_id)
      const tel = d(info.destination_mobile_number)
      if (id === null || tel === null) return datosInvalidos
      const pagador: Parte = {
        tipo: "telefono",
        valor: telefono(tel),
        banco: bancoDeTelefono(telefono(tel)),
        identificacion: id
      }
      const opId = `scp:${bank.now()}:${Math.random().toString(36).slice(2)}`
      return {
        _tag: "Orden",
        operacion: "scp",
        id: opId,
        monto: 0,
        aplicar: () => {
          const r = bank.solicitarCodigo({ operacion_id: opId, monto: 0, pagador })
          return r.estado === "RECHAZADA"
            ? { status: 400, body: errorList(r.codigo_respuesta) }
            : { status: 200, body: { transaction_c2p_response: c2pRespuesta(r, 0, "") } }
        },
        rechazar: (codigo) => ({ status: 400, body: errorList(codigo) })
      }
    }

    if (path === "search") {
      const s = obj(b.search_by)
      const monto = centavos(s.amount)
      const cliente = d(s.destination_mobile_number)
      const comercioTel = d(s.origin_mobile_number)
      if (cliente === null || comercioTel === null) return datosInvalidos
      const ref = typeof s.payment_reference === "string" ? s.payment_reference : ""
      const dia = typeof s.trx_date === "string" ? s.trx_date : ""
      return {
        _tag: "Orden",
        operacion: "search",
        id: "",
        monto,
        aplicar: () => {
          const encontradas = registros
            .filter(
              (r) =>
                r.monto === monto &&
                r.telefonoCliente === telefono(cliente) &&
                r.telefonoComercio === telefono(comercioTel) &&
                (dia === "" || r.dia === dia)
            )
            .flatMap((r) => {
              const previa = bank.previa(r.invoice)
              if (previa === undefined) return []
              if (ref !== "" && previa.referencia !== ref) return []
              return [c2pRespuesta(previa, r.monto, r.invoice)]
            })
          return { status: 200, body: { transaction_list: encontradas } }
        },
        rechazar: (codigo) => ({ status: 400, body: errorList(codigo) })
      }
    }

    const t = obj(b.transaction_c2p)
    const trx = t.trx_type
    if (trx !== "compra" && trx !== "anulacion" && trx !== "vuelto")
      return error(400, CODIGOS.NO_SOPORTADO, "trx_type inválido: compra, anulacion o vuelto")
    const invoice = typeof t.invoice_number === "string" ? t.invoice_number : ""
    const monto = centavos(t.amount)
    if (invoice === "" || !Number.isSafeInteger(monto) || monto <= 0)
      return error(400, CODIGOS.MONTO_INVALIDO)
    const id = d(t.destination_id)
    const cliente = d(t.destination_mobile_number)
    const comercioTel = d(t.origin_mobile_number)
    if (id === null || cliente === null || comercioTel === null) return datosInvalidos
    const bancoCliente = String(t.destination_bank_id ?? "").padStart(4, "0")
    const clienteParte: Parte = {
      tipo: "telefono",
      valor: telefono(cliente),
      banco: bancoCliente,
      identificacion: id
    }
    const registrar = () => {
      if (!registros.some((r) => r.invoice === invoice))
        registros.push({
          invoice,
          monto,
          telefonoCliente: telefono(cliente),
          telefonoComercio: telefono(comercioTel),
          dia: diaCaracas(bank.now())
        })
    }
    const rechazar = (codigo: string): Salida => {
      registrar()
      const tipo = trx === "compra" ? "debito" : trx === "vuelto" ? "transferencia" : "reverso"
      return responder(bank.rechazar(invoice, tipo, monto, codigo as never), monto, invoice)
    }
    const cobrador = comercio(telefono(comercioTel), merchantId)
    if (trx === "compra") {
      const otp = d(t.twofactor_auth)
      return {
        _tag: "Orden",
        operacion: "compra",
        id: invoice,
        monto,
        aplicar: () => {
          registrar()
          const r = bank.debitar({
            operacion_id: invoice,
            monto,
            otp: otp ?? "",
            pagador: clienteParte,
            cobrador
          })
          return responder(r, monto, invoice)
        },
        rechazar
      }
    }
    if (trx === "vuelto")
      return {
        _tag: "Orden",
        operacion: "vuelto",
        id: invoice,
        monto,
        aplicar: () => {
          registrar()
          const r = bank.transferir({
            operacion_id: invoice,
            monto,
            ordenante: cobrador,
            beneficiario: clienteParte,
            via: "pago_movil"
          })
          return responder(r, monto, invoice)
        },
        rechazar
      }
    const referencia = typeof t.payment_reference === "string" ? t.payment_reference : ""
    return {
      _tag: "Orden",
      operacion: "anulacion",
      id: invoice,
      monto,
      aplicar: () => {
        registrar()
        const original = registros.find(
          (r) => bank.previa(r.invoice)?.referencia === referencia && referencia !== ""
        )
        const r = bank.devolver("reverso", {
          operacion_id: invoice,
          original_id: original?.invoice ?? "",
          monto
        })
        return responder(r, monto, invoice)
      },
      rechazar
    }
  }

  return { leer, reiniciar: () => void registros.splice(0) }
}
