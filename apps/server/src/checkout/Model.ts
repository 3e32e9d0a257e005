/** What the payment page's service shows and answers: its models, refusals and bank parties. */
import {
  CodeRefused,
  Direct,
  NotFound,
  PageConflict,
  PageForbidden,
  TooManyRequests,
  ValidationError
} from "@switch/api"
import {
  BankCalendar,
  Caps,
  type LinkMachine,
  type Money,
  type Ports,
  RateLimit,
  Resultado,
  type Validation
} from "@switch/core"
import type { Option } from "effect"
import type { MerchantRow } from "../platform/Merchants.js"
import type { Payer } from "./Input.js"
import type { CheckoutLink } from "./Settle.js"

/**
 * A refusal the page shows: an error class of `@switch/api` carrying its status and SPEC-shaped
 * fields (`Retry-After` follows `reintentar_en`), answered by CheckoutRoutes.ts.
 */
export type PageError =
  | NotFound
  | ValidationError
  | TooManyRequests
  | PageConflict
  | PageForbidden
  | CodeRefused
  | Direct.BankClosed
  | Direct.CapExceeded
  | Direct.RateUnavailable

/** How long a second submission waits for the first one's bank answer. */
export const BANK_WINDOW_MS = 35_000
/** A rejection is shown on reopening the page for this long. */
export const REJECTION_SHOWN_MS = 15 * 60_000

export interface LastAttempt {
  readonly id: string
  readonly estado: string
  readonly motivo_rechazo: Resultado.MotivoRechazo | null
  readonly created_at: Date
  readonly actualizado_at: Date
  readonly huella: string | null
}

/** The card pilot's offer on a link: the bill with the surcharge, or why card payment is not offered. */
export type CardOffer =
  | { readonly _tag: "Disponible"; readonly recargo: Money.Cents; readonly total: Money.Cents }
  | { readonly _tag: "NoDisponible" }

export interface PageModel {
  readonly link: CheckoutLink
  readonly merchant: MerchantRow
  readonly estado: LinkMachine.LinkState
  readonly last: Option.Option<LastAttempt>
  readonly at: Date
  readonly cierre: BankCalendar.BankCloseStatus
  /** The card pilot's offer on this link (TarjetaService.cardOffer); absent: not offered. */
  readonly tarjeta?: CardOffer
  /** A link paid by card: the surcharge the payer paid on top (cents), for the receipt. */
  readonly recargoPagado?: number
}

export interface Status {
  readonly estado: LinkMachine.LinkState
  readonly motivo?: string
  readonly desde?: number
}

export type PayReply =
  | { readonly estado: "pagado"; readonly referencia: string; readonly codigo_verificacion: string }
  | { readonly estado: "procesando" }
  | {
      readonly estado: "rechazado"
      readonly motivo_rechazo: Resultado.MotivoRechazo
      readonly motivo: string
    }
  | { readonly estado: LinkMachine.LinkState }

export const notFound = new NotFound()
export const unavailable = (estado: string) =>
  new PageConflict({ error: "link_no_disponible", estado, detail: "Este link ya no admite pagos." })
export const suspended = new PageForbidden({
  error: "comercio_suspendido",
  motivo: "Este comercio no puede recibir pagos en este momento."
})
/** A live payment to a merchant with no settlement account on record never reaches the bank. */
export const noAccount = new PageConflict({
  error: "comercio_sin_cuenta",
  motivo: "Este comercio no puede recibir pagos en este momento."
})

/** A dollar limit in force and no usable BCV rate: nothing is asked of the bank (platform/Limits.ts). */
export const rateUnavailable = new Direct.RateUnavailable({
  error: "tasa_no_disponible",
  motivo: Caps.MOTIVO_TASA_NO_DISPONIBLE
})
export const validation = (detail: Validation.FieldErrors) => new ValidationError({ detail })

/** The banks' daily close, in live mode: wait `reintentarEn` seconds. */
export const bankClosed = (reintentarEn: number) =>
  new Direct.BankClosed({
    error: "cierre_bancario",
    motivo: BankCalendar.MOTIVO_CIERRE,
    reintentar_en: reintentarEn
  })

/** A receive cap the charge would pass, shown to the payer without the merchant's figures. */
export const capExceeded = (refusal: Caps.CapRefusal) =>
  new Direct.CapExceeded(Caps.refusalBody(refusal, false))

/** The payer asked for too many codes: wait `seconds`. */
export const tooManyCodes = (seconds: number) =>
  new TooManyRequests({ detail: RateLimit.esperaMensaje(seconds), reintentar_en: seconds })

/** The bank refused to send a code. */
export const codeRefused = (motivo: Resultado.MotivoRechazo) =>
  new CodeRefused({
    error: "codigo_rechazado",
    motivo_rechazo: motivo,
    motivo: Resultado.motivoParaPagador[motivo]
  })

/** The merchant as the bank sees it; a test payment may go without a settlement account. */
export const party = (merchant: MerchantRow & { identificacion?: string }): Ports.Party =>
  merchant.cuenta_liquidacion ?? {
    tipo: "cuenta",
    valor: "",
    banco: "0000",
    identificacion: merchant.identificacion ?? "",
    nombre: merchant.nombre.slice(0, 40)
  }

export const payerParty = (payer: Payer, nombre: string | null): Ports.Party => ({
  tipo: "telefono",
  valor: payer.telefono,
  banco: payer.banco,
  identificacion: `${payer.tipo_doc}${payer.identificacion}`,
  tipo_doc: payer.tipo_doc,
  nombre: (nombre ?? "Pagador").slice(0, 40)
})
